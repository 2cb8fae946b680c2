"""Issue #23: the round engine settles the over/under 13 sides and the sevens wager as the exact
analysis counts them. Every deal of the cards that decide the wager is played as a round by the
engine and weighted by how many ways a 6-deck shoe deals it: the weighted nets are exactly minus
the analysis' house edge. And the readings set aside are on record (engine/readings.py)."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import pytest

from engine.analysis import analyse
from engine.cards import RANKS, parse_cards
from engine.odds import Pays
from engine.readings import READINGS, SEVENS_EITHER_CARD, SWITCH_DEALER_22
from engine.round import MAIN, SeatSpec, play_round
from engine.rules import PaytableLine, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.sidewagers import SIDES, sided
from engine.strategy import IllegalAction, Scripted

DECKS = 6
OVER_UNDER = (
    PaytableLine("over-13", Pays.parse("one to one"), "Over 13"),
    PaytableLine("under-13", Pays.parse("one to one"), "Under 13"),
)
SEVENS = tuple(
    PaytableLine(key, Pays.parse(pays), key)
    for key, pays in (
        ("three-7s-suited", "5000 to 1"),
        ("three-7s", "500 to 1"),
        ("two-7s-suited", "100 to 1"),
        ("two-7s", "50 to 1"),
        ("one-7", "3 to 1"),
    )
)


def _net(wager: str, lines: tuple[PaytableLine, ...], cards: str, actions: list[str],
         sides: dict[str, str] | None = None) -> Decimal:  # fmt: skip
    """The side wager's net on a unit stake in a round dealt from `cards` (the player's first
    card, the up card, the player's second card, the hole card, then the draws)."""
    rules = RuleSet(
        jurisdiction="US-MA", decks=DECKS, side_wagers=(SideWagerRules(wager, "t", lines),)
    )
    shoe = Shoe.scripted(parse_cards(cards.split()), DECKS)
    seat = SeatSpec({MAIN: Decimal(10), wager: Decimal(1)}, Scripted(actions, 1), sides or {})
    log = play_round(rules, shoe, [seat])
    [settled] = [s for s in log.settlements if s.wager == wager]
    return settled.net


@pytest.mark.parametrize("side", ["over", "under"])
def test_rounds_settle_each_over_under_13_side_as_the_analysis_counts_it(side: str) -> None:
    """MA 17(b)(1)-(2), (c), (e)(1), 2(b)(3)(ii) (fixtures/sources/text/ma-205-cmr-blackjack.md
    lines 282-283, 287, 290, 30): every ordered pair of ranks the player can be dealt, played as a
    round betting one side, weighted by its ways from 6 decks (24 of each rank): the nets sum to
    minus the house edge of that side's analysis (265/4043 over, 407/4043 under)."""
    total = Fraction(0)
    for first, second in itertools.product(RANKS, repeat=2):
        ways = 24 * (24 - (first == second))
        natural = {first, second} in ({"A", r} for r in "TJQK")
        cards = f"{first}H 5C {second}D TC 6C 6D"
        net = _net("over-under-13", OVER_UNDER, cards, [] if natural else ["stand"],
                   {"over-under-13": side})  # fmt: skip
        total += ways * Fraction(net)
    [column] = {line.column for line in sided("over-under-13", OVER_UNDER)
                if line.outcome == f"{side}-13"}  # fmt: skip
    lines = [line for line in sided("over-under-13", OVER_UNDER) if line.column == column]
    analysis = analyse("over-under-13", lines, DECKS, "US-MA")
    assert total / (312 * 311) == -analysis.house_edge
    assert analysis.house_edge == {"over": Fraction(265, 4043), "under": Fraction(407, 4043)}[side]


