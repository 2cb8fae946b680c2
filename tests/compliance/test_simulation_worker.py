"""A simulation job run by a real Celery worker on Redis gives exactly what the same seed gives
in-process. The worker is a separate process (`celery -A pitboss worker`) on the test database:
the SQLite test database is a file for this reason (pitboss/settings.py)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from compliance import paytable_simulations, simulations
from compliance.api.requests import PaytableSimulationIn, SimulationIn, request_parse
from compliance.models import PaytableSimulationJob, SimulationJob
from compliance.paytable_simulations import paytable_simulation_create
from compliance.simulations import simulation_job_create
from engine.simulate import rule_effects, rules_from_dict
from engine.streak import StreakCounts, streak_rules, streak_simulate
from tests.services import celery_worker, per_worker

ROOT = Path(__file__).resolve().parents[2]
BROKER = per_worker(os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/5"))
"""Redis database 5 by default: the test empties it."""
CHUNK = 100_000


@pytest.fixture
def worker() -> Iterator[Path]:
    """A Celery worker process consuming from the test broker (tests/services.py); yields its
    log."""
    with celery_worker(BROKER) as log:
        yield log


def _wait(job_id: Any, log: Path, seconds: float = 240, model: Any = SimulationJob) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = model.objects.get(pk=job_id)
        if job.status in (SimulationJob.Status.DONE, SimulationJob.Status.FAILED):
            return job
        time.sleep(0.5)
    pytest.fail(f"the worker did not finish the job in {seconds} s; its log:\n{log.read_text()}")


# The worker sees only what is committed. Only compliance's tables are emptied after the test,
# so the knowledge base loaded for the session stays for the tests that follow.
@pytest.mark.django_db(transaction=True, available_apps=["compliance"])
def test_a_worker_on_redis_gives_the_in_process_result(
    worker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(simulations, "CHUNK_ROUNDS", CHUNK)
    configuration = {
        "jurisdiction": "US-CO",
        "as_of": "2024-06-01",
        "tables": [
            {"name": "BJ-7", "game": "blackjack", "decks": 6, "dealer_soft_17": "hit",
             "blackjack_pays": "6 to 5", "surrender": "late"}
        ],
    }  # fmt: skip
    job = simulation_job_create(
        **request_parse(
            SimulationIn,
            {"configuration": configuration, "rounds": 450_000, "seed": 2026, "effects": True},
        )
    )
    assert job.chunks == 5
    expected = rule_effects(rules_from_dict(job.rules), 450_000, seed=2026, chunk_rounds=CHUNK)
    done = _wait(job.pk, worker)
    assert done.status == "done", f"{done.error}\n{worker.read_text()}"
    assert done.chunks_done == 5 and sorted(done.sums["chunks"]) == [0, 1, 2, 3, 4]
    result = done.result
    assert {k: result[k] for k in expected.base.as_dict()} == expected.base.as_dict()
    assert result["effects"] == [effect.as_dict() for effect in expected.effects]
    assert "compliance.simulation_chunk_run" in worker.read_text()  # the worker ran them


@pytest.mark.django_db(transaction=True, available_apps=["compliance"])
def test_a_worker_runs_a_paytable_simulation_as_in_process(
    worker: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two jobs of STREAK's Standard Schedule (2 and 8 decks), four chunks each, run by the
    worker's two processes in any order: each job's counts are what the seed gives in-process."""
    monkeypatch.setattr(paytable_simulations, "CHUNK_ROUNDS", 250_000)
    body = {"paytable": "us-co/streak/standard-schedule", "rounds": 1_000_000, "seed": 12}
    job = paytable_simulation_create(**request_parse(PaytableSimulationIn, {**body, "decks": 2}))
    other = paytable_simulation_create(**request_parse(PaytableSimulationIn, {**body, "decks": 8}))
    for created, decks in ((job, 2), (other, 8)):
        done = _wait(created.pk, worker, model=PaytableSimulationJob)
        assert done.status == "done", f"{done.error}\n{worker.read_text()}"
        expected = streak_simulate(
            streak_rules("streak", decks), (2, 3, 4, 5), 1_000_000, 12, 250_000
        )
        assert StreakCounts.from_json(done.sums["decks"][str(decks)]) == expected
    assert "compliance.paytable_simulation_chunk_run" in worker.read_text()
