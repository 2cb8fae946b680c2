"""Simulations of a configuration's base game as jobs (POST simulations/): split into seeded
chunks that Celery workers run (in-process when no broker is set), each adding its exact sums to
the job. The same seed gives the same result as engine.simulate in-process."""

from __future__ import annotations

import secrets
from fractions import Fraction
from typing import Any

from django.db import transaction

from engine.simulate import (
    CHUNK_ROUNDS,
    METHOD,
    EffectResult,
    EffectsResult,
    NotSimulable,
    SimulationResult,
    check_simulable,
    chunk_sizes,
    effects_chunk,
    rules_as_dict,
    rules_from_dict,
    simulate_chunk,
    variations,
)
from pitboss.errors import DomainError

from .configuration import Configuration
from .jobs import chunk_run_once, chunks_dispatch, job_fail, queue_check
from .models import SimulationJob
from .rounds import configuration_table

MAX_ROUNDS = 100_000_000
SIMULATION_CHUNK_TASK = "compliance.simulation_chunk_run"
"""The Celery task that runs one chunk of a job (compliance.tasks)."""
STRATEGY = (
    "basic strategy computed for the rules (total-dependent, for an infinite shoe); insurance "
    "and even money declined"
)
SHOE = "{decks} decks shuffled, cut card after 3/4 of the cards, reshuffled after that round"
CONTINUOUS_SHOE = (
    "{decks} decks in a continuous shuffler (dealing: csm): every round dealt from all the cards"
)


def simulation_job_create(
    *,
    configuration: Configuration,
    rounds: int,
    table: str | None = None,
    seed: int | None = None,
    effects: bool = False,
    user: Any = None,
) -> SimulationJob:
    """Store a simulation job of `rounds` rounds at the named table (default the first) and send
    its chunks to the workers (run them here with no broker); with `effects`, also each rule
    option's change. Without a `seed`, a random one, which the job reports.

    :raises pitboss.errors.DomainError: an unknown table, or a game the engine cannot play.
    """
    index, dealt, found = configuration_table(configuration, table)
    try:
        check_simulable(found.rules)
    except NotSimulable as exc:
        raise DomainError(
            "game_not_simulated",
            f"{dealt.game}: {exc}",
            fields={f"configuration.tables[{index}].game": str(exc)},
        ) from exc
    queue_check()
    if seed is None:
        seed = secrets.randbits(63)
    assumed = list(found.assumed)
    if found.rules.side_wagers:
        assumed.append("side wagers: not simulated (the base game only)")
    if found.rules.super_bonus:
        assumed.append(
            "the Super Bonus and Envy Bonus (30-899.16(10), dollar amounts): not paid, as the "
            "exact analysis leaves them out"
        )
    with transaction.atomic():
        job = SimulationJob(
            configuration=dict(configuration.source),
            table=dealt.name,
            rules=rules_as_dict(found.rules),
            assumed=assumed,
            rounds=rounds,
            seed=seed,
            chunk_rounds=CHUNK_ROUNDS,
            chunks=len(chunk_sizes(rounds, CHUNK_ROUNDS)),
            effects=effects,
            continuous_shuffler=dealt.dealing == "csm",
            created_by=user if user and user.is_authenticated else None,
        )
        job.full_clean()
        job.save()
        transaction.on_commit(lambda: simulation_job_dispatch(job=job))
    job.refresh_from_db()  # chunks run in-process have finished by now
    return job


def simulation_job_dispatch(*, job: SimulationJob) -> None:
    """One Celery task per chunk (`chunks_dispatch`).

    :raises pitboss.errors.DomainError: queue_unavailable, status 503.
    """
    chunks_dispatch(job, SIMULATION_CHUNK_TASK)


def simulation_chunk_run(*, job_id: str, index: int) -> None:
    """Run chunk `index` of a job and add its sums to the job's, once (`chunk_run_once`); the
    last chunk in computes the result."""

    def compute(job: SimulationJob) -> EffectsResult:
        rules = rules_from_dict(job.rules)
        rounds = chunk_sizes(job.rounds, job.chunk_rounds)[index]
        continuous = job.continuous_shuffler
        if job.effects:
            return effects_chunk(rules, rounds, job.seed, index, continuous)
        return EffectsResult(simulate_chunk(rules, rounds, job.seed, index, continuous), ())

    def add(job: SimulationJob, chunk: EffectsResult) -> dict[str, Any]:
        return _sums_write(chunk if not job.sums else _sums_read(job) + chunk)

    def finish(job: SimulationJob) -> None:
        job.result = simulation_result(job, _sums_read(job))

    chunk_run_once(SimulationJob, job_id, index, compute, add, finish)


def simulation_job_fail(*, job_id: str, error: str) -> None:
    """Mark a job failed (a chunk raised)."""
    job_fail(SimulationJob, job_id, error)


def _sums_write(total: EffectsResult) -> dict[str, Any]:
    def sums(result: SimulationResult) -> dict[str, str]:
        return {
            "rounds": str(result.rounds),
            "units": str(result.total_units),
            "squares": str(result.total_squares),
            "unit": str(result.unit),
            "chunks": str(result.chunks),
        }

    return {
        "base": sums(total.base),
        "effects": [
            {**sums(e.result), "diff_units": str(e.diff_units), "diff_squares": str(e.diff_squares)}
            for e in total.effects
        ],
    }


def _sums_read(job: SimulationJob) -> EffectsResult:
    def result(sums: dict[str, str]) -> SimulationResult:
        return SimulationResult(
            int(sums["rounds"]),
            int(sums["units"]),
            int(sums["squares"]),
            Fraction(sums["unit"]),
            int(sums["chunks"]),
        )

    changes = variations(rules_from_dict(job.rules)) if job.sums["effects"] else []
    return EffectsResult(
        result(job.sums["base"]),
        tuple(
            EffectResult(change, result(e), int(e["diff_units"]), int(e["diff_squares"]))
            for change, e in zip(changes, job.sums["effects"], strict=True)
        ),
    )


def simulation_result(job: SimulationJob, total: EffectsResult) -> dict[str, Any]:
    """What GET simulations/{id}/ shows of a finished job."""
    result: dict[str, Any] = {
        **total.base.as_dict(),
        "method": METHOD,
        "strategy": STRATEGY,
        "shoe": (CONTINUOUS_SHOE if job.continuous_shuffler else SHOE).format(
            decks=job.rules["decks"]
        ),
        "seed": job.seed,
        "chunk_rounds": job.chunk_rounds,
    }
    if job.effects:
        result["effects"] = [effect.as_dict() for effect in total.effects]
    return result
