"""The test databases' knowledge base, loaded by the real ingester once per state of its inputs
and copied into every test database after (docs/performance.md, "Tests by cost").

Loading it takes about 16 s on SQLite and 25 s on PostgreSQL; `make test` opens six test
databases (two xdist workers and a browser run, on each database). The first to need it loads it
and keeps a copy, under a lock (the other worker waits, then copies): on SQLite a database file
in .cache/ (copied with SQLite's backup API), on PostgreSQL a database that later ones are
created from (CREATE DATABASE … TEMPLATE). The copy is named by a hash of everything that makes
it (the sources and catalog, the apps that read and store them, every migration, the versions of
the packages whose tables it holds), so a change to any of them loads afresh.

`python -m tests.knowledge_base` makes the copy for the database DATABASE_URL names (SQLite by
default) ahead of a run: `make test` does it beside the lint gates, on a core they leave idle.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.metadata
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "test-knowledge-base"
# What the loaded knowledge base depends on: its sources, the code that reads and stores them,
# the schema (every app's migrations), the settings.
INPUTS = (
    "fixtures",
    "jurisdictions",
    "regs",
    "variants",
    "pitboss",
    "compliance/migrations",
)
PACKAGES = ("Django", "django-simple-history", "djangorestframework", "django-axes")
TEMPLATE_PREFIX = "pitboss_kb_"


def state_key() -> str:
    """A hash of every input of the loaded knowledge base (INPUTS, PACKAGES)."""
    digest = hashlib.sha256()
    for top in INPUTS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    for package in PACKAGES:
        digest.update(f"{package}=={importlib.metadata.version(package)}".encode())
    return digest.hexdigest()[:16]


def load_into(connection: Any) -> None:
    """Fill the test database of `connection` (created and migrated, with no knowledge base) with
    the knowledge base: a copy of the kept one, or, the first time, a load that is then kept."""
    if connection.vendor == "sqlite":
        _sqlite(connection, state_key())
    elif connection.vendor == "postgresql":
        _postgresql(connection, state_key())
    else:  # pragma: no cover - the two databases Pitboss runs on
        _load()


def _load() -> None:
    from django.core.management import call_command

    with open(os.devnull, "w") as quiet:
        call_command("load_knowledge_base", verbosity=0, stdout=quiet)


@contextlib.contextmanager
def _file_lock(name: str) -> Iterator[None]:
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / f"{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _sqlite(connection: Any, key: str) -> None:
    kept = CACHE / f"{key}.sqlite3"
    with _file_lock("sqlite"):
        if not kept.exists():
            _load()
            connection.ensure_connection()
            partial = kept.with_suffix(".partial")
            target = sqlite3.connect(partial)
            try:
                connection.connection.backup(target)
            finally:
                target.close()
            os.replace(partial, kept)
            for old in CACHE.glob("*.sqlite3"):
                if old != kept:
                    old.unlink(missing_ok=True)
            return
    connection.ensure_connection()
    source = sqlite3.connect(f"file:{kept}?mode=ro", uri=True)
    try:
        source.backup(connection.connection)
    finally:
        source.close()


@contextlib.contextmanager
def _postgres_admin(connection: Any) -> Iterator[Any]:
    """An autocommit connection to the server's `postgres` database, holding the lock that
    serialises making and copying the kept knowledge base."""
    import psycopg

    params = connection.settings_dict
    admin = psycopg.connect(
        dbname="postgres",
        host=params.get("HOST") or None,
        port=params.get("PORT") or None,
        user=params.get("USER") or None,
        password=params.get("PASSWORD") or None,
        autocommit=True,
    )
    try:
        admin.execute("SELECT pg_advisory_lock(hashtext('pitboss test knowledge base'))")
        yield admin
    finally:
        admin.close()  # the lock goes with the session


def _postgresql(connection: Any, key: str) -> None:
    from psycopg import sql

    template = f"{TEMPLATE_PREFIX}{key}"
    name = connection.settings_dict["NAME"]
    with _postgres_admin(connection) as admin:
        found = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [template])
        if found.fetchone() is None:
            _load()
            connection.close()
            admin.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(template), sql.Identifier(name)
                )
            )
            stale = admin.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s AND datname <> %s",
                [f"{TEMPLATE_PREFIX}%", template],
            ).fetchall()
            for (old,) in stale:
                admin.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(old))
                )
            return
        connection.close()
        admin.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        admin.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template)
            )
        )


def main() -> None:
    """Make the kept copy for DATABASE_URL's database now, in a test database of its own."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitboss.settings")
    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    if connection.vendor == "postgresql":  # not the name a test run's database bears
        settings.DATABASES["default"].setdefault("TEST", {})["NAME"] = (
            f"test_pitboss_kb_build_{os.getpid()}"
        )
    made = setup_databases(verbosity=0, interactive=False, aliases={"default"})
    try:
        load_into(connection)
    finally:
        teardown_databases(made, verbosity=0)


if __name__ == "__main__":
    main()
