"""POST /api/v1/simulations/ and GET simulations/{id}/: a base-game simulation as a job of seeded
chunks, run in-process when no broker is set, giving what engine.simulate gives for the seed."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

from compliance import simulations
from compliance.models import SimulationJob
from compliance.simulations import simulation_chunk_run
from compliance.tasks import simulation_chunk_run_task
from engine.simulate import METHOD, rule_effects, rules_from_dict, simulate

pytestmark = pytest.mark.django_db

URL = "/api/v1/simulations/"
CHUNK = 100_000
"""Chunks of a test job (the service's default is a million rounds)."""


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(simulations, "CHUNK_ROUNDS", CHUNK)


def _config(**table: Any) -> dict[str, Any]:
    return {
        "jurisdiction": "US-CO",
        "as_of": "2024-06-01",
        "tables": [
            {
                "name": "BJ-1",
                "game": "blackjack",
                "decks": 6,
                "dealer_soft_17": "stand",
                "hole_card": "peek",
                "blackjack_pays": "3 to 2",
                "surrender": "none",
                **table,
            }
        ],
    }


def _post(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post(URL, body, format="json", HTTP_HOST="localhost")


def test_a_job_runs_in_process_and_gives_the_seeds_result(
    vendor_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = _post(vendor_client, {"configuration": _config(), "rounds": 250_000, "seed": 9})
        assert response.status_code == 202, response.json()
        queued = response.json()
        assert queued["status"] == "queued" and queued["chunks"] == 3
    job = vendor_client.get(f"{URL}{queued['id']}/", HTTP_HOST="localhost").json()
    assert job["status"] == "done" and job["chunks_done"] == 3 and job["progress"] == 1.0
    expected = simulate(rules_from_dict(job["rules"]), 250_000, seed=9, chunk_rounds=CHUNK)
    result = job["result"]
    assert {k: result[k] for k in expected.as_dict()} == expected.as_dict()
    assert result["method"] == METHOD == "simulation, basic strategy computed for the rules"
    assert result["rounds"] == 250_000 and "effects" not in result
    assert 0 < float(result["house_edge"]) < 0.02 and float(result["standard_error"]) < 0.003
    # an estimate is a decimal with its standard error, never a fraction
    assert not any("fraction" in key for key in result)


def test_a_job_can_give_the_effect_of_each_rule_option(
    officer_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    body = {"configuration": _config(), "rounds": 150_000, "seed": 3, "effects": True}
    with django_capture_on_commit_callbacks(execute=True):
        job_id = _post(officer_client, body).json()["id"]
    job = SimulationJob.objects.get(pk=job_id)
    result = job.result
    expected = rule_effects(rules_from_dict(job.rules), 150_000, seed=3, chunk_rounds=CHUNK)
    assert result["house_edge"] == expected.base.as_dict()["house_edge"]
    assert result["effects"] == [e.as_dict() for e in expected.effects]
    six_to_five = next(e for e in result["effects"] if e["option"] == "blackjack_pays")
    assert (six_to_five["from"], six_to_five["to"]) == ("3 to 2", "6 to 5")
    assert float(six_to_five["house_edge_change"]) > 0


def test_a_chunk_delivered_twice_adds_its_sums_once(vendor_client: APIClient) -> None:
    job_id = _post(vendor_client, {"configuration": _config(), "rounds": 150_000}).json()["id"]
    job = SimulationJob.objects.get(pk=job_id)
    assert job.status == "queued" and 0 <= job.seed < 2**63  # a random seed, reported
    simulation_chunk_run(job_id=job_id, index=1)
    simulation_chunk_run(job_id=job_id, index=1)
    job.refresh_from_db()
    assert (job.status, job.chunks_done, job.sums["chunks"]) == ("running", 1, [1])
    simulation_chunk_run(job_id=job_id, index=0)
    job.refresh_from_db()
    expected = simulate(rules_from_dict(job.rules), 150_000, seed=job.seed, chunk_rounds=CHUNK)
    assert job.status == "done" and job.result["total_units"] == str(expected.total_units)


def test_a_chunk_that_raises_fails_its_job(
    vendor_client: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    job_id = _post(vendor_client, {"configuration": _config(), "rounds": 10}).json()["id"]

    def broken(*args: Any) -> None:
        raise RuntimeError("no cards")

    monkeypatch.setattr(simulations, "simulate_chunk", broken)
    with pytest.raises(RuntimeError):
        simulation_chunk_run_task(job_id, 0)
    job = vendor_client.get(f"{URL}{job_id}/", HTTP_HOST="localhost").json()
    assert job["status"] == "failed" and "RuntimeError: no cards" in job["error"]


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"rounds": 0}, "rounds", "greater than or equal to 1"),
        ({"rounds": 100_000_001}, "rounds", "less than or equal to 100000000"),
        ({"seed": -1}, "seed", "greater than or equal to 0"),
        ({"configuration": _config(decks=0)}, "configuration.tables[0].decks", ""),
        ({"configuration": {"tables": []}}, "configuration", ""),
        ({"table": "BJ-9"}, "table", "one of BJ-1"),
        ({"configuration": _config(game="competition-21")}, "game", "cannot play"),
        ({"configuration": _config(game="face-up-blackjack")}, "game", "face up"),
    ],
)
def test_bad_simulations_are_400s_naming_the_field(
    vendor_client: APIClient, change: dict[str, Any], field: str, message: str
) -> None:
    body = {"configuration": _config(), "rounds": 1000, "seed": 1, **change}
    response = _post(vendor_client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    text = error["message"] + str(error.get("fields", ""))
    assert field in text and message in text
    assert not SimulationJob.objects.exists()


def test_simulations_need_a_login(anon_client: APIClient) -> None:
    response = anon_client.post(URL, {}, format="json", HTTP_HOST="localhost")
    assert response.status_code in (401, 403)


def test_an_unknown_job_is_a_404(vendor_client: APIClient) -> None:
    response = vendor_client.get(
        f"{URL}00000000-0000-0000-0000-000000000000/", HTTP_HOST="localhost"
    )
    assert response.status_code == 404


def test_spanish_21_is_simulated_without_its_dollar_bonuses(
    vendor_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """30-899.16 as the catalog has it (21s and blackjacks that win, Bonus 21, rescue, …) is
    played by the simulator; the Super and Envy Bonus, dollar amounts, are not, and the job says
    so. The stored rules give back the same result."""
    body = {
        "configuration": {
            "jurisdiction": "US-CO",
            "as_of": "2024-06-01",
            "tables": [{"name": "S21", "game": "spanish-21", "decks": 6}],
        },
        "rounds": 20_000,
        "seed": 1,
    }
    with django_capture_on_commit_callbacks(execute=True):
        queued = _post(vendor_client, body).json()
    job = vendor_client.get(f"{URL}{queued['id']}/", HTTP_HOST="localhost").json()
    rules = rules_from_dict(job["rules"])
    assert rules.player_21_wins and rules.rescue and rules.spanish_decks
    assert ("678-spades", Fraction(3)) in rules.bonus_21
    assert any("Super Bonus" in text and "not paid" in text for text in job["assumed"])
    expected = simulate(rules, 20_000, seed=1, chunk_rounds=CHUNK)
    assert {k: job["result"][k] for k in expected.as_dict()} == expected.as_dict()


def test_a_table_dealt_from_a_continuous_shuffler_is_simulated_so(
    vendor_client: APIClient, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    """dealing: csm: every round is dealt from all the cards, and the result says so."""
    body = {"configuration": _config(dealing="csm"), "rounds": 150_000, "seed": 5}
    with django_capture_on_commit_callbacks(execute=True):
        queued = _post(vendor_client, body).json()
    job = vendor_client.get(f"{URL}{queued['id']}/", HTTP_HOST="localhost").json()
    rules = rules_from_dict(job["rules"])
    expected = simulate(rules, 150_000, seed=5, chunk_rounds=CHUNK, continuous=True)
    assert {k: job["result"][k] for k in expected.as_dict()} == expected.as_dict()
    assert "continuous shuffler" in job["result"]["shoe"]
    assert expected != simulate(rules, 150_000, seed=5, chunk_rounds=CHUNK)
