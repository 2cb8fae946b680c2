"""The front door: the jurisdictions and their rules, and logging in."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from tests.browser.conftest import log_in, screenshot


def test_the_home_page_lists_each_jurisdiction_and_its_rules(page: Any) -> None:
    page.goto("/")
    assert page.get_by_role("heading", name="Colorado").is_visible()
    assert page.get_by_role("heading", name="Massachusetts").is_visible()
    assert page.get_by_role("link", name="Rule 8").is_visible()
    assert page.get_by_role("link", name="Rule 21").is_visible()
    screenshot(page, "home")


def test_an_officer_logs_in_and_the_header_names_the_role(page: Any, browser_officer: User) -> None:
    log_in(page, browser_officer)
    header = page.locator("header.site")
    assert "odette" in header.inner_text()
    assert "compliance officer" in header.inner_text()
    page.get_by_role("button", name="Log out").click()
    assert page.get_by_role("link", name="Log in").is_visible()


def test_a_wrong_password_is_refused_with_a_message(page: Any, browser_vendor: User) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(browser_vendor.username)
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Log in").click()
    assert page.get_by_role("alert").inner_text().startswith("Your username and password")
