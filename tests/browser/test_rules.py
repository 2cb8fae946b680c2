"""Reading the rules in a browser: a provision as of a date, an old citation, search, a diff, and
an officer's annotation edit seen in the record history."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django.contrib.auth.models import User

from regs.models import Annotation, Unit
from regs.selectors import provision_by_citation
from tests.browser.conftest import log_in, screenshot


def test_a_reader_finds_a_provision_as_of_a_date_and_changes_the_date(page: Any) -> None:
    page.goto("/")
    page.get_by_role("link", name="Rule 8", exact=True).click()
    page.get_by_label("As of", exact=True).fill("2017-01-01")
    page.get_by_role("button", name="Show").click()
    assert page.url.endswith("/us-co/rule-8/?as_of=2017-01-01")
    page.get_by_role("link", name="30-834.23", exact=True).click()
    assert page.url.endswith("/us-co/rule-8/30-834.23@2017-01-01")
    assert page.get_by_role("heading", level=1).inner_text().startswith("30-834.23")
    amended = page.locator("#u-\\(3\\)")
    assert "not on file" in amended.inner_text()
    assert "The text in force on 2017-01-01 is not on file" in amended.inner_text()

    page.get_by_label("As of", exact=True).fill("2022-01-01")
    page.get_by_role("button", name="Show this date").click()
    page.wait_for_url(re.compile(r"/us-co/rule-8/30-899\.23@2022-01-01$"))
    amended = page.locator("#u-\\(3\\)")
    assert "in force" in amended.inner_text() and "not on file" not in amended.inner_text()
    assert "2021-05-01" in amended.inner_text()
    assert page.get_by_label("As of", exact=True).input_value() == "2022-01-01"
    screenshot(page, "provision")
    page.set_viewport_size({"width": 800, "height": 860})  # a tablet: nothing wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= 800


def test_an_old_citation_lands_on_raise_the_roof_with_its_former_number(page: Any) -> None:
    page.goto("/us-co/cite/30-834.23(3)@2017-01-01")
    page.wait_for_url(re.compile(r"/us-co/rule-8/30-834\.23@2017-01-01#u-\(3\)$"))
    assert "Raise The Roof" in page.get_by_role("heading", level=1).inner_text()
    labels = page.locator("p.labels").inner_text()
    assert "now 30-899.23" in labels and "formerly 30-834.23" in labels
    assert "proposed as 47.1-834.23" in labels


def test_a_reader_searches_and_sees_the_matching_words_highlighted(page: Any) -> None:
    page.goto("/")
    page.get_by_role("link", name="Search").click()
    page.get_by_label("Words").fill("late surrender")
    page.get_by_label("As of", exact=True).fill("2024-06-01")
    page.get_by_role("button", name="Search").click()
    assert "q=late+surrender" in page.url and "as_of=2024-06-01" in page.url
    marks = page.locator("ol.results mark")
    assert marks.count() > 0
    assert {m.lower() for m in marks.all_inner_texts()} <= {"late", "surrender"}
    screenshot(page, "search")
    page.locator("ol.results h2 a").first.click()
    assert "@2024-06-01" in page.url


def test_a_reader_compares_the_proposed_raise_the_roof_with_the_adopted_text(page: Any) -> None:
    page.goto("/diff/")
    proposed = page.locator(
        "section", has=page.get_by_role("heading", name="Proposed against adopted")
    )
    assert proposed.get_by_label("Adopted text as of").get_attribute("type") == "date"
    proposed.get_by_label("Adopted text as of").fill("2025-01-01")
    proposed.get_by_role("button", name="Compare").click()
    assert (
        page.get_by_role("heading", level=1)
        .inner_text()
        .endswith("47.1-834.23 (proposed) → 30-899.23 (2025-01-01)")
    )
    assert "$100" in page.locator(".redline del").all_inner_texts()
    # the pay tables of (12) keep their rows and columns inside the redline (issue #27)
    pay_table = page.locator(".redline table.rule-table").first
    assert pay_table.locator("tr").count() >= 7
    assert pay_table.locator("tr").nth(1).locator("td").count() == 3
    assert "Amended 5/1/21" in page.locator("#subst-h + table").inner_text()
    screenshot(page, "diff")


def test_an_officer_edits_an_annotation_and_sees_it_in_the_record_history(
    page: Any, browser_officer: User, django_db_blocker: Any
) -> None:
    remark = f"Checked against the PDF ({uuid.uuid4().hex[:8]})."
    with django_db_blocker.unblock():
        unit = Unit.objects.get(
            provision=provision_by_citation(jurisdiction="US-CO", label="30-899.23"), path="(3)"
        )
        annotation = Annotation.objects.create(unit=unit, kind="editorial", text="To check.")
    log_in(page, browser_officer)
    page.goto("/us-co/rule-8/30-899.23")
    page.locator(f"#annotation-{annotation.pk}").get_by_role(
        "link", name=re.compile("Edit")
    ).click()
    page.get_by_label("Annotation text").fill(remark)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(re.compile(r"/us-co/rule-8/30-899\.23$"))
    assert remark in page.locator(f"#annotation-{annotation.pk}").inner_text()
    latest = page.locator("table.records tbody tr").first.inner_text()
    assert "odette" in latest and "annotation changed" in latest and "text" in latest
    screenshot(page, "annotation-edited")


def test_a_reader_puts_two_jurisdictions_side_by_side_by_wager(page: Any) -> None:
    page.goto("/diff/")
    page.get_by_role("link", name="side by side by wager or topic").click()
    page.locator("#id_wager").select_option("kings-bounty")
    page.get_by_label("As of", exact=True).fill("2024-06-01")
    page.get_by_role("button", name="Compare").click()
    assert "US-CO and US-MA as of 2024-06-01" in page.get_by_role("heading", level=1).inner_text()
    changes = page.locator("#f1 + table").inner_text()
    assert "75 to 1" in changes and "100 to 1" in changes
    screenshot(page, "diff-facts")
    page.locator("#f1 + table").get_by_role("link", name=re.compile(r"30-899\.20")).first.click()
    assert re.search(r"/us-co/rule-8/30-899\.20@2024-06-01(#u-.*)?$", page.url)
