from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from jurisdictions.services import api_token_revoke


class Command(BaseCommand):
    help = "Revoke a user's API token: requests sending it get 401 from now on."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"No user {username!r}.")
        if api_token_revoke(user=user):
            self.stdout.write(f"Revoked the API token of {username}.")
        else:
            self.stdout.write(f"{username} had no API token.")
