"""Two officers editing the same record in the Django admin at once: the second save is refused
with a form error and changes nothing; the history names both (pitboss/admin.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import models
from django.test import Client

from jurisdictions.services import api_user_create
from regs.models import Annotation, Provision, Unit
from regs.selectors import provision_by_citation
from tests.admin_forms import loaded_change_form
from variants.models import Paytable, PlayRule

pytestmark = pytest.mark.django_db


@pytest.fixture
def officers(officer: User) -> tuple[Client, Client, User]:
    oscar, _ = api_user_create(username="oscar", password="correct-horse-battery", officer=True)
    olivia_client, oscar_client = Client(), Client()
    olivia_client.force_login(officer)
    oscar_client.force_login(oscar)
    return olivia_client, oscar_client, oscar


def _annotation() -> Annotation:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    unit = Unit.objects.get(provision=provision, path="")
    return Annotation.objects.create(unit=unit, kind="editorial", text="A remark to correct.")


def _provision() -> Provision:
    return provision_by_citation(jurisdiction="US-CO", label="30-899.23")


# Each record: how to find one, its admin URL's model, and the text field the officers edit.
RECORDS = {
    "provision": (_provision, "regs/provision", "title"),
    "annotation": (_annotation, "regs/annotation", "text"),
    "paytable": (lambda: Paytable.objects.order_by("key").first(), "variants/paytable", "label"),
    "play rule": (lambda: PlayRule.objects.order_by("pk").first(), "variants/playrule", "summary"),
}


@pytest.mark.parametrize("kind", RECORDS)
def test_the_second_of_two_admin_saves_from_the_same_load_is_refused(
    kind: str, officer: User, officers: tuple[Client, Client, User]
) -> None:
    find, model_url, field = RECORDS[kind]
    record: models.Model = find()
    url = f"/admin/{model_url}/{record.pk}/change/"
    olivia, oscar, oscar_user = officers
    olivia_form, oscar_form = loaded_change_form(olivia, url), loaded_change_form(oscar, url)
    assert olivia_form["revision"] == oscar_form["revision"]

    first = olivia.post(url, {**olivia_form, field: "Olivia's wording"})
    second = oscar.post(url, {**oscar_form, field: "Oscar's wording"})

    assert first.status_code == 302  # saved; back to the list
    assert second.status_code == 200  # the form again, with the error
    assert "was changed by someone else since you loaded it" in second.content.decode()
    record.refresh_from_db()
    assert getattr(record, field) == "Olivia's wording"
    latest, saved = record.history.all()[:2]  # type: ignore[attr-defined]
    assert (saved.history_user, getattr(saved, field)) == (officer, "Olivia's wording")
    assert (latest.history_user, getattr(latest, field)) == (oscar_user, "Olivia's wording")
    assert latest.history_change_reason.startswith(
        f"edit refused (conflict): admin: {field}=Oscar's wording"
    )

    # Oscar reloads and saves again on the current revision: accepted.
    again = oscar.post(url, {**loaded_change_form(oscar, url), field: "Oscar's wording"})
    assert again.status_code == 302
    record.refresh_from_db()
    assert getattr(record, field) == "Oscar's wording"


def test_a_save_of_an_unchanged_record_is_not_refused(
    officers: tuple[Client, Client, User],
) -> None:
    annotation = _annotation()
    url = f"/admin/regs/annotation/{annotation.pk}/change/"
    olivia, _, _ = officers

    saved = olivia.post(url, {**loaded_change_form(olivia, url), "text": "A corrected remark."})

    assert saved.status_code == 302
    annotation.refresh_from_db()
    assert annotation.text == "A corrected remark."


@pytest.mark.parametrize("row", [0, 1])
def test_a_paytable_line_edited_inline_from_a_stale_page_is_refused(
    row: int, officer: User, officers: tuple[Client, Client, User]
) -> None:
    """Olivia corrects a paytable's first line on its admin page; Oscar, who loaded the page
    before, saves a change to the first line (row 0) or to another line (row 1): either way his
    page would write Olivia's line back as he loaded it, so his save is refused, nothing is
    written, and the first line's history keeps his attempt."""
    paytable = Paytable.objects.filter(entries__isnull=False).distinct().order_by("key").first()
    assert paytable is not None and paytable.entries.count() >= 2
    url = f"/admin/variants/paytable/{paytable.pk}/change/"
    olivia, oscar, oscar_user = officers
    olivia_form, oscar_form = loaded_change_form(olivia, url), loaded_change_form(oscar, url)
    prefix = next(k for k in olivia_form if k.endswith("-0-label"))[: -len("0-label")]
    first_id = int(olivia_form[f"{prefix}0-id"])

    saved = olivia.post(url, {**olivia_form, f"{prefix}0-label": "Olivia's line"})
    refused = oscar.post(url, {**oscar_form, f"{prefix}{row}-label": "Oscar's line"})

    assert saved.status_code == 302
    assert refused.status_code == 200
    assert "was changed by someone else since you loaded it" in refused.content.decode()
    entries = {e.pk: e for e in paytable.entries.all()}
    assert entries[first_id].label == "Olivia's line"
    assert "Oscar's line" not in {e.label for e in entries.values()}
    if row == 0:
        latest = entries[first_id].history.first()
        assert latest.history_user == oscar_user
        assert latest.history_change_reason.startswith("edit refused (conflict): admin: label=")

    # Reloaded, Oscar's change is saved over Olivia's.
    again = oscar.post(
        url, {**loaded_change_form(oscar, url), f"{prefix}{row}-label": "Oscar's line"}
    )
    assert again.status_code == 302
    assert "Oscar's line" in {e.label for e in paytable.entries.all()}
