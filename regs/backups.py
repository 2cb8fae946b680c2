"""Backups: the whole database — knowledge base and record history, catalog, users and tokens,
validation runs, sign sets, simulation jobs — as one JSON file, and its restore into an empty
database (`manage.py backup OUT`, `manage.py restore IN`).

The file is Django's `dumpdata` with natural keys for content types, permissions and groups
(which `migrate` makes in every database) and primary keys for the rest, so a restored database
dumps to the same bytes. Content types and permissions are left out (`migrate` makes them);
sessions too (a restore logs everyone out), and django-axes' failed logins and lockouts. On
PostgreSQL the dump reads one snapshot (REPEATABLE READ), so writes while it runs do not tear it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection, transaction

from pitboss.errors import DomainError
from regs.models import Provision

EXCLUDED = ["contenttypes", "auth.permission", "sessions", "axes"]


def backup_write(out: TextIO) -> None:
    """Write the backup of the whole database to `out`."""
    outermost = not connection.in_atomic_block  # else already in one transaction (a test's)
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        call_command(
            "dumpdata",
            natural_foreign=True,
            natural_primary=True,
            exclude=EXCLUDED,
            indent=1,
            stdout=out,
        )


def backup_restore(path: Path) -> None:
    """Load a backup into this database, which must be migrated and hold no users nor rules.

    :raises DomainError: the database is not empty (a restore never merges into live data).
    """
    if get_user_model().objects.exists() or Provision.objects.exists():
        raise DomainError(
            "database_not_empty",
            "The database already holds users or rules; restore into an empty database "
            "(create it and run `manage.py migrate` first).",
        )
    call_command("loaddata", str(path), verbosity=0)  # one transaction
