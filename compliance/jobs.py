"""The machinery every chunked job shares (compliance.models.ChunkedJob: a base-game simulation,
a paytable simulation): the broker checked before a job is stored, one Celery task per chunk sent
by its registered name, each chunk's sums added to its job once under the job's row lock, a job
failed. The job kinds (compliance.simulations, compliance.paytable_simulations) call these; the
tasks (compliance.tasks) call the job kinds; nothing here imports either, so there is no circle."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db import transaction
from django.db.models import Model
from django.utils import timezone
from kombu.exceptions import OperationalError as KombuOperationalError

from pitboss.background import task_send
from pitboss.celery import app
from pitboss.errors import DomainError

from .models import ChunkedJob

MAX_SEED = 2**63 - 1
"""The largest seed a job takes (a signed 64-bit integer, as the kernels draw from it)."""


def queue_unavailable(what: str = "simulation") -> DomainError:
    """The refusal of a job (`what`: a simulation, an impact) while the broker is down."""
    return DomainError(
        "queue_unavailable",
        f"The job queue is unavailable, so the {what} was not queued (nothing was stored). "
        "Try again in a minute.",
        status=503,
    )


def queue_check(what: str = "simulation") -> None:
    """Refuse a job while the broker cannot be reached (nothing to check when tasks run here).

    :raises pitboss.errors.DomainError: queue_unavailable, status 503.
    """
    if app.conf.task_always_eager:
        return
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except (KombuOperationalError, OSError) as exc:
        raise queue_unavailable(what) from exc


def tasks_send(
    job: Model, task: str, arguments: Iterable[tuple[Any, ...]], what: str = "simulation"
) -> None:
    """The task named `task` (registered by compliance.tasks) sent with each of `arguments`
    by pitboss.background.task_send (to Celery, to the server's worker thread, or run here with
    BACKGROUND_TASKS=false). The broker lost meanwhile: the job is deleted, not left queued
    with tasks that no worker will run.

    :raises pitboss.errors.DomainError: queue_unavailable, status 503.
    """
    try:
        for args in arguments:
            task_send(task, *args)
    except (KombuOperationalError, OSError) as exc:
        type(job)._default_manager.filter(pk=job.pk).delete()
        raise queue_unavailable(what) from exc


def chunks_dispatch(job: ChunkedJob, task: str) -> None:
    """One task per chunk of a job, sent (job id, chunk index) (tasks_send).

    :raises pitboss.errors.DomainError: queue_unavailable, status 503.
    """
    tasks_send(job, task, ((str(job.pk), index) for index in range(job.chunks)))


def chunk_run_once(
    model: type[ChunkedJob],
    job_id: str,
    index: int,
    compute: Callable[[Any], Any],
    add: Callable[[Any, Any], dict[str, Any]],
    finish: Callable[[Any], None] | None = None,
) -> None:
    """Run chunk `index` of a job of `model` once: `compute(job)` plays it (outside any
    transaction: it takes seconds), then, under the job's row lock, `add(job, chunk)` gives the
    job's sums with the chunk's added (the chunks recorded beside them) and the last chunk in
    marks the job done (`finish(job)` then fills what the sums give). A chunk delivered again, or
    one of a job that is over, adds nothing."""
    job = model._default_manager.filter(pk=job_id).first()
    if job is None or job.over or index in job.sums.get("chunks", []):
        return
    model._default_manager.filter(pk=job_id, status=ChunkedJob.Status.QUEUED).update(
        status=ChunkedJob.Status.RUNNING, started_at=timezone.now()
    )
    chunk = compute(job)
    with transaction.atomic():
        job = model._default_manager.select_for_update().get(pk=job_id)
        if index in job.sums.get("chunks", []) or job.status == ChunkedJob.Status.FAILED:
            return
        job.sums = {"chunks": [*job.sums.get("chunks", []), index], **add(job, chunk)}
        job.chunks_done += 1
        if job.chunks_done == job.chunks:
            job.status = ChunkedJob.Status.DONE
            job.finished_at = timezone.now()
            if finish is not None:
                finish(job)
        job.save()


def job_fail(model: type[ChunkedJob], job_id: str, error: str) -> None:
    """Mark a job of `model` failed with `error`, unless it is done."""
    model._default_manager.filter(pk=job_id).exclude(status=ChunkedJob.Status.DONE).update(
        status=ChunkedJob.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )
