"""python manage.py ingest FILE --jurisdiction US-CO --instrument "Rule 8" [--proposed]"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from pitboss.errors import DomainError
from regs.ingest.sources import SourceError, check_size
from regs.models import Status
from regs.services import instrument_for, source_ingest


class Command(BaseCommand):
    help = "Ingest a regulation (PDF or its text form) into the knowledge base, in one transaction."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--jurisdiction", required=True, help="Jurisdiction code, e.g. US-CO.")
        parser.add_argument(
            "--instrument", required=True, help='Instrument name or slug, e.g. "Rule 8".'
        )
        parser.add_argument("--proposed", action="store_true", help="The file is a proposed text.")
        parser.add_argument(
            "--user", help="Username the change is recorded under (default: pitboss-ingest)."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path} does not exist or is not a file.")
        try:
            check_size(path.name, path.stat().st_size)  # before reading a byte of it
        except SourceError as exc:
            raise CommandError(str(exc)) from exc
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"No user {options['user']!r}.")
        try:
            instrument = instrument_for(options["jurisdiction"], options["instrument"])
            report = source_ingest(
                instrument=instrument,
                name=path.name,
                data=path.read_bytes(),
                status=Status.PROPOSED if options["proposed"] else Status.ADOPTED,
                user=user,
                progress=self._progress
                if sys.stderr.isatty() or options["verbosity"] > 1
                else None,
            )
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        self.stderr.write("")
        self.stdout.write(render_report(report.as_dict()))

    def _progress(self, done: int, total: int, label: str) -> None:
        self.stderr.write(f"\r  section {done}/{total} {label:<14}", ending="")
        self.stderr.flush()


def render_report(report: dict[str, Any]) -> str:
    """The end-of-ingestion report a person reads."""
    lines = [
        f"{report['source']} ({report['kind']}): {report['sections']} sections, "
        f"{report['units']} units, {report['dates']} dated events",
        "  created: "
        + (", ".join(f"{n} {k}" for k, n in sorted(report["created"].items())) or "nothing"),
        "  updated: "
        + (", ".join(f"{n} {k}" for k, n in sorted(report["updated"].items())) or "nothing"),
        f"  lines not placed: {len(report['unplaced'])}",
    ]
    lines += [f"    {text[:100]}" for text in report["unplaced"]]
    return "\n".join(lines)
