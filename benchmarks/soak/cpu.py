"""The server CPU one validation POST costs, measured in-process (no load generator sharing the
cores, so the figure holds on a busy machine where the soak's throughput would not):

    DATABASE_URL=postgres://… python -m benchmarks.soak.cpu [--posts 200] [--profile N]

Runs as the soak's server does (DEBUG off, the soak's settings from benchmarks.soak), on the
database DATABASE_URL names, which must hold the knowledge base (`manage.py load_knowledge_base`).
A vendor `cpu-bench` is created there if missing. The sample configurations are POSTed through
Django's whole request stack (middleware, authentication, throttle, view, rendering) with the
vendor's token; after a warm-up, it prints the CPU time (time.process_time) a POST costs, in the
best batch of 20 and the median batch, and the SQL queries a POST makes. --profile N prints
cProfile's N heaviest functions (in CPU time), by cumulative and own time.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

# POSTs timed together: the best batch is the figure, the one least slowed by other processes
# (on a shared machine, CPU time per request grows with the load of the other cores).
BATCH = 20
PROFILE_FILE = Path(tempfile.gettempdir()) / "pitboss-validation-cpu.prof"
ROOT = Path(__file__).resolve().parents[2]
BODIES = [
    (ROOT / "fixtures" / "configs" / name).read_text()
    for name in ("casino-house-rules-co.json", "casino-house-rules-ma.json")
]


def _setup() -> None:
    from benchmarks.soak.__main__ import soak_env

    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL database holding the knowledge base.")
    url = os.environ["DATABASE_URL"]
    os.environ.update(soak_env())
    os.environ["DATABASE_URL"] = url
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitboss.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def _token() -> str:
    from django.contrib.auth.models import User

    from jurisdictions.services import api_token_rotate, api_user_create

    user = User.objects.filter(username="cpu-bench").first()
    if user is None:
        return api_user_create(username="cpu-bench")[1].key
    return api_token_rotate(user=user).key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--profile", type=int, default=0, help="print the N heaviest functions")
    options = parser.parse_args()
    _setup()
    from django.db import connection
    from django.test import Client

    client = Client(HTTP_AUTHORIZATION=f"Token {_token()}")

    def post(n: int) -> None:
        response = client.post(
            "/api/v1/validations/", BODIES[n % len(BODIES)], content_type="application/json"
        )
        assert response.status_code == 201, response.content[:500]

    for n in range(options.warmup):
        post(n)
    queries: list[str] = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        post(0)
    profile = cProfile.Profile(time.process_time) if options.profile else None
    if profile:
        profile.enable()
    batches = []  # CPU seconds of each batch of BATCH POSTs
    for first in range(0, options.posts, BATCH):
        start = time.process_time()
        for n in range(first, min(first + BATCH, options.posts)):
            post(n)
        batches.append((time.process_time() - start) / (min(first + BATCH, options.posts) - first))
    if profile:
        profile.disable()
    print(
        f"{1000 * min(batches):.2f} ms of CPU a validation POST, best batch of {BATCH} "
        f"(median {1000 * statistics.median(batches):.2f} ms; {options.posts} POSTs"
        f"{', profiled' if profile else ''}); {len(queries)} SQL queries a POST"
    )
    if profile:
        print("\n".join(queries))
        profile.dump_stats(PROFILE_FILE)
        print(f"(the whole profile: {PROFILE_FILE}, for pstats)")
        for order in ("cumulative", "tottime"):
            pstats.Stats(profile).sort_stats(order).print_stats(options.profile)


if __name__ == "__main__":
    main()
