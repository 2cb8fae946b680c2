"""python manage.py validate config.json — print the findings; exit 1 when not compliant."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.api.configuration import configuration_parse
from compliance.services import validation_run_create
from pitboss.errors import InvalidInput


class Command(BaseCommand):
    help = "Validate a table configuration (JSON) and print every finding with its citations."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = json.loads(options["file"].read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"{options['file']}: {exc}") from exc
        try:
            run = validation_run_create(configuration=configuration_parse(data))
        except InvalidInput as exc:
            raise CommandError(f"{options['file']}: malformed configuration: {exc.detail}") from exc
        verdict = "compliant" if run.compliant else "NOT compliant"
        self.stdout.write(
            f"{run.jurisdiction} as of {run.as_of}: {verdict} ({len(run.findings)} "
            f"findings, run {run.id})"
        )
        for f in run.findings:
            cites = "; ".join(
                f"{c['jurisdiction']} {c['citation']} (since {c['effective_from'] or 'undated'})"
                for c in f["citations"]
            )
            self.stdout.write(
                f"  {f['severity'].upper():7} {f['code']}  [{f['table']}] {f['path']}"
            )
            self.stdout.write(f"          {f['message']}")
            if cites:
                self.stdout.write(f"          cites {cites}")
        if not run.compliant:
            sys.exit(1)
