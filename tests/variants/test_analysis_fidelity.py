"""Analyses that must settle as the rules do (issue #9): War Blackjack on the first card dealt,
Massachusetts' Buster Blackjack with the dealer its own section fixes, and Royal Match 21 Pay
table 1's player edge reported as a catalog finding (a published analysis agrees, issue #23),
through GET paytables/{id}/analysis/."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.cards import deck

pytestmark = pytest.mark.django_db


def analysis(client: APIClient, paytable: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/paytables/{paytable}/analysis/", params)
    assert response.status_code == 200, response.content
    return response.json()


def test_war_blackjack_compares_the_first_card_dealt_with_the_up_card(
    anon_client: APIClient,
) -> None:
    """30-899.17(5)-(7): the player's first card against the dealer's up card, ace low, a higher
    card winning 1 to 1 (a tie loses: annotated). Counted here card by card over the ordered
    (first card, up card) pairs of a 6-deck shoe: 23/311, 7.40 %, not the 15.69 % of comparing
    the lower card of the pair."""
    shoe = [card for card in deck() for _ in range(6)]
    win = lose = 0
    for i, first in enumerate(shoe):
        for j, up in enumerate(shoe):
            if i != j:
                if first.number > up.number:
                    win += 1
                else:
                    lose += 1
    expected = Fraction(lose - win, win + lose)
    assert expected == Fraction(23, 311)
    [result] = analysis(anon_client, "us-co/war-blackjack/pays", decks=6)["analyses"]
    assert result["house_edge_fraction"] == "23/311"
    assert result["house_edge"].startswith("0.0739549")


def test_ma_buster_blackjack_is_analysed_with_the_dealer_hitting_soft_17(
    anon_client: APIClient,
) -> None:
    """MA 27(f)(3): with a Buster Blackjack Wager in play the dealer draws until "a soft total of
    18, 19, 20, or 21": the dealer hits soft 17, whatever the table does."""
    body = analysis(anon_client, "us-ma/buster-blackjack/paytable-a", decks=6)
    assert "hits soft 17" in body["method"]
    assert "27(f)(3)" in body["method"]
    [result] = body["analyses"]
    assert result["method"] == "exact"
    assert "the dealer hitting soft 17" in result["card_removal"]
    standing = analysis(anon_client, "us-co/buster-blackjack/pay-schedule-1", decks=6)
    assert "the dealer standing on soft 17" in standing["analyses"][0]["card_removal"]


def test_raise_the_roof_is_exact_with_the_players_best_raise(anon_client: APIClient) -> None:
    """Raise the Roof's raise is the player's choice (30-899.23(8)): analysed exactly from the
    play tree, the raise made where it returns most, and said so; no simulation answers."""
    body = analysis(anon_client, "us-co/raise-the-roof/6d-s17-pay-table-1", decks=6)
    assert body["method"].startswith("exact: the play tree enumerated under the basic strategy")
    ante, raised = body["analyses"]
    for result in (ante, raised):
        assert result["method"] == "exact" and result["standard_error"] is None
        assert result["house_edge_fraction"]
    assert "raises" in raised["card_removal"] and "raises" not in ante["card_removal"]
    assert Decimal(raised["house_edge"]) < Decimal(ante["house_edge"])


def test_a_colorado_paytable_for_a_standing_dealer_keeps_its_own_rule(
    anon_client: APIClient,
) -> None:
    """Raise the Roof's "6 Decks Dealer Stands on Soft 17" tables (30-899.23(12)) are analysed
    with the dealer standing: the wager's rule is used only where the paytable says nothing."""
    body = analysis(anon_client, "us-co/raise-the-roof/6d-s17-pay-table-1", decks=6)
    assert "soft 17" not in body["method"]


def test_royal_match_pay_table_1_s_player_edge_is_a_catalog_finding(
    anon_client: APIClient,
) -> None:
    """30-899.11(17) Pay table 1: Royal Match 10 to 1, Two Suited Cards 3 to 1, Crown Treasure
    (optional) $1,000. The optional dollar line is left out with a note; what is left gives the
    player 45/4043 (1.11 %) at 6 decks: a finding, not a house edge."""
    body = analysis(anon_client, "us-co/royal-match-21/pay-table-1", decks=6)
    assert body["analyses"] == []
    [finding] = body["catalog_findings"]
    assert (finding["code"], finding["decks"]) == ("player-edge", 6)
    assert finding["player_edge_fraction"] == "45/4043"
    assert "1.113" in finding["message"]
    assert (
        'a published analysis of these pays agrees: Wizard of Odds, "Royal Match"'
        in (finding["message"])
    )
    assert any("Crown Treasure (optional)" in note for note in body["lines_left_out"])
    two_decks = analysis(anon_client, "us-co/royal-match-21/pay-table-1", decks=2)
    [result] = two_decks["analyses"]
    assert result["house_edge_fraction"] == "11/1339"


