"""The last catalog paytables without an exact figure (issue #13), through the API: Super Match,
Pai Jack Bonus, Go Fish 21 and 21-Hold 'em analysed exactly with a par sheet; the wagers the cards
do not decide refused with the rule that says why."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _get(client: APIClient, url: str, **params: object) -> dict:
    response = client.get(url, params)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize(
    ("paytable", "decks", "combinations", "edge"),
    [
        ("us-co/super-match/pay-table-1", 6, comb(312, 4), "0.02548"),
        ("us-co/super-match/pay-table-2", 8, comb(416, 4), "0.02638"),
        ("us-co/pai-jack-bonus/pay-table-1", 1, comb(52, 5), "0.03739"),
        ("us-co/21-hold-em/pay-schedule", 1, comb(52, 2) * 50 * 49 * 48, "0.20621"),
    ],
)
def test_the_paytable_has_an_exact_house_edge_and_a_par_sheet_that_adds_up(
    anon_client: APIClient, paytable: str, decks: int, combinations: int, edge: str
) -> None:
    body = _get(anon_client, f"/api/v1/paytables/{paytable}/analysis/", decks=decks)
    [analysis] = body["analyses"]
    assert body["method"].startswith("exact")
    assert analysis["house_edge"].startswith(edge)
    house_edge = Fraction(analysis["house_edge_fraction"])
    [column] = _get(anon_client, f"/api/v1/paytables/{paytable}/par-sheet/", decks=decks)["sheets"]
    assert column["combinations"] == combinations
    assert Fraction(column["house_edge_fraction"]) == house_edge
    assert sum(Fraction(line["return_fraction"]) for line in column["lines"]) == -house_edge


def test_go_fish_is_analysed_at_every_deck_count(anon_client: APIClient) -> None:
    body = _get(anon_client, "/api/v1/paytables/us-co/go-fish-21/pays/analysis/")
    assert [a["decks"] for a in body["analyses"]] == [1, 2, 4, 6, 8]
    assert "specialty deck" in body["method"]
    assert "even money" in body["card_removal"]


def test_streak_is_refused_as_not_decided_by_the_cards(anon_client: APIClient) -> None:
    response = anon_client.get(
        "/api/v1/paytables/us-co/streak/standard-schedule/analysis/", {"decks": 6}
    )
    assert response.status_code in (400, 422), response.content
    text = response.content.decode()
    assert "streak is not decided by the cards" in text
    assert "30-899.07(2), (6)" in text
