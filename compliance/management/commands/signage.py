"""python manage.py signage config.json --out DIR — print a configuration's signs as PDFs."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.api.configuration import configuration_parse
from compliance.services import NotCompliant, sign_set_create
from compliance.signage_render import SIZES, sign_set_pdf
from pitboss.errors import InvalidInput


class Command(BaseCommand):
    help = "Print the signs a table configuration (JSON) needs: a PDF per sign and signs.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--out", type=Path, required=True, help="Directory for the PDFs.")
        parser.add_argument("--size", choices=list(SIZES), default="letter")
        parser.add_argument(
            "--draft",
            action="store_true",
            help="Print a configuration with findings anyway, every page marked NOT APPROVED.",
        )
        parser.add_argument(
            "--no-wall-signs", action="store_true", help="Keep every notice on its table's sign."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = json.loads(options["file"].read_text())
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"{options['file']}: {exc}") from exc
        try:
            sign_set = sign_set_create(
                configuration=configuration_parse(data),
                draft=options["draft"],
                wall_signs=not options["no_wall_signs"],
            )
        except InvalidInput as exc:
            raise CommandError(f"{options['file']}: malformed configuration: {exc.detail}") from exc
        except NotCompliant as exc:
            self.stderr.write(exc.message)
            for f in exc.findings:
                if f["severity"] == "error":
                    self.stderr.write(
                        f"  ERROR {f['code']} [{f['table']}] {f['path']}: {f['message']}"
                    )
            sys.exit(1)
        out: Path = options["out"]
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for n, sign in enumerate(sign_set.signs):
            name = "wall" if sign["table"] is None else "table-" + _slug(sign["table"])
            path = out / f"{n:02d}-{name}.pdf"
            path.write_bytes(sign_set_pdf(sign_set, size=options["size"], sign=n))
            written.append(path)
        (out / "signs.json").write_text(
            json.dumps(
                {
                    "id": str(sign_set.pk),
                    "draft": sign_set.draft,
                    "signs": sign_set.signs,
                    "findings": sign_set.findings,
                },  # fmt: skip
                indent=2,
                default=str,
            )
        )
        state = "DRAFT (NOT APPROVED)" if sign_set.draft else "approved"
        self.stdout.write(f"sign set {sign_set.pk}: {len(written)} signs, {state}")
        for path in written:
            self.stdout.write(f"  {path}")


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "table"
