from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from jurisdictions.services import VENDOR_GROUP, api_token_rotate, api_user_create


class Command(BaseCommand):
    help = "Create a game vendor (API token only, no password) and print their API token."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--rotate",
            action="store_true",
            help="The vendor exists: issue a new token; the old one stops working at once.",
        )

    def handle(self, *args: Any, username: str, rotate: bool, **options: Any) -> None:
        if rotate:
            user = User.objects.filter(username=username, groups__name=VENDOR_GROUP).first()
            if user is None:
                raise CommandError(f"No vendor {username!r}; create it without --rotate.")
            token = api_token_rotate(user=user)
            self.stderr.write(f"New API token of vendor {username} (the old one is revoked):")
            self.stdout.write(token.key)
            return
        try:
            user, token = api_user_create(username=username)
        except ValidationError as e:
            raise CommandError(" ".join(e.messages)) from e
        self.stderr.write(f"Created vendor {user.username}. API token:")
        self.stdout.write(token.key)