def test_a_side_must_be_named_and_only_where_the_wager_has_sides() -> None:
    with pytest.raises(IllegalAction, match="over-under-13 is a wager on one side: name it, over"):
        _net("over-under-13", OVER_UNDER, "9H 5C 5D TC 6C", ["stand"])
    with pytest.raises(IllegalAction, match="sevens has no sides"):
        _net("sevens", SEVENS, "9H 5C 5D TC 6C", ["stand"], {"sevens": "over"})
    assert [s.name for s in SIDES["over-under-13"]] == ["over", "under"]


def test_rounds_settle_the_sevens_wager_as_the_analysis_counts_it() -> None:
    """MA 17(e)(3) (ma-205-cmr-blackjack.md line 329), one seven the first card (engine/
    readings.py), the third card drawn to two sevens: every ordered deal of the player's first
    three cards, each a seven of one of four suits or another card, played as a round and
    weighted by its ways from 6 decks (6 sevens of each suit, 288 other cards): the nets sum to
    minus the analysis' house edge, 14288/125333."""
    kinds = {"7S": 6, "7H": 6, "7D": 6, "7C": 6, "9S": 288}
    total = Fraction(0)
    for first, second, third in itertools.product(kinds, repeat=3):
        taken = {first: 1}
        ways = kinds[first] * (kinds[second] - taken.get(second, 0))
        taken[second] = taken.get(second, 0) + 1
        ways *= kinds[third] - taken.get(third, 0)
        if ways <= 0:
            continue
        sevens = first[0] == second[0] == "7"
        cards = f"{first} 5C {second} TC {third} 6C 6D" if sevens else f"{first} 5C {second} TC 4C"
        total += ways * Fraction(_net("sevens", SEVENS, cards, ["hit"] if sevens else ["stand"]))
    analysis = analyse("sevens", SEVENS, DECKS, "US-MA")
    assert analysis.house_edge == Fraction(14288, 125333)
    assert total / (312 * 311 * 310) == -analysis.house_edge


def test_a_seven_dealt_second_alone_is_paid_by_no_line() -> None:
    """17(e)(3): "One seven (initial card)": a seven first pays 3 to 1, a seven second loses (the
    reading set aside would pay it)."""
    assert _net("sevens", SEVENS, "7H 5C 9D TC 4C", ["stand"]) == 3
    assert _net("sevens", SEVENS, "9D 5C 7H TC 4C", ["stand"]) == -1


def test_splitting_sevens_forfeits_the_three_sevens_pay() -> None:
    """MA 12(f) (ma-205-cmr-blackjack.md line 206): a player who splits two sevens forfeits any
    payout for three sevens and is paid the two-sevens line: 50 to 1, not 500 to 1."""
    rules = RuleSet(jurisdiction="US-MA", decks=DECKS,
                    side_wagers=(SideWagerRules("sevens", "t", SEVENS),))  # fmt: skip
    shoe = Shoe.scripted(parse_cards("7H 5C 7D TC 7S 9C 8D 6C".split()), DECKS)
    seat = SeatSpec({MAIN: Decimal(10), "sevens": Decimal(1)},
                    Scripted(["split", "stand", "stand"], 1))  # fmt: skip
    log = play_round(rules, shoe, [seat])
    [settled] = [s for s in log.settlements if s.wager == "sevens"]
    assert (settled.outcomes, settled.net) == (("two-7s",), 50)


def test_the_readings_set_aside_are_on_record_with_their_rule() -> None:
    """Each reading set aside names the unit, the words, the reading taken and why."""
    assert {(r.jurisdiction, r.citation, r.subject) for r in READINGS} == {
        ("US-MA", "17(e)(3)", "sevens"),
        ("US-CO", "30-2105(8)(e)", "blackjack-switch"),
    }
    assert "One seven (initial card)" in SEVENS_EITHER_CARD.words
    assert "11.40 %" in SEVENS_EITHER_CARD.why
    assert "pushes against a dealer 21 or 22" in SWITCH_DEALER_22.words
    either = analyse("sevens", SEVENS, DECKS, "US-MA", SEVENS_EITHER_CARD.key)
    assert either.house_edge == Fraction(-1648, 9641)  # the player's edge, read so
