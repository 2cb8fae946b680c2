"""Exact wherever the cards decide (issue #23): lines that wait for the dealer's hole card, lines
printed as "Loss", and dollar and meter lines at a stake and a meter, through GET
paytables/{id}/analysis/ and the par sheet."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def analysis(client: APIClient, paytable: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/paytables/{paytable}/analysis/", params)
    assert response.status_code == 200, response.content
    return response.json()


def test_rocket_aces_is_exact_at_a_stake_and_a_meter(anon_client: APIClient) -> None:
    """30-899.29(2) "Quick With Single Ace Base – 6 Decks", read as annotated on (2): two suited
    aces with a dealer blackjack 100% of the meter, two suited aces 100 for 1, two aces 12 for 1,
    a single ace 2 for 1, all other hands lose. At $5 and a $25,000 meter the top line pays 5,000
    to 1. Counted here from the shoe: the player's pair of C(312, 2), the dealer's ace and
    ten-value card from the 310 cards left."""
    pairs = Fraction(1, 312 * 311 // 2)
    suited_aces, other_aces, one_ace = 4 * 15 * pairs, (276 - 60) * pairs, 24 * 288 * pairs
    blackjack = Fraction(2 * 22 * 96, 310 * 309)
    returned = (
        suited_aces * (blackjack * 5000 + (1 - blackjack) * 99)
        + other_aces * 11
        + one_ace * 1
        - (1 - suited_aces - other_aces - one_ace)
    )
    body = analysis(
        anon_client, "us-co/rocket-aces/quick-single-ace-6-decks", stake="5", meter="25000"
    )
    [result] = body["analyses"]
    assert result["method"] == "exact"
    assert Fraction(result["house_edge_fraction"]) == -returned
    assert body["not_analysed"] == []
    lines = {line["outcome"]: line for line in result["lines"]}
    lost = lines["all-other-hands"]  # "All other hands - Lose": a line that loses the stake
    assert Fraction(lost["return"]) == -Fraction(lost["probability"])


@pytest.mark.parametrize(
    ("paytable", "decks"),
    [
        ("us-co/trilux-progressive/pay-table-05", 6),  # the AK/Q/J line (30-2115¶10)
        ("us-co/royal-match-21-progressive/progressive-pay-table-1", 2),  # 30-899.11(6)
        ("us-co/bet-the-set-21-progressive/pay-table", 6),  # 30-899.13(17)
    ],
)
def test_a_line_waiting_for_the_hole_card_is_exact_at_a_stake_and_a_meter(
    anon_client: APIClient, paytable: str, decks: int
) -> None:
    body = analysis(anon_client, paytable, decks=decks, stake="5", meter="25000")
    assert body["analyses"] and body["not_analysed"] == []
    for result in body["analyses"]:
        assert result["method"] == "exact" and result["house_edge_fraction"]
        assert "hole card" in result["card_removal"] or "dealer's two cards" in (
            result["card_removal"]
        )


def test_a_loss_line_is_a_row_of_the_par_sheet_and_the_returns_add_up(
    anon_client: APIClient,
) -> None:
    """30-2113 PT-BJS-213-10 (21+3 Progressive under Buffalo Blackjack Bonus 2) prints "Flush
    Loss" among dollar lines: at $5 and a $25,000 meter it is a row of its own, its return minus
    its probability, and every row's return adds up to minus the house edge."""
    key = "us-co/21-plus-3-progressive/buffalo-blackjack-bonus-2/pt-bjs-213-10"
    response = anon_client.get(
        f"/api/v1/paytables/{key}/par-sheet/", {"decks": 6, "stake": "5", "meter": "25000"}
    )
    assert response.status_code == 200, response.content
    [column] = response.json()["sheets"]
    rows = {row["outcome"]: row for row in column["lines"]}
    flush = rows["flush"]
    assert flush["pays"] == "Loss"
    assert Fraction(flush["return_fraction"]) == -Fraction(flush["probability_fraction"])
    assert Fraction(rows["lose"]["return_fraction"]) == -Fraction(
        rows["lose"]["probability_fraction"]
    )
    returns = sum(Fraction(row["return_fraction"]) for row in column["lines"])
    assert returns == -Fraction(column["house_edge_fraction"])
    assert sum(row["combinations"] for row in column["lines"]) == column["combinations"]
