"""Celery tasks of the compliance app: each takes ids and calls one service. Registered when the
app is ready (compliance.apps); the job kinds send them by name (compliance.jobs)."""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task
from django.conf import settings

from .api.configuration import configuration_parse
from .api.impact import impact_asked
from .impact_jobs import IMPACT_JOB_TASK, impact_job_fail, impact_job_run
from .paytable_simulations import (
    PAYTABLE_SIMULATION_CHUNK_TASK,
    paytable_simulation_chunk_run,
    paytable_simulation_fail,
)
from .simulations import SIMULATION_CHUNK_TASK, simulation_chunk_run, simulation_job_fail
from .watch import (
    DELIVERY_TASK,
    EAGER_WAIT_LIMIT,
    WATCH_CHANGE_TASK,
    change_fail,
    change_judge,
    delivery_attempt,
    delivery_fail,
    retry_wait,
)


@shared_task(name=SIMULATION_CHUNK_TASK, acks_late=True, reject_on_worker_lost=True)
def simulation_chunk_run_task(job_id: str, index: int) -> None:
    """Run one chunk of a simulation job. A chunk that raises fails its job: the input was
    checked when the job was created, so this is a bug to fix, not a case to retry."""
    try:
        simulation_chunk_run(job_id=job_id, index=index)
    except Exception as exc:
        simulation_job_fail(job_id=job_id, error=f"chunk {index}: {type(exc).__name__}: {exc}")
        raise


@shared_task(name=PAYTABLE_SIMULATION_CHUNK_TASK, acks_late=True, reject_on_worker_lost=True)
def paytable_simulation_chunk_run_task(job_id: str, index: int) -> None:
    """Run one chunk of a paytable simulation job; a chunk that raises fails its job (as
    `simulation_chunk_run_task`)."""
    try:
        paytable_simulation_chunk_run(job_id=job_id, index=index)
    except Exception as exc:
        paytable_simulation_fail(job_id=job_id, error=f"chunk {index}: {type(exc).__name__}: {exc}")
        raise


@shared_task(name=WATCH_CHANGE_TASK, acks_late=True, reject_on_worker_lost=True)
def watch_change_task(change_id: str) -> None:
    """Judge a recorded change over the floors on file and tell its subscribers (the stored
    configurations read again by the API's parser, as a request's are). One that raises fails
    its change, with why."""
    try:
        change_judge(change_id=change_id, parse=_parse)
    except Exception as exc:
        change_fail(change_id=change_id, error=f"{type(exc).__name__}: {exc}")
        raise


@shared_task(name=IMPACT_JOB_TASK, acks_late=True, reject_on_worker_lost=True)
def impact_run_task(job_id: str) -> None:
    """Judge an impact job (the request read again by the API's reader, as the user who asked).
    One that raises fails its job, with why."""
    try:
        impact_job_run(job_id=job_id, judge=_impact)
    except Exception as exc:
        impact_job_fail(job_id=job_id, error=f"{type(exc).__name__}: {exc}")
        raise


def _impact(asked: dict[str, Any], user: Any, progress: Any) -> dict[str, Any]:
    return impact_asked(asked, user, progress=progress)


def _parse(data: dict[str, Any], heads: dict[str, int]) -> Any:
    return configuration_parse(data, heads=heads)


@shared_task(name=DELIVERY_TASK, bind=True, acks_late=True, reject_on_worker_lost=True)
def delivery_send_task(self: Any, delivery_id: int) -> None:
    """Send one webhook; a failed attempt is retried WEBHOOK_RETRIES times, after
    WEBHOOK_BACKOFF seconds doubled for each retry, then the delivery is given up."""
    if delivery_attempt(delivery_id=delivery_id):
        return
    if self.request.is_eager:
        # In-process (no broker): a Celery retry would run at once, so the waits are here,
        # each at most EAGER_WAIT_LIMIT (the write that recorded the change is held meanwhile).
        for retry in range(settings.WEBHOOK_RETRIES):
            time.sleep(min(retry_wait(retry), EAGER_WAIT_LIMIT))
            if delivery_attempt(delivery_id=delivery_id):
                return
        delivery_fail(delivery_id=delivery_id)
        return
    if self.request.retries >= settings.WEBHOOK_RETRIES:
        delivery_fail(delivery_id=delivery_id)
        return
    raise self.retry(
        countdown=retry_wait(self.request.retries), max_retries=settings.WEBHOOK_RETRIES
    )
