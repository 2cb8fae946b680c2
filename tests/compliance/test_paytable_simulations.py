"""POST /api/v1/paytable-simulations/ and GET paytable-simulations/{id}/: a catalog paytable no
exact method settles (STREAK, Blackjack Burnout's Bonus) simulated as a job of seeded chunks at
each deck count it allows, run in-process when no broker is set, giving what engine.streak gives
for the seed: each spot's house edge as a decimal with its standard error, never a fraction."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from compliance import paytable_simulations
from compliance.api.requests import PaytableSimulationIn, request_parse
from compliance.models import PaytableSimulationJob
from compliance.paytable_simulations import (
    paytable_simulation_chunk_run,
    paytable_simulation_create,
)
from engine.odds import decimal_string
from engine.streak import streak_rules, streak_simulate
from jurisdictions.services import api_user_create
from tests.conftest import _token_client
from variants.analysed import estimate_places

pytestmark = pytest.mark.django_db

URL = "/api/v1/paytable-simulations/"
CHUNK = 250_000
"""Chunks of a test job (the service's default is a million rounds)."""
STANDARD = "us-co/streak/standard-schedule"


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paytable_simulations, "CHUNK_ROUNDS", CHUNK)


def _post(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post(URL, body, format="json", HTTP_HOST="localhost")


def _get(client: APIClient, url: str) -> Any:
    return client.get(url, HTTP_HOST="localhost")


def test_streaks_spots_are_simulated_as_a_job_each_its_own_wager(
    vendor_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    body = {"paytable": STANDARD, "decks": 6, "rounds": 1_000_000, "seed": 5}
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(vendor_client, body)
        assert response.status_code == 202, response.json()
        queued = response.json()
        assert queued["status"] == "queued" and queued["chunks"] == 4
        assert queued["result"] is None and queued["progress"] == 0
    job = _get(vendor_client, f"{URL}{queued['id']}/").json()
    assert job["status"] == "done" and job["chunks_done"] == 4 and job["progress"] == 1.0
    assert (job["wager"], job["decks"], job["dealer_hits_soft_17"]) == ("streak", [6], False)
    result = job["result"]
    assert result["paytable"] == STANDARD and result["method"].startswith("simulation")
    # the same counts as the engine gives for the seed, in-process
    counts = streak_simulate(streak_rules("streak", 6), (2, 3, 4, 5), 1_000_000, 5, CHUNK)
    spots = result["analyses"]
    assert [a["column"] for a in spots] == [
        "2 consecutive wins pay",
        "3 consecutive wins pay",
        "4 consecutive wins pay",
        "5 consecutive wins pay",
    ]
    for spot, odds, settled, won in zip(
        spots, (3, 7, 17, 37), counts.settled, counts.won, strict=True
    ):
        edge = 1 - Fraction(won, settled) * (odds + 1)
        # to the places its standard error leaves meaningful (its second significant digit),
        # the error to as many
        places = len(spot["house_edge"].split(".")[1])
        error = spot["standard_error"]
        assert spot["house_edge"] == decimal_string(edge, places)
        assert len(error.split(".")[1]) == places and 10 <= float(error) * 10**places <= 100
        assert spot["combinations"] == settled and spot["method"] == "simulation"
        # about 8 to 15 % (a 7 to 1 three-win spot pays least), to within its standard error
        assert 0.05 < float(spot["house_edge"]) < 0.17
        assert 0 < float(spot["standard_error"]) < 0.01
        # an estimate is a decimal with its standard error, never a fraction
        assert spot["house_edge_fraction"] is None
        assert spot["lines"][0]["probability_fraction"] is None
    assert "1,000,0" in result["method"] and result["rounds_below_minimum"] is True


def test_every_deck_count_the_paytable_allows_by_default(
    officer_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """Blackjack Burnout is dealt from two or six decks (30-899.25(1)): a job for both."""
    with django_capture_on_commit_callbacks(execute=True):
        body = {"paytable": "us-co/burnout-bonus/pays", "rounds": 1_000_000, "seed": 1}
        response = _post(officer_client, body)
    assert response.status_code == 202, response.json()
    job = PaytableSimulationJob.objects.get(pk=response.json()["id"])
    assert job.status == "done" and job.chunks == 4 * len(job.decks)
    result = _get(officer_client, f"{URL}{job.pk}/").json()["result"]
    assert sorted({a["decks"] for a in result["analyses"]}) == sorted(job.decks)
    assert len(result["analyses"]) == 3 * len(job.decks)
    assert "Burnout's rules" in result["analyses"][0]["card_removal"]


def test_a_chunk_delivered_twice_adds_its_counts_once(vendor_client: APIClient) -> None:
    body = {"paytable": STANDARD, "decks": 2, "rounds": 1_000_000, "seed": 2}
    job_id = _post(vendor_client, body).json()["id"]  # on_commit not run: chunks by hand
    paytable_simulation_chunk_run(job_id=job_id, index=0)
    once = PaytableSimulationJob.objects.get(pk=job_id).sums
    paytable_simulation_chunk_run(job_id=job_id, index=0)
    job = PaytableSimulationJob.objects.get(pk=job_id)
    assert job.sums == once and job.chunks_done == 1 and job.status == "running"


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"paytable": "us-co/kings-bounty/kb03", "decks": 6}, "paytable", 400),
        ({"paytable": "us-co/no-such-table"}, "paytable", 404),
        ({"paytable": STANDARD, "rounds": 10}, "rounds", 400),
        ({"paytable": STANDARD, "decks": 0}, "decks", 400),
        ({"paytable": "us-co/burnout-bonus/pays", "decks": 4}, "decks", 400),
        ({"decks": 6}, "paytable", 400),
        # no broker: the chunks would run within the request, 5 deck counts × 10⁹ rounds
        ({"paytable": STANDARD, "rounds": 1_000_000_000}, "rounds", 400),
    ],
)
def test_bad_requests_name_the_field_and_store_nothing(
    vendor_client: APIClient, body: dict[str, Any], field: str, status: int
) -> None:
    response = _post(vendor_client, body)
    assert response.status_code == status, response.json()
    assert field in str(response.json())
    assert not PaytableSimulationJob.objects.exists()


def test_a_job_needs_a_login_and_anothers_is_not_found(
    anon_client: APIClient, vendor_client: APIClient
) -> None:
    assert _post(anon_client, {"paytable": STANDARD}).status_code in (401, 403)
    body = {"paytable": STANDARD, "decks": 1, "rounds": 1_000_000, "seed": 3}
    job_id = _post(vendor_client, body).json()["id"]
    other, _ = api_user_create(username="olga")
    assert _get(_token_client(other), f"{URL}{job_id}/").status_code == 404
    assert _get(vendor_client, URL).json()["count"] == 1


def test_the_exact_analysis_endpoint_points_to_the_simulation(anon_client: APIClient) -> None:
    response = _get(anon_client, f"/api/v1/paytables/{STANDARD}/analysis/?decks=6")
    assert response.status_code == 400
    body = response.json()
    assert body["error"]["code"] == "simulated_only" and "/api/v1/paytable-simulations/" in str(
        body
    )


# The desk's pages (/simulations/paytables/): the form, the job page and its polled progress.


@pytest.fixture
def desk(client: Client, vendor: User) -> Client:
    client.force_login(vendor)
    return client


def test_a_running_jobs_page_is_polled_until_each_spot_shows_its_edge(
    desk: Client, vendor: User
) -> None:
    body = {"paytable": STANDARD, "decks": 1, "rounds": 1_000_000, "seed": 8}
    job = paytable_simulation_create(
        **request_parse(PaytableSimulationIn, body), user=vendor
    )  # chunks held back: no commit
    address = f"/simulations/paytables/{job.pk}/progress/"
    fragment = desk.get(address).content.decode()
    assert f'hx-get="{address}"' in fragment and 'max="4" value="0"' in fragment
    paytable_simulation_chunk_run(job_id=str(job.pk), index=0)
    assert "(25%)" in desk.get(address).content.decode()
    for index in (1, 2, 3):
        paytable_simulation_chunk_run(job_id=str(job.pk), index=index)
    page = desk.get(f"/simulations/paytables/{job.pk}/").content.decode()
    assert "hx-get" not in page and page.count('class="edge"') == 4
    assert "a preview, not a figure to file" in page
    edges = re.findall(r'<strong class="edge">([^<]*)</strong>', page)
    assert len(edges) == 4 and all(re.fullmatch(r"0\.\d{3,5}", e) for e in edges), edges


def test_the_form_refuses_a_deck_count_naming_the_field_and_stores_nothing(desk: Client) -> None:
    page = desk.post(
        "/simulations/paytables/",
        {"paytable": "us-co/burnout-bonus/pays", "decks": "4", "rounds": "1000000"},
    )
    text = page.content.decode()
    assert page.status_code == 400
    # beside the Decks field, in the form (issue #27), not as a list of API paths
    assert "one of 2, 6" in text.split('for="id_decks"')[1][:1500]
    assert not PaytableSimulationJob.objects.exists()
    # a paytable with an exact analysis is not offered
    assert "us-co/kings-bounty/kb03" not in desk.get("/simulations/paytables/").content.decode()


def test_another_vendors_paytable_simulation_is_not_found(client: Client) -> None:
    owner, _ = api_user_create(username="wanda")
    job = paytable_simulation_create(
        **request_parse(
            PaytableSimulationIn, {"paytable": STANDARD, "decks": 1, "rounds": 1_000_000}
        ),
        user=owner,
    )
    other, _ = api_user_create(username="xavier")
    client.force_login(other)
    for address in (
        f"/simulations/paytables/{job.pk}/",
        f"/simulations/paytables/{job.pk}/progress/",
    ):
        assert client.get(address).status_code == 404
    assert str(job.pk) not in client.get("/simulations/paytables/").content.decode()


@pytest.mark.parametrize(
    ("error", "places"), [(0.0012, 4), (0.00012, 5), (0.012, 3), (0.5, 2), (0.0, 12), (None, 12)]
)
def test_an_estimate_is_shown_down_to_its_errors_second_significant_digit(
    error: float | None, places: int
) -> None:
    assert estimate_places(error) == places
