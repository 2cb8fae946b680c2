"""Issue #27: the desk's main pages hold no serious or critical accessibility violation, as
axe-core (the engine of the axe tools, bundled by axe-playwright-python) finds them in the real
browser: home, provision, search, diff, catalog, paytable, configuration form, report, signs,
rounds and simulations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.contrib.auth.models import User

from compliance.api.configuration import configuration_parse
from compliance.services import sign_set_create, validation_run_create
from tests.browser.conftest import log_in

SAMPLE = json.loads(
    (Path(settings.BASE_DIR) / "fixtures" / "configs" / "casino-house-rules-co.json").read_text()
)
PUBLIC = {
    "home": "/",
    "provision": "/us-co/rule-8/30-899.23@2017-01-01",
    "search": "/search/?q=surrender",
    "diff": "/diff/provision/?jurisdiction=US-CO&citation=47.1-834.23&left=proposed"
    "&right=2024-06-01",
    "catalog": "/catalog/?jurisdiction=US-CO",
    "paytable": "/catalog/paytables/us-co/kings-bounty/kb03/",
}
GRAVE = {"serious", "critical"}


def _grave(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page, each with where."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:5])
        for v in found
        if v["impact"] in GRAVE
    ]


def test_the_public_pages_hold_no_serious_violation(page: Any) -> None:
    problems = {}
    for name, url in PUBLIC.items():
        page.goto(url)
        if grave := _grave(page):
            problems[name] = grave
    assert problems == {}


def test_the_desk_s_pages_hold_no_serious_violation(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    with django_db_blocker.unblock():
        config = configuration_parse(dict(SAMPLE, licensee="Accessible Casino"))
        run = validation_run_create(configuration=config, user=browser_vendor)
        signs = sign_set_create(
            configuration=config, draft=True, wall_signs=True, user=browser_vendor, run=run
        )
    log_in(page, browser_vendor)
    pages = {
        "configuration form": "/configurations/?sample=casino-house-rules-co",
        "report": f"/configurations/runs/{run.pk}/",
        "signs": f"/configurations/signs/{signs.pk}/?format=html&size=letter",
        "rounds": "/rounds/",
        "simulations": "/simulations/",
        "runs": "/configurations/runs/",
        "who is affected": "/impact/?rules=US-CO/rule-8&start=2016-01-01&end=2022-01-01",
        "watch": "/watch/",
    }
    problems = {}
    for name, url in pages.items():
        page.goto(url)
        if grave := _grave(page):
            problems[name] = grave
    assert problems == {}


def _tab_through(page: Any, form: str, last: str, most: int = 400) -> set[str]:
    """Press Tab from the top of the page until `last` (a selector) has the focus; the names of
    the fields of `form` the focus went through."""
    page.locator("body").focus()
    visited: set[str] = set()
    for _ in range(most):
        page.keyboard.press("Tab")
        name = page.evaluate(
            f"document.activeElement.closest({form!r}) ? document.activeElement.name : null"
        )
        if name:
            visited.add(name)
        if page.evaluate(f"document.activeElement.matches({last!r})"):
            return visited
    raise AssertionError(f"{last} never had the focus; went through {sorted(visited)}")


def _fields(page: Any, form: str) -> set[str]:
    """The named fields of `form` a person can use: not hidden, not taken out of the tab order."""
    return set(
        page.evaluate(
            f"""() => Array.from(document.querySelectorAll({form!r} + " [name]"))
                .filter(e => e.type !== "hidden" && e.tabIndex >= 0 && !e.disabled
                             && e.getClientRects().length)
                .map(e => e.name)"""
        )
    )


def test_the_configuration_form_is_used_by_keyboard_alone(page: Any, browser_vendor: User) -> None:
    """Issue #27: every field of the configuration form is reached with Tab, in order, and
    Enter on Validate validates."""
    log_in(page, browser_vendor)
    page.goto("/configurations/?sample=casino-house-rules-co")
    validate = 'form.configuration button[value="validate"]:not(.default-submit)'
    visited = _tab_through(page, "form.configuration", validate)
    assert _fields(page, "form.configuration") - visited <= {"action"}  # the buttons' name
    page.keyboard.press("Enter")
    page.wait_for_function(
        "location.pathname.includes('/configurations/runs/') || "
        "document.querySelector('.errorlist')"
    )


def test_the_rounds_and_search_forms_are_used_by_keyboard_alone(
    page: Any, browser_vendor: User
) -> None:
    log_in(page, browser_vendor)
    page.goto("/rounds/")
    play = "form:has([name=play-configuration])"
    visited = _tab_through(page, play, f"{play} button[type=submit]")
    assert _fields(page, play) - visited <= {"action"}
    page.goto("/search/")
    _tab_through(page, "form[role=search]", "form[role=search] [name=q]")
    page.keyboard.type("surrender")
    page.keyboard.press("Enter")
    page.wait_for_url("**q=surrender**")
    visited = _tab_through(page, "form[role=search]", "form[role=search] button")
    assert _fields(page, "form[role=search]") <= visited
