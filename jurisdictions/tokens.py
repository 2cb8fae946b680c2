"""API tokens that expire: DRF's token (one a user, sent as `Authorization: Token <key>`), refused
once older than settings.TOKEN_TTL_DAYS. Revoking deletes the token; rotating replaces it
(jurisdictions.services)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed


def token_expires_at(token: Token) -> dt.datetime:
    """When `token` stops being accepted: settings.TOKEN_TTL_DAYS after it was issued."""
    return token.created + dt.timedelta(days=settings.TOKEN_TTL_DAYS)


def token_is_expired(token: Token, *, now: dt.datetime | None = None) -> bool:
    return (now or timezone.now()) >= token_expires_at(token)


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's TokenAuthentication, refusing (401) a token past its expiry."""

    def authenticate_credentials(self, key: str) -> tuple[User, Token]:
        user, token = super().authenticate_credentials(key)
        if token_is_expired(token):
            expired = token_expires_at(token).strftime("%Y-%m-%d %H:%M UTC")
            raise AuthenticationFailed(
                f"The token expired on {expired}. Ask for a new one: POST auth/token/ with your "
                "username and password, or an administrator's create_vendor NAME --rotate.",
                code="token_expired",
            )
        return user, token
