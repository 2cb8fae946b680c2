"""The write throttle counts in the cache CACHE_URL names: two server processes sharing a Redis
count one user's writes once, so the write past WRITE_RATE is a 429 whichever process answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured

from jurisdictions.services import api_user_create
from pitboss.settings import envcache
from tests.services import per_worker, redis_emptied, shared_database_url

ROOT = Path(__file__).resolve().parents[1]
CACHE = per_worker(os.environ.get("TEST_CACHE_URL", "redis://127.0.0.1:6379/10"))

# One server process: the Django application in-process (Django's test client), writing as the
# vendor whose token is argv[1], `count` times; prints the statuses it got, as JSON.
_PROCESS = """
import json, sys
import django
django.setup()
from django.test import Client
client = Client(HTTP_AUTHORIZATION="Token " + sys.argv[1], HTTP_HOST="localhost")
codes = [client.post("/api/v1/validations/", {}, content_type="application/json").status_code
         for _ in range(int(sys.argv[2]))]
print(json.dumps(codes))
"""


def _server_process_writes(token: str, count: int) -> list[int]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pitboss.settings",
        "DATABASE_URL": shared_database_url(),
        "CACHE_URL": CACHE,
        "WRITE_RATE": "3/minute",
    }
    done = subprocess.run(
        [sys.executable, "-c", _PROCESS, token, str(count)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return list(json.loads(done.stdout.strip().splitlines()[-1]))


@pytest.fixture
def committed_vendor(django_db_setup: None, django_db_blocker: Any) -> Iterator[User]:
    """A vendor the server processes can see: committed to the test database, and deleted
    afterwards (not by emptying every table, as a transactional test would, which would take the
    knowledge base the later tests read with it)."""
    with django_db_blocker.unblock():
        user, _ = api_user_create(username="throttled-vendor")
        yield user
        user.delete()


def test_two_processes_sharing_redis_count_one_users_writes_once(committed_vendor: User) -> None:
    store = redis_emptied(CACHE)
    try:
        first = _server_process_writes(committed_vendor.auth_token.key, 2)
        second = _server_process_writes(committed_vendor.auth_token.key, 2)
    finally:
        store.flushdb()

    # Each write is a 400 (an empty configuration) until the fourth, which the other process
    # refuses: it counted the first process's two.
    assert first == [400, 400]
    assert second == [400, 429]


def test_without_cache_url_each_process_counts_in_its_own_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CACHE_URL", raising=False)
    assert envcache("CACHE_URL")["BACKEND"] == "django.core.cache.backends.locmem.LocMemCache"
    monkeypatch.setenv("CACHE_URL", "redis://127.0.0.1:6379/1")
    assert envcache("CACHE_URL") == {
        "BACKEND": "pitboss.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:6379/1",
    }


def test_a_cache_url_that_is_not_redis_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CACHE_URL", "memcached://127.0.0.1:11211")
    with pytest.raises(ImproperlyConfigured, match="CACHE_URL"):
        envcache("CACHE_URL")
