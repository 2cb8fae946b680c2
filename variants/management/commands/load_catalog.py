"""python manage.py load_catalog [FILE …] — load the reviewed catalog (default: fixtures/catalog/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitboss.errors import DomainError
from variants.catalog import CATALOG, catalog_load


class Command(BaseCommand):
    help = "Load catalog YAML files (wagers, paytables, constraints) into the knowledge base."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        files = options["files"] or sorted(CATALOG.glob("*.yaml"))
        for path in files:
            try:
                counts = catalog_load(path=path)
            except DomainError as exc:
                raise CommandError(exc.message) from exc
            self.stdout.write(f"{path.name}: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
