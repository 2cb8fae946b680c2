"""Record time, apart from valid time: who changed the knowledge base, and when."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from regs.models import UnitVersion
from regs.selectors import provision_by_citation
from regs.services import INGEST_USERNAME
from tests.admin_forms import loaded_change_form

pytestmark = pytest.mark.django_db


def test_the_ingestion_is_in_a_provisions_record_history(anon_client: APIClient) -> None:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    records = anon_client.get(f"/api/v1/provisions/{provision.pk}/history/").json()
    created = [r for r in records if r["model"] == "provision" and r["change"] == "created"]
    assert created and created[0]["user"] == INGEST_USERNAME
    assert created[0]["reason"] == "ingested from co-rule-8-blackjack.md"
    assert any(
        r["model"] == "version" and r["reason"] == "ingested from co-raise-the-roof-proposed.md"
        for r in records
    )


def test_an_officers_admin_edit_is_in_the_record_history_with_her_name(
    officer: User, anon_client: APIClient
) -> None:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    version = UnitVersion.objects.get(unit__provision=provision, unit__path="(1)", status="adopted")
    browser = Client()
    browser.force_login(officer)
    url = f"/admin/regs/unitversion/{version.pk}/change/"
    form = {**loaded_change_form(browser, url), "text": version.text + " (corrected)"}
    response = browser.post(url, form)
    assert response.status_code == 302, response.content[:2000]
    records = anon_client.get(f"/api/v1/provisions/{provision.pk}/history/").json()
    latest = records[0]
    assert (latest["model"], latest["change"], latest["user"], latest["fields"]) == (
        "version",
        "changed",
        "olivia",
        ["text"],
    )
    # Valid time is untouched: the legal period of the text is what it was.
    version.refresh_from_db()
    assert version.effective_from.isoformat() == "2016-10-30"


def test_a_vendor_cannot_open_the_admin(vendor: User) -> None:
    browser = Client()
    browser.force_login(vendor)
    assert browser.get("/admin/regs/unitversion/").status_code == 302  # to the login page
