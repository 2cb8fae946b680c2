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

    def handle(self, *args: Any, username: str, password: str, **options: Any) -> None:
        try:
            user, token = api_user_create(username=username, password=password, officer=True)
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        self.stderr.write(f"Created compliance officer {user.username}. API token:")
        self.stdout.write(token.key)
