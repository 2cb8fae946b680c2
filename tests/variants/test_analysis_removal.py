"""?removal= on the analysis and the par sheet of a wager decided by the dealer's hand (issue
#13): none, the default (the dealer's whole hand from a full shoe), or player-cards (the player's
first hand played out first); the same fractions either way (tests/engine/
test_dealer_hand_removal.py checks why), the answer saying which was used; a 400 naming `removal`
for any other value or for a wager that takes no such option."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

BUSTER = "us-ma/buster-blackjack/paytable-c"  # the Wizard of Odds' Pay Table 1, MA 27


def analysis(client: APIClient, paytable: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/paytables/{paytable}/analysis/", params)
    assert response.status_code == 200, response.content
    return response.json()


def fractions(body: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [
        (a["house_edge_fraction"], [line["probability_fraction"] for line in a["lines"]])
        for a in body["analyses"]
    ]


def test_buster_blackjack_with_the_player_s_cards_removed_has_the_same_exact_figures(
    anon_client: APIClient,
) -> None:
    default = analysis(anon_client, BUSTER, decks=6)
    none = analysis(anon_client, BUSTER, decks=6, removal="none")
    removed = analysis(anon_client, BUSTER, decks=6, removal="player-cards")
    assert fractions(removed) == fractions(none) == fractions(default)
    [result] = removed["analyses"]
    assert result["method"] == "exact"
    lines = sum((Fraction(line["probability_fraction"]) for line in result["lines"]), Fraction(0))
    assert 0 < lines < 1
    assert "removal=none, the default" in default["card_removal"]
    assert default["card_removal"] == none["card_removal"]
    assert "the player's first hand removed" in removed["card_removal"]
    assert "removal=player-cards" in result["card_removal"]
    assert "the dealer hitting soft 17" in result["card_removal"]  # MA 27(f)(3)


def test_the_inline_analysis_takes_the_convention_too(anon_client: APIClient) -> None:
    body = {
        "wager": "buster-blackjack",
        "jurisdiction": "US-MA",
        "paytable": [{"outcome": "bust-3-cards", "pays": "2 to 1"}],
        "decks": 6,
        "removal": "player-cards",
    }
    response = anon_client.post("/api/v1/analysis/", body, format="json")
    assert response.status_code == 200, response.content
    assert "removal=player-cards" in response.json()["card_removal"]


def test_the_par_sheet_states_the_convention_in_json_and_csv(anon_client: APIClient) -> None:
    url = f"/api/v1/paytables/{BUSTER}/par-sheet/"
    response = anon_client.get(url, {"decks": 6, "removal": "player-cards"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert "removal=player-cards" in body["card_removal"]
    default = anon_client.get(url, {"decks": 6}).json()
    assert [s["house_edge_fraction"] for s in body["sheets"]] == [
        s["house_edge_fraction"] for s in default["sheets"]
    ]
    assert "the default" in default["card_removal"]
    text = anon_client.get(url, {"decks": 6, "removal": "player-cards", "format": "csv"})
    rows = list(csv.reader(io.StringIO(text.content.decode())))
    assert dict(row for row in rows if len(row) == 2)["Card removal"] == body["card_removal"]


@pytest.mark.parametrize("endpoint", ["analysis", "par-sheet"])
@pytest.mark.parametrize(
    ("paytable", "removal", "code"),
    [
        (BUSTER, "all", "bad_removal"),
        (BUSTER, "player-cards,none", "bad_removal"),
        # decided by the first cards: the option does not apply, whatever its value
        ("us-co/kings-bounty/kb03", "none", "removal_not_applicable"),
        # decided by how the hand is played: its own convention only
        ("us-co/raise-the-roof/6d-s17-pay-table-1", "player-cards", "removal_not_applicable"),
    ],
)
def test_a_removal_the_wager_does_not_take_is_a_400_naming_it(
    anon_client: APIClient, endpoint: str, paytable: str, removal: str, code: str
) -> None:
    response = anon_client.get(
        f"/api/v1/paytables/{paytable}/{endpoint}/", {"decks": 6, "removal": removal}
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert "removal" in error["fields"]
    assert error["code"] == code


def test_the_schema_documents_removal_on_the_analysis_and_the_par_sheet(
    anon_client: APIClient,
) -> None:
    schema = anon_client.get("/api/v1/schema/", {"format": "json"}).json()
    for path in (
        "/api/v1/paytables/{id}/analysis/",
        "/api/v1/paytables/{id}/par-sheet/",
    ):
        [removal] = [
            p for p in schema["paths"][path]["get"]["parameters"] if p["name"] == "removal"
        ]
        assert removal["schema"]["enum"] == ["none", "player-cards"]
        assert "default" in removal["description"]
