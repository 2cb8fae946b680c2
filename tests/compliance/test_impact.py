"""Issue #26, the impact of a change: every configuration on file the caller may see, judged by the
rules before and after a window of adopted rules; per table, the findings that appear and clear,
the house edges that move and the signs to reprint; untouched configurations counted; another
vendor's floors never shown."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.models import ValidationRun
from compliance.services import validation_run_create, validation_run_decide
from compliance.views.refusals import error_paths
from jurisdictions.services import api_user_create

pytestmark = pytest.mark.django_db

DATA = Path(__file__).parent / "data"
FLOOR_CO = json.loads((DATA / "signage-floor-co.json").read_text())
RULE_8_WINDOW = {"kind": "window", "instrument": "rule-8", "from": "2016-01-01", "to": "2022-01-01"}


def _client(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


def _run(data: dict[str, Any], user: User) -> ValidationRun:
    return validation_run_create(configuration=configuration_parse(data), user=user)


def _impact(user: User, **body: Any) -> Any:
    return _client(user).post("/api/v1/impact/", {"jurisdiction": "US-CO", **body}, format="json")


def with_raise_the_roof(data: dict[str, Any]) -> dict[str, Any]:
    """FLOOR_CO's BJ-01 with Raise The Roof (30-834.23, effective 10/30/16; now 30-899.23)."""
    data = copy.deepcopy(data)
    table = data["tables"][0]
    table["layouts"].append("raise-the-roof")
    table["side_wagers"].append(
        {
            "wager": "raise-the-roof",
            "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1",
            "limits": {"min": "10", "max": "100"},
        }  # fmt: skip
    )
    return data


def test_rule_8_from_2016_to_2022_over_a_floor_approved_in_2016(vendor: User) -> None:
    """A floor filed and approved in late 2016 (Raise The Roof newly in force): between 2016-01-01
    and 2022-01-01 its Raise The Roof finding clears, and its signs are to be reprinted where a
    notice's rule was amended (30-804 and 30-813 on 12/15/17) or a notice is new."""
    officer, _ = api_user_create(username="cora", officer=True, jurisdictions=["US-CO"])
    floor = dict(with_raise_the_roof(FLOOR_CO), as_of="2016-11-01")
    run = _run(floor, vendor)
    assert run.compliant, run.findings
    validation_run_decide(run=run, status="approved", on=run.created_at.date(), user=officer)

    answer = _impact(vendor, change=RULE_8_WINDOW)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["change"] == {"kind": "window", "jurisdiction": "US-CO", **RULE_8_WINDOW}
    assert body["unaffected"] == 0
    [floor_impact] = body["affected"]
    assert (floor_impact["run"], floor_impact["status"]) == (str(run.pk), "approved")
    tables = {t["table"]: t for t in floor_impact["tables"]}
    bj1 = tables["BJ-01"]
    # on 2016-01-01 Raise The Roof was not in force, so neither was a paytable for its sign
    cleared = {f["code"]: f["message"] for f in bj1["cleared_findings"]}
    assert cleared.keys() == {"wager-not-in-force", "sign-fact-missing"}
    assert cleared["wager-not-in-force"].startswith("Raise The Roof is not in force")
    assert bj1["new_findings"] == []
    added = [d["text"] for d in bj1["signs"]["diff"] if d["op"] == "added"]
    assert any(text.startswith("Raise The Roof pays") for text in added)
    # the wall sign: 30-804 amended 12/15/17, so its notice is reprinted citing the new version
    wall = tables[None]["signs"]["diff"]
    assert {(d["op"], d["cites"]) for d in wall if d["text"].startswith("House rules")} == {
        ("removed", "US-CO 30-804 (since 2012-03-01)"),
        ("added", "US-CO 30-804 (since 2017-12-15)"),
    }


def test_a_floor_the_change_does_not_touch_is_counted_and_anothers_never_seen(
    vendor: User,
) -> None:
    mine = _run(FLOOR_CO, vendor)
    other, _ = api_user_create(username="wanda")
    theirs = _run(dict(with_raise_the_roof(FLOOR_CO), licensee="Wanda's casino"), other)
    quiet = {"kind": "window", "from": "2023-01-01", "to": "2024-01-01"}

    body = _impact(vendor, change=quiet).json()
    assert (body["affected"], body["unaffected"]) == ([], 1)
    body = _impact(vendor, change=RULE_8_WINDOW).json()
    assert [a["run"] for a in body["affected"]] == [str(mine.pk)]
    assert "Wanda" not in json.dumps(body) and str(theirs.pk) not in json.dumps(body)

    # an officer of Colorado sees both vendors' floors; the approved one first
    officer, _ = api_user_create(username="cora", officer=True, jurisdictions=["US-CO"])
    validation_run_decide(run=theirs, status="approved", on=theirs.created_at.date(), user=officer)
    body = _impact(officer, change=RULE_8_WINDOW).json()
    assert [a["run"] for a in body["affected"]] == [str(theirs.pk), str(mine.pk)]


