"""The desk's journeys in a browser: a paytable's analysis in the catalog; the sample house-rules
configuration built in the form, validated, and a cited provision opened from a finding; a
simulation watched to its result; a vendor kept from another vendor's run."""

from __future__ import annotations

import datetime as dt
import json
import re
import uuid
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import override_settings

from compliance.api.configuration import configuration_parse
from compliance.models import SimulationJob, Subscription
from compliance.services import validation_run_create
from compliance.simulations import simulation_chunk_run
from jurisdictions.services import api_user_create
from jurisdictions.web import citation_url
from tests.browser.conftest import PASSWORD, log_in, screenshot
from tests.compliance.test_impact import with_raise_the_roof

SAMPLE = json.loads(
    (Path(settings.BASE_DIR) / "fixtures" / "configs" / "casino-house-rules-co.json").read_text()
)


def test_a_paytable_shows_its_exact_analysis_as_a_chart(page: Any) -> None:
    page.goto("/catalog/?jurisdiction=US-CO&as_of=2024-06-01")
    page.get_by_role("link", name="King's Bounty Dealer Envy").click()
    assert page.get_by_role("heading", name="Approved in").is_visible()
    page.get_by_role("link", name="KB03").click()
    page.locator("#paytable-decks").select_option("8")
    page.get_by_role("button", name="Analyse").click()
    page.wait_for_url("**decks=8**")
    assert page.get_by_role("heading", name="Column “Pays”, 8 decks").is_visible()
    assert page.locator("strong.edge").inner_text().startswith("0.3")
    chart = page.get_by_role("img", name="Share of the return of each line of KB03, Pays, 8 decks")
    assert chart.locator("rect.bar").count() == 7
    screenshot(page, "catalog-paytable")


def _fill_sample(page: Any, licensee: str) -> None:
    """Type the sample house rules (fixtures/configs/casino-house-rules-co.json) into the form."""
    table = SAMPLE["tables"][0]
    assert page.get_by_label("Jurisdiction").input_value() == "US-CO"  # the form's default
    page.get_by_label("As of").fill(SAMPLE["as_of"])
    page.get_by_label("Licensee").fill(licensee)
    t = "tables-0-"
    page.locator(f'[name="{t}name"]').fill(table["name"])
    for name in ("game", "dealing", "dealer_soft_17", "hole_card", "surrender"):
        page.locator(f'[name="{t}{name}"]').select_option(table[name])
    page.locator(f'[name="{t}blackjack_pays"]').fill(table["blackjack_pays"])
    page.locator(f'[name="{t}insurance_pays"]').fill(table["insurance_pays"])
    page.locator(f'[name="{t}even_money"]').select_option("true")
    page.locator(f'[name="{t}double_on"]').select_option("any_two")
    page.locator(f'[name="{t}double_after_split"]').select_option("true")
    page.locator(f'[name="{t}split_max_hands"]').fill("4")
    page.locator(f'[name="{t}split_resplit_aces"]').select_option("false")
    page.locator(f'[name="{t}split_aces_one_card"]').select_option("true")
    for n, side in enumerate(table["side_wagers"]):
        s = f"{t}sides-{n}-"
        page.locator(f'[name="{s}wager"]').select_option(side["wager"])
        lines = "\n".join(f"{line['outcome']} = {line['pays']}" for line in side["paytable"])
        page.locator(f'[name="{s}lines"]').fill(lines)


