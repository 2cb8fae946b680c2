"""Shared actors: an anonymous visitor, an officer and a vendor, each with an API client."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django import Settings
from rest_framework.test import APIClient

from jurisdictions.services import api_user_create


def _token_client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


@pytest.fixture(autouse=True)
def fast_and_unthrottled(settings: Settings) -> None:
    """The suite posts hundreds of requests as one vendor: no write throttle (tests/test_limits.py
    sets one), and no counts left from an earlier test. Passwords hash fast."""
    settings.WRITE_RATE = ""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()


@pytest.fixture
def anon_client() -> APIClient:
    return APIClient()


@pytest.fixture
def officer(db: None) -> User:
    """Olivia, a compliance officer."""
    user, _ = api_user_create(username="olivia", password="correct-horse-battery", officer=True)
    return user


@pytest.fixture
def officer_client(officer: User) -> APIClient:
    return _token_client(officer)


@pytest.fixture
def vendor(db: None) -> User:
    """Victor, a game vendor with an API token and no permissions."""
    user, _ = api_user_create(username="victor")
    return user


@pytest.fixture
def vendor_client(vendor: User) -> APIClient:
    return _token_client(vendor)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: pytest.FixtureRequest) -> None:
    """The test database holds the shipped knowledge base, loaded once by the real ingester."""
    from django.core.management import call_command

    with django_db_blocker.unblock():  # type: ignore[attr-defined]
        call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
