"""python manage.py date_notes [--unaccounted] — every date printed in the ingested sources and what
the knowledge base made of it (regs/datenote_audit.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from regs.datenote_audit import dated_notes, shipped_sources
from regs.models import SourceDocument


class Command(BaseCommand):
    help = (
        "List every date printed in each ingested source (text form and PDF) and what became of "
        "it: a version boundary, a label, an event, an annotation saying why neither, or "
        "UNACCOUNTED."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--unaccounted", action="store_true", help="List only the dates unaccounted for."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ingested = set(SourceDocument.objects.values_list("name", flat=True))
        found = unaccounted = 0
        for path, jurisdiction, instrument, status in shipped_sources():
            if path.name not in ingested:
                self.stdout.write(
                    f"{path.name}: not ingested (python manage.py load_knowledge_base)"
                )
                continue
            notes = dated_notes(
                path, jurisdiction=jurisdiction, instrument=instrument, status=status
            )
            missing = [n for n in notes if not n.accounted]
            found, unaccounted = found + len(notes), unaccounted + len(missing)
            counts = ", ".join(
                f"{n} {kind}" for kind, n in sorted(Counter(n.outcome for n in notes).items())
            )
            self.stdout.write(f"{path.name}: {len(notes)} dated notes ({counts or 'none'})")
            for note in missing if options["unaccounted"] else notes:
                place = " ".join(p for p in (note.section, note.unit) if p) or "front matter"
                line = f"  {note.where:>9}  {place:<22} {note.printed:<12} {note.outcome:<11}"
                self.stdout.write(f"{line} {note.detail}")
                if not note.accounted:
                    self.stdout.write(f"{'':13}printed: {note.context}")
        self.stdout.write(f"dated notes: {found} found, {unaccounted} unaccounted")
