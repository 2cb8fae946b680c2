"""An impact over many floors, judged as a job (issue #26; docs/api.md, "Impact of a change").

POST impact/ and the desk's "Who is affected" judge a change within the request while the floors
are few (settings.IMPACT_INLINE_FLOORS); beyond that, or when asked, the request is stored as an
ImpactJob and judged by the task `compliance.impact_run` (on Celery where a broker is configured,
else in the server's worker thread: pitboss/background.py), its floors counted as they are
judged, so the API (GET impact/jobs/{id}/) and the desk's job page show its progress, then the
same answer the request would have given.

The task is given the API's reading of the request (compliance.tasks passes it down), so nothing
here imports DRF.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils import timezone

from pitboss.errors import DomainError

from .jobs import queue_check, tasks_send
from .models import ImpactJob

IMPACT_JOB_TASK = "compliance.impact_run"
"""The Celery task that judges an impact job."""
PROGRESS_EVERY = 10
"""Floors judged between two writes of a job's progress."""

Judge = Callable[[dict[str, Any], Any, Callable[[int], None]], dict[str, Any]]
"""What judges a job: (the request as asked, the user who asked, a progress callback) → the
impact, as POST impact/ answers it."""


def impact_job_create(
    *, user: Any, jurisdiction: str, asked: dict[str, Any], floors: int
) -> ImpactJob:
    """Store the request as a job and queue it (pitboss.background.task_send: to Celery, to the
    server's worker thread, or run here with BACKGROUND_TASKS=false, when the job comes back
    done, or failed with why).

    :raises DomainError: queue_unavailable (503), the broker cannot be reached (nothing is
        stored)."""
    queue_check("impact")
    job = ImpactJob.objects.create(
        created_by=user, jurisdiction=jurisdiction, asked=asked, floors=floors
    )
    try:
        tasks_send(job, IMPACT_JOB_TASK, [(str(job.pk),)], "impact")
    except Exception as exc:  # failed in-process: the task marked the job failed, with why
        if isinstance(exc, DomainError) and exc.code == "queue_unavailable":
            raise
    job.refresh_from_db()
    return job


def impact_job_run(*, job_id: str, judge: Judge) -> None:
    """Judge a queued job as the user who asked, its progress written every PROGRESS_EVERY
    floors. A job begun already is left as it is (a task delivered twice judges once)."""
    if not ImpactJob.objects.filter(pk=job_id, status=ImpactJob.Status.QUEUED).update(
        status=ImpactJob.Status.RUNNING
    ):
        return
    job = ImpactJob.objects.select_related("created_by").get(pk=job_id)

    def progress(done: int) -> None:
        if done % PROGRESS_EVERY == 0:
            ImpactJob.objects.filter(pk=job_id).update(floors_done=done)

    result = judge(job.asked, job.created_by, progress)
    judged = len(result["affected"]) + result["unaffected"]
    ImpactJob.objects.filter(pk=job_id).update(
        status=ImpactJob.Status.DONE,
        result=result,
        floors=judged,
        floors_done=judged,
        finished_at=timezone.now(),
    )


def impact_job_fail(*, job_id: str, error: str) -> None:
    ImpactJob.objects.filter(pk=job_id).exclude(status=ImpactJob.Status.DONE).update(
        status=ImpactJob.Status.FAILED,
        error=error[:2000],
        finished_at=timezone.now(),
    )


def impact_jobs_of(user: Any) -> Any:
    """The impact jobs `user` asked for (nobody else's), newest first."""
    return ImpactJob.objects.filter(created_by_id=getattr(user, "pk", None))