def test_only_the_latest_run_of_a_floor_is_judged(vendor: User) -> None:
    _run(FLOOR_CO, vendor)
    latest = _run(FLOOR_CO, vendor)
    body = _impact(vendor, change=RULE_8_WINDOW).json()
    assert [a["run"] for a in body["affected"]] == [str(latest.pk)]


def test_an_instruments_window_counts_only_what_cites_it(vendor: User) -> None:
    """Rule 21 was not amended in the window's notices of this floor: the floor's Rule 8
    changes (the reprinted 30-804 notice) do not count for it."""
    _run(FLOOR_CO, vendor)
    rule_21 = dict(RULE_8_WINDOW, instrument="rule-21")
    body = _impact(vendor, change=rule_21).json()
    cites = json.dumps(body["affected"])
    assert "30-804" not in cites and "30-813" not in cites


def test_inline_configurations_are_judged_instead_of_the_stored_ones(vendor: User) -> None:
    _run(FLOOR_CO, vendor)
    body = _impact(
        vendor, change=RULE_8_WINDOW, configurations=[with_raise_the_roof(FLOOR_CO)]
    ).json()
    [affected] = body["affected"]
    assert (affected["run"], affected["configuration"]) == (None, "configurations[0]")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"change": dict(RULE_8_WINDOW, to="2015-01-01")}, "change.to"),
        ({"change": dict(RULE_8_WINDOW, instrument="rule-99")}, "change.instrument"),
        ({"change": {"kind": "record", "to": "2026-01-01T00:00:00Z"}}, "change.from"),
        ({"change": {"kind": "record", "from": "yesterday", "to": "2026-01-01"}}, "change.from"),
        ({"change": {"kind": "window", "from": "2016-01-01", "to": "2016-13-01"}}, "change.to"),
        ({"change": {"kind": "teleport"}}, "change.kind"),
        ({"change": {"kind": "proposed"}}, "change.citation"),
        ({"change": {"kind": "window", "from": "2016-01-01"}}, "change.to"),
        (
            {"change": RULE_8_WINDOW, "configurations": [{"jurisdiction": "US-CO"}]},
            "configurations",
        ),
        (
            {"change": RULE_8_WINDOW, "configurations": [dict(FLOOR_CO, jurisdiction="US-MA")]},
            "configurations",
        ),
    ],
)
def test_a_malformed_change_is_a_400_naming_the_field(
    vendor: User, body: dict[str, Any], field: str
) -> None:
    answer = _impact(vendor, **body)
    assert answer.status_code == 400, answer.json()
    paths = [path for path, _ in error_paths(answer.json()["error"]["fields"])]
    assert any(path.startswith(field) for path in paths), answer.json()


