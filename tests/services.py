"""The services a test reaches beside the Django test client: a Redis database it may empty, the
test database as a DATABASE_URL for a separate process (a Celery worker, a server), and a real
HTTP server receiving webhooks."""

from __future__ import annotations

import contextlib
import http.server
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kombu.pools
import pytest
import redis
from django.db import connection

from pitboss.celery import app

ROOT = Path(__file__).resolve().parents[1]


def per_worker(url: str) -> str:
    """The Redis database `url` names, moved up by the pytest-xdist worker's number (gw0: as
    named, gw1: the next, …), so tests in parallel processes never empty each other's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    base, _, number = url.rpartition("/")
    return f"{base}/{int(number) + int(worker.removeprefix('gw'))}"


def redis_emptied(url: str) -> redis.Redis:
    """A client of the Redis database `url` names, emptied; skips the test (fails it under
    CI=true) if Redis is not reachable."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.exceptions.ConnectionError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis is required under CI=true and unreachable at {url}: {exc}")
        pytest.skip(f"Redis not reachable at {url}")
    client.flushdb()
    return client


def shared_database_url() -> str:
    """The test database as a DATABASE_URL another process's settings read."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        assert "memory" not in name, "the SQLite test database must be a file for another process"
        return f"sqlite:///{name}"
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{user}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


class WebhookReceiver:
    """A real HTTP server on 127.0.0.1, in a thread, that records every POST it receives (its
    headers and body) and answers the first `failures` with a 500, then 200. Use as a context
    manager; `url` is its address."""

    def __init__(self, failures: int = 0) -> None:
        self.failures = failures
        self.received: list[tuple[dict[str, str], bytes, int]] = []
        self._lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver._lock:
                    status = 500 if len(receiver.received) < receiver.failures else 200
                    receiver.received.append((dict(self.headers), body, status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hooks/pitboss"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> WebhookReceiver:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def wait_for(self, count: int, timeout: float = 60) -> None:
        """Until `count` POSTs have arrived (fails the test after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while len(self.received) < count:
            if time.monotonic() > deadline:
                pytest.fail(f"{len(self.received)} webhook POSTs in {timeout} s, {count} awaited")
            time.sleep(0.05)


def celery_app_use(**conf: Any) -> None:
    """Change the Celery app's broker settings, dropping its connection pools: even an eager
    call takes a producer from them (Celery 5), so they may hold the old broker's connections.
    kombu keeps a registry of producer pools by broker too, whose pools the first drop closed:
    it is emptied, or going back to an earlier broker would find a closed pool."""
    app.conf.update(conf)
    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    app.amqp._producer_pool = None
    kombu.pools.reset()


@contextlib.contextmanager
def celery_worker(broker: str, **env: str) -> Iterator[Path]:
    """A Celery worker process on the test database consuming from `broker` (a Redis database,
    emptied before and after), two pool processes, with `env` added to its environment; the
    test process sends tasks there instead of running them eagerly. Yields the worker's log."""
    client = redis_emptied(broker)
    log = Path(tempfile.mkstemp(prefix="celery-worker-", suffix=".log")[1])
    environment = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "CELERY_BROKER_URL": broker,
        "DJANGO_SETTINGS_MODULE": "pitboss.settings",
        **env,
    }
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "pitboss", "worker",
                "--concurrency", "2", "--loglevel", "info", "--hostname", f"test-{uuid.uuid4()}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=ROOT, env=environment, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    saved = {key: app.conf[key] for key in ("broker_url", "task_always_eager")}
    celery_app_use(broker_url=broker, task_always_eager=False)
    try:
        yield log
    finally:
        celery_app_use(**saved)
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        client.flushdb()
        log.unlink()
