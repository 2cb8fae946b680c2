"""`manage.py backup` and `restore`: the knowledge base and the submissions (validation runs,
sign sets, simulation jobs, users and tokens) restored into an empty database dump to the same
bytes. The restore runs in real processes on a new database (a file for SQLite, a database of
its own on the PostgreSQL server)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.db import connection

from compliance.api.configuration import configuration_parse
from compliance.api.requests import SimulationIn, request_parse
from compliance.models import SignSet, SimulationJob, ValidationRun
from compliance.services import sign_set_create
from compliance.simulations import simulation_job_create

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "compliance" / "data"

pytestmark = pytest.mark.django_db


@pytest.fixture
def empty_database(tmp_path: Path) -> Iterator[str]:
    """The URL of a new, empty database, dropped afterwards."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    name = f"{db['NAME']}_restore"
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    server = f"postgres://{user}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(database_url: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_backup_restored_into_an_empty_database_dumps_to_the_same_bytes(
    tmp_path: Path, vendor: User, officer: User, empty_database: str
) -> None:
    sign_set_create(
        configuration=configuration_parse(json.loads((DATA / "signage-floor-co.json").read_text())),
        user=vendor,
    )
    simulation_job_create(
        **request_parse(
            SimulationIn,
            {
                "configuration": json.loads((DATA / "signage-floor-co.json").read_text()),
                "rounds": 1000,
                "seed": 7,
            },
        ),
        user=vendor,
    )
    assert ValidationRun.objects.exists() and SignSet.objects.exists()
    assert SimulationJob.objects.exists()
    backup = tmp_path / "backup.json"
    call_command("backup", str(backup), stdout=io.StringIO())
    rows = json.loads(backup.read_text())
    models = {row["model"] for row in rows}
    assert {
        "regs.provision",
        "regs.historicalunitversion",
        "variants.paytable",
        "compliance.validationrun",
        "compliance.signset",
        "compliance.simulationjob",
        "auth.user",
        "authtoken.token",
    } <= models

    manage(empty_database, "migrate", "--no-input", "-v0")
    manage(empty_database, "restore", str(backup))
    again = tmp_path / "again.json"
    manage(empty_database, "backup", str(again))

    assert again.read_bytes() == backup.read_bytes()


def test_a_restore_into_a_database_that_holds_data_is_refused(tmp_path: Path) -> None:
    backup = tmp_path / "backup.json"
    call_command("backup", str(backup), stdout=io.StringIO())
    with pytest.raises(CommandError, match="already holds users or rules; restore into an empty"):
        call_command("restore", str(backup), stdout=io.StringIO())
