"""python manage.py impact US-CO 2016-01-01 2022-01-01 [--instrument rule-8] [--user NAME]
[--configuration FILE …] [--record]
— the impact of a window of adopted rules (or, with --record, of the writes of the rules recorded
between two record times) on the floors on file (or on configuration files)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from compliance.api.impact import impact_asked
from pitboss.errors import DomainError, InvalidInput


class Command(BaseCommand):
    help = (
        "What a window of adopted rules changes for the floors on file: per table, the findings "
        "that appear and clear, the house edges that move, the signs to reprint."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("jurisdiction", help="US-CO or US-MA")
        parser.add_argument("start", help="The window's first date, YYYY-MM-DD.")
        parser.add_argument("end", help="The window's last date, YYYY-MM-DD.")
        parser.add_argument(
            "--record",
            action="store_true",
            help="START and END are record times (ISO 8601): judge the writes of the rules "
            "recorded between them (amendments by the date each takes effect, proposed texts).",
        )
        parser.add_argument("--instrument", help='Only this instrument\'s changes ("rule-8").')
        parser.add_argument(
            "--user",
            help="Judge the floors this user may see (an officer: its jurisdictions'; a vendor: "
            "its own); default every floor on file.",
        )
        parser.add_argument(
            "--configuration",
            dest="files",
            action="append",
            type=Path,
            default=[],
            help="A configuration (JSON) to judge instead of the floors on file; repeatable.",
        )
        parser.add_argument("--json", action="store_true", help="Print the answer as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        kind = "record" if options["record"] else "window"
        change = {"kind": kind, "from": options["start"], "to": options["end"]}
        if options["instrument"]:
            change["instrument"] = options["instrument"]
        body: dict[str, Any] = {"jurisdiction": options["jurisdiction"], "change": change}
        if options["files"]:
            try:
                body["configurations"] = [json.loads(p.read_text()) for p in options["files"]]
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(str(exc)) from exc
        user = self._user(options["user"])
        try:
            answer = impact_asked(body, user)
        except InvalidInput as exc:
            raise CommandError(f"{exc.message} ({exc.detail})") from exc
        except DomainError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(answer, indent=2, default=str))
        else:
            self._report(answer)
        if answer["affected"]:
            sys.exit(1)

    def _user(self, name: str | None) -> User:
        if name is None:  # every floor on file: as an administrator sees them
            return User(username="(manage.py impact)", is_superuser=True, is_active=True)
        try:
            return User.objects.get(username=name)
        except User.DoesNotExist:
            raise CommandError(f"no user {name!r}") from None

    def _report(self, answer: dict[str, Any]) -> None:
        change = answer["change"]
        scope = change.get("instrument") or (
            "as recorded" if change["kind"] == "record" else "all its rules"
        )
        self.stdout.write(
            f"{change['jurisdiction']} ({scope}) from {change['from']} to {change['to']}: "
            f"{len(answer['affected'])} configuration(s) affected, {answer['unaffected']} not"
        )
        for part in change.get("parts", []):
            if part["kind"] == "amended":
                sections = ", ".join(part["sections"])
                self.stdout.write(f"  amended from {part['on']}: {sections}")
            else:
                self.stdout.write(f"  proposed {part['citation']} against {part['as_of']}")
        for what in change.get("not_judged", []):
            self.stdout.write(f"  not judged: {what}")
        for floor in answer["affected"]:
            what = f"run {floor['run']}" if floor["run"] else floor["configuration"]
            status = f", {floor['status']}" if floor["status"] else ""
            self.stdout.write(f"\n{floor['licensee'] or '(no licensee)'}: {what}{status}")
            for table in floor["tables"]:
                part = table.get("change")
                on = f" (amended from {part['on']})" if part and part["kind"] == "amended" else ""
                self.stdout.write(f"  {table['table'] or 'wall sign'}{on}")
                for f in table["new_findings"]:
                    self.stdout.write(f"    + {f['severity'].upper()} {f['code']}: {f['message']}")
                for f in table["cleared_findings"]:
                    self.stdout.write(f"    - cleared {f['code']}: {f['message']}")
                edge = table["house_edge"]
                if edge:
                    self.stdout.write(
                        f"    house edge {edge['before_percent']} % → {edge['after_percent']} %"
                    )
                for side in table["side_wagers"]:
                    self.stdout.write(f"    {side['wager']}: {side['before']} → {side['after']}")
                for line in table["signs"]["diff"]:
                    mark = "reprint without" if line["op"] == "removed" else "reprint with"
                    self.stdout.write(f"    sign, {mark}: {line['text']} [{line['cites']}]")
