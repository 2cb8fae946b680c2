"""Logins are limited (django-axes, pitboss/settings.py): the 5th failure for one username, or
from one address, locks that username or address out for 15 minutes, the right password too,
on the login page (a 429 saying why) and at POST /api/v1/auth/token/ (JSON `locked_out`); a
success clears the count; `manage.py axes_reset` lifts every lock at once.

Was (issue #24): 130 wrong passwords in 33 s for one officer, each a 200, then the right one
logged in."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import Client

from jurisdictions.services import api_user_create

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # tests/conftest.py's officer's


def _login(client: Client, username: str, password: str, address: str = "127.0.0.1") -> Any:
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_officer_out_with_a_message(
    client: Client, officer: User
) -> None:
    wrong = [_login(client, "olivia", f"guess-{n}").status_code for n in range(5)]
    locked = _login(client, "olivia", PASSWORD)

    assert wrong == [200] * 4 + [429]  # the form again, "didn't match"; the fifth locks
    assert locked.status_code == 429
    assert int(locked["Retry-After"]) == 15 * 60
    page = locked.content.decode()
    assert "Too many failed logins for this username or from this address" in page
    assert "refused for 15 minutes" in page
    assert 'name="password"' in page  # the login form, to try again later
    assert not _logged_in(client)


def test_the_lock_is_per_username_from_any_address(client: Client, officer: User) -> None:
    for n in range(5):
        _login(client, "olivia", "guess", address=f"10.0.0.{n}")

    assert _login(client, "olivia", PASSWORD, address="10.0.1.1").status_code == 429
    assert not _logged_in(client)


def test_the_lock_is_per_address_whatever_the_username(client: Client, officer: User) -> None:
    api_user_create(username="oscar", password=PASSWORD, officer=True)
    for n in range(5):
        _login(client, f"nobody-{n}", "guess", address="10.0.0.9")

    assert _login(client, "olivia", PASSWORD, address="10.0.0.9").status_code == 429
    assert _login(client, "oscar", PASSWORD, address="10.0.0.8").status_code == 302


def test_a_success_clears_the_count(client: Client, officer: User) -> None:
    for _ in range(4):
        _login(client, "olivia", "guess")
    assert _login(client, "olivia", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        _login(client, "olivia", "guess")

    assert _login(client, "olivia", PASSWORD).status_code == 302
    assert _logged_in(client)


def test_the_admin_command_axes_reset_lifts_the_lock(client: Client, officer: User) -> None:
    for _ in range(5):
        _login(client, "olivia", "guess")
    assert _login(client, "olivia", PASSWORD).status_code == 429

    call_command("axes_reset", stdout=open("/dev/null", "w"))

    assert _login(client, "olivia", PASSWORD).status_code == 302
    assert _logged_in(client)


def test_the_api_token_endpoint_counts_and_locks_alike(officer: User) -> None:
    client = Client()
    right = {"username": "olivia", "password": PASSWORD}
    assert client.post("/api/v1/auth/token/", right).status_code == 200

    wrong = [
        client.post("/api/v1/auth/token/", right | {"password": "guess"}).status_code
        for _ in range(5)
    ]
    locked = client.post("/api/v1/auth/token/", right)

    assert wrong == [400] * 4 + [429]
    assert locked.status_code == 429
    assert locked["Content-Type"] == "application/json"
    assert locked.json()["error"]["code"] == "locked_out"
    assert "refused for 15 minutes" in locked.json()["error"]["message"]
