"""python manage.py repair_stored_text [--write] — list (and with --write repair) stored rows
holding text the API now refuses: lone surrogates, control characters, numbers where a
configuration's contract says string (pitboss/repair.py says how each is repaired)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from pitboss.repair import stored_text_repairs


class Command(BaseCommand):
    help = (
        "Find stored rows with lone surrogates, control characters or numbers where text "
        "belongs; --write repairs them (surrogates to U+FFFD, control characters removed, "
        "numbers to their text)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--write", action="store_true", help="Repair the rows found.")

    def handle(self, *args: Any, **options: Any) -> None:
        repairs = stored_text_repairs(write=options["write"])
        for repair in repairs:
            self.stdout.write(f"{repair.model} {repair.pk}: {', '.join(repair.fields)}")
        if not repairs:
            self.stdout.write("No stored row needs repair.")
        elif options["write"]:
            self.stdout.write(f"{len(repairs)} row(s) repaired.")
        else:
            self.stdout.write(f"{len(repairs)} row(s) to repair: run again with --write.")
