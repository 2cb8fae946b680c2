"""Browser tests: Playwright drives Debian's chromium against a live Pitboss on the test database.

The server runs in a thread of the test process for the whole session and commits what the
browser does (a validation run, an annotation edit), so these tests run last (see
tests/conftest.py) and name their own actors. Playwright never downloads a browser: it launches
/usr/bin/chromium (`make test` installs the Debian package), or CHROMIUM if set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django.live_server_helper import LiveServer

from jurisdictions.services import api_user_create

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "browser-test-password-1"


@pytest.fixture(scope="session")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The base URL of a live server on the test database (with the knowledge base loaded)."""
    with django_db_blocker.unblock():
        server = LiveServer("localhost:0")
        yield server.url
        server.stop()
        # A connection the server's request threads opened can outlive them; on PostgreSQL it
        # would keep the test database from being dropped. The server is stopped: end them.
        from django.db import connection

        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


@pytest.fixture(scope="session")
def browser(site: str) -> Iterator[Any]:
    """Chromium, closed before the live server stops (it holds kept-alive connections)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package.")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the fixtures make
    # here are plain synchronous set-up, not made from inside a coroutine. Only while the
    # browser runs: a subprocess of another test must not inherit it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
            yield chromium
            chromium.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def page(browser: Any, site: str) -> Iterator[Any]:
    """A fresh browser tab (laptop-sized) whose relative URLs go to the live server."""
    context = browser.new_context(base_url=site, viewport={"width": 1280, "height": 860})
    tab = context.new_page()
    tab.set_default_timeout(15_000)
    yield tab
    context.close()


@pytest.fixture(scope="session")
def browser_officer(site: str, django_db_blocker: Any) -> User:
    """Odette, a compliance officer of Colorado who logs in through the browser."""
    with django_db_blocker.unblock():
        user = User.objects.filter(username="odette").first()
        if user is None:
            user, _ = api_user_create(
                username="odette", password=PASSWORD, officer=True, jurisdictions=["US-CO"]
            )
        return user


@pytest.fixture(scope="session")
def browser_vendor(site: str, django_db_blocker: Any) -> User:
    """Vera, a game vendor who logs in through the browser."""
    with django_db_blocker.unblock():
        user = User.objects.filter(username="vera").first()
        if user is None:
            user, _ = api_user_create(username="vera", password=PASSWORD)
        return user


def log_in(page: Any, user: User) -> None:
    """Log in through the login form, as a person would."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def screenshot(page: Any, name: str, height: int = 1800) -> None:
    """Keep a screenshot of what the user sees, for the docs (docs/screenshots/): the page
    from its top, down to `height` pixels at most."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    full = page.evaluate("document.documentElement.scrollHeight")
    clip = {"x": 0, "y": 0, "width": size["width"], "height": min(full, height)}
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, clip=clip)