def test_the_sample_house_rules_built_in_the_form_validate_and_cite_their_rules(
    page: Any, browser_vendor: User
) -> None:
    log_in(page, browser_vendor)
    page.get_by_role("link", name="Configurations").click()
    assert page.get_by_role("heading", name="Build a table configuration").is_visible()
    licensee = f"Browser casino {uuid.uuid4().hex[:8]}"
    _fill_sample(page, licensee)
    screenshot(page, "configuration-form")
    page.get_by_role("button", name="Validate", exact=True).last.click()
    page.wait_for_url("**/configurations/runs/**")
    assert page.get_by_role("heading", level=1).inner_text() == "Validation report: not compliant"
    findings = page.locator("table.findings tbody tr")
    # as the API and the validate command find: the rules' 6 and the 2 facts its signs need
    # (table and 21+3 Xtreme limits: 30-803(3)(c), 30-2107(3)) that a draft of its signs lists
    assert findings.count() == 8
    first = findings.first
    assert "paytable-not-approved" in first.inner_text()
    assert first.locator(".state").inner_text() == "error"
    # Beside the findings, the table's exact base-game house edge, with the decks it assumed.
    edge = page.locator("table.base-games tbody tr").first
    assert re.search(r"\d\.\d{4} %", edge.inner_text()), edge.inner_text()
    assert "assumed: decks: 6" in edge.inner_text()
    screenshot(page, "validation-report")

    # The downloaded configuration is the sample, as typed.
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the configuration (JSON)").click()
    built = json.loads(Path(download.value.path()).read_text())
    assert built["tables"][0]["side_wagers"] == SAMPLE["tables"][0]["side_wagers"]
    assert built["licensee"] == licensee

    # The finding cites King's Bounty's paytable rule on the configuration's date; following it
    # opens the provision as of that date at the cited unit.
    link = first.get_by_role("link", name="US-CO 30-899.20(7)")
    expected = citation_url("US-CO", "30-899.20(7)", dt.date(2024, 6, 1))
    assert link.get_attribute("href") == expected
    report = page.url
    link.click()
    page.wait_for_url(re.compile(r"/us-co/rule-8/30-899\.20@2024-06-01#u-\(7\)$"))
    assert "King" in page.get_by_role("heading", level=1).inner_text()
    assert page.locator("[id='u-(7)']").is_visible()

    # The run is in the vendor's history under the licensee.
    page.goto(report)
    page.get_by_role("link", name="Runs").click()
    assert page.get_by_role("heading", name=licensee).is_visible()


def test_a_vendor_does_not_see_another_vendors_run(
    page: Any, browser_vendor: User, browser_officer: User, django_db_blocker: Any
) -> None:
    licensee = f"Another vendor's casino {uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        other, _ = api_user_create(username=f"wes-{uuid.uuid4().hex[:8]}")
        theirs = validation_run_create(
            configuration=configuration_parse(dict(SAMPLE, licensee=licensee)), user=other
        )
    log_in(page, browser_vendor)
    page.goto(f"/configurations/runs/{theirs.pk}/")
    assert page.get_by_role("heading", level=1).inner_text() == "Not found"
    page.goto("/configurations/runs/")
    assert licensee not in page.content()
    page.get_by_role("button", name="Log out").click()
    log_in(page, browser_officer)
    page.goto(f"/configurations/runs/{theirs.pk}/")
    assert "Validation report" in page.get_by_role("heading", level=1).inner_text()


