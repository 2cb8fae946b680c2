"""Issue #27, the officer's desk finished (first slices): the par sheet reached from a paytable
page and beside each side wager of a report; a paytable that favours the player shown line by
line, apart and never as a house edge; paytables in the order a person reads their labels, the
soft-17 rule "Either" explained; a run picker offering each floor once."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import override_settings

from compliance.api.configuration import configuration_parse
from compliance.services import validation_run_create
from tests.browser.conftest import SCREENSHOTS, log_in, screenshot

SAMPLE = json.loads(
    (Path(settings.BASE_DIR) / "fixtures" / "configs" / "casino-house-rules-co.json").read_text()
)


def test_a_paytable_page_offers_its_par_sheet_at_the_deck_count_asked(page: Any) -> None:
    page.goto("/catalog/paytables/us-co/kings-bounty/kb03/?decks=8")
    par = page.locator("p.par-sheet")
    assert par.inner_text() == ("Par sheet at 8 decks, as a testing lab files it: PDF · CSV")
    for name, media in (("CSV", "text/csv"), ("PDF", "application/pdf")):
        href = par.get_by_role("link", name=name).get_attribute("href")
        assert "decks=8" in href
        response = page.request.get(href)
        assert response.status == 200 and response.headers["content-type"].startswith(media)
    sheet = page.request.get(par.get_by_role("link", name="CSV").get_attribute("href")).text()
    assert "KB03" in sheet


def test_a_paytable_that_favours_the_player_is_shown_line_by_line_apart(page: Any) -> None:
    """Royal Match 21 Pay Table 1 at 6 decks gives the player the edge (a published analysis
    agrees): the page says so, then shows that analysis's lines and charts under its own
    heading, the player's edge, never a house edge."""
    page.goto("/catalog/paytables/us-co/royal-match-21/pay-table-1/?decks=6")
    assert "gives the player an edge" in page.locator("p.notice.error").first.inner_text()
    heading = page.get_by_role("heading", name="The analyses that favour the player, line by line")
    assert heading.is_visible()
    section = page.locator("section.analysis.favours-player").first
    figures = section.locator("dl.facts").inner_text()
    assert figures.startswith("Player's edge") and "House edge" not in figures.split("\n")[0]
    assert section.locator("table.data tbody tr").count() >= 2
    assert section.get_by_role("img").count() == 2
    assert page.locator("section.analysis:not(.favours-player)").count() == 0
    assert page.locator("p.par-sheet").count() == 0  # no par sheet of a house edge it lacks
    section.scroll_into_view_if_needed()
    screenshot(page, "paytable-player-edge", height=1100)


def test_paytables_are_listed_in_label_order_and_either_is_explained(page: Any) -> None:
    page.goto("/catalog/us-co/royal-match-21/")
    table = page.locator("table.data", has=page.get_by_role("columnheader", name="Soft 17"))
    labels = table.locator("tbody tr td:first-child a").all_inner_texts()
    assert labels == [f"Pay table {n}" for n in (1, 2, 3, 4, 5, 8, 9, 11)]
    cell = table.locator("tbody tr").first.locator("td").nth(2).inner_text()
    assert cell == "Either (approved whether the dealer hits or stands on soft 17)"
    screenshot(page, "catalog-wager-paytables", height=900)


