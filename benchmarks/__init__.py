"""Benchmarks, run with `make bench` (python -m benchmarks); the soak (benchmarks.soak) and the
before/after dump of a redesign (benchmarks.golden)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fresh_database(directory: str) -> None:
    """Django set up on a new SQLite database in `directory`, migrated: figures and dumps that do
    not depend on what a developer's db.sqlite3 holds."""
    os.environ["DATABASE_URL"] = f"sqlite:///{directory}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitboss.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(samples: list[float], q: float) -> float:
    """The sample at quantile `q` (0 to 1) of `samples`, as the benchmarks report it."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
