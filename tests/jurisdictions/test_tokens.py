"""API tokens expire (TOKEN_TTL_DAYS), can be revoked (revoke_token) and rotated
(create_vendor --rotate); a token that no longer works gets a JSON 401."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.utils import timezone
from pytest_django import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from jurisdictions.services import api_user_create

pytestmark = pytest.mark.django_db

URL = "/api/v1/validations/"


def _client(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def _age(token: Token, days: float) -> None:
    Token.objects.filter(pk=token.pk).update(created=timezone.now() - dt.timedelta(days=days))


def test_a_token_works_until_its_time_to_live_has_passed(vendor: User, settings: Settings) -> None:
    settings.TOKEN_TTL_DAYS = 30
    token = vendor.auth_token

    _age(token, 29.9)
    fresh = _client(token.key).get(URL)
    _age(token, 30)
    expired = _client(token.key).get(URL)

    assert fresh.status_code == 200
    assert expired.status_code == 401
    assert expired.json()["error"]["code"] == "token_expired"
    assert "expired on" in expired.json()["error"]["message"]
    assert expired["WWW-Authenticate"] == "Token"


def test_a_revoked_token_gets_401(vendor: User, capsys: pytest.CaptureFixture[str]) -> None:
    key = vendor.auth_token.key

    call_command("revoke_token", "victor")
    response = _client(key).get(URL)

    assert capsys.readouterr().out == "Revoked the API token of victor.\n"
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_create_vendor_rotate_issues_a_new_token_and_the_old_one_stops_working(
    vendor: User, capsys: pytest.CaptureFixture[str]
) -> None:
    old = vendor.auth_token.key

    call_command("create_vendor", "victor", rotate=True)
    new = capsys.readouterr().out.strip()

    assert new != old
    assert _client(old).get(URL).status_code == 401
    assert _client(new).get(URL).status_code == 200
    assert Token.objects.get(key=new).user == vendor


def test_rotate_names_no_one_but_an_existing_vendor(officer: User) -> None:
    with pytest.raises(CommandError, match="No vendor 'nobody'"):
        call_command("create_vendor", "nobody", rotate=True)
    with pytest.raises(CommandError, match="No vendor 'olivia'"):
        call_command("create_vendor", "olivia", rotate=True)


def test_logging_in_gives_the_token_and_its_expiry(
    anon_client: APIClient, officer: User, settings: Settings
) -> None:
    settings.TOKEN_TTL_DAYS = 10

    response = anon_client.post(
        "/api/v1/auth/token/",
        {"username": "olivia", "password": "correct-horse-battery"},
        format="json",
    )

    body = response.json()
    assert body["token"] == officer.auth_token.key
    expires = dt.datetime.fromisoformat(body["expires"])
    assert expires == officer.auth_token.created + dt.timedelta(days=10)


def test_logging_in_with_an_expired_token_gives_a_new_one(
    anon_client: APIClient, officer: User, settings: Settings
) -> None:
    old = officer.auth_token.key
    _age(officer.auth_token, settings.TOKEN_TTL_DAYS + 1)

    response = anon_client.post(
        "/api/v1/auth/token/",
        {"username": "olivia", "password": "correct-horse-battery"},
        format="json",
    )

    new = response.json()["token"]
    assert new != old
    assert _client(new).get(URL).status_code == 200
    assert _client(old).get(URL).status_code == 401


def test_a_wrong_password_gets_no_token(anon_client: APIClient, officer: User) -> None:
    response = anon_client.post(
        "/api/v1/auth/token/", {"username": "olivia", "password": "wrong"}, format="json"
    )

    assert response.status_code == 400
    assert "token" not in response.json()


def test_create_officer_names_the_jurisdictions_whose_submissions_it_sees(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command(
        "create_officer", "olga", password="correct-horse-battery", jurisdiction=["US-MA", "US-CO"]
    )

    user = Token.objects.get(key=capsys.readouterr().out.strip()).user
    assert sorted(user.officer_of.values_list("code", flat=True)) == ["US-CO", "US-MA"]
    with pytest.raises(CommandError, match="Unknown jurisdiction US-XX"):
        call_command("create_officer", "olaf", password="correct-horse-battery",
                     jurisdiction=["US-XX"])  # fmt: skip
    assert not User.objects.filter(username="olaf").exists()


def test_a_vendor_has_no_jurisdictions() -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError, match="Only a compliance officer"):
        api_user_create(username="vic", jurisdictions=["US-CO"])