def test_a_simulation_is_watched_to_its_result(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    log_in(page, browser_vendor)
    page.get_by_role("link", name="Simulations").click()
    page.get_by_label("Configuration").select_option("sample:casino-house-rules-co")
    page.get_by_label("Rounds").fill("2000000")
    page.get_by_label("Seed").fill("11")
    page.get_by_role("button", name="Start the simulation").click()
    # No broker here: the chunks ran in-process, so the job page opens on the finished result.
    page.wait_for_url("**/simulations/*/", timeout=180_000)
    bar = page.locator("progress#progress-bar")
    assert bar.get_attribute("value") == bar.get_attribute("max") == "2"
    assert "±" in page.locator("dl.result").inner_text()
    job_id = page.url.rstrip("/").rsplit("/", 1)[1]

    # A job whose chunks a worker has yet to run: the page polls its progress every second
    # while the chunks run here, as a worker would run them.
    with django_db_blocker.unblock():
        SimulationJob.objects.filter(pk=job_id).update(
            status="queued", chunks_done=0, sums={}, result=None, finished_at=None
        )
    page.reload()
    assert bar.get_attribute("value") == "0"
    assert page.locator("dl.result").count() == 0
    for index, shown in ((0, "1 of 2 chunks done (50%)"), (1, "2 of 2 chunks done (100%)")):
        with django_db_blocker.unblock():
            simulation_chunk_run(job_id=job_id, index=index)
        page.get_by_text(shown).wait_for(timeout=10_000)
    assert page.locator("strong.edge").is_visible()
    assert page.locator("#simulation-progress").get_attribute("hx-get") is None  # polling stopped
    screenshot(page, "simulation")


def test_choosing_another_jurisdiction_offers_its_catalog_and_keeps_the_form(
    page: Any, browser_vendor: User
) -> None:
    log_in(page, browser_vendor)
    page.goto("/configurations/")
    page.locator('[name="tables-0-name"]').fill("BJ-kept")
    paytables = page.locator('[name="tables-0-sides-0-paytable"]')
    assert "us-co/kings-bounty/kb03" in paytables.inner_html()
    page.get_by_label("Jurisdiction").select_option("US-MA")  # htmx reloads the form
    page.wait_for_function(
        "document.querySelector('[name=\"tables-0-sides-0-paytable\"]').innerHTML"
        ".includes('us-ma/kings-bounty/')"
    )
    assert "us-co/kings-bounty/kb03" not in paytables.inner_html()
    assert page.locator('[name="tables-0-name"]').input_value() == "BJ-kept"
    assert page.locator(".errorlist").count() == 0


def test_a_base_game_in_the_players_favour_is_flagged_in_the_report(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Face Up Blackjack (30-899.02) and Double Up Blackjack's Version 2 (30-899.10) with the
    dealer standing on soft 17 give the player the edge: the report's base-game table says so in
    words beside the negative figure, names the version, and fits the page however long the
    options assumed."""
    from tests.compliance.test_validation_house_edge import _floor, _table

    face_up = _table(name="FU-1", game="face-up-blackjack", hole_card="face_up", surrender="none")
    del face_up["blackjack_pays"]
    double_up = _table(name="DU-2", game="double-up-blackjack", game_version=2, surrender="none")
    for option in ("split", "double", "insurance_pays"):  # left out: assumed, in words
        del double_up[option]
    with django_db_blocker.unblock():
        run = validation_run_create(
            configuration=configuration_parse(_floor(face_up, _table(), double_up)),
            user=browser_vendor,
        )
    log_in(page, browser_vendor)
    page.goto(f"/configurations/runs/{run.pk}/")
    row = page.locator("tr.base-game", has_text="FU-1")
    assert row.locator(".player-edge").inner_text() == "the player has the edge"
    assert "give the player 0.2631 % of each wager" in row.inner_text()
    other = page.locator("tr.base-game", has_text="BJ-01")
    assert other.locator(".player-edge").count() == 0
    row = page.locator("tr.base-game", has_text="DU-2")
    assert "Version 2" in row.locator("td").first.inner_text()
    assert "give the player 0.1138 % of each wager" in row.inner_text()
    assert "assumed: split.max_hands: 4" in row.inner_text()
    assert page.evaluate(  # the notes wrap: no sideways scrolling
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.locator("#base-game-heading").scroll_into_view_if_needed()
    page.locator("section[aria-labelledby=base-game-heading]").screenshot(
        path=str(Path(settings.BASE_DIR) / "docs" / "screenshots" / "report-player-edge.png")
    )


def test_a_streak_paytable_is_simulated_from_its_catalog_page(
    page: Any, browser_vendor: User
) -> None:
    """STREAK has no exact analysis (30-899.07: won over consecutive rounds): its catalog page
    says why and leads to the desk, where a simulation of it gives each spot's house edge with
    its standard error."""
    page.goto("/catalog/paytables/us-co/streak/standard-schedule/?decks=2")
    assert "No exact method gives its return" in page.get_by_role("alert").inner_text()
    screenshot(page, "catalog-streak", height=1100)
    page.get_by_role("link", name="Simulate this paytable").click()
    # the desk asks for a login, then opens the form on this paytable
    page.get_by_label("Username").fill(browser_vendor.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/simulations/paytables/?paytable=*")
    assert page.get_by_label("Paytable").input_value() == "us-co/streak/standard-schedule"
    page.get_by_label("Decks").fill("2")
    page.get_by_label("Rounds").fill("2000000")
    page.get_by_label("Seed").fill("4")
    page.get_by_role("button", name="Start the simulation").click()
    # No broker here: the chunks ran in-process, so the job page opens on the finished result.
    page.wait_for_url("**/simulations/paytables/*/", timeout=180_000)
    assert page.locator("progress#progress-bar").get_attribute("value") == "2"
    rows = page.locator("table.result tbody tr")
    assert rows.count() == 4
    assert "37 to 1" in rows.nth(3).inner_text() and "±" in rows.nth(3).inner_text()
    assert "a preview, not a figure to file" in page.content()
    assert page.locator("#simulation-progress").get_attribute("hx-get") is None
    screenshot(page, "paytable-simulation")


def test_an_officer_approves_a_run_and_its_vendor_sees_the_decision(
    page: Any, browser_vendor: User, browser_officer: User, django_db_blocker: Any
) -> None:
    """Issue #26: Odette, an officer of Colorado, approves Vera's compliant run in the report,
    with a note; Vera then reads the decision on her report and in her runs."""
    floor = json.loads(
        (Path(__file__).parents[1] / "compliance" / "data" / "signage-floor-co.json").read_text()
    )
    licensee = f"Approved casino {uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        run = validation_run_create(
            configuration=configuration_parse(dict(floor, licensee=licensee)), user=browser_vendor
        )
    assert run.compliant
    log_in(page, browser_officer)
    page.goto(f"/configurations/runs/{run.pk}/")
    assert page.locator("#run-status").inner_text().startswith("Submitted")
    page.get_by_role("radio", name="Approve", exact=True).check()
    page.keyboard.press("Tab")
    page.get_by_label("Note to the vendor").fill("Checked against Rule 8; signs may be printed.")
    screenshot(page, "run-decision", height=1000)
    page.get_by_role("button", name="Record the decision").click()
    page.wait_for_load_state()
    today = dt.date.today().isoformat()
    status = page.locator("#run-status").inner_text()
    assert status.startswith(f"Approved on {today} by odette"), status
    assert page.get_by_role("button", name="Record the decision").count() == 0  # decided once
    page.get_by_role("button", name="Log out").click()

    log_in(page, browser_vendor)
    page.goto(f"/configurations/runs/{run.pk}/")
    assert (
        "Checked against Rule 8; signs may be printed." in page.locator("#run-status").inner_text()
    )
    page.goto("/configurations/runs/")
    row = page.locator("section", has=page.get_by_role("heading", name=licensee))
    assert row.locator(".state-approved").inner_text() == "Approved"


def test_who_is_affected_is_reached_from_an_instruments_changes(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Issue #26: from Rule 8's changes between 2016 and 2022, Vera asks who is affected and
    reads, for her floor filed in late 2016, the finding that clears and the notices to reprint."""
    floor = json.loads(
        (Path(__file__).parents[1] / "compliance" / "data" / "signage-floor-co.json").read_text()
    )
    licensee = f"Impact casino {uuid.uuid4().hex[:8]}"
    floor = with_raise_the_roof(floor)
    with django_db_blocker.unblock():
        validation_run_create(
            configuration=configuration_parse(dict(floor, licensee=licensee, as_of="2016-11-01")),
            user=browser_vendor,
        )
    log_in(page, browser_vendor)
    page.goto("/diff/instrument/?instrument=US-CO/rule-8&start=2016-01-01&end=2022-01-01")
    page.get_by_role("link", name="Who is affected").click()
    page.wait_for_url("**/impact/?**")
    assert page.get_by_label("From").input_value() == "2016-01-01"
    section = page.locator("section", has=page.get_by_role("heading", name=licensee))
    assert "Raise The Roof is not in force" in section.inner_text()
    assert section.get_by_role("heading", name="Sign to reprint").count() >= 2
    section.scroll_into_view_if_needed()
    screenshot(page, "impact", height=1400)


def test_who_is_affected_over_many_floors_is_a_job_whose_page_shows_progress_then_report(
    page: Any, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Issue #26: over more floors than a page judges at once, Vera's question becomes a job;
    she lands on its page, whose progress bar reaches all her floors, then reads the report."""
    floor = json.loads(
        (Path(__file__).parents[1] / "compliance" / "data" / "signage-floor-co.json").read_text()
    )
    licensee = f"Job casino {uuid.uuid4().hex[:8]}"
    with django_db_blocker.unblock():
        validation_run_create(
            configuration=configuration_parse(
                dict(with_raise_the_roof(floor), licensee=licensee, as_of="2016-11-01")
            ),
            user=browser_vendor,
        )
    log_in(page, browser_vendor)
    with override_settings(IMPACT_INLINE_FLOORS=0):  # the live server runs in this process
        page.goto("/impact/?rules=US-CO/rule-8&start=2016-01-01&end=2022-01-01")
        page.wait_for_url("**/impact/jobs/*/")
    progress = page.locator("#impact-job-progress")
    said = progress.get_by_role("status").inner_text()  # Vera's floors of the other tests too
    assert re.fullmatch(r"\d+ configurations? affected; \d+ not affected\.", said), said
    label = progress.locator("label").inner_text()
    assert re.search(r"(\d+) of \1 floors? judged \(100%\) · done", label), label
    assert progress.locator("progress").get_attribute("value") == progress.locator(
        "progress"
    ).get_attribute("max")
    section = page.locator("section.impact", has=page.get_by_role("heading", name=licensee))
    assert "Raise The Roof is not in force" in section.inner_text()
    screenshot(page, "impact-job", height=1000)


def test_an_officer_watches_colorado_and_a_vendor_sees_its_webhook_secret_once(
    page: Any, browser_officer: User, browser_vendor: User, django_db_blocker: Any
) -> None:
    """Issue #26: Odette watches Colorado by e-mail from the desk; Vera watches it by webhook and
    reads her secret once, on the page that made it; a reload shows it no more."""
    with django_db_blocker.unblock():
        User.objects.filter(pk=browser_officer.pk).update(email="odette@gaming.example")
        Subscription.objects.filter(user__in=[browser_officer, browser_vendor]).delete()
    log_in(page, browser_officer)
    page.get_by_role("link", name="Watch", exact=True).click()
    page.wait_for_url("**/watch/")
    page.get_by_label("Jurisdiction").select_option("US-CO")
    page.get_by_label("E-mail to my address").check()
    page.get_by_role("button", name="Watch").click()
    assert (
        "You now watch US-CO by e-mail, to odette@gaming.example"
        in page.get_by_role("status").inner_text()
    )
    row = page.get_by_role("row", name=re.compile("US-CO"))
    assert "e-mail to odette@gaming.example" in row.inner_text()

    log_in(page, browser_vendor)
    page.goto("/watch/")
    page.get_by_label("Webhook (a signed POST)").check()
    page.get_by_role("button", name="Watch").click()  # no URL yet
    assert "A webhook needs the URL to POST to." in page.locator(".field-error").inner_text()
    page.get_by_label("Webhook URL").fill("https://hooks.vera.example/pitboss")
    page.get_by_role("button", name="Watch").click()
    secret = page.locator("code.secret").inner_text()
    assert len(secret) == 64
    screenshot(page, "watch", height=1000)
    page.goto("/watch/")
    assert page.locator("code.secret").count() == 0 and secret not in page.content()
    assert (
        "webhook https://hooks.vera.example/pitboss"
        in page.get_by_role("row", name=re.compile("US-CO")).inner_text()
    )
    page.get_by_role("button", name="Stop watching").click()
    assert "You watch no jurisdiction yet." in page.content()
