"""Rows stored before text was checked at the door are found and repaired in place by
`manage.py repair_stored_text --write` (pitboss/repair.py): a lone surrogate becomes U+FFFD, a
control character is removed, a licensee or table name stored as a number becomes its text.
Until then, the API's lists and details holding such a row still answer (pitboss/renderers.py).

The poisoned rows are written with the ORM, as the API stored them before (SQLite keeps a
JSON lone surrogate as its escape)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client

from compliance.models import SignSet, ValidationRun
from jurisdictions.models import Instrument
from jurisdictions.services import api_user_create

pytestmark = [
    pytest.mark.django_db,
    # PostgreSQL refuses a lone surrogate in a JSON column ("Unicode low surrogate must follow a
    # high surrogate"): the poisoned rows these tests repair cannot be stored there at all.
    pytest.mark.skipif(
        connection.vendor == "postgresql",
        reason="PostgreSQL cannot store a JSON lone surrogate: no such row to repair",
    ),
]

FLOOR_CO = json.loads(
    (Path(__file__).parent / "compliance" / "data" / "signage-floor-co.json").read_text()
)


def _repair(*args: str) -> str:
    out = io.StringIO()
    call_command("repair_stored_text", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def poisoned(vendor: User) -> dict[str, Any]:
    configuration = json.loads(json.dumps(FLOOR_CO)) | {"licensee": 0}
    configuration["tables"][0]["name"] = 7
    configuration["tables"][0]["side_wagers"][0]["paytable"] = "\ud800"
    run = ValidationRun.objects.create(
        configuration=configuration,
        jurisdiction="US-CO",
        as_of="2024-06-01",
        compliant=False,
        findings=[{"severity": "error", "code": "x", "message": "paytable \ud800 unknown",
                   "table": "7", "path": "tables[0]", "citations": []}],
        created_by=vendor,
    )  # fmt: skip
    sign_set = SignSet.objects.create(
        validation=run, draft=True, signs=[{"table": "7", "text": "Casino \udfff\x1b"}]
    )
    instrument = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    Instrument.objects.filter(pk=instrument.pk).update(title=f"{instrument.title}\x07")
    return {"run": run, "sign_set": sign_set, "instrument": instrument}


def test_the_api_reads_a_poisoned_row_before_its_repair(
    poisoned: dict[str, Any], vendor_client: Any
) -> None:
    """Was: 500 on every page of the list holding the run, for its vendor and its officers."""
    listed = vendor_client.get("/api/v1/validations/")
    shown = vendor_client.get(f"/api/v1/validations/{poisoned['run'].pk}/")

    assert listed.status_code == shown.status_code == 200
    assert shown.json()["findings"][0]["message"] == "paytable \ufffd unknown"


def test_the_command_lists_then_repairs_every_poisoned_row(
    poisoned: dict[str, Any], vendor: User
) -> None:
    run, sign_set, instrument = poisoned["run"], poisoned["sign_set"], poisoned["instrument"]

    listed = _repair()

    assert f"compliance.ValidationRun {run.pk}: configuration, findings" in listed
    assert f"compliance.SignSet {sign_set.pk}: signs" in listed
    assert f"jurisdictions.Instrument {instrument.pk}: title" in listed
    assert listed.endswith("row(s) to repair: run again with --write.\n")
    run.refresh_from_db()
    assert run.configuration["licensee"] == 0  # only listed

    repaired = _repair("--write")

    run.refresh_from_db()
    sign_set.refresh_from_db()
    instrument.refresh_from_db()
    assert run.configuration["licensee"] == "0"
    assert run.configuration["tables"][0]["name"] == "7"
    assert run.configuration["tables"][0]["side_wagers"][0]["paytable"] == "\ufffd"
    assert run.configuration["tables"][0]["decks"] == 6  # a number where the contract says one
    assert run.findings[0]["message"] == "paytable \ufffd unknown"
    assert sign_set.signs == [{"table": "7", "text": "Casino \ufffd"}]
    assert not instrument.title.endswith("\x07")
    assert "row(s) repaired." in repaired
    assert _repair() == "No stored row needs repair.\n"


def test_after_the_repair_the_desk_shows_the_run_to_its_officer(
    poisoned: dict[str, Any], client: Client
) -> None:
    officer, _ = api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])
    client.force_login(officer)
    _repair("--write")

    listed = client.get("/configurations/runs/")
    shown = client.get(f"/configurations/runs/{poisoned['run'].pk}/")

    assert listed.status_code == shown.status_code == 200
    assert "\ufffd" in shown.content.decode()
