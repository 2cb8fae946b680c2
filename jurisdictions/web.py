"""Pieces every web page shares: the navigation, the as-of date of a page, the home page.

Each app keeps its own pages in `<app>/views.py` and `<app>/urls.py`; pitboss/urls.py includes
them. A page's date lives in its URL (`?as_of=YYYY-MM-DD`, or `@YYYY-MM-DD` in a provision's
address), so a link or a bookmark shows the same thing tomorrow.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from jurisdictions.selectors import jurisdiction_list
from jurisdictions.services import COMPLIANCE_OFFICER_GROUP, READER_GROUP, VENDOR_GROUP
from pitboss.errors import error_body
from pitboss.kbcache import cached_read

# The main navigation: (label, URL name). Each app's pages live in the app's namespace
# (`<app>/urls.py` sets `app_name`); a section appears once its app defines the URL name.
NAVIGATION = [
    ("Rules", "home"),
    ("Search", "regs:search"),
    ("What changed", "regs:diff"),
    ("Catalog", "variants:catalog"),
    ("Configurations", "compliance:configurations"),
    ("Rounds", "compliance:rounds"),
    ("Simulations", "compliance:simulations"),
    ("Watch", "compliance:watch"),
]


def navigation(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the navigation with the current section marked, and the user's role."""
    items = []
    for label, name in NAVIGATION:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        current = request.path == url if url == "/" else request.path.startswith(url)
        items.append({"label": label, "url": url, "current": current})
    return {"navigation": items, "user_role": user_role(request.user)}


def user_role(user: Any) -> str:
    """The user's role (jurisdictions.services' groups), as the header shows it: administrator,
    compliance officer, vendor, reader, or '' for a visitor."""
    if not user.is_authenticated:
        return ""
    if user.is_superuser:
        return "administrator"
    groups = {group.name for group in user.groups.all()}
    for role in (COMPLIANCE_OFFICER_GROUP, VENDOR_GROUP):
        if role in groups:
            return role
    return READER_GROUP


def page_as_of(request: HttpRequest, default: dt.date | None = None) -> tuple[dt.date, str]:
    """The page's as-of date from `?as_of=`, and a message if the value was not a date.

    A malformed date falls back to `default` (today) with a message the page shows, rather than an
    error page: the reader keeps reading.
    """
    today = default or timezone.localdate()
    raw = request.GET.get("as_of", "").strip()
    if not raw:
        return today, ""
    try:
        return dt.date.fromisoformat(raw), ""
    except ValueError:
        return today, f"“{raw}” is not a date (YYYY-MM-DD); showing {today.isoformat()}."


@cached_read
def home(request: HttpRequest) -> HttpResponse:
    """The jurisdictions and their instruments."""
    return render(request, "home.html", {"jurisdictions": jurisdiction_list()})


# Addresses shared by every app's pages. The regs pages serve the citation addresses, the
# variants pages the catalog ones; a page that links elsewhere builds the link here.


def citation_url(jurisdiction: str, citation: str, as_of: dt.date | None = None) -> str:
    """A citation as of a date, e.g. /us-co/cite/30-899.23(4)@2017-01-01.

    The regs pages resolve it (old and reused labels too) and redirect to the provision's own
    address, /<jurisdiction>/<instrument>/<label>@<date>, which regs.views builds.
    """
    address = f"/{jurisdiction.lower()}/cite/{citation}"
    return f"{address}@{as_of.isoformat()}" if as_of else address


def wager_url(jurisdiction: str, slug: str) -> str:
    """A wager's catalog page, e.g. /catalog/us-co/kings-bounty/."""
    return f"/catalog/{jurisdiction.lower()}/{slug}/"


def paytable_url(paytable_id: str) -> str:
    """A paytable's catalog page by catalog id: /catalog/paytables/us-co/kings-bounty/kb03/."""
    return f"/catalog/paytables/{paytable_id}/"


def login_locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a login refused by the lockout (settings.AXES_LOCKOUT_CALLABLE):
    a 429 saying why and for how long, the login page again (JSON `locked_out` under /api/),
    with Retry-After."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = (
        f"Too many failed logins for this username or from this address: logins are refused "
        f"for {minutes} minutes. An administrator can lift the lock sooner."
    )
    if request.path.startswith("/api/"):
        locked: HttpResponse = JsonResponse(error_body("locked_out", message), status=429)
    else:
        # Unbound: a bound form would check the password again (and count another failure).
        form = AuthenticationForm(request, initial={"username": request.POST.get("username")})
        context = {"form": form, "locked_out": message, "next": request.POST.get("next", "")}
        locked = render(request, "registration/login.html", context, status=429)
    locked["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return locked
