"""python manage.py backup OUT.json — the whole database as one JSON file (regs/backups.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from regs.backups import backup_write


class Command(BaseCommand):
    help = "Write a backup of the knowledge base and the submissions, users and tokens (JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("out", type=Path, help="The file to write, e.g. pitboss-backup.json.")

    def handle(self, *args: Any, **options: Any) -> None:
        out: Path = options["out"]
        if out.suffix != ".json":
            raise CommandError(f"{out}: a backup file's name ends in .json (restore reads it so).")
        partial = out.with_name(out.name + ".partial")
        with partial.open("w", encoding="utf-8") as stream:
            backup_write(stream)
        partial.replace(out)  # a backup file is whole or absent
        self.stdout.write(f"wrote {out} ({out.stat().st_size:,} bytes)")
