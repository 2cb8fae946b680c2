"""python manage.py restore IN.json — load a backup into an empty, migrated database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitboss.errors import DomainError
from regs.backups import backup_restore


class Command(BaseCommand):
    help = "Restore a backup (manage.py backup) into an empty database after `migrate`."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="A backup written by manage.py backup.")

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path} does not exist or is not a file.")
        try:
            backup_restore(path)
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(f"restored {path}")