def test_royal_match_s_player_edge_begins_at_three_decks(anon_client: APIClient) -> None:
    edges = {}
    for decks in (1, 2, 3, 4, 6, 8):
        body = analysis(anon_client, "us-co/royal-match-21/pay-table-1", decks=decks)
        edges[decks] = bool(body["catalog_findings"])
    assert edges == {1: False, 2: False, 3: True, 4: True, 6: True, 8: True}


def test_the_player_edge_is_annotated_on_the_rule(anon_client: APIClient) -> None:
    response = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-CO", "citation": "30-899.11(17)"}
    )
    [item] = response.json()["results"]
    assert any("45/4043" in a["text"] for a in item["annotations"])


def test_the_sevens_one_seven_line_is_the_first_card_with_the_other_reading_beside_it(
    anon_client: APIClient,
) -> None:
    """MA 17(e)(3) (fixtures/sources/text/ma-205-cmr-blackjack.md line 329): "One seven (initial
    card) 3 to 1" is the player's first card a seven, as the published analyses read it
    (engine/readings.py SEVENS_EITHER_CARD): with the third card drawn to two sevens ((e):
    "elects to draw an additional card") the house keeps 14288/125333 = 11.40 % at 6 decks, the
    Wizard of Odds' Super Sevens figure. Read as a seven in either of the first two cards, the
    player's 1648/9641 (17.09 %): shown beside it, annotated on the rule, never a house edge."""
    body = analysis(anon_client, "us-ma/sevens/highest-winning-payout", decks=6)
    assert body["catalog_findings"] == [] and body["readings_under_review"] == []
    assert "third card" in body["method"] and "first card a seven" in body["method"]
    [result] = body["analyses"]
    assert result["house_edge_fraction"] == "14288/125333"
    assert result["house_edge"].startswith("0.1140003")
    lines = {line["outcome"]: line for line in result["lines"]}
    assert Fraction(lines["one-7"]["probability_fraction"]) * 312 * 311 * 310 == 2_142_720
    [other] = body["alternative_readings"]
    assert (other["citation"], other["reading"]) == ("17(e)(3)", "either-first-two-cards")
    [figure] = other["figures"]
    assert (figure["decks"], figure["house_edge_fraction"], figure["favours"]) == (
        6,
        "-1648/9641",
        "player",
    )
    assert any("1648/9641" in text and "14288/125333" in text for text in other["annotations"])
    response = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-MA", "citation": "17(e)(3)"}
    )
    [item] = response.json()["results"]
    assert any("1648/9641" in a["text"] for a in item["annotations"])


def test_over_and_under_13_are_two_wagers_each_with_its_own_house_edge(
    anon_client: APIClient,
) -> None:
    """MA 17(a)(1), (b)(1)-(2) (fixtures/sources/text/ma-205-cmr-blackjack.md lines 277,
    282-283): the player wagers
    either over or under 13; (c) line 287: a total of 13 loses; (e)(1) line 290: one to one;
    2(b)(3)(ii) line 30: an ace counts one. Each side is a bet of its own: two analyses, one per
    side, each an exact house edge (over 265/4043 = 6.55 %, under 407/4043 = 10.07 % at 6
    decks, as published), never one stake paid on both lines (an 83 % player edge)."""
    body = analysis(anon_client, "us-ma/over-under-13/pays", decks=6)
    assert body["catalog_findings"] == []
    by_side = {a["column"]: a for a in body["analyses"]}
    assert set(by_side) == {"Over 13", "Under 13"}
    assert by_side["Over 13"]["house_edge_fraction"] == "265/4043"
    assert by_side["Under 13"]["house_edge_fraction"] == "407/4043"
    won = {}
    for side, outcome in (("Over 13", "over-13"), ("Under 13", "under-13")):
        [line] = by_side[side]["lines"]
        assert line["outcome"] == outcome
        won[side] = Fraction(line["probability_fraction"])
        assert by_side[side]["house_edge_fraction"] == str(1 - 2 * won[side])  # one to one
    assert 1 - sum(won.values()) > 0  # the 13s, which lose both sides
    inline = anon_client.post(
        "/api/v1/analysis/",
        {"wager": "over-under-13", "jurisdiction": "US-MA", "decks": 8,
         "paytable": [{"outcome": "over-13", "pays": "1 to 1"},
                      {"outcome": "under-13", "pays": "1 to 1"}]},
        format="json",
    ).json()  # fmt: skip
    assert [a["house_edge"][:6] for a in inline["analyses"]] == ["0.0654", "0.1006"]


def test_colorado_blazing_7s_is_exact_at_a_stake_and_a_meter(anon_client: APIClient) -> None:
    """30-899.21 B7P1 pays meter shares: exact for a $5 wager with the meter at $10,000, the
    third card dealt to two 7's counted from the shoe (30-899.21(8)), no longer simulated."""
    body = analysis(anon_client, "us-co/blazing-7s/b7p1", decks=6, stake="5", meter="10000")
    [result] = body["analyses"]
    assert result["method"] == "exact" and result["house_edge_fraction"] == "59330/125333"
    assert "30-899.21" in body["method"] and "third card" in result["card_removal"]
    assert analysis(anon_client, "us-co/blazing-7s/b7p1", decks=6)["not_analysed"]
