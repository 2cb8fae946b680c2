"""Issue #27: with no broker, a job's tasks run in a worker thread of the server
(pitboss/background.py): the request that starts a long job answers at once, the job's progress
is read while the thread works, and the job ends as it would have in the request. A task that
fails is recorded on its job and the thread goes on to the next. The test database is committed
as the thread, with its own connection, must see it (knowledge_base_restored)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from pytest_django import Settings
from rest_framework.test import APIClient

from compliance.impact_jobs import IMPACT_JOB_TASK
from compliance.models import ImpactJob, SimulationJob
from jurisdictions.services import api_user_create
from pitboss import background
from tests.compliance.test_impact import RULE_8_WINDOW
from tests.compliance.test_simulations import _config

pytestmark = pytest.mark.usefixtures("knowledge_base_restored")

CONFIGURATION = _config()
"""A six-deck Colorado table (tests/compliance/test_simulations.py's)."""


@pytest.fixture
def in_background(settings: Settings) -> Any:
    settings.BACKGROUND_TASKS = True
    assert background.in_background()
    yield
    background.drain(timeout=300)


def _client(name: str) -> APIClient:
    user, _ = api_user_create(username=name)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


@pytest.mark.usefixtures("in_background")
def test_a_long_simulation_answers_at_once_and_ends_in_the_worker_thread() -> None:
    client = _client("vera-background")
    started = time.monotonic()
    asked = client.post(
        "/api/v1/simulations/",
        {"configuration": CONFIGURATION, "rounds": 2_000_000, "seed": 5},
        format="json",
        HTTP_HOST="localhost",
    )
    answered = time.monotonic() - started
    assert asked.status_code == 202, asked.json()
    job = asked.json()
    assert job["status"] in ("queued", "running") and job["chunks_done"] < job["chunks"]
    seen = SimulationJob.objects.get(pk=job["id"])
    assert seen.status != "done"  # still working after the answer
    background.drain(timeout=300)
    done = client.get(f"/api/v1/simulations/{job['id']}/", HTTP_HOST="localhost").json()
    assert done["status"] == "done" and done["chunks_done"] == done["chunks"]
    assert done["result"]["rounds"] == 2_000_000
    assert answered < 5, answered  # the request did not play the rounds


@pytest.mark.usefixtures("in_background")
def test_an_impact_job_is_judged_in_the_worker_thread() -> None:
    client = _client("vera-impact")
    asked = client.post(
        "/api/v1/impact/",
        {"jurisdiction": "US-CO", "change": RULE_8_WINDOW, "job": True},
        format="json",
    )
    assert asked.status_code == 202
    background.drain(timeout=120)
    shown = client.get(asked["Location"]).json()
    assert shown["status"] == "done" and shown["result"]["unaffected"] == 0


@pytest.mark.usefixtures("in_background")
def test_a_task_that_fails_is_recorded_and_the_thread_goes_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    client = _client("vera-failing")
    from django.contrib.auth.models import User

    vera = User.objects.get(username="vera-failing")
    broken = ImpactJob.objects.create(
        created_by=vera, jurisdiction="US-CO", asked={"change": "not a change"}, floors=0
    )
    background.task_send(IMPACT_JOB_TASK, str(broken.pk))
    asked = client.post(
        "/api/v1/impact/",
        {"jurisdiction": "US-CO", "change": RULE_8_WINDOW, "job": True},
        format="json",
    )
    background.drain(timeout=120)
    broken.refresh_from_db()
    assert broken.status == "failed" and "jurisdiction" in broken.error
    assert client.get(asked["Location"]).json()["status"] == "done"
    assert "failed in the worker thread" in caplog.text
