"""A validation run carries each table's exact base-game house edge beside its findings (issue
#15): in the API response, the web report and the JSON download; the reason where the analysis
cannot value the table's game; MA 20(k)'s bonus wager house advantage side by side; each
distinct rule set analysed once and kept."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from compliance.basegame import analysis_key, base_game_memory_clear, base_game_values
from compliance.models import BaseGameEdge
from engine.basegame import base_game_value
from engine.rules import RuleSet, Surrender

pytestmark = pytest.mark.django_db

TABLE: dict[str, Any] = {
    "name": "BJ-01",
    "game": "blackjack",
    "decks": 6,
    "dealing": "shoe",
    "dealer_soft_17": "stand",
    "hole_card": "peek",
    "blackjack_pays": "3 to 2",
    "insurance_pays": "2 to 1",
    "double": {"on": "any_two", "after_split": True},
    "split": {"max_hands": 4, "resplit_aces": False, "split_aces_one_card": True},
    "surrender": "late",
    "limits": {"min": "10", "max": "500"},
}
# Farmer's combinatorial analyzer: 6D S17 DOA DAS SPL3 NRSA LS, -0.330268037 % (CDZ-).
FARMER_6D_S17_DAS_LS = "0.33026803"


def _floor(*tables: dict[str, Any], jurisdiction: str = "US-CO") -> dict[str, Any]:
    return {"jurisdiction": jurisdiction, "as_of": "2024-06-01", "tables": list(tables)}


def _table(**changes: Any) -> dict[str, Any]:
    return copy.deepcopy(TABLE) | changes


def _validate(client: APIClient, config: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/validations/", config, format="json", HTTP_HOST="localhost")
    assert response.status_code == 201, response.json()
    return response.json()


def test_each_table_of_a_run_carries_its_exact_house_edge(vendor_client: APIClient) -> None:
    body = _validate(
        vendor_client,
        _floor(_table(), _table(name="BJ-02", dealer_soft_17="hit", blackjack_pays="6 to 5")),
    )
    first, second = body["tables"]
    assert first["table"] == "BJ-01" and first["not_analysed"] is None
    assert first["house_edge_percent"].startswith(FARMER_6D_S17_DAS_LS)
    assert first["play"] == "composition" and first["method"].startswith("combinatorial")
    assert any("CDZ-" in text for text in first["conventions"])
    # 6 to 5 and hitting soft 17 cost the player about 1.6 percentage points more.
    assert 1.5 < float(second["house_edge_percent"]) - float(first["house_edge_percent"]) < 1.8
    # The link gives the same figure from the base-game analysis, with the rule effects.
    analysis = vendor_client.get(f"{first['analysis']}&effects=false", HTTP_HOST="localhost")
    assert analysis.status_code == 200, analysis.json()
    assert analysis.json()["house_edge"] == first["house_edge"]
    # The run read again says the same.
    again = vendor_client.get(f"/api/v1/validations/{body['id']}/", HTTP_HOST="localhost")
    assert again.json()["tables"] == body["tables"]


def test_a_table_the_analysis_cannot_value_says_why_and_gives_no_number(
    vendor_client: APIClient,
) -> None:
    body = _validate(
        vendor_client,
        _floor(
            _table(split={"max_hands": 8}),
            _table(name="MA-1", game="multiple-action-blackjack"),
            _table(name="BJ-03"),
        ),
    )
    eight, multiple, plain = body["tables"]
    assert eight["house_edge"] is None and eight["analysis"] is None
    assert "splits to more than 4 hands" in eight["not_analysed"]
    assert multiple["house_edge"] is None
    assert "cannot play Multiple Action" in multiple["not_analysed"]
    assert plain["house_edge_percent"].startswith(FARMER_6D_S17_DAS_LS)


def test_the_bonus_wagers_house_advantage_stands_beside_the_house_edge(
    vendor_client: APIClient,
) -> None:
    bonus = {
        "wager": "blackjack-bonus",
        "limits": {"min": "1", "max": "1"},
        "bonus_payouts": [{"amount": "15", "probability": "1"}],
    }
    ma_table = _table(even_money=True, side_wagers=[bonus], layouts=["blackjack-bonus"])
    body = _validate(vendor_client, _floor(ma_table, jurisdiction="US-MA"))
    [table] = body["tables"]
    # MA 3(a)(3): a split hand's 21 in two cards beats the dealer's 21 in more; the exact house
    # edge is played so, beside the bonus wager's figure.
    assert table["not_analysed"] is None and float(table["house_edge"]) > 0
    assert "21 in two cards beats the dealer's 21" in " ".join(table["conventions"])
    [wager] = table["bonus_wagers"]
    blackjack = 2 * Fraction(24, 312) * Fraction(96, 311)  # 6 decks: ace-ten or ten-ace
    advantage = 1 - 16 * blackjack
    assert wager["house_advantage_fraction"] == f"{advantage.numerator}/{advantage.denominator}"
    assert wager["within_bounds"] is True and wager["bounds"] == "0 % to 30 %"
    assert wager["citations"][0]["citation"] == "20(k)"
    missing = _validate(
        vendor_client,
        _floor(_table(side_wagers=[bonus | {"limits": {"min": "1", "max": "5"}}],
                      layouts=["blackjack-bonus"]), jurisdiction="US-MA"),
    )  # fmt: skip
    [wager] = missing["tables"][0]["bonus_wagers"]
    assert wager["house_advantage"] is None and "denomination" in wager["missing"]


def test_the_report_page_and_its_download_show_the_house_edge(
    client: Client, vendor: User, vendor_client: APIClient
) -> None:
    body = _validate(vendor_client, _floor(_table(), _table(name="BJ-08", split={"max_hands": 8})))
    client.force_login(vendor)
    page = client.get(f"/configurations/runs/{body['id']}/", HTTP_HOST="localhost")
    html = page.content.decode()
    assert "House edge of each table" in html
    assert "0.3303 %" in html  # 0.330268 percent to four places
    assert "not analysed" in html and "splits to more than 4 hands" in html
    assert "/api/v1/analysis/base-game/?jurisdiction=US-CO" in html
    download = client.get(f"/configurations/runs/{body['id']}/run.json", HTTP_HOST="localhost")
    assert download.json()["tables"] == body["tables"]


def test_a_kept_value_equals_a_fresh_analysis_and_survives_a_restart() -> None:
    rules = RuleSet(decks=6, surrender=Surrender.LATE)
    base_game_memory_clear()  # as a fresh process: an earlier test may have analysed it
    [kept] = base_game_values([rules])
    fresh = base_game_value(rules)
    assert kept.as_dict() == fresh.as_dict()
    # Kept in the table too: a process that starts afresh reads it there, not analysing again.
    row = BaseGameEdge.objects.get(key=analysis_key(rules))
    assert row.expected_value == fresh.expected_value
    assert tuple(row.by_up_card) == fresh.by_up_card
    base_game_memory_clear()
    BaseGameEdge.objects.filter(pk=row.pk).update(expected_value=-0.25)
    [read] = base_game_values([rules])
    assert read.expected_value == -0.25
    base_game_memory_clear()  # forget the altered value


def test_the_key_holds_what_the_analysis_reads_and_nothing_else() -> None:
    plain = RuleSet(decks=6)
    assert analysis_key(plain) == analysis_key(RuleSet(decks=6, insurance_pays=Fraction(1)))
    assert analysis_key(plain) != analysis_key(RuleSet(decks=8))
    assert analysis_key(plain) != analysis_key(RuleSet(decks=6, dealer_hits_soft_17=True))


def test_the_schema_documents_the_tables_block(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/v1/schema/", {"format": "json"}, HTTP_HOST="localhost")
    components = schema.json()["components"]["schemas"]
    assert "tables" in components["ValidationOut"]["properties"]
    assert "not_analysed" in components["TableBaseGameOut"]["properties"]
    assert "house_advantage" in components["BonusWagerOut"]["properties"]


def test_a_base_game_giving_the_player_the_edge_is_flagged_in_the_report(
    client: Client, vendor: User, vendor_client: APIClient
) -> None:
    # 30-899.02 Face Up Blackjack with the dealer standing on soft 17: the rules as read give the
    # player 0.263 % (tests/compliance/test_base_game_analysis.py). A negative house edge alone
    # is easily misread; the report says whose edge it is.
    face_up = _table(game="face-up-blackjack", hole_card="face_up", surrender="none")
    del face_up["blackjack_pays"]  # 1 to 1, the game's own
    body = _validate(vendor_client, _floor(face_up, _table(name="BJ-02")))
    assert float(body["tables"][0]["house_edge"]) < 0 < float(body["tables"][1]["house_edge"])
    client.force_login(vendor)
    html = client.get(f"/configurations/runs/{body['id']}/", HTTP_HOST="localhost").content.decode()
    assert html.count("the player has the edge") == 1
    assert "give the player 0.2631 % of each wager" in html


def test_a_switch_table_s_edge_rests_on_the_reading_of_its_dealer_22(
    vendor_client: APIClient, client: Client, vendor: User
) -> None:
    """30-2105(8)(e) (fixtures/sources/text/co-rule-21-blackjack-poker.md line 103) as read
    (engine/readings.py SWITCH_DEALER_22): a dealer's 22 pushes every hand but a blackjack, and a
    Switch table keeps 0.538 % a hand (6 decks, H17), not the player's 6.83 % of the literal
    reading, which the run and its report show beside the edge, annotated."""
    switch = _table(name="SW-1", game="blackjack-switch", blackjack_pays="1 to 1",
                    dealer_soft_17="hit", surrender="none")  # fmt: skip
    body = _validate(vendor_client, _floor(switch))
    [table] = body["tables"]
    assert table["house_edge_percent"].startswith("0.53818")
    [literal] = table["alternative_readings"]
    assert (literal["citation"], literal["favours"]) == ("30-2105(8)(e)", "player")
    assert literal["house_edge_percent"].startswith("-6.8311")
    assert any("6.831%" in text for text in literal["annotations"])
    client.force_login(vendor)
    page = client.get(f"/configurations/runs/{body['id']}/", HTTP_HOST="localhost").content.decode()
    assert "30-2105(8)(e) read otherwise" in page and "-6.8311 %" in page
    assert "the player has the edge" not in page


def test_each_side_wager_s_house_edge_stands_beside_its_table_as_the_analysis_gives_it(
    client: Client, vendor: User, vendor_client: APIClient, anon_client: APIClient
) -> None:
    """Issue #23: the validator agrees with the analysis. MA 17(a)(1)'s over or under 13 (source
    line 277) is two bets, each its own house edge at the table's 6 decks (over 265/4043, under
    407/4043), and 17(e)(3)'s sevens (line 329) pays one seven on the first card (14288/125333),
    the figures GET paytables/{id}/analysis/ gives; in the run, its report page and its par-sheet
    link. A wager no exact method settles, or a table without its deck count, says why."""
    ma = {"surrender": "none", "dealer_soft_17": "hit"}
    body = _validate(
        vendor_client,
        _floor(
            _table(**ma, side_wagers=[{"wager": "over-under-13",
                                      "paytable": "us-ma/over-under-13/pays",
                                      "limits": {"min": "1", "max": "1"}}]),
            _table(**ma, name="BJ-02", side_wagers=[
                {"wager": "sevens", "paytable": "us-ma/sevens/highest-winning-payout",
                 "limits": {"min": "1", "max": "1"}}]),
            _table(**ma, name="BJ-03", decks=None, side_wagers=[
                {"wager": "sevens", "paytable": "us-ma/sevens/highest-winning-payout"}]),
            jurisdiction="US-MA",
        ),
    )  # fmt: skip
    [over_under] = body["tables"][0]["side_wagers"]
    assert over_under["decks"] == 6 and over_under["paytable"] == "us-ma/over-under-13/pays"
    edges = {a["column"]: a["house_edge_fraction"] for a in over_under["analyses"]}
    assert edges == {"Over 13": "265/4043", "Under 13": "407/4043"}
    [sevens] = body["tables"][1]["side_wagers"]
    assert [a["house_edge_fraction"] for a in sevens["analyses"]] == ["14288/125333"]
    assert any("1648/9641" in note for note in sevens["notes"])  # the reading set aside
    analysed = anon_client.get(
        "/api/v1/paytables/us-ma/sevens/highest-winning-payout/analysis/", {"decks": 6}
    ).json()
    assert analysed["analyses"][0]["house_edge"] == sevens["analyses"][0]["house_edge"]
    [undecked] = body["tables"][2]["side_wagers"]
    assert undecked["analyses"] == [] and "deck count" in undecked["not_analysed"]

    client.force_login(vendor)
    html = client.get(f"/configurations/runs/{body['id']}/", HTTP_HOST="localhost").content
    page = html.decode()
    assert "House edge of each side wager" in page
    assert "6.5545 %" in page and "10.0668 %" in page and "11.4000 %" in page
    assert "/api/v1/paytables/us-ma/over-under-13/pays/par-sheet/?decks=6&amp;format=pdf" in page
