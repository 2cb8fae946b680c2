from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from jurisdictions.services import api_user_create


class Command(BaseCommand):
    help = "Create a compliance officer (web login and API) and print their API token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", required=True, help="Password for the web login.")
        parser.add_argument(
            "--jurisdiction",
            action="append",
            default=[],
            metavar="CODE",
            help="A jurisdiction whose submissions the officer sees, e.g. US-CO (repeatable).",
        )

    def handle(
        self, *args: Any, username: str, password: str, jurisdiction: list[str], **options: Any
    ) -> None:
        try:
            user, token = api_user_create(
                username=username, password=password, officer=True, jurisdictions=jurisdiction
            )
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        codes = ", ".join(sorted(jurisdiction)) or "none yet"
        self.stderr.write(
            f"Created compliance officer {user.username} (sees submissions of: {codes}). API token:"
        )
        self.stdout.write(token.key)
