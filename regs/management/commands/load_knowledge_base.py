"""python manage.py load_knowledge_base — ingest the shipped sources in fixtures/sources/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from regs.models import Status
from regs.services import annotations_apply, instrument_for, source_ingest

from .ingest import render_report

# (file under fixtures/sources, jurisdiction, instrument, status). Text first, then the PDF of the
# same regulation: the PDF adds page numbers and must not change any text. The Massachusetts PDF
# prints its section numbers as garbled list counters, so the ingester refuses it; its text form
# is the source.
SOURCES = [
    ("text/co-rule-8-blackjack.md", "US-CO", "rule-8", Status.ADOPTED),
    ("pdf/co-rule-8-blackjack.pdf", "US-CO", "rule-8", Status.ADOPTED),
    ("text/co-rule-21-blackjack-poker.md", "US-CO", "rule-21", Status.ADOPTED),
    ("pdf/co-rule-21-blackjack-poker.pdf", "US-CO", "rule-21", Status.ADOPTED),
    ("text/ma-205-cmr-blackjack.md", "US-MA", "blackjack", Status.ADOPTED),
    ("text/co-raise-the-roof-proposed.md", "US-CO", "rule-8", Status.PROPOSED),
]


class Command(BaseCommand):
    help = (
        "Load the knowledge base: the sources in fixtures/sources, then the catalog (idempotent)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        root = Path(settings.BASE_DIR) / "fixtures" / "sources"
        for name, jurisdiction, instrument, status in SOURCES:
            path = root / name
            report = source_ingest(
                instrument=instrument_for(jurisdiction, instrument),
                name=path.name,
                data=path.read_bytes(),
                status=status,
            )
            self.stdout.write(render_report(report.as_dict()))
        entries = yaml.load((root.parent / "annotations.yaml").read_text(), Loader=yaml.CSafeLoader)
        added, retired = annotations_apply(entries=entries)
        self.stdout.write(
            f"reviewed annotations: {len(entries)} ({added} new, {retired} withdrawn)"
        )
        call_command("load_catalog", stdout=self.stdout)
