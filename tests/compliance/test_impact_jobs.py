"""Issue #26: an impact over more floors than a request judges (IMPACT_INLINE_FLOORS) is a job:
POST impact/ answers 202 with the job, GET impact/jobs/{id}/ shows its progress and then the
same answer an inline request gives; the desk's "Who is affected" goes to the job's page, which
shows its progress and then the report. Only the user who asked sees a job. Tasks run
in-process here; tests/compliance/test_watch_worker.py runs one on a Celery worker."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django import Settings

from compliance import impact_jobs
from compliance.api.impact import impact_asked
from compliance.impact_jobs import impact_job_run
from compliance.models import ImpactJob
from pitboss.celery import app
from tests.compliance.test_impact import (
    FLOOR_CO,
    RULE_8_WINDOW,
    _client,
    _impact,
    _run,
    with_raise_the_roof,
)
from tests.services import celery_app_use

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_floors(vendor: User) -> None:
    _run(dict(with_raise_the_roof(FLOOR_CO), as_of="2016-11-01"), vendor)
    _run(dict(FLOOR_CO, licensee="Second Casino", as_of="2016-11-01"), vendor)


@pytest.mark.usefixtures("two_floors")
def test_more_floors_than_a_request_judges_make_a_job_with_the_same_answer(
    vendor: User, officer: User, settings: Settings
) -> None:
    inline = _impact(vendor, change=RULE_8_WINDOW)
    assert inline.status_code == 200
    settings.IMPACT_INLINE_FLOORS = 1

    asked = _impact(vendor, change=RULE_8_WINDOW)

    assert asked.status_code == 202, asked.json()
    job = asked.json()
    assert asked["Location"] == f"/api/v1/impact/jobs/{job['id']}/"
    shown = _client(vendor).get(asked["Location"]).json()
    assert (shown["status"], shown["floors"], shown["floors_done"]) == ("done", 2, 2)
    assert shown["result"] == inline.json()
    assert len(shown["result"]["affected"]) == 2
    # nobody else sees it, not even an officer of its jurisdiction
    assert _client(officer).get(asked["Location"]).status_code == 404


@pytest.mark.usefixtures("two_floors")
def test_a_job_may_be_asked_for_however_few_the_floors(vendor: User) -> None:
    asked = _impact(vendor, change=RULE_8_WINDOW, job=True)
    assert asked.status_code == 202
    assert asked.json()["status"] == "done" and asked.json()["floors"] == 2


def test_a_change_that_cannot_be_judged_is_a_400_before_any_job(
    vendor: User, settings: Settings
) -> None:
    settings.IMPACT_INLINE_FLOORS = 0
    backwards = {**RULE_8_WINDOW, "from": "2022-01-01", "to": "2016-01-01"}
    answer = _impact(vendor, change=backwards, job=True)
    assert answer.status_code == 400 and "change.to" in answer.json()["error"]["fields"]
    assert ImpactJob.objects.count() == 0


@pytest.mark.usefixtures("two_floors")
def test_a_job_writes_its_progress_as_it_judges(
    vendor: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(impact_jobs, "PROGRESS_EVERY", 1)
    body = {"jurisdiction": "US-CO", "change": RULE_8_WINDOW}
    job = ImpactJob.objects.create(created_by=vendor, jurisdiction="US-CO", asked=body, floors=2)
    seen = []

    def judge(asked: dict[str, Any], user: Any, progress: Any) -> dict[str, Any]:
        def watched(done: int) -> None:
            progress(done)
            row = ImpactJob.objects.get(pk=job.pk)
            seen.append((row.status, row.floors_done))

        return impact_asked(asked, user, progress=watched)

    impact_job_run(job_id=str(job.pk), judge=judge)

    assert seen == [("running", 1), ("running", 2)]
    job.refresh_from_db()
    assert job.status == "done" and job.finished_at is not None
    impact_job_run(job_id=str(job.pk), judge=judge)  # delivered twice: judged once
    assert len(seen) == 2


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.usefixtures("two_floors")
def test_a_job_is_refused_with_503_and_not_stored_while_the_broker_is_down(vendor: User) -> None:
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app_use(broker_url=f"redis://127.0.0.1:{_closed_port()}/0", task_always_eager=False)
    try:
        answer = _impact(vendor, change=RULE_8_WINDOW, job=True)
    finally:
        celery_app_use(**saved)
    assert answer.status_code == 503
    assert answer.json()["error"]["code"] == "queue_unavailable"
    assert ImpactJob.objects.count() == 0


@pytest.mark.usefixtures("two_floors")
def test_the_desk_goes_to_the_job_s_page_which_shows_the_report(
    vendor: User, officer: User, settings: Settings
) -> None:
    settings.IMPACT_INLINE_FLOORS = 1
    browser = Client()
    browser.force_login(vendor)
    asked = browser.get(
        "/impact/", {"rules": "US-CO/rule-8", "start": "2016-01-01", "end": "2022-01-01"}
    )
    job = ImpactJob.objects.get()
    assert asked.status_code == 302 and asked["Location"] == f"/impact/jobs/{job.pk}/"
    page = browser.get(asked["Location"]).content.decode()
    assert "2 of 2 floors judged (100%)" in page
    assert "2 configurations affected; 0 not affected." in page
    assert "Table BJ-01" in page and "Second Casino" in page
    # over: the fragment no longer polls
    fragment = browser.get(f"/impact/jobs/{job.pk}/progress/").content.decode()
    assert "hx-get" not in fragment and "2 configurations affected" in fragment
    other = Client()
    other.force_login(officer)
    assert other.get(asked["Location"]).status_code == 404
