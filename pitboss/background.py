"""Where a job's tasks run (docs/architecture.md, "Jobs"; issue #27).

With a broker (CELERY_BROKER_URL), `task_send` sends a task to the Celery workers. Without one,
Celery would run it where it is sent (eager), holding the request that starts a long job until
the job is over (a simulation of ten million rounds, an impact over a thousand floors). Instead
`task_send` hands it to the one worker thread of this process, started with the first task it
is given: the request returns at once, and the job's page shows its progress (polled) while the
thread works through the tasks in the order sent.

BACKGROUND_TASKS=false runs a task in the request instead, as Celery's eager mode does (the
test suite's default, where a test reads a job's result as soon as it has asked for it; the
tests of this module and a browser test run it in the background).

A task that fails records why on its job (compliance.tasks); what it raises is logged here. A
job whose process stops before it ends stays queued or running: start it again.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import connections, transaction

from .celery import app

log = logging.getLogger(__name__)

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def in_background() -> bool:
    """Whether tasks go to this process's worker thread (no broker, and BACKGROUND_TASKS)."""
    return bool(app.conf.task_always_eager and settings.BACKGROUND_TASKS)


def task_send(name: str, *args: Any) -> None:
    """Send the task registered as `name` with `args`: to the broker's workers, to this
    process's worker thread, or run now (see the module's account).

    :raises kombu.exceptions.OperationalError, OSError: the broker cannot be reached."""
    if in_background():
        # once what the request wrote is committed: the thread reads the job with its own
        # connection (at once, outside a transaction)
        transaction.on_commit(lambda: _worker().submit(_run, name, args))
    else:
        app.signature(name, args=args).delay()


def drain(timeout: float | None = None) -> None:
    """Wait until every task sent to the worker thread so far has run (tests, a shutdown).

    :raises TimeoutError: not within `timeout` seconds."""
    if _pool is not None:
        done: Future[None] = _pool.submit(lambda: None)
        done.result(timeout=timeout)


def _worker() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pitboss-tasks")
        return _pool


def _run(name: str, args: tuple[Any, ...]) -> None:
    """One task, run in the worker thread as Celery runs a task in-process; the thread's
    database connection closed after it (as a request's is)."""
    try:
        app.signature(name, args=args).apply(throw=True)
    except Exception:  # recorded on its job by the task; the thread goes on to the next
        log.exception("task %s%r failed in the worker thread", name, args)
    finally:
        connections.close_all()
