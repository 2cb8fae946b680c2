"""python manage.py load_catalog [FILE …] — load the reviewed catalog (default:
fixtures/catalog/*.yaml)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitboss.errors import DomainError
from variants.catalog import CATALOG, catalog_load, catalogs_load


class Command(BaseCommand):
    help = (
        "Load catalog YAML files (wagers, paytables, constraints) into the knowledge base. With no "
        "files, the whole catalog: facts no file holds any more are then removed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="*", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["files"]:
                loaded = {path.name: catalog_load(path=path) for path in options["files"]}
            else:
                loaded = catalogs_load(paths=sorted(CATALOG.glob("*.yaml")))
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        for name, counts in loaded.items():
            self.stdout.write(f"{name}: " + ", ".join(f"{n} {k}" for k, n in counts.items()))
