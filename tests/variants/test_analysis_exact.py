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
        assert (
            "hole card" in result["card_removal"]
            or "dealer's two cards" in (result["card_removal"])
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


def test_war_blackjack_is_analysed_only_at_the_deck_counts_its_rule_allows(
    anon_client: APIClient,
) -> None:
    """30-899.17(2): "The game shall be played using six or more decks": analysed at 6 and 8 (of
    1, 2, 4, 6, 8); four decks is a 400 naming `decks` and the rule, for the analysis and the par
    sheet alike, and the catalog page offers 6 and 8 only."""
    body = analysis(anon_client, "us-co/war-blackjack/pays")
    assert [result["decks"] for result in body["analyses"]] == [6, 8]
    for endpoint in ("analysis", "par-sheet"):
        response = anon_client.get(
            f"/api/v1/paytables/us-co/war-blackjack/pays/{endpoint}/", {"decks": 4}
        )
        assert response.status_code == 400, response.content
        error = response.json()["error"]
        assert error["code"] == "decks_not_allowed"
        assert "30-899.17(2)" in error["message"] and "six or more decks" in error["message"]
        assert "30-899.17(2)" in error["fields"]["decks"]
    assert analysis(anon_client, "us-co/war-blackjack/pays", decks=7)["analyses"]
    page = anon_client.get("/catalog/paytables/us-co/war-blackjack/pays/")
    assert page.status_code == 200
    offered = page.content.decode().split('name="decks"')[1].split("</select>")[0]
    assert 'value="6"' in offered and 'value="8"' in offered and 'value="4"' not in offered


def test_a_paytable_is_analysed_at_the_deck_counts_its_wager_s_rule_names(
    anon_client: APIClient,
) -> None:
    """30-899.28(1) (Pocket Rockets, six or eight decks) and 30-899.21(1) (Blazing 7's, 6-8
    decks): a paytable approved for any deck count is analysed at those its wager is played with."""
    rockets = analysis(anon_client, "us-co/pocket-rockets/pays")
    assert [result["decks"] for result in rockets["analyses"]] == [6, 8]
    blazing = analysis(anon_client, "us-co/blazing-7s/b7p1", stake="5", meter="10000")
    assert [result["decks"] for result in blazing["analyses"]] == [6, 7, 8]


def test_a_paytable_printed_for_a_deck_count_its_wager_s_rule_refuses_is_not_analysed_there(
    anon_client: APIClient,
) -> None:
    """30-2113(1) plays Buffalo Blackjack Bonus 2 with one, two, four or six decks and prints its
    21+3 Pay Table A for them, while 30-2107(1) allows 21+3 on 2 and 4-8 deck games only (the
    reading annotated on 30-2113): analysed at 2, 4 and 6 decks; one deck is a 400 naming the
    rule."""
    key = "us-co/21-plus-3/buffalo-blackjack-bonus-2/pay-table-a"
    assert [r["decks"] for r in analysis(anon_client, key)["analyses"]] == [2, 4, 6]
    response = anon_client.get(f"/api/v1/paytables/{key}/analysis/", {"decks": 1})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "decks_not_allowed"
    assert "30-2107(1)" in response.json()["error"]["fields"]["decks"]
