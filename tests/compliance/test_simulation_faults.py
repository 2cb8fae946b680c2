"""Faults under a simulation job: a Celery worker killed in the middle of a job (SIGKILL, the whole
worker) → another worker finishes it with exactly the result the same seed gives in-process; the
broker down → POST simulations/ answers 503 and stores no job."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from compliance import simulations
from compliance.api.requests import SimulationIn, request_parse
from compliance.models import SimulationJob
from compliance.simulations import simulation_job_create
from engine.simulate import rule_effects, rules_from_dict
from pitboss.celery import app
from tests.compliance.test_simulation_worker import BROKER, ROOT
from tests.services import celery_app_use, redis_emptied, shared_database_url

# Chunks big enough that a warm worker takes most of a second over each (with the rule effects):
# the test must see one or two done, and kill the worker before the rest.
CHUNK = 1_000_000
CONFIGURATION = {
    "jurisdiction": "US-CO",
    "as_of": "2024-06-01",
    "tables": [
        {"name": "BJ-7", "game": "blackjack", "decks": 6, "dealer_soft_17": "hit",
         "blackjack_pays": "6 to 5", "surrender": "late"}
    ],
}  # fmt: skip


def worker_start(log: Path) -> subprocess.Popen[bytes]:
    """A Celery worker (one pool process) in its own process group, on the test broker and
    database; a lost worker's chunks go to another after 3 s (CELERY_VISIBILITY_TIMEOUT)."""
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "CELERY_BROKER_URL": BROKER,
        "CELERY_VISIBILITY_TIMEOUT": "3",
        "DJANGO_SETTINGS_MODULE": "pitboss.settings",
    }
    with log.open("a") as out:
        return subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "pitboss", "worker",
                "--concurrency", "1", "--loglevel", "info", "--hostname", f"test-{uuid.uuid4()}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip


def kill_hard(worker: subprocess.Popen[bytes]) -> None:
    """SIGKILL to the worker and its pool processes: nothing gets to acknowledge or clean up."""
    try:
        os.killpg(worker.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    worker.wait()


def wait_for(condition: Any, seconds: float, log: Path) -> SimulationJob:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job = SimulationJob.objects.get()
        if condition(job):
            return job
        time.sleep(0.2)
    pytest.fail(f"waited {seconds} s in vain; the workers' log:\n{log.read_text()}")


# The workers see only what is committed; only compliance's tables are emptied afterwards.
@pytest.mark.django_db(transaction=True, available_apps=["compliance"])
def test_a_job_whose_worker_is_killed_finishes_on_another_with_the_in_process_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    redis_emptied(BROKER)
    monkeypatch.setattr(simulations, "CHUNK_ROUNDS", CHUNK)
    log = Path(tempfile.mkstemp(prefix="celery-workers-", suffix=".log")[1])
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app_use(broker_url=BROKER, task_always_eager=False)
    first = worker_start(log)
    second = None
    try:
        job = simulation_job_create(
            **request_parse(
                SimulationIn,
                {
                    "configuration": CONFIGURATION,
                    "rounds": 4_500_000,
                    "seed": 2026,
                    "effects": True,
                },
            )
        )
        assert job.chunks == 5
        wait_for(lambda j: 1 <= j.chunks_done <= 2, 240, log)
        kill_hard(first)  # in the middle of the job: a chunk taken, not finished
        killed = SimulationJob.objects.get()
        assert killed.status == "running" and killed.chunks_done < 5

        second = worker_start(log)
        done = wait_for(lambda j: j.status in ("done", "failed"), 300, log)
        expected = rule_effects(
            rules_from_dict(job.rules), 4_500_000, seed=2026, chunk_rounds=CHUNK
        )
        assert done.status == "done", done.error
        assert done.chunks_done == 5 and sorted(done.sums["chunks"]) == [0, 1, 2, 3, 4]
        assert {k: done.result[k] for k in expected.base.as_dict()} == expected.base.as_dict()
        assert done.result["effects"] == [effect.as_dict() for effect in expected.effects]
    finally:
        celery_app_use(**saved)
        kill_hard(first)
        if second is not None:
            second.terminate()
            second.wait(timeout=30)
        redis_emptied(BROKER)
        log.unlink()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.django_db
def test_a_simulation_is_refused_with_503_and_not_stored_while_the_broker_is_down(
    vendor_client: APIClient,
) -> None:
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app_use(broker_url=f"redis://127.0.0.1:{_closed_port()}/0", task_always_eager=False)
    try:
        started = time.monotonic()
        response = vendor_client.post(
            "/api/v1/simulations/",
            {"configuration": CONFIGURATION, "rounds": 1000, "seed": 1},
            format="json",
        )
        elapsed = time.monotonic() - started
    finally:
        celery_app_use(**saved)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "error": {
            "code": "queue_unavailable",
            "message": "The job queue is unavailable, so the simulation was not queued (nothing "
            "was stored). Try again in a minute.",
        }
    }
    assert SimulationJob.objects.count() == 0
    assert elapsed < 15
