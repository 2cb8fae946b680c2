"""Simulations of a catalog paytable no exact method settles (POST paytable-simulations/): STREAK
and Blackjack Burnout's Bonus (engine.streak), at every deck count the paytable allows, split
into seeded chunks that Celery workers run (in-process when no broker is set), each adding its
exact counts to the job; GET the job for its progress and, once done, its analysis."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction

from engine.odds import Pays
from engine.rules import PaytableLine
from engine.simulate import CHUNK_ROUNDS, chunk_sizes
from engine.streak import MIN_ROUNDS, STREAK_WAGERS, StreakCounts, streak_chunk, streak_rules
from pitboss.errors import DomainError
from variants import selectors as catalog
from variants.analysis import allowed_decks, paytable_lines, streak_shown, streak_soft_17

from .jobs import chunk_run_once, chunks_dispatch, job_fail, queue_check
from .models import PaytableSimulationJob

MAX_ROUNDS = 1_000_000_000
MIN_REQUEST_ROUNDS = 1_000_000
IN_PROCESS_ROUNDS = 500_000_000
"""The most rounds in all (a deck count's × deck counts) a job runs with no broker: its chunks
then run within the request (about 35 s here at this size), which a server times out (gunicorn:
120 s) and would leave the job half done."""
PAYTABLE_SIMULATION_CHUNK_TASK = "compliance.paytable_simulation_chunk_run"
"""The Celery task that runs one chunk of a job (compliance.tasks)."""


def paytable_simulation_create(
    *,
    paytable: str,
    decks: int | None = None,
    rounds: int = MIN_ROUNDS,
    seed: int | None = None,
    continuous_shuffler: bool = False,
    user: Any = None,
) -> PaytableSimulationJob:
    """Store a simulation job of the catalog paytable `paytable` (its key), `rounds` rounds at
    `decks` decks (default every deck count it allows), and send its chunks to the workers (run
    them here with no broker). Without a `seed`, a random one, which the job reports.

    :raises pitboss.errors.DomainError: an unknown paytable (404), one with an exact analysis, a
        deck count it is not approved for; the job queue unreachable (503).
    """
    key, found = paytable, catalog.paytables().filter(key=paytable).first()
    if found is None:
        raise DomainError(
            "not_found",
            f"no catalog paytable {key!r}",
            status=404,
            fields={"paytable": "a catalog paytable's key"},
        )
    wager = found.wager.slug
    if wager not in STREAK_WAGERS:
        raise DomainError(
            "exact_analysis",
            f"{found.key} has an exact analysis (GET /api/v1/paytables/{found.key}/"
            f"analysis/): only a wager no exact method settles is simulated "
            f"({', '.join(sorted(STREAK_WAGERS))})",
            fields={"paytable": "a paytable of a wager without an exact analysis"},
        )
    allowed = allowed_decks(found)
    counts = [decks] if decks is not None else allowed
    if counts[0] not in allowed:
        approved = ", ".join(map(str, allowed))
        raise DomainError(
            "decks_not_approved",
            f"{found.key} is approved for {approved} decks, not {counts[0]}",
            fields={"decks": f"one of {approved}"},
        )
    _check_in_process(rounds, counts)
    queue_check()
    if seed is None:
        seed = secrets.randbits(63)
    per_deck = len(chunk_sizes(rounds, CHUNK_ROUNDS))
    lines = [
        {
            "outcome": line.outcome,
            "pays": str(line.pays),
            "label": line.label,
            "column": line.column,
        }
        for line in paytable_lines(found)
    ]
    with transaction.atomic():
        job = PaytableSimulationJob(
            paytable=found.key,
            jurisdiction=found.wager.jurisdiction.code,
            wager=wager,
            lines=lines,
            decks=counts,
            dealer_hits_soft_17=streak_soft_17(found),
            continuous_shuffler=continuous_shuffler,
            rounds=rounds,
            seed=seed,
            chunk_rounds=CHUNK_ROUNDS,
            chunks=per_deck * len(counts),
            created_by=user if user and user.is_authenticated else None,
        )
        job.full_clean()
        job.save()
        transaction.on_commit(lambda: paytable_simulation_dispatch(job=job))
    job.refresh_from_db()  # chunks run in-process have finished by now
    return job


def _check_in_process(rounds: int, decks: list[int]) -> None:
    """Refuse, where chunks run within the request (no broker), more rounds than it can play.

    :raises pitboss.errors.DomainError: too_many_rounds_in_process (a 400 naming `rounds`).
    """
    from pitboss.celery import app

    if not app.conf.task_always_eager or rounds * len(decks) <= IN_PROCESS_ROUNDS:
        return
    most = IN_PROCESS_ROUNDS // len(decks)
    raise DomainError(
        "too_many_rounds_in_process",
        f"with no job queue (CELERY_BROKER_URL unset) a simulation runs within the request: at "
        f"most {IN_PROCESS_ROUNDS:,} rounds in all, so at most {most:,} a deck count at "
        f"{len(decks)} deck count{'s' if len(decks) > 1 else ''}; ask one deck count, fewer "
        f"rounds, or run Celery workers",
        fields={"rounds": f"at most {most:,} here"},
    )


def paytable_simulation_dispatch(*, job: PaytableSimulationJob) -> None:
    """One Celery task per chunk (`chunks_dispatch`).

    :raises pitboss.errors.DomainError: queue_unavailable, status 503.
    """
    chunks_dispatch(job, PAYTABLE_SIMULATION_CHUNK_TASK)


def _chunk(job: PaytableSimulationJob, index: int) -> tuple[int, int, int]:
    """Chunk `index` of the job: its deck count, its index within that count, its rounds."""
    sizes = chunk_sizes(job.rounds, job.chunk_rounds)
    at, within = divmod(index, len(sizes))
    return job.decks[at], within, sizes[within]


def _lengths(job: PaytableSimulationJob) -> tuple[int, ...]:
    return tuple(sorted(set(STREAK_WAGERS[job.wager].values())))


def paytable_simulation_chunk_run(*, job_id: str, index: int) -> None:
    """Run chunk `index` of a job and add its counts to its deck count's, once
    (`chunk_run_once`)."""

    def compute(job: PaytableSimulationJob) -> tuple[int, StreakCounts]:
        decks, within, rounds = _chunk(job, index)
        rules = streak_rules(job.wager, decks, job.dealer_hits_soft_17)
        lengths = _lengths(job)
        return decks, streak_chunk(
            rules, lengths, rounds, job.seed, within, job.continuous_shuffler
        )

    def add(job: PaytableSimulationJob, chunk: tuple[int, StreakCounts]) -> dict[str, Any]:
        decks, counts = chunk
        by_decks = dict(job.sums.get("decks", {}))
        if str(decks) in by_decks:
            counts = StreakCounts.from_json(by_decks[str(decks)]) + counts
        return {"decks": {**by_decks, str(decks): counts.as_json()}}

    chunk_run_once(PaytableSimulationJob, job_id, index, compute, add)


def paytable_simulation_fail(*, job_id: str, error: str) -> None:
    """Mark a job failed (a chunk raised)."""
    job_fail(PaytableSimulationJob, job_id, error)


def paytable_simulation_result(job: PaytableSimulationJob) -> dict[str, Any] | None:
    """A finished job's analysis, as GET paytables/{id}/analysis/ shows one (decimals and standard
    errors, each spot its own wager); None until every chunk is in."""
    if job.status != PaytableSimulationJob.Status.DONE:
        return None
    lines = [
        PaytableLine(line["outcome"], Pays.parse(line["pays"]), line["label"], line["column"])
        for line in job.lines
    ]
    counts = {d: StreakCounts.from_json(job.sums["decks"][str(d)]) for d in job.decks}
    return {
        **streak_shown(
            job.paytable,
            job.wager,
            lines,
            counts,
            hits_soft_17=job.dealer_hits_soft_17,
            seed=job.seed,
            continuous=job.continuous_shuffler,
        ),
        "rounds_below_minimum": job.rounds < MIN_ROUNDS,
    }
