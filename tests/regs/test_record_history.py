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


def _reviewed_entries() -> list[dict[str, str]]:
    import yaml
    from django.conf import settings

    return yaml.load(
        (settings.BASE_DIR / "fixtures" / "annotations.yaml").read_text(), Loader=yaml.CSafeLoader
    )


@pytest.mark.django_db
def test_a_reviewed_annotation_taken_out_of_the_file_is_withdrawn_on_the_next_load(
    officer: User,
) -> None:
    """A revised reading (the sevens' 17(e)(3) annotation rewritten) must not linger beside its
    revision in a knowledge base loaded before: loading the file again withdraws what it no longer
    holds, recorded in the history, and never touches an annotation an officer wrote or edited."""
    from regs.models import Annotation
    from regs.services import annotation_add, annotation_update, annotations_apply

    entries = _reviewed_entries()
    provision = provision_by_citation(jurisdiction="US-MA", label="17")
    stale = "A reading of 17(e)(3) this file no longer holds."
    annotation_add(provision=provision, unit_path="(e)(3)", kind="ambiguity", text=stale,
                   reason="reviewed annotation")  # fmt: skip
    edited = "A reviewed remark an officer then edited."
    annotation_add(provision=provision, unit_path="(e)", kind="editorial",
                   text="A reviewed remark, since dropped from the file.",
                   reason="reviewed annotation")  # fmt: skip
    annotation_update(
        annotation=Annotation.objects.get(text__startswith="A reviewed remark, since"),
        text=edited,
        user=officer,
    )
    annotation_add(provision=provision, unit_path="(e)", kind="editorial",
                   text="An officer's own remark.", user=officer)  # fmt: skip

    added, retired = annotations_apply(entries=entries)

    assert (added, retired) == (0, 1)
    texts = set(Annotation.objects.values_list("text", flat=True))
    assert stale not in texts
    assert {edited, "An officer's own remark."} <= texts
    [gone] = Annotation.history.filter(text=stale, history_type="-")
    assert gone.history_change_reason.startswith("reviewed annotation withdrawn")
    assert annotations_apply(entries=entries) == (0, 0)
