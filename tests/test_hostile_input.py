"""What one client sends cannot break what another user sees (issue #24): text that is no text
(a lone surrogate, a control character, too long) or a number where the contract says string is
a 400 naming the field, with nothing stored; a refused request leaves nothing behind; the
analysis checks its jurisdiction. Each case is one the issue found, reproduced first.

Bodies holding a lone surrogate are sent as JSON text (json.dumps writes "\\ud800"), as a client
would: the test client's own JSON encoder cannot write one."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from compliance.models import SignSet, SimulationJob, ValidationRun
from jurisdictions.models import Instrument
from jurisdictions.services import api_user_create

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads(
    (Path(__file__).parent / "compliance" / "data" / "signage-floor-co.json").read_text()
)
SAMPLES = Path(__file__).parents[1] / "fixtures" / "configs"
SURROGATE = "\ud800"


def _post(client: Client, url: str, body: Any) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json")


def _floor(**changes: Any) -> dict[str, Any]:
    """The sample Colorado floor (three signs), a deep copy, with top-level `changes`."""
    return json.loads(json.dumps(FLOOR_CO)) | changes


def _stored() -> tuple[int, int, int]:
    return ValidationRun.objects.count(), SignSet.objects.count(), SimulationJob.objects.count()


def _refused(response: Any, field: str) -> str:
    """The message of a JSON 400 naming `field` (a path: "tables[0].name"; `fields` holds the
    top-level field, "tables", with the nested errors)."""
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert list(error["fields"]) in ([field], [re.split(r"[.[]", field)[0]])
    assert error["message"].startswith(f"{field}: ")
    return str(error["message"])


@pytest.mark.parametrize("endpoint", ["validations/", "signage/?draft=true"])
def test_a_lone_surrogate_in_a_paytable_is_refused_naming_it_and_nothing_is_stored(
    vendor_client: APIClient, endpoint: str
) -> None:
    """Was: 500 text/plain, the run stored, and every list holding it a 500 from then on."""
    body = _floor()
    body["tables"][0]["side_wagers"][0]["paytable"] = SURROGATE

    response = _post(vendor_client, f"/api/v1/{endpoint}", body)

    message = _refused(response, "tables[0].side_wagers[0].paytable")
    assert "lone surrogate (U+D800" in message
    assert _stored() == (0, 0, 0)
    assert vendor_client.get("/api/v1/validations/").status_code == 200


def test_a_lone_surrogate_in_a_key_is_refused_too(vendor_client: APIClient) -> None:
    """A configuration is stored as sent, unknown keys too."""
    response = _post(vendor_client, "/api/v1/validations/", _floor(**{f"note{SURROGATE}": 1}))

    assert "lone surrogate" in _refused(response, "note\ufffd")
    assert _stored() == (0, 0, 0)


def test_an_instrument_with_a_lone_surrogate_is_refused_naming_the_field(
    officer_client: APIClient,
) -> None:
    """Was: 500 text/plain (nothing stored)."""
    body = {
        "jurisdiction": "US-CO",
        "slug": "rule-99",
        "name": "Rule 99",
        "title": "Test",
        "citation_scheme": SURROGATE,
    }
    before = Instrument.objects.count()

    response = _post(officer_client, "/api/v1/instruments/", body)

    assert "lone surrogate" in _refused(response, "citation_scheme")
    assert Instrument.objects.count() == before


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("Casino\x00Royale", "control character U+0000"),
        ("\x1b[31mCasino", "control character U+001B"),
        ("Casino\x7f", "control character U+007F"),
        ("Casino\u0085", "control character U+0085"),
        ("Casino\nRoyale", "line break"),
        ("C" * 201, "201 characters long; at most 200"),
    ],
)
def test_a_licensee_that_is_no_one_line_of_text_is_refused(
    vendor_client: APIClient, text: str, why: str
) -> None:
    response = _post(vendor_client, "/api/v1/validations/", _floor(licensee=text))

    assert why in _refused(response, "licensee")
    assert _stored() == (0, 0, 0)


def test_a_table_name_may_not_hold_a_tab_but_the_jokers_note_may_hold_lines(
    vendor_client: APIClient,
) -> None:
    body = _floor()
    body["tables"][0]["name"] = "BJ\t01"
    assert "tab or line break" in _refused(
        _post(vendor_client, "/api/v1/validations/", body), "tables[0].name"
    )

    body["tables"][0]["name"] = "BJ-01"
    body["tables"][0]["jokers"] = "Jokers are wild.\nThey count as any card."
    assert _post(vendor_client, "/api/v1/validations/", body).status_code == 201


@pytest.mark.parametrize("licensee", [0, -1, 1e308, True, [], {}])
def test_a_licensee_sent_as_no_string_is_refused(vendor_client: APIClient, licensee: Any) -> None:
    """Was: accepted (DRF's CharField reads 0 as "0"), stored as the number, and the officers'
    /configurations/runs/ failed sorting numbers among names (docs/api.md: "licensee" is a
    string)."""
    response = _post(vendor_client, "/api/v1/validations/", _floor(licensee=licensee))

    assert "must be a string" in _refused(response, "licensee")
    assert _stored() == (0, 0, 0)


def test_a_table_named_by_a_number_is_refused(vendor_client: APIClient) -> None:
    body = _floor()
    body["tables"][1]["name"] = 7

    response = _post(vendor_client, "/api/v1/validations/", body)

    assert _refused(response, "tables[1].name") == (
        "tables[1].name: must be a string (text in quotes), not the number 7."
    )


def test_the_officers_run_list_reads_a_licensee_stored_as_a_number(
    vendor: User, client: Client
) -> None:
    """A run stored before licensees had to be strings, beside one naming its licensee: the
    desk lists both (was: TypeError '<' not supported between 'float' and 'str')."""
    officer, _ = api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])
    for licensee in [1e308, "Example Casino"]:
        ValidationRun.objects.create(
            configuration=_floor(licensee=licensee),
            jurisdiction="US-CO",
            as_of="2024-06-01",
            compliant=True,
            created_by=vendor,
        )
    client.force_login(officer)

    response = client.get("/configurations/runs/")

    assert response.status_code == 200
    assert "Example Casino" in response.content.decode()
    # as the database gives it back: SQLite 1e+308, PostgreSQL's jsonb its 309 digits
    [stored] = [
        r.configuration["licensee"]
        for r in ValidationRun.objects.all()
        if not isinstance(r.configuration["licensee"], str)
    ]
    assert str(stored) in response.content.decode()


def test_a_sign_the_set_does_not_have_is_a_404_and_nothing_is_stored(
    vendor_client: APIClient,
) -> None:
    """Was: 404, but the sign set and its validation run stored."""
    response = _post(vendor_client, "/api/v1/signage/?sign=7", FLOOR_CO)

    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": "not_found",
        "message": "sign 7: the set has 3 signs",
    }
    assert _stored() == (0, 0, 0)
    ok = _post(vendor_client, "/api/v1/signage/?sign=2", FLOOR_CO)
    assert ok.status_code == 201
    assert _stored() == (1, 1, 0)


def test_signs_refused_for_their_findings_keep_the_run_the_refusal_names(
    vendor_client: APIClient,
) -> None:
    """The one refusal that stores: the 400 names the stored run, whose findings say what to fix
    (docs/signage.md); no sign set."""
    body = json.loads((SAMPLES / "casino-house-rules-co.json").read_text())

    response = _post(vendor_client, "/api/v1/signage/", body)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "not_compliant"
    assert _stored() == (1, 0, 0)
    assert str(ValidationRun.objects.get().pk) == response.json()["validation"]


@pytest.mark.parametrize("jurisdiction", [123, "abc", "x" * 5000, "US-NV"])
def test_an_inline_paytable_analysis_names_a_jurisdiction_of_the_catalog(
    anon_client: APIClient, jurisdiction: Any
) -> None:
    """Was: any jurisdiction accepted silently."""
    body = {
        "wager": "kings-bounty",
        "jurisdiction": jurisdiction,
        "paytable": [{"outcome": "two-kings", "pays": "30 to 1"}],
        "decks": 6,
    }

    response = _post(anon_client, "/api/v1/analysis/", body)

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["jurisdiction"]
    body["jurisdiction"] = "US-CO"
    assert _post(anon_client, "/api/v1/analysis/", body).status_code == 200


def test_an_inline_paytable_analysis_of_a_wager_another_jurisdiction_holds_is_refused(
    anon_client: APIClient,
) -> None:
    """Lucky Ladies is in Colorado's catalog only (fixtures/catalog/us-co.yaml)."""
    body = {
        "wager": "lucky-ladies",
        "jurisdiction": "US-MA",
        "paytable": [{"outcome": "matched-20", "pays": "25 to 1"}],
        "decks": 6,
    }

    response = _post(anon_client, "/api/v1/analysis/", body)

    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "wager: 'lucky-ladies' is no wager in the catalog of US-MA"
    )


def test_a_form_field_or_query_parameter_holding_a_control_character_is_a_400(
    client: Client, vendor: User
) -> None:
    client.force_login(vendor)

    page = client.post("/configurations/", {"licensee": "Casino\x1b", "action": "validate"})
    listed = client.get("/api/v1/provisions/", {"q": "blackjack\x00"})

    assert page.status_code == 400
    assert "licensee: holds the control character U+001B" in page.content.decode()
    assert listed.status_code == 400
    assert listed.json()["error"]["fields"] == {
        "q": ["holds the control character U+0000 at character 9; text may hold tab and "
              "newline, no other control character."]
    }  # fmt: skip
    assert _stored() == (0, 0, 0)