def test_a_run_picker_offers_each_floor_once_with_what_tells_it_apart(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Vera files the same floor three times and another once: the Rounds picker offers two
    runs, each the floor's latest, named by licensee, tables, date and status."""
    with django_db_blocker.unblock():
        for licensee in ("Picker Casino", "Picker Casino", "Picker Casino", "Other Picker"):
            latest = validation_run_create(
                configuration=configuration_parse(dict(SAMPLE, licensee=licensee)),
                user=browser_vendor,
            )
    log_in(page, browser_vendor)
    page.get_by_role("link", name="Rounds").click()
    options = page.locator("select[name=play-configuration] option").all_inner_texts()
    picker = [o for o in options if o.startswith("Picker Casino")]
    assert len(picker) == 1, options
    assert re.fullmatch(
        r"Picker Casino · US-CO · 1 table \(.+\) · as of \d{4}-\d\d-\d\d · submitted · filed "
        r"\d{4}-\d\d-\d\d \d\d:\d\d",
        picker[0],
    ), picker[0]
    assert len([o for o in options if o.startswith("Other Picker")]) == 1
    assert latest.pk  # the last filed of Vera's
    screenshot(page, "rounds-picker", height=700)


def test_a_side_wager_s_paytable_list_follows_the_wager_chosen(
    page: Any, browser_vendor: User
) -> None:
    """Issue #27: choosing a side wager narrows its paytable list to that wager's, at once (no
    reload); choosing another lets go of a paytable of the first."""
    log_in(page, browser_vendor)
    page.goto("/configurations/?sample=casino-house-rules-co")
    wager = page.locator('[name="tables-0-sides-0-wager"]')
    paytable = page.locator('[name="tables-0-sides-0-paytable"]')
    shown = paytable.locator("optgroup:not([hidden])")
    wager.select_option("kings-bounty")
    assert shown.count() == 1
    assert shown.get_attribute("label") == "King's Bounty Dealer Envy (kings-bounty)"
    page.locator('[name="tables-0-sides-0-lines"]').fill("")
    paytable.select_option("us-co/kings-bounty/kb03")
    wager.select_option("royal-match-21")
    assert paytable.input_value() == ""  # KB03 is not Royal Match 21's
    assert shown.count() == 1 and shown.get_attribute("label").endswith("(royal-match-21)")
    labels = shown.locator("option").all_inner_texts()
    assert labels[:3] == [
        "Pay table 1 (us-co/royal-match-21/pay-table-1)",
        "Pay table 2 (us-co/royal-match-21/pay-table-2)",
        "Pay table 3 (us-co/royal-match-21/pay-table-3)",
    ]
    paytable.select_option("us-co/royal-match-21/pay-table-2")
    side = page.locator("fieldset", has=paytable).last
    side.screenshot(path=str(SCREENSHOTS / "configuration-side-wager-paytables.png"))


def test_a_long_simulation_returns_at_once_and_its_progress_is_seen(
    page: Any, browser_vendor: User
) -> None:
    """Issue #27: with no broker and the worker thread on (the embedded default), starting a
    simulation lands on its page at once; the progress bar is seen below its end, then the
    result."""
    log_in(page, browser_vendor)
    page.get_by_role("link", name="Simulations").click()
    page.get_by_label("Configuration").select_option("sample:casino-house-rules-co")
    page.get_by_label("Rounds").fill("6000000")
    page.get_by_label("Seed").fill("12")
    with override_settings(BACKGROUND_TASKS=True):  # the live server runs in this process
        page.get_by_role("button", name="Start the simulation").click()
        page.wait_for_url("**/simulations/*/")
        bar = page.locator("progress#progress-bar")
        assert int(bar.get_attribute("value")) < int(bar.get_attribute("max"))
        assert page.locator("#simulation-progress").get_attribute("hx-get")  # polling
        screenshot(page, "simulation-running", height=700)
        page.locator("dl.result").wait_for(timeout=300_000)
    assert bar.get_attribute("value") == bar.get_attribute("max")
    assert page.locator("#simulation-progress").get_attribute("hx-get") is None


def test_the_report_page_gives_the_submission_packet(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Issue #27: from a run's report, Vera downloads its submission packet as a PDF and a ZIP."""
    with django_db_blocker.unblock():
        run = validation_run_create(
            configuration=configuration_parse(dict(SAMPLE, licensee="Packet Casino")),
            user=browser_vendor,
        )
    log_in(page, browser_vendor)
    page.goto(f"/configurations/runs/{run.pk}/")
    offer = page.locator("p.packet")
    assert offer.inner_text().startswith("Submission packet, for the regulator and a testing lab")
    for name, suffix, magic in (("PDF", ".pdf", b"%PDF"), ("ZIP (JSON and CSV)", ".zip", b"PK")):
        with page.expect_download() as download:
            offer.get_by_role("link", name=name).click()
        assert download.value.suggested_filename == f"packet-{run.pk}{suffix}"
        assert Path(download.value.path()).read_bytes()[:4].startswith(magic)


def _choose_massachusetts_and(script: str) -> str:
    """A script that chooses Massachusetts (htmx reloads the form with its catalog) and then, at
    once, before the reload is back, does `script`."""
    return (
        """() => {
            const form = document.querySelector("form.configuration");
            form.elements["jurisdiction"].value = "US-MA";
            form.elements["jurisdiction"].dispatchEvent(new Event("change", {bubbles: true}));
        """
        + script
        + "}"
    )


MA_CATALOG = (
    "document.querySelector('[name=\"tables-0-sides-0-paytable\"]').innerHTML.includes('us-ma/')"
)


def test_what_is_typed_while_the_form_reloads_is_kept(page: Any, browser_vendor: User) -> None:
    """Issue #27: a value typed while the form reloads after a list change (the same moment, in
    one script, so the race is certain) is in the reloaded form, not lost with the old one."""
    log_in(page, browser_vendor)
    page.goto("/configurations/?sample=casino-house-rules-co")
    page.evaluate(
        _choose_massachusetts_and(
            'form.elements["licensee"].value = "Typed while it reloads";'
            'form.elements["tables-0-name"].value = "BJ typed too";'
        )
    )
    page.wait_for_function(MA_CATALOG)
    assert page.locator('[name="licensee"]').input_value() == "Typed while it reloads"
    assert page.locator('[name="tables-0-name"]').input_value() == "BJ typed too"


def test_a_click_on_validate_while_the_form_reloads_is_not_lost(
    page: Any, browser_vendor: User
) -> None:
    """Issue #27: the reload after a list change comes back while the officer's click on
    Validate is under way (the button pressed, not yet released): the click still validates."""
    log_in(page, browser_vendor)
    page.goto("/configurations/?sample=casino-house-rules-co")
    validate = page.locator('form.configuration button[value="validate"]:not(.default-submit)')
    validate.scroll_into_view_if_needed()
    box = validate.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    with page.expect_response(
        lambda r: r.request.method == "POST" and "hx-request" in r.request.headers
    ):
        page.evaluate(_choose_massachusetts_and(""))
    page.wait_for_timeout(300)  # htmx has the new form, and holds it while the button is down
    assert page.locator(".errorlist").count() == 0  # nothing validated yet
    page.mouse.up()
    # validated: the run's report, or (Colorado's side wagers are not Massachusetts's) the form
    # again with what the validation found
    page.wait_for_function(
        "location.pathname.includes('/configurations/runs/') || "
        "document.querySelector('.errorlist')"
    )
    assert page.locator('[name="jurisdiction"]').input_value() == "US-MA" or "/runs/" in page.url
