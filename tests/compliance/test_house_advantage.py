"""MA 20(k): the blackjack bonus wager's house advantage, computed exactly by the engine, between 0
and 30 percent, and the same for a denomination on every table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def _floor(*sides: dict[str, Any], decks: int = 6) -> dict[str, Any]:
    return {
        "jurisdiction": "US-MA",
        "as_of": "2024-06-01",
        "tables": [
            {
                "name": f"MA-{n + 1:02d}",
                "game": "blackjack",
                "decks": decks,
                "dealing": "shoe",
                "dealer_soft_17": "stand",
                "blackjack_pays": "3 to 2",
                "insurance_pays": "2 to 1",
                "even_money": True,
                "limits": {"min": "15", "max": "1000"},
                "side_wagers": [side],
                "layouts": [side["wager"]],  # 20(b): its designated betting area on the layout
            }
            for n, side in enumerate(sides)
        ],
    }


def _bonus(*payouts: tuple[str, str], stake: str = "1", top: str | None = None) -> dict[str, Any]:
    return {
        "wager": "blackjack-bonus",
        "limits": {"min": stake, "max": top or stake},
        "bonus_payouts": [{"amount": a, "probability": p} for a, p in payouts],
    }


def _findings(client: APIClient, config: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.post("/api/v1/validations/", config, format="json", HTTP_HOST="localhost")
    assert response.status_code == 201, response.json()
    return [
        f
        for f in response.json()["findings"]
        if "house-advantage" in f["code"] or f["code"] == "fact-missing"
    ]


def test_the_house_advantage_is_the_exact_chance_of_a_blackjack_times_the_bonus(
    vendor_client: APIClient,
) -> None:
    blackjack = 2 * Fraction(24, 312) * Fraction(96, 311)  # 6 decks: ace then ten, or ten then ace
    assert _findings(vendor_client, _floor(_bonus(("15", "1")))) == []  # 1 - 16 P = 24.02%
    [finding] = _findings(vendor_client, _floor(_bonus(("5", "1"))))
    advantage = 1 - 6 * blackjack  # the $5 minimum of 20(j) alone: far above 30 percent
    assert finding["code"] == "us-ma/blackjack-bonus/house-advantage-0-to-30-percent"
    assert f"{advantage.numerator}/{advantage.denominator}" in finding["message"]
    assert finding["citations"][0]["citation"] == "20(k)"
    [generous] = _findings(vendor_client, _floor(_bonus(("5", "1/2"), ("40", "1/2"))))
    assert "-" in generous["message"].split("house advantage of ")[1]  # below zero


def test_one_house_advantage_per_denomination_on_every_table(vendor_client: APIClient) -> None:
    same = _floor(_bonus(("15", "1")), _bonus(("10", "1/2"), ("20", "1/2")))
    assert _findings(vendor_client, same) == []  # the same expected payout
    differs = _floor(_bonus(("15", "1")), _bonus(("16", "1")), _bonus(("75", "1"), stake="5"))
    [finding] = _findings(vendor_client, differs)
    assert finding["code"] == "us-ma/blackjack-bonus/same-house-advantage-per-denomination"
    assert finding["table"] == "MA-02"


def test_what_the_computation_needs_is_asked_for(vendor_client: APIClient) -> None:
    [finding] = _findings(vendor_client, _floor(_bonus(("15", "1"), top="5")))
    assert finding["code"] == "fact-missing"
    assert finding["path"] == "tables[0].side_wagers[0].limits"


def test_payout_probabilities_must_add_up_to_one(vendor_client: APIClient) -> None:
    config = _floor(_bonus(("15", "0.5"), ("20", "0.4")))
    response = vendor_client.post(
        "/api/v1/validations/", config, format="json", HTTP_HOST="localhost"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"].startswith("tables[0].side_wagers[0].bonus_payouts")
    assert "add up to 9/10, not 1" in error["message"]
