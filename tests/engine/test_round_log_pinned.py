"""The logged engine is made faster from time to time; what it deals, decides, settles and logs
must not change with it. These tests pin the full round logs of seeded shoes under several rule
sets, and check the small helpers the fast paths use against the plain counts they replace.

Where a change of behaviour is meant (a rule fixed, a log field added), the pinned digests change
with it: recompute them and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest

from engine.cards import deck, parse_cards
from engine.hands import DealerHand, dealer_draws, hand_total, is_two_card_21
from engine.round import RULE_KEYS, SeatSpec, play_round
from engine.rules import DoubleOn, HoleCard, RuleRef, RuleSet, Surrender
from engine.shoe import Shoe
from engine.strategy import BasicStrategy, doubles_on

CITATIONS = {key: RuleRef("US-XX", f"1-{n}") for n, key in enumerate(sorted(RULE_KEYS))}
RULE_SETS = {
    "colorado shoe": RuleSet(citations=CITATIONS),
    "h17, late surrender, no peek": RuleSet(
        decks=2,
        dealer_hits_soft_17=True,
        hole_card=HoleCard.NO_PEEK,
        surrender=Surrender.LATE,
        double_on=DoubleOn.TEN_ELEVEN,
        citations=CITATIONS,
    ),
    "no hole card, early surrender, all bets": RuleSet(
        decks=8,
        hole_card=HoleCard.NONE,
        surrender=Surrender.EARLY,
        original_bets_only=False,
        resplit_aces=True,
        blackjack_pays=Fraction(6, 5),
        citations=CITATIONS,
    ),
    "face up, ties lose": RuleSet(
        dealer_face_up=True, ties_lose=True, blackjack_pays=Fraction(1), citations=CITATIONS
    ),
    "switch": RuleSet(
        spots_per_seat=2,
        switch=True,
        switched_blackjack_pushes_22=True,
        blackjack_pays=Fraction(1),
        citations=CITATIONS,
    ),
    "spanish 21": RuleSet(
        spanish_decks=True,
        dealer_hits_soft_17=True,
        blackjack_beats_dealer_blackjack=True,
        player_21_wins=True,
        bonus_21=(("777-suited", Fraction(2)), ("678", Fraction(3, 2)), ("5-card", Fraction(3, 2))),
        max_doubles=3,
        rescue=True,
        surrender=Surrender.LATE,
        double_on=DoubleOn.ANY_TIME,
        citations=CITATIONS,
    ),
}
PINNED = {
    "colorado shoe": "8c6740fd0f617294f419bf0af84cb2b19c4eea710c22919c670115d61f77ecff",
    "h17, late surrender, no peek": (
        "a929b6154738f4a69a6e0bddbb4ff9096c4fa87a154abce001cb5373badd8530"
    ),
    "no hole card, early surrender, all bets": (
        "ac208798747c8d6661545f662f80664950c35318d20edd28902053e6b246f4f4"
    ),
    "face up, ties lose": "e3f92b40d93b227c385e4b5328fd40065e53090eb6898fb4b58917297616fa2d",
    "switch": "76860b88b3f366ab376c729e7d3ca014ae6385c1d40d14a2b373044d75a9533e",
    "spanish 21": "a52a8ef59b74465a7cf7813db823af3ef1552b6e1d9d531413866fdf30486e8f",
}
"""sha256 of the JSON of 400 rounds' logs (RoundLog.to_dict), two seats, seed 7."""


def _digest(rules: RuleSet, rounds: int = 400) -> str:
    shoe = Shoe.shuffled(rules.decks, 7, spanish=rules.spanish_decks)
    seats = [
        SeatSpec({"main": Decimal(10)}, BasicStrategy(rules)),
        SeatSpec({"main": Decimal("7.5")}, BasicStrategy(rules)),
    ]
    digest = hashlib.sha256()
    for _ in range(rounds):
        log = play_round(rules, shoe, seats)
        digest.update(json.dumps(log.to_dict(), default=str, sort_keys=True).encode())
        shoe.end_round()
    return digest.hexdigest()


@pytest.mark.parametrize("name", RULE_SETS)
def test_seeded_round_logs_are_unchanged(name: str) -> None:
    assert _digest(RULE_SETS[name]) == PINNED[name]


def test_a_two_card_21_is_an_ace_and_a_ten_value_card() -> None:
    cards = deck()
    for first in cards:
        for second in cards:
            pair = [first, second]
            assert is_two_card_21(pair) == (hand_total(pair)[0] == 21)
    assert not is_two_card_21(parse_cards(["7H", "7C", "7D"]))
    assert not is_two_card_21(parse_cards(["AS"]))


def test_the_dealer_draws_as_the_dealers_hand_says() -> None:
    values = deck()[:10]  # A 2 … 9 T of one suit
    for first in values:
        for second in values:
            for third in (None, *values):
                cards = [first, second] + ([third] if third else [])
                for hits_soft_17 in (False, True):
                    total, soft = hand_total(cards)
                    assert dealer_draws(total, soft, hits_soft_17) == DealerHand(cards).must_draw(
                        hits_soft_17
                    )


def test_the_doubling_rules_totals() -> None:
    for total in range(4, 22):
        for soft in (False, True):
            assert doubles_on(DoubleOn.ANY_TWO, total, soft)
            assert doubles_on(DoubleOn.ANY_TIME, total, soft)
            assert not doubles_on(DoubleOn.NONE, total, soft)
            assert doubles_on(DoubleOn.NINE_TEN_ELEVEN, total, soft) == (
                not soft and total in (9, 10, 11)
            )
            assert doubles_on(DoubleOn.TEN_ELEVEN, total, soft) == (not soft and total in (10, 11))


def test_rule_checks_worked_out_once_follow_the_rule_set() -> None:
    rules = RuleSet()
    assert rules.peeks and not rules.no_hole_card
    assert not rules.early_surrender and not rules.late_surrender and not rules.doubles_any_time
    other = replace(
        rules, hole_card=HoleCard.NONE, surrender=Surrender.EARLY, double_on=DoubleOn.ANY_TIME
    )
    assert not other.peeks and other.no_hole_card
    assert other.early_surrender and not other.late_surrender and other.doubles_any_time
    assert replace(rules, surrender=Surrender.LATE).late_surrender
    assert rules == RuleSet() and rules.peeks  # worked out, not a field: equality is unchanged
