"""Issue #26: the proposed Raise The Roof text's pay tables (47.1-834.23(12)) held in the catalog
as proposed facts: never in force, cited by the proposed label, applied with include_proposed;
a floor's Raise The Roof pay table must then be one the proposed text prints, or the impact of
the proposed text shows the finding that says so."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from compliance.api.configuration import configuration_parse
from compliance.validator import configuration_validate
from tests.compliance.test_impact import FLOOR_CO, _client, _impact, _run, with_raise_the_roof
from variants.models import Paytable

pytestmark = pytest.mark.django_db

PROPOSED_RTR = {"kind": "proposed", "citation": "47.1-834.23", "as_of": "2026-11-29"}
ADOPTED = "us-co/raise-the-roof/6d-s17-pay-table-1"
PROPOSED = "us-co/raise-the-roof/proposed/6d-s17-pay-table-1"


def _pays(paytable: Paytable) -> list[tuple[str, str, str]]:
    return [(e.outcome, e.column, e.pays.lower()) for e in paytable.entries.order_by("order")]


def test_the_proposed_pay_tables_are_the_adopted_ones_line_for_line() -> None:
    """The proposed text prints the adopted six tables again (in capitals, "UNSUTED" corrected):
    every proposed table pays what the adopted table of its label pays."""
    proposed = Paytable.objects.filter(proposed=True).order_by("key")
    assert [p.key.rsplit("/", 1)[1] for p in proposed] == [
        "2d-h17-pay-table-1", "2d-h17-pay-table-2", "6d-h17-pay-table-1",
        "6d-h17-pay-table-2", "6d-s17-pay-table-1", "6d-s17-pay-table-2",
    ]  # fmt: skip
    for table in proposed:
        adopted = Paytable.objects.get(key=table.key.replace("/proposed/", "/"), proposed=False)
        assert table.label.lower() == adopted.label.lower()
        assert (table.decks, table.dealer_soft_17) == (adopted.decks, adopted.dealer_soft_17)
        assert _pays(table) == _pays(adopted)


def _side(data: dict[str, Any], paytable: str) -> dict[str, Any]:
    data = with_raise_the_roof(data)
    data["tables"][0]["side_wagers"][-1]["paytable"] = paytable
    return data


def _findings(data: dict[str, Any]) -> dict[str, Any]:
    return {f.code: f for f in configuration_validate(configuration_parse(data))}


def test_a_proposed_pay_table_is_in_force_on_no_date_unless_include_proposed() -> None:
    found = _findings(_side(FLOOR_CO, PROPOSED))
    refused = found["paytable-not-in-force"]
    assert refused.path == "tables[0].side_wagers[2].paytable"
    assert "a proposed text's, in force on no date; include_proposed applies it" in (
        refused.message
    )
    assert [(c["citation"], c["effective_from"]) for c in refused.citations] == [
        ("47.1-834.23(12)", None)
    ]
    as_if_adopted = _findings(dict(_side(FLOOR_CO, PROPOSED), include_proposed=True))
    assert not {c for c in as_if_adopted if c.startswith("paytable-")}
    assert "47.1-834.23" in as_if_adopted["proposed-applied"].message


def test_an_adopted_pay_table_the_proposed_text_keeps_stays_approved() -> None:
    found = _findings(dict(_side(FLOOR_CO, ADOPTED), include_proposed=True))
    assert "paytable-not-in-proposed" not in found


def test_a_pay_table_the_proposed_text_would_drop_is_found_by_its_impact(vendor: User) -> None:
    """Were the proposed text to pay suited 4-5-6-7 150 to 1 (the catalog's proposed fact edited
    so), a floor with the adopted Pay Table 1 (200 to 1) would lose its approval: the impact of
    the proposed text shows the error on its table, cited to 47.1-834.23(12)."""
    line = Paytable.objects.get(key=PROPOSED).entries.get(
        outcome="bust-4567-suited", column="Ante+ Raise The Roof"
    )
    line.pays = "150 TO 1"
    line.save()
    run = _run(_side(FLOOR_CO, ADOPTED), vendor)
    assert run.compliant, run.findings

    body = _impact(vendor, change=PROPOSED_RTR).json()

    [floor] = body["affected"]
    [table] = [t for t in floor["tables"] if t["table"] == "BJ-01"]
    [dropped] = [f for f in table["new_findings"] if f["code"] == "paytable-not-in-proposed"]
    assert dropped["severity"] == "error"
    assert dropped["path"] == "tables[0].side_wagers[2].paytable"
    assert dropped["message"] == (
        "6 Decks Dealer Stands on Soft 17: Pay Table 1 of Raise The Roof is not among the pay "
        "tables of the proposed 47.1-834.23(12) (its tables for 6 decks and a dealer who stands "
        "on soft 17: 6 DECKS DEALER STANDS ON SOFT 17: PAY TABLE 1, 6 DECKS DEALER STANDS ON "
        "SOFT 17: PAY TABLE 2): were the text adopted, it would no longer be approved."
    )
    assert [(c["citation"], c["effective_from"]) for c in dropped["citations"]] == [
        ("47.1-834.23(12)", None)
    ]


def test_the_catalog_shows_a_proposed_pay_table_as_such(vendor: User) -> None:
    browser = Client()
    wager = browser.get("/catalog/us-co/raise-the-roof/").content.decode()
    assert wager.count("proposed text, not in force") == 6
    page = browser.get(f"/catalog/paytables/{PROPOSED}/").content.decode()
    assert "a proposed text's pay table: in force on no date" in page
    assert "47.1-834.23(12)" in page
    shown = _client(vendor).get(f"/api/v1/paytables/{PROPOSED}/").json()
    assert shown["proposed"] is True
    assert [c["citation"] for c in shown["citations"]] == ["47.1-834.23(12)"]
    adopted = _client(vendor).get(f"/api/v1/paytables/{ADOPTED}/").json()
    assert adopted["proposed"] is False
    assert [c["citation"] for c in adopted["citations"]] == ["30-899.23(12)"]
