"""Two officers editing the same record at once: the second gets a conflict (409 JSON on the API, a
message on the form), not a silent overwrite, and the record history names both of them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from jurisdictions.models import Instrument
from jurisdictions.services import api_user_create
from pitboss.concurrency import EditConflict, revision
from regs.models import Annotation, Unit
from regs.selectors import provision_by_citation
from regs.services import annotation_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def second_officer() -> User:
    """Oscar, another compliance officer."""
    user, _ = api_user_create(username="oscar", password="correct-horse-battery", officer=True)
    return user


def _client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


def _annotation() -> Annotation:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    unit = Unit.objects.get(provision=provision, path="")
    return Annotation.objects.create(unit=unit, kind="editorial", text="A remark to correct.")


def test_the_second_of_two_api_edits_from_the_same_revision_gets_a_409(
    officer: User, second_officer: User
) -> None:
    rule_8 = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    url = f"/api/v1/instruments/{rule_8.pk}/"
    olivia, oscar = _client(officer), _client(second_officer)
    loaded_by_olivia = olivia.get(url)["ETag"]
    loaded_by_oscar = oscar.get(url)["ETag"]
    assert loaded_by_olivia == loaded_by_oscar == f'"{revision(rule_8)}"'

    first = olivia.patch(
        url, {"title": "Olivia's title"}, format="json", HTTP_IF_MATCH=loaded_by_olivia
    )
    second = oscar.patch(
        url, {"title": "Oscar's title"}, format="json", HTTP_IF_MATCH=loaded_by_oscar
    )

    assert first.status_code == 200 and first["ETag"] != loaded_by_olivia
    assert second.status_code == 409
    error = second.json()["error"]
    assert error["code"] == "edit_conflict"
    assert error["message"].startswith("US-CO Rule 8 was changed by someone else since you loaded")
    assert f'"{error["fields"]["revision"]}"' == first["ETag"]
    rule_8.refresh_from_db()
    assert rule_8.title == "Olivia's title"
    latest, before = rule_8.history.all()[:2]
    assert (before.history_user, before.title) == (officer, "Olivia's title")
    assert (latest.history_user, latest.title) == (second_officer, "Olivia's title")
    assert latest.history_change_reason == "edit refused (conflict): title=Oscar's title"

    # Oscar reloads and edits the current revision: accepted.
    again = oscar.patch(url, {"title": "Oscar's title"}, format="json", HTTP_IF_MATCH=first["ETag"])
    assert again.status_code == 200 and again.json()["title"] == "Oscar's title"


def test_an_api_edit_without_if_match_is_applied_as_before(officer: User) -> None:
    rule_8 = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    response = _client(officer).patch(
        f"/api/v1/instruments/{rule_8.pk}/", {"title": "Retitled"}, format="json"
    )
    assert response.status_code == 200 and response.json()["title"] == "Retitled"


def test_the_service_refuses_an_annotation_edit_from_a_stale_revision(
    officer: User, second_officer: User
) -> None:
    annotation = _annotation()
    loaded = revision(annotation)
    annotation_update(annotation=annotation, text="Olivia's text.", user=officer, revision=loaded)
    with pytest.raises(EditConflict):
        annotation_update(
            annotation=annotation, text="Oscar's text.", user=second_officer, revision=loaded
        )
    annotation.refresh_from_db()
    assert annotation.text == "Olivia's text."
    authors = [
        (h.history_user.username, h.text, h.history_change_reason)
        for h in annotation.history.all()[:2]
    ]
    assert authors == [
        ("oscar", "Olivia's text.", "edit refused (conflict): Oscar's text."),
        ("olivia", "Olivia's text.", "edited on the provision page"),
    ]


def test_the_second_of_two_officers_saving_the_annotation_form_gets_a_message(
    officer: User, second_officer: User
) -> None:
    annotation = _annotation()
    edit = f"/annotations/{annotation.pk}/edit/"
    olivia, oscar = Client(), Client()
    olivia.force_login(officer)
    oscar.force_login(second_officer)
    loaded = {
        name: re.search(r'name="revision" value="([0-9a-f]+)"', c.get(edit).content.decode())[1]  # type: ignore[index]
        for name, c in (("olivia", olivia), ("oscar", oscar))
    }
    saved = olivia.post(edit, {"text": "Olivia's text.", "revision": loaded["olivia"]})
    refused = oscar.post(edit, {"text": "Oscar's text.", "revision": loaded["oscar"]})

    assert saved.status_code == 302
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Someone else changed this annotation since you opened it" in page
    assert "The current text is: “Olivia&#x27;s text.”" in page
    annotation.refresh_from_db()
    assert annotation.text == "Olivia's text."
    # The form now carries the current revision: saving again is accepted.
    current = re.search(r'name="revision" value="([0-9a-f]+)"', page)[1]  # type: ignore[index]
    assert current == revision(annotation)
    assert oscar.post(edit, {"text": "Oscar's text.", "revision": current}).status_code == 302
