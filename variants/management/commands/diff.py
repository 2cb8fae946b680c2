"""python manage.py diff US-CO 47.1-834.23 proposed 2025-01-01 — a readable redline.

`--instrument`: python manage.py diff US-CO "Rule 8" 2016-01-01 2022-01-01 --instrument lists
what changed in the instrument between the two dates. `--wager` and `--topic` compare facts:
python manage.py diff US-CO kings-bounty 2024-06-01 --wager --other US-MA;
python manage.py diff US-CO soft-17 2024-06-01 --topic --other US-MA.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from pitboss.errors import DomainError
from regs.diff import selectors as diffs
from regs.diff.redline import terminal_redline
from regs.diff.text import Change
from variants import diff as facts


def _version(value: str) -> dt.date | str:
    if value.lower() == diffs.PROPOSED:
        return diffs.PROPOSED
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f'{value!r}: give a date YYYY-MM-DD or "proposed".') from None


def _change_line(c: Change) -> str:
    where = c.right.citation if c.right else c.left.citation if c.left else ""
    left = c.left.text if c.left and c.left.text else ""
    right = c.right.text if c.right and c.right.text else ""
    words = {
        "insertion": f"+ {right!r}",
        "deletion": f"- {left!r}",
        "replacement": f"{left!r} → {right!r}",
    }.get(c.kind, c.note)
    if c.kind in ("insertion", "deletion") and c.left and c.right and c.left.path != c.right.path:
        words = c.note
    if c.kind in ("renumbered", "moved") and not c.left.path:  # type: ignore[union-attr]
        words = c.note
    tail = f"  ({c.event['raw']})" if c.event else ""
    note = f" [{c.note}]" if c.note == "spelling" else ""
    return f"  {c.kind:<11} {where}: {words}{note}{tail}"


class Command(BaseCommand):
    help = "Print what changed in a provision (two dates, or proposed) or an instrument."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("jurisdiction", help="US-CO or US-MA")
        parser.add_argument(
            "citation", help='A label (47.1-834.23) or, with --instrument, "Rule 8"'
        )
        parser.add_argument("left", help='"proposed" or YYYY-MM-DD')
        parser.add_argument("right", nargs="?", help='"proposed" or YYYY-MM-DD; today if omitted')
        parser.add_argument("--instrument", action="store_true", help="diff a whole instrument")
        parser.add_argument("--wager", action="store_true", help="a wager's facts, by slug")
        parser.add_argument("--topic", action="store_true", help="a base-game rule topic")
        parser.add_argument("--other", help="the right side's jurisdiction (--wager, --topic)")
        parser.add_argument("--all", action="store_true", help="show unchanged units too")
        parser.add_argument("--color", action="store_true", help="red deletions, green insertions")

    def handle(self, *args: Any, **options: Any) -> None:
        today = timezone.localdate()
        left = _version(options["left"])
        right = _version(options["right"]) if options["right"] else today
        if isinstance(left, dt.date) and isinstance(right, dt.date) and left > right:
            raise CommandError(f"{left} is after {right}: give the earlier date first.")
        try:
            if options["wager"] or options["topic"]:
                if not (isinstance(left, dt.date) and isinstance(right, dt.date)):
                    raise CommandError("--wager and --topic compare dates, not proposed text.")
                if options["other"] and not options["right"]:
                    right = left
                self._facts(options, left, right)
            elif options["instrument"]:
                if not (isinstance(left, dt.date) and isinstance(right, dt.date)):
                    raise CommandError("--instrument compares two dates.")
                self._instrument(options["jurisdiction"], options["citation"], left, right)
            else:
                self._provision(options, left, right, today)
        except DomainError as error:
            raise CommandError(error.message) from error

    def _provision(
        self, options: dict[str, Any], left: dt.date | str, right: dt.date | str, today: dt.date
    ) -> None:
        as_of = right if isinstance(right, dt.date) else today
        record, path = diffs.provision_record(
            jurisdiction=options["jurisdiction"],
            citation=options["citation"],
            as_of=as_of,
            today=today,
        )
        diff = diffs.provision_diff(record=diffs.restrict(record, path), left=left, right=right)
        out = self.stdout.write
        out(
            f"{diff.provision['jurisdiction']} {diff.provision['title']}: "
            f"{diff.left.citation} ({diff.left.version}) → {diff.right.citation} "
            f"({diff.right.version})"
        )
        out(f"{len(diff.substantive)} substantive, {len(diff.editorial)} editorial changes")
        for change in diff.substantive:
            out(_change_line(change))
        if diff.editorial:
            out("Editorial (case, whitespace, markdown, punctuation only):")
            for change in diff.editorial:
                where = change.right.citation if change.right else ""
                out(f"  {where}: {', '.join(change.editorial)}")
        if diff.events:
            out("Events:")
            for e in diff.events:
                out(f"  {e['date']} {e['kind']}: {e['raw']}")
        for n in diff.not_on_file:
            out(f"  {n['unit']}: text on one side not on file; no diff shown")
        out("")
        out(terminal_redline(diff.text, color=options["color"], changed_only=not options["all"]))

    def _facts(self, options: dict[str, Any], left: dt.date, right: dt.date) -> None:
        sides = (
            facts.Side(options["jurisdiction"], left),
            facts.Side(options["other"] or options["jurisdiction"], right),
        )
        if options["topic"]:
            diff = facts.topic_diff(topic=options["citation"], left=sides[0], right=sides[1])
        else:
            diff = facts.wager_diff(slug=options["citation"], left=sides[0], right=sides[1])
        out = self.stdout.write
        subject = diff.subject.get("title") or diff.subject.get("wager")
        out(
            f"{subject}: {sides[0].jurisdiction} {left} → {sides[1].jurisdiction} {right}, "
            f"{len(diff.changes)} changes"
        )
        for side, units in diff.text.items():
            out(f"  {side} ({sides[0 if side == 'left' else 1].jurisdiction}):")
            for u in units:
                out(f"    {u['citation']}  {u['text'] if u['text'] is not None else u['state']}")
        for c in diff.changes:
            was = f"{c.left.text} ({c.left.citation})" if c.left else "—"
            now = f"{c.right.text} ({c.right.citation})" if c.right else "—"
            if c.subject.startswith("paytable") and c.right:
                now = f"{c.right.text} ({c.right.citation}, {c.right.fact})"
            if c.subject == "text":
                was, now = c.left.citation if c.left else "—", c.right.citation if c.right else "—"
            flag = "" if c.substantive else "  [printing only]"
            out(f"  {c.kind:<11} {c.subject:<15} {c.key}: {was} → {now}{flag}")

    def _instrument(self, jurisdiction: str, instrument: str, start: dt.date, end: dt.date) -> None:
        diff = diffs.instrument_diff(
            jurisdiction=jurisdiction, instrument=instrument, start=start, end=end
        )
        out = self.stdout.write
        out(f"{jurisdiction} {instrument}: {len(diff.changes)} changes after {start} to {end}")
        for c in diff.changes:
            left = (c.left or {}).get("citation", "")
            right = (c.right or {}).get("citation", "")
            cite = f"{left} → {right}" if c.kind in ("renumbered", "moved") else right or left
            unknown = "  [earlier text not on file]" if c.not_on_file else ""
            out(f"  {c.date} {c.kind:<11} {cite}  ({(c.event or {}).get('raw', '')}){unknown}")
