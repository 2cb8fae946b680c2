"""python manage.py packet RUN_ID [--format pdf|zip] --out FILE — a validation run's submission
packet (compliance/packet.py), as GET /api/v1/validations/{id}/packet/ gives it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.api.configuration import configuration_parse
from compliance.models import ValidationRun
from compliance.packet import packet_build


class Command(BaseCommand):
    help = (
        "Write a validation run's submission packet: one PDF, or a ZIP of the same content as "
        "JSON and CSV, with the SHA-256 of each part."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("run", help="The validation run's id.")
        parser.add_argument("--format", choices=["pdf", "zip"], default="pdf")
        parser.add_argument("--out", type=Path, required=True, help="The file to write.")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            run = ValidationRun.objects.filter(pk=options["run"]).first()
        except ValidationError:
            run = None
        if run is None:
            raise CommandError(f"No validation run {options['run']!r}.")
        packet = packet_build(run, configuration_parse(run.configuration))
        content = packet.pdf() if options["format"] == "pdf" else packet.zip()
        options["out"].write_bytes(content)
        self.stdout.write(
            f"{options['out']}: the packet of run {run.pk} ({len(packet.parts)} parts, "
            f"{len(content):,} bytes)"
        )
