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


def test_the_sevens_wager_drawing_to_two_sevens_is_a_reading_under_review(
    anon_client: APIClient,
) -> None:
    """MA 17(e)(3)'s pay table, counted exactly with the player drawing a third card to two
    sevens ((e): "elects to draw an additional card"): the player's edge is 1648/9641 (17.09 %)
    at 6 decks. No published analysis agrees and no meter makes it so, so it is a reading under
    review (issue #23), annotated on the rule, never a house edge nor a catalog finding."""
    body = analysis(anon_client, "us-ma/sevens/highest-winning-payout", decks=6)
    assert body["analyses"] == [] and body["catalog_findings"] == []
    assert "third card" in body["method"] and "17(e)" in body["method"]
    [finding] = body["readings_under_review"]
    assert (finding["code"], finding["player_edge_fraction"]) == (
        "reading-under-review",
        "1648/9641",
    )
    assert "reading under review" in finding["message"]
    response = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-MA", "citation": "17(e)(3)"}
    )
    [item] = response.json()["results"]
    assert any("1648/9641" in a["text"] for a in item["annotations"])


def test_colorado_blazing_7s_is_exact_at_a_stake_and_a_meter(anon_client: APIClient) -> None:
    """30-899.21 B7P1 pays meter shares: exact for a $5 wager with the meter at $10,000, the
    third card dealt to two 7's counted from the shoe (30-899.21(8)), no longer simulated."""
    body = analysis(anon_client, "us-co/blazing-7s/b7p1", decks=6, stake="5", meter="10000")
    [result] = body["analyses"]
    assert result["method"] == "exact" and result["house_edge_fraction"] == "59330/125333"
    assert "30-899.21" in body["method"] and "third card" in result["card_removal"]
    assert analysis(anon_client, "us-co/blazing-7s/b7p1", decks=6)["not_analysed"]
