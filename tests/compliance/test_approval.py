"""Issue #26, approval: an officer approves (a compliant run only) or rejects a run of their
jurisdiction with a date and a note; a vendor's newer run of the same floor supersedes its older
ones; every change of status is in the run's record history; the vendor sees its own runs'
status, through the API and the desk."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.models import ValidationRun
from compliance.services import validation_run_create
from jurisdictions.services import api_user_create

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads((Path(__file__).parent / "data" / "signage-floor-co.json").read_text())
CONFIGS = Path(__file__).parents[2] / "fixtures" / "configs"
NOT_COMPLIANT_CO = json.loads((CONFIGS / "casino-house-rules-co.json").read_text())


def _client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


@pytest.fixture
def colorado_officer(db: None) -> User:
    user, _ = api_user_create(username="cora", officer=True, jurisdictions=["US-CO"])
    return user


def _run(data: dict[str, Any], user: User) -> ValidationRun:
    return validation_run_create(configuration=configuration_parse(data), user=user)


def _decide(user: User, run: ValidationRun, **body: Any) -> Any:
    return _client(user).post(f"/api/v1/validations/{run.pk}/decision/", body, format="json")


def test_an_officer_approves_a_compliant_run_and_the_vendor_sees_it(
    vendor: User, colorado_officer: User
) -> None:
    run = _run(FLOOR_CO, vendor)
    assert run.compliant and run.status == "submitted"

    today = timezone.localdate().isoformat()
    answer = _decide(colorado_officer, run, status="approved", note="Checked against Rule 8.")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["status"] == "approved"
    assert answer.json()["decision"] == {
        "date": today,
        "note": "Checked against Rule 8.",
        "by": "cora",
    }
    seen = _client(vendor).get(f"/api/v1/validations/{run.pk}/").json()
    assert (seen["status"], seen["decision"]["date"]) == ("approved", today)
    listed = _client(vendor).get("/api/v1/validations/").json()["results"]
    assert [(r["id"], r["status"]) for r in listed] == [(str(run.pk), "approved")]

    history = list(run.history.order_by("history_id"))
    assert [(h.status, h.history_user) for h in history] == [
        ("submitted", vendor),
        ("approved", colorado_officer),
    ]


def test_a_run_with_errors_is_rejected_never_approved(vendor: User, colorado_officer: User) -> None:
    run = _run(NOT_COMPLIANT_CO, vendor)
    assert not run.compliant
    refused = _decide(colorado_officer, run, status="approved")
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "not_compliant"
    assert "status" in refused.json()["error"]["fields"]
    run.refresh_from_db()
    assert run.status == "submitted"

    rejected = _decide(colorado_officer, run, status="rejected", note="Fix the 6 to 5 table.")
    assert rejected.status_code == 200
    assert rejected.json()["status"] == "rejected"
    again = _decide(colorado_officer, run, status="rejected")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_decided"


def test_only_an_officer_of_the_runs_jurisdiction_decides(
    vendor: User, colorado_officer: User
) -> None:
    run = _run(FLOOR_CO, vendor)
    massachusetts, _ = api_user_create(username="mass", officer=True, jurisdictions=["US-MA"])
    assert _decide(vendor, run, status="approved").status_code == 403  # a vendor, its own run
    assert _decide(massachusetts, run, status="approved").status_code == 404  # not theirs to see
    # an officer's own run of another jurisdiction: seen, not decided
    own = _run(FLOOR_CO, massachusetts)
    refused = _decide(massachusetts, own, status="approved")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"


def test_a_decision_needs_a_known_status_and_a_date_up_to_today(
    vendor: User, colorado_officer: User
) -> None:
    run = _run(FLOOR_CO, vendor)
    unknown = _decide(colorado_officer, run, status="maybe")
    assert unknown.status_code == 400 and "status" in unknown.json()["error"]["fields"]
    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    future = _decide(colorado_officer, run, status="approved", date=tomorrow)
    assert future.status_code == 400 and "date" in future.json()["error"]["fields"]
    run.refresh_from_db()
    assert run.status == "submitted" and run.decided_on is None


def test_a_newer_run_of_the_same_floor_supersedes_the_vendors_older_ones(
    vendor: User, colorado_officer: User
) -> None:
    approved = _run(FLOOR_CO, vendor)
    assert _decide(colorado_officer, approved, status="approved").status_code == 200
    pending = _run(FLOOR_CO, vendor)
    another_floor = _run(dict(FLOOR_CO, licensee="Another Casino"), vendor)
    other_vendor, _ = api_user_create(username="wanda")
    theirs = _run(FLOOR_CO, other_vendor)

    # the same floor on a later date, with a table's limits changed: a new filing of it
    tables = [dict(FLOOR_CO["tables"][0], limits={"min": "10", "max": "1000"})]
    later = dict(FLOOR_CO, as_of="2025-01-01", tables=tables + FLOOR_CO["tables"][1:])
    newest = _run(later, vendor)

    for run in (approved, pending, another_floor, theirs):
        run.refresh_from_db()
    # the approved run was superseded by the next filing, which the newest superseded in turn
    assert (approved.status, approved.superseded_by_id) == ("superseded", pending.pk)
    assert (pending.status, pending.superseded_by_id) == ("superseded", newest.pk)
    assert another_floor.status == "submitted" and theirs.status == "submitted"
    assert newest.status == "submitted"
    assert [h.status for h in approved.history.order_by("history_id")] == [
        "submitted",
        "approved",
        "superseded",
    ]
    refused = _decide(colorado_officer, approved, status="rejected")
    assert refused.status_code == 409 and str(pending.pk) in refused.json()["error"]["message"]


def test_the_desk_shows_the_status_and_lets_the_officer_decide(
    vendor: User, colorado_officer: User
) -> None:
    run = _run(FLOOR_CO, vendor)
    address = f"/configurations/runs/{run.pk}/"
    officer = Client()
    officer.force_login(colorado_officer)
    page = officer.get(address).content.decode()
    assert "Your decision" in page and 'name="status"' in page

    mine = Client()
    mine.force_login(vendor)
    page = mine.get(address).content.decode()
    assert "Your decision" not in page and "Submitted" in page

    future = (timezone.localdate() + dt.timedelta(days=3)).isoformat()
    refused = officer.post(f"{address}decision/", {"status": "approved", "date": future})
    assert refused.status_code == 400
    assert "The decision&#x27;s date must be between" in refused.content.decode()

    today = timezone.localdate().isoformat()
    done = officer.post(
        f"{address}decision/", {"status": "approved", "date": today, "note": "All clear."}
    )
    assert done.status_code == 302
    page = mine.get(address).content.decode()
    assert f"Approved</span> on {today} by cora" in page and "All clear." in page
    runs_page = mine.get("/configurations/runs/").content.decode()
    assert 'class="state state-approved">Approved<' in runs_page
