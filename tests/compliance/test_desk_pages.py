"""The rounds and simulations pages: a round played or replayed under a stored run's or a
sample's configuration, each settlement linked to its rule on the configuration's date; a
simulation job started from the form, its progress polled until its result."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from compliance import simulations
from compliance.api.configuration import configuration_parse
from compliance.api.requests import SimulationIn, request_parse
from compliance.models import SimulationJob, ValidationRun
from compliance.services import validation_run_create
from compliance.simulations import simulation_chunk_run, simulation_job_create
from jurisdictions.services import api_user_create
from jurisdictions.web import citation_url

pytestmark = pytest.mark.django_db

AS_OF = dt.date(2024, 6, 1)


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulations, "CHUNK_ROUNDS", 100_000)


def _config(name: str = "BJ-1", **table: Any) -> dict[str, Any]:
    return {
        "jurisdiction": "US-CO",
        "as_of": AS_OF.isoformat(),
        "licensee": "Desk Casino",
        "tables": [
            {
                "name": name,
                "game": "blackjack",
                "decks": 6,
                "dealer_soft_17": "stand",
                "hole_card": "peek",
                "blackjack_pays": "3 to 2",
                "surrender": "none",
                "chip_unit": "1",
                **table,
            }
        ],
    }


@pytest.fixture
def run(vendor: User) -> ValidationRun:
    return validation_run_create(configuration=configuration_parse(_config()), user=vendor)


@pytest.fixture
def desk(client: Client, vendor: User) -> Client:
    client.force_login(vendor)
    return client


def _play(client: Client, source: str, **fields: str) -> Any:
    query = {"action": "play", "play-configuration": source} | {
        f"play-{k}": v for k, v in fields.items()
    }
    return client.get("/rounds/", query)


def test_the_rounds_and_simulations_pages_ask_for_a_login(client: Client) -> None:
    for address in ("/rounds/", "/simulations/"):
        assert client.get(address)["Location"].startswith("/accounts/login/")


def test_a_scripted_round_shows_each_settlement_with_its_rule_and_citation(
    desk: Client, run: ValidationRun
) -> None:
    response = _play(
        desk, f"run:{run.pk}", shoe="TH AC 8D 6S 4C", seat1_wagers="main=10", seat1_actions="stand"
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "dealer A♣ 6♠ (17)" in page and "10♥ 8♦ (18)" in page
    settlements = page.split('class="data settlements"')[1].split("</table>")[0]
    assert "win" in settlements and "10.00" in settlements
    assert f'href="{citation_url("US-CO", "30-807(1)", AS_OF)}"' in settlements


def test_a_seeded_round_of_a_sample_plays_basic_strategy_with_its_side_wagers(
    desk: Client,
) -> None:
    page = _play(
        desk,
        "sample:casino-house-rules-co",
        seed="7",
        rounds="2",
        seat1_wagers="main=10 kings-bounty=5",
    ).content.decode()
    assert page.count("<h3>Round ") == 2
    assert "kings-bounty" in page.split('class="data settlements"')[1]
    assert "paytable-not-approved" in page  # the sample's own findings, linked
    assert f'href="{citation_url("US-CO", "30-899.20(7)", AS_OF)}"' in page


def test_a_replay_names_each_payment_that_differs_from_the_rules(
    desk: Client, run: ValidationRun
) -> None:
    query = {
        "action": "replay",
        "replay-configuration": f"run:{run.pk}",
        "replay-cards": "TH AC 8D 6S 4C",
        "replay-seat1_wagers": "main=10",
        "replay-seat1_actions": "stand",
        "replay-seat1_paid": "main=15",
    }
    page = desk.get("/rounds/", query).content.decode()
    assert "payments differ" in page and "payment-differs" in page
    assert "paid +15.00, the approved rules pay +10.00" in page
    # where, in the form's words (issue #27): the seat and its field, not the API's path
    assert "Seat 1: paid, main" in page and "seats[0].paid.main" not in page
    assert f'href="{citation_url("US-CO", "30-807(1)", AS_OF)}"' in page
    query["replay-seat1_paid"] = "main=10"
    assert "paid as the rules pay" in desk.get("/rounds/", query).content.decode()


def test_a_round_that_cannot_be_played_says_why_naming_the_field(
    desk: Client, run: ValidationRun
) -> None:
    bad_card = _play(desk, f"run:{run.pk}", shoe="TH ZZ", seat1_wagers="main=10")
    assert bad_card.status_code == 400 and "ZZ" in bad_card.content.decode()
    neither = _play(desk, f"run:{run.pk}", seat1_wagers="main=10")
    assert "Give a seed or scripted cards" in neither.content.decode()
    bad_wager = _play(desk, f"run:{run.pk}", seed="1", seat1_wagers="main:10")
    assert "is not wager=amount" in bad_wager.content.decode()
    no_table = _play(desk, f"run:{run.pk}", seed="1", table="BJ-9", seat1_wagers="main=10")
    assert no_table.status_code == 400
    assert "the configuration has no table &#x27;BJ-9&#x27;" in no_table.content.decode()


def test_another_vendors_run_is_neither_offered_nor_played(
    desk: Client, run: ValidationRun
) -> None:
    other, _ = api_user_create(username="wanda")
    theirs = validation_run_create(
        configuration=configuration_parse(_config("Wanda's table")), user=other
    )
    form = desk.get("/rounds/").content.decode()
    assert f"run:{run.pk}" in form and f"run:{theirs.pk}" not in form
    forged = _play(desk, f"run:{theirs.pk}", seed="1", seat1_wagers="main=10")
    assert forged.status_code == 400 and "Select a valid choice" in forged.content.decode()


def test_a_table_name_in_a_round_is_escaped(desk: Client, vendor: User) -> None:
    evil = validation_run_create(
        configuration=configuration_parse(_config("<script>alert(1)</script>")), user=vendor
    )
    page = _play(desk, f"run:{evil.pk}", seed="3", seat1_wagers="main=10").content.decode()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_a_simulation_started_in_the_form_shows_its_result_with_a_standard_error(
    desk: Client, run: ValidationRun, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = desk.post(
            "/simulations/",
            {"configuration": f"run:{run.pk}", "rounds": "200000", "seed": "5", "effects": "on"},
        )
    assert response.status_code == 302
    job = SimulationJob.objects.get()
    assert response["Location"] == f"/simulations/{job.pk}/"
    page = desk.get(response["Location"]).content.decode()
    assert '<progress id="progress-bar" max="2" value="2">' in page and "hx-trigger" not in page
    edge = re.search(r'<strong class="edge">(-?[0-9.]+)</strong> ± ([0-9.]+)', page)
    assert edge and edge.group(1) == job.result["house_edge"]
    assert edge.group(2) == job.result["standard_error"]
    assert not any("fraction" in key for key in job.result)  # an estimate is never a fraction
    assert "Effect of each rule option" in page and "blackjack_pays" in page
    assert not any("fraction" in key for effect in job.result["effects"] for key in effect)


def test_a_running_job_is_polled_every_second_until_it_is_done(
    desk: Client, run: ValidationRun, vendor: User
) -> None:
    job = simulation_job_create(
        **request_parse(SimulationIn, {"configuration": _config(), "rounds": 200_000, "seed": 5}),
        user=vendor,
    )
    assert job.status == "queued"  # its chunks run on commit, which this test holds back
    fragment = desk.get(f"/simulations/{job.pk}/progress/").content.decode()
    assert f'hx-get="/simulations/{job.pk}/progress/"' in fragment
    assert 'hx-trigger="every 1s"' in fragment and 'value="0"' in fragment
    simulation_chunk_run(job_id=str(job.pk), index=0)
    half = desk.get(f"/simulations/{job.pk}/progress/").content.decode()
    assert 'max="2" value="1"' in half and "(50%)" in half and "every 1s" in half
    simulation_chunk_run(job_id=str(job.pk), index=1)
    done = desk.get(f"/simulations/{job.pk}/progress/").content.decode()
    assert "hx-get" not in done and 'class="edge"' in done and "(100%)" in done


def test_a_simulation_the_form_refuses_names_the_field(desk: Client, run: ValidationRun) -> None:
    page = desk.post("/simulations/", {"configuration": f"run:{run.pk}", "rounds": "10"})
    assert page.status_code == 400 and "greater than or equal to 1000" in page.content.decode()
    assert not SimulationJob.objects.exists()


def test_another_vendors_simulation_is_not_found(client: Client, run: ValidationRun) -> None:
    other, _ = api_user_create(username="wanda")
    job = simulation_job_create(
        **request_parse(SimulationIn, {"configuration": _config(), "rounds": 1000}), user=other
    )
    client.force_login(run.created_by)
    for address in (f"/simulations/{job.pk}/", f"/simulations/{job.pk}/progress/"):
        assert client.get(address).status_code == 404
    assert str(job.pk) not in client.get("/simulations/").content.decode()


def test_a_seat_names_its_over_or_under_13_side_on_the_rounds_page(
    desk: Client, vendor: User
) -> None:
    """MA 17(b)(1)-(2) (fixtures/sources/text/ma-205-cmr-blackjack.md lines 282-283): a player
    wagers over or under 13: the page takes the side after a colon, and without it says which
    field wants it."""
    side = {"wager": "over-under-13", "paytable": "us-ma/over-under-13/pays"}
    config = _config(side_wagers=[side], layouts=["over-under-13"]) | {"jurisdiction": "US-MA"}
    run = validation_run_create(configuration=configuration_parse(config), user=vendor)
    page = _play(desk, f"run:{run.pk}", shoe="AH 5C KD TS 6C",
                 seat1_wagers="main=10 over-under-13:under=1").content.decode()  # fmt: skip
    settlements = page.split('class="data settlements"')[1].split("</table>")[0]
    assert "us-ma/over-under-13/pays (Under 13): Under 13" in settlements
    missing = _play(desk, f"run:{run.pk}", shoe="AH 5C KD TS 6C",
                    seat1_wagers="main=10 over-under-13=1")  # fmt: skip
    assert missing.status_code == 400
    page = missing.content.decode()
    # beside the field, in the form's words (issue #27), not as the API's path
    beside = page.split('for="id_play-seat1_wagers"')[1][:1500]
    assert "errorlist" in beside and "over-under-13 side:" in beside
    assert "seats[0]" not in page


def test_a_simulation_the_service_refuses_says_so_beside_the_field(
    desk: Client, run: ValidationRun
) -> None:
    """Issue #27: a table the configuration does not have is the service's refusal; it is
    shown beside the form's Table field, in the form, not as a list of API paths above it."""
    page = desk.post(
        "/simulations/",
        {"configuration": f"run:{run.pk}", "table": "No such table", "rounds": "10000"},
    )
    assert page.status_code == 400
    beside = page.content.decode().split('for="id_table"')[1][:1500]
    assert "errorlist" in beside and "No such table" in beside
