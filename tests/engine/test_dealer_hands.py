"""The dealer's whole hand counted exactly (engine/dealer_hands.py), and the wagers it decides
analysed exactly: checked against the shoe's own counts and against rounds the engine plays."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.analysis import analyse_dealer_hand, simulate
from engine.dealer_hands import CLASSES, dealer_hands, falling, numerator
from engine.odds import Pays
from engine.rules import PaytableLine, RuleSet


def _points(ranks: tuple[str, ...]) -> int:
    hard = sum(1 if r == "A" else 10 if r == "T" else int(r) for r in ranks)
    return hard + 10 if "A" in ranks and hard + 10 <= 21 else hard


@pytest.mark.parametrize(("decks", "hits"), [(1, False), (2, True), (6, False), (8, True)])
def test_the_dealer_s_hands_add_up_to_one_and_deal_each_up_card_as_the_shoe_holds_it(
    decks: int, hits: bool
) -> None:
    hands, shoe, longest = dealer_hands(decks, hits)
    total = falling(shoe, longest)
    assert sum(numerator(h, shoe, longest) for h in hands) == total
    for c in CLASSES:
        up = sum(numerator(h, shoe, longest) for h in hands if h.ranks[0] == c)
        assert Fraction(up, total) == Fraction(16 if c == "T" else 4, 52)
    for h in hands:
        assert h.suited + h.colour + h.mixed == h.ways and min(h.suited, h.colour, h.mixed) >= 0
        assert _points(h.ranks) >= 17 or len(h.ranks) < 2
        assert all(h.ranks.count(c) <= (16 if c == "T" else 4) * decks for c in CLASSES)


def test_the_dealer_hitting_soft_17_busts_more_often() -> None:
    """Six decks: the dealer busts about 28.2 % standing on soft 17 and 28.6 % hitting it (the
    figures every blackjack text prints), and hitting never makes a soft 17 final."""
    rates = {}
    for hits in (False, True):
        hands, shoe, longest = dealer_hands(6, hits)
        bust = sum(numerator(h, shoe, longest) for h in hands if _points(h.ranks) > 21)
        rates[hits] = Fraction(bust, falling(shoe, longest))
        if hits:
            assert not any(
                _points(h.ranks) == 17
                and "A" in h.ranks
                and len(h.ranks) > 1
                and sum(1 if r == "A" else 10 if r == "T" else int(r) for r in h.ranks) == 7
                for h in hands
            )
    assert 0.280 < rates[False] < 0.284 < rates[True] < 0.288


MA_BUSTER_A = [
    PaytableLine("bust-8-plus-cards", Pays.parse("250 to 1"), "8 or more"),
    PaytableLine("bust-7-cards", Pays.parse("50 to 1"), "7"),
    PaytableLine("bust-6-cards", Pays.parse("15 to 1"), "6"),
    PaytableLine("bust-5-cards", Pays.parse("4 to 1"), "5"),
    PaytableLine("bust-4-cards", Pays.parse("2 to 1"), "4"),
    PaytableLine("bust-3-cards", Pays.parse("2 to 1"), "3"),
]


def test_buster_blackjack_exact_agrees_with_rounds_played_by_the_engine() -> None:
    """MA 27(g) Paytable A at 6 decks, the dealer hitting soft 17: the exact figure against 60,000
    rounds the engine plays with the basic strategy (within four standard errors: the rounds
    also remove the player's cards, which the exact figure's full shoe does not)."""
    exact = analyse_dealer_hand("buster-blackjack", MA_BUSTER_A, 6, hits_soft_17=True)
    played = simulate(
        "buster-blackjack", MA_BUSTER_A, RuleSet(decks=6, dealer_hits_soft_17=True), 60_000, 7
    )
    assert played.standard_error is not None
    assert abs(float(exact.house_edge - played.house_edge)) < 4 * played.standard_error
    bust = sum(line.probability for line in exact.lines)
    assert 0.284 < bust < 0.288  # every bust hand pays a line: the dealer's bust rate


def test_the_optional_bonus_is_settled_on_the_third_card_and_pays_its_highest_line() -> None:
    """MA 25(d)-(f): the dealer's first two cards under 17, the third busting; three eights of one
    suit pay 200 to 1 instead of the eight's 7 to 1. One paytable printed in two parts."""
    lines = [
        PaytableLine("third-card-ten", Pays.parse("3 to 1"), "Ten"),
        PaytableLine("third-card-nine", Pays.parse("5 to 1"), "Nine"),
        PaytableLine("third-card-eight", Pays.parse("7 to 1"), "Eight"),
        PaytableLine("third-card-seven", Pays.parse("9 to 1"), "Seven"),
        PaytableLine("third-card-six", Pays.parse("15 to 1"), "Six"),
        PaytableLine("three-8s-same-color", Pays.parse("50 to 1"), "same color"),
        PaytableLine("three-8s-suited", Pays.parse("200 to 1"), "same suit"),
    ]
    result = analyse_dealer_hand("optional-bonus", lines, 1, hits_soft_17=False)
    by_line = {line.outcome: line.probability for line in result.lines}
    # One deck: three eights of one suit cannot be dealt (one 8 a suit); of one colour, two
    # suits hold 2 eights each: 8♥ 8♦ and one more red eight? Only two red eights: impossible too.
    assert by_line["three-8s-suited"] == 0 and by_line["three-8s-same-color"] == 0
    two = analyse_dealer_hand("optional-bonus", lines, 2, hits_soft_17=False)
    p = {line.outcome: line.probability for line in two.lines}
    # Two decks: 8 eights, 2 of each suit: three of one suit impossible, three red possible.
    assert p["three-8s-suited"] == 0
    assert p["three-8s-same-color"] == Fraction(4 * 3 * 2, 104 * 103 * 102) * 2
    six = analyse_dealer_hand("optional-bonus", lines, 6, hits_soft_17=False)
    q = {line.outcome: line.probability for line in six.lines}
    assert q["three-8s-suited"] == Fraction(4 * 6 * 5 * 4, 312 * 311 * 310)