def test_the_desk_shows_who_is_affected_and_the_diff_pages_link_to_it(
    vendor: User, client: Any
) -> None:
    run = _run(dict(with_raise_the_roof(FLOOR_CO), as_of="2016-11-01"), vendor)
    client.force_login(vendor)
    diff = client.get(
        "/diff/instrument/?instrument=US-CO/rule-8&start=2016-01-01&end=2022-01-01"
    ).content.decode()
    link = "/impact/?rules=US-CO%2Frule-8&amp;start=2016-01-01&amp;end=2022-01-01"
    assert f'href="{link}"' in diff

    page = client.get(link.replace("&amp;", "&"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "1 configuration affected; 0 not affected." in text
    assert f'href="/configurations/runs/{run.pk}/"' in text
    assert "Findings that clear" in text and "Raise The Roof is not in force" in text
    assert "Sign to reprint" in text and "US-CO 30-804 (since 2017-12-15)" in text

    refused = client.get("/impact/?rules=US-CO&start=2022-01-01&end=2016-01-01")
    assert refused.status_code == 400
    assert "must be after 2022-01-01" in refused.content.decode()


def test_a_provision_page_links_to_who_is_affected_by_its_version(client: Any) -> None:
    page = client.get("/us-co/rule-8/30-804@2022-01-01").content.decode()
    assert 'href="/impact/?rules=US-CO%2Frule-8&amp;start=2017-12-14&amp;end=2017-12-15"' in page


PROPOSED_RTR = {"kind": "proposed", "citation": "47.1-834.23", "as_of": "2024-06-01"}


def test_the_proposed_raise_the_roof_cap_over_an_approved_floor(vendor: User) -> None:
    """Issue #26's acceptance: a vendor's approved Raise The Roof floor whose maximum is $500
    asks the impact of the proposed 47.1-834.23: its table shows the new finding from the $100
    cap, cited to 47.1-834.23(3); a floor without Raise The Roof is counted unaffected; another
    vendor's floors never appear."""
    officer, _ = api_user_create(username="cora", officer=True, jurisdictions=["US-CO"])
    floor = with_raise_the_roof(FLOOR_CO)
    floor["tables"][0]["side_wagers"][-1]["limits"] = {"min": "10", "max": "500"}
    with_rtr = _run(floor, vendor)
    assert with_rtr.compliant, with_rtr.findings  # the adopted 30-899.23(3) sets no cap
    on = with_rtr.created_at.date()
    validation_run_decide(run=with_rtr, status="approved", on=on, user=officer)
    without = _run(dict(FLOOR_CO, licensee="A floor without Raise The Roof"), vendor)
    other, _ = api_user_create(username="wanda")
    _run(dict(floor, licensee="Wanda's casino"), other)

    answer = _impact(vendor, change=PROPOSED_RTR)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["change"] == {"jurisdiction": "US-CO", **PROPOSED_RTR}
    assert body["unaffected"] == 1  # the floor without Raise The Roof
    [affected] = body["affected"]
    assert (affected["run"], affected["status"]) == (str(with_rtr.pk), "approved")
    assert str(without.pk) not in json.dumps(body) and "Wanda" not in json.dumps(body)
    bj1 = next(t for t in affected["tables"] if t["table"] == "BJ-01")
    [cap] = bj1["new_findings"]
    assert cap["code"] == "us-co/raise-the-roof/ante-at-most-100-proposed"
    assert cap["path"] == "tables[0].side_wagers[2].limits.max"
    assert cap["message"].startswith("Raise The Roof maximum 500.00;")
    assert [(c["citation"], c["effective_from"]) for c in cap["citations"]] == [
        ("47.1-834.23(3)", None)
    ]
    # the proposed text's notice is to be printed, cited by its proposed label
    added = [d for d in bj1["signs"]["diff"] if d["op"] == "added"]
    assert any("up to $100" in d["text"] and "47.1-834.23(3)" in d["cites"] for d in added)


def test_a_proposed_text_must_be_on_file(vendor: User) -> None:
    answer = _impact(vendor, change={"kind": "proposed", "citation": "30-899.23"})
    assert answer.status_code == 400
    assert "47.1-834.23" in answer.json()["error"]["fields"]["change.citation"]


def test_validating_with_include_proposed_applies_the_proposed_cap(vendor: User) -> None:
    floor = with_raise_the_roof(FLOOR_CO)
    floor["tables"][0]["side_wagers"][-1]["limits"] = {"min": "10", "max": "500"}
    adopted = _run(floor, vendor)
    proposed = _run(dict(floor, include_proposed=True), vendor)
    assert adopted.compliant and not proposed.compliant
    codes = {f["code"]: f for f in proposed.findings}
    assert "us-co/raise-the-roof/ante-at-most-100-proposed" in codes
    said = codes["proposed-applied"]["message"]
    assert "47.1-834.23 (not in force) are applied as if adopted" in said


def test_the_proposed_against_adopted_diff_links_to_who_is_affected(
    vendor: User, client: Any
) -> None:
    floor = with_raise_the_roof(FLOOR_CO)
    floor["tables"][0]["side_wagers"][-1]["limits"] = {"min": "10", "max": "500"}
    _run(floor, vendor)
    client.force_login(vendor)
    diff = client.get(
        "/diff/provision/?jurisdiction=US-CO&citation=47.1-834.23&left=proposed&right=2024-06-01"
    ).content.decode()
    link = "/impact/?jurisdiction=US-CO&amp;proposed=47.1-834.23&amp;as_of=2024-06-01"
    assert f'href="{link}"' in diff
    page = client.get(link.replace("&amp;", "&")).content.decode()
    assert "proposed 47.1-834.23 against the rules of 2024-06-01" in page
    assert "1 configuration affected" in page and "us-co/raise-the-roof/ante-at-most-100" in page
