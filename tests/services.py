"""The services a test reaches beside the Django test client: a Redis database it may empty, and
the test database as a DATABASE_URL for a separate process (a Celery worker, a server)."""

from __future__ import annotations

import os

import pytest
import redis
from django.db import connection


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
