"""Celery tasks of the compliance app: each takes ids and calls one service. Registered when the
app is ready (compliance.apps); the job kinds send them by name (compliance.jobs)."""

from __future__ import annotations

from celery import shared_task

from .paytable_simulations import (
    PAYTABLE_SIMULATION_CHUNK_TASK,
    paytable_simulation_chunk_run,
    paytable_simulation_fail,
)
from .simulations import SIMULATION_CHUNK_TASK, simulation_chunk_run, simulation_job_fail


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
