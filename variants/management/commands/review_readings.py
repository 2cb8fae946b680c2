"""python manage.py review_readings — every analysis of the catalog (and of the sample
configurations' base games) that gives the player an edge or differs from a published figure, with
its reading and annotation, explained or not (variants/review.py); with --check, exit 1 if any is
unexplained or a paytable column lacks an exact figure."""

from __future__ import annotations

import sys
import textwrap
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from variants.models import Paytable
from variants.review import review


class Command(BaseCommand):
    help = (
        "List the readings under review: each catalog analysis giving the player an edge or "
        "differing from a published figure, with its reading, its annotation and why it stands "
        "(or UNEXPLAINED)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("paytables", nargs="*", help="Paytable keys (default: every one).")
        parser.add_argument(
            "--unexplained", action="store_true", help="List only the readings unexplained."
        )
        parser.add_argument(
            "--check",
            action="store_true",
            help="Exit 1 if a reading is unexplained or a paytable column has no exact figure.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keys = options["paytables"]
        chosen = Paytable.objects.filter(key__in=keys).order_by("key") if keys else None
        found = review(chosen, base_games=not keys)
        for reading in found.readings:
            if options["unexplained"] and reading.explained:
                continue
            column = f" column {reading.column!r}" if reading.column else ""
            decks = f" at {reading.decks} decks" if reading.decks else ""
            self.stdout.write(f"{reading.subject}{column}{decks}: house edge {reading.house_edge}")
            for why in reading.why:
                self.stdout.write(_wrapped("why", why))
            self.stdout.write(_wrapped("reading", reading.reading))
            self.stdout.write(_wrapped("annotation", reading.annotation or "none"))
            self.stdout.write(_wrapped("explained", reading.explained or "UNEXPLAINED"))
            self.stdout.write("")
        for missing in found.without_exact:
            self.stdout.write(_wrapped("no exact figure", missing))
        aside = ", ".join(sorted(found.set_aside)) or "none"
        self.stdout.write(
            f"readings under review: {len(found.readings)} ({len(found.unexplained)} unexplained) "
            f"of {found.analysed} exact analyses; paytable columns × deck counts without an exact "
            f"figure besides the wagers the cards do not decide ({aside}): "
            f"{len(found.without_exact)}"
        )
        if options["check"] and (found.unexplained or found.without_exact):
            sys.exit(1)


def _wrapped(label: str, text: str) -> str:
    return textwrap.fill(
        " ".join(text.split()),
        width=100,
        initial_indent=f"  {label}: ",
        subsequent_indent="    ",
    )
