"""The desk's watch (compliance.watch): /watch/, your watches, a new one (a webhook's secret shown
once) and each one's deliveries; /impact/changes/, the changes of the rules recorded, and one
change's page, the floors it touches that you may see (the page the watch's e-mails link to)."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance.api.watch import change_shown
from compliance.forms import WatchForm
from compliance.models import RecordedChange, Subscription
from compliance.watch import subscription_create
from pitboss.errors import DomainError

from .impact import findings_linked


@login_required
def watch(request: HttpRequest) -> HttpResponse:
    """Your watches with their latest deliveries, and the form for a new one. A webhook's secret
    is shown on the page that makes it, once."""
    form = WatchForm(request.POST or None)
    made, status = None, 200
    if request.method == "POST":
        if form.is_valid():
            try:
                made = subscription_create(user=request.user, **form.cleaned_data)
            except DomainError as exc:
                for field, _problem in (exc.fields or {}).items():
                    form.add_error(field if field in form.fields else None, exc.message)
                if not exc.fields:
                    form.add_error(None, exc.message)
        if made is None:
            status = 400
        else:
            form = WatchForm()
    watches = Subscription.objects.filter(user=cast(User, request.user)).prefetch_related(
        "deliveries"
    )
    context = {"form": form, "made": made, "watches": watches}
    return render(request, "compliance/watch.html", context, status=status)


@login_required
@require_POST
def watch_end(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Subscription, pk=pk, user=cast(User, request.user))
    found.delete()
    messages.success(request, f"You no longer watch {found.jurisdiction} by {found.channel}.")
    return redirect("compliance:watch")


@login_required
def impact_changes(request: HttpRequest) -> HttpResponse:
    """The changes of the rules recorded where someone watches, newest first."""
    changes = RecordedChange.objects.all()[:100]
    return render(request, "compliance/impact_changes.html", {"changes": changes})


@login_required
def impact_change(request: HttpRequest, pk: Any) -> HttpResponse:
    """One recorded change: what it is, what could not be judged, and the floors on file it
    touches that you may see, table by table (each finding's citations linked on the date of
    the part that found it)."""
    change = get_object_or_404(RecordedChange, pk=pk)
    shown = change_shown(change, request.user)
    findings_linked(shown["affected"], lambda table: _part_date(table.get("change", {})))
    return render(request, "compliance/impact_change.html", {"shown": shown, "change": change})


def _part_date(part: dict[str, Any]) -> dt.date:
    if part.get("kind") == "amended":
        return dt.date.fromisoformat(part["on"])
    if part.get("as_of"):
        return dt.date.fromisoformat(part["as_of"])
    return timezone.localdate()
