"""The play-tree analysis (engine/playtree/) of the wagers decided by how the round is played:
exact fractions, pinned where a count by hand gives them, and cross-checked against the simulator
(engine/analysis/simulated.py simulate, the same engine, rules and basic strategy) within 4 standard
errors."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from engine.analysis import simulate
from engine.odds import Pays
from engine.playtree import analyse_play_tree, play_tree
from engine.rules import PaytableLine, RuleSet


def _lines(column: str = "", **pays: str) -> list[PaytableLine]:
    return [
        PaytableLine(outcome.replace("_", "-"), Pays.parse(p), outcome, column)
        for outcome, p in pays.items()
    ]


PROGRESSIVE = _lines(
    three_aces_suited="250 to 1", three_aces="100 to 1", two_aces_suited="25 to 1",
    two_aces="10 to 1",
)  # fmt: skip
STRAIGHT_JACK = _lines(
    "Pays", straight_5_or_6_cards="250 to 1", straight_4_cards="100 to 1",
    straight_3_cards="25 to 1", straight_2_cards="3 to 1",
)  # fmt: skip
MAGIC_21 = _lines(  # 30-899.09(6) Buffalo Blackjack Bonus, single deck table A
    blackjack="5 to 1", **{"2_card_21": "6 to 1", "3_card_21": "7 to 1", "4_card_21": "8 to 1",
    "5_card_21": "9 to 1", "6_card_21": "10 to 1", "7_card_21": "10 to 1", "8_card_21": "10 to 1",
    "9_card_21": "10 to 1", "10_plus_card_21": "10 to 1"},
)  # fmt: skip
PUSH_YOUR_LUCK = _lines(tie="10 to 1")  # 30-899.22(8)


def test_two_aces_are_the_first_two_cards_of_a_shoe_exactly() -> None:
    """MA 19(c): the seat's first two cards aces: 24·23 / (312·311) at six decks, the up card
    between them unseen."""
    analysis = analyse_play_tree("progressive-blackjack", PROGRESSIVE, 6, hits_soft_17=False)
    two_or_more = sum((line.probability for line in analysis.lines), Fraction(0))
    assert two_or_more == Fraction(24 * 23, 312 * 311)
    assert analysis.method == "exact" and isinstance(analysis.house_edge, Fraction)
    suited = next(line for line in analysis.lines if line.outcome == "two-aces-suited")
    three = [line for line in analysis.lines if line.outcome.startswith("three")]
    assert suited.probability > 0 and all(line.probability > 0 for line in three)


def test_one_deck_has_no_suited_aces() -> None:
    made = play_tree("progressive-blackjack", 1, False).outcomes()
    assert not any("two-aces-suited" in keys for keys in made)
    assert sum(made.values()) == 1


def _agrees(wager: str, lines: list[PaytableLine], decks: int, rounds: int, seed: int,
            hits_soft_17: bool = False, jurisdiction: str | None = None) -> None:  # fmt: skip
    exact = analyse_play_tree(wager, lines, decks, hits_soft_17=hits_soft_17)
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    played = simulate(wager, lines, rules, rounds, seed, jurisdiction)
    assert played.standard_error
    gap = abs(float(exact.house_edge) - float(played.house_edge))
    assert gap < 4 * played.standard_error, (float(exact.house_edge), float(played.house_edge))


def test_the_simulator_agrees_with_straight_jack() -> None:
    _agrees("straight-jack", STRAIGHT_JACK, 6, 6_000, seed=21)


def test_the_simulator_agrees_with_progressive_blackjack() -> None:
    _agrees("progressive-blackjack", PROGRESSIVE, 6, 6_000, seed=22, jurisdiction="US-MA")


@pytest.mark.parametrize(
    ("wager", "lines", "hits"),
    [
        ("buffalo-blackjack-bonus", MAGIC_21, False),
        ("push-your-luck", PUSH_YOUR_LUCK, False),
    ],
)
def test_the_simulator_agrees_with_the_wagers_on_the_dealers_hand(
    wager: str, lines: list[PaytableLine], hits: bool
) -> None:
    _agrees(wager, lines, 1, 6_000, seed=23, hits_soft_17=hits)


RAISE_THE_ROOF = [  # 30-899.23(12), 2 decks dealer hits soft 17: Pay Table 1
    *_lines(
        "Ante Only", bust_10_or_face="1 to 1", bust_9="1 to 1", bust_8="1 to 1", bust_7="1 to 1",
        bust_6="1 to 1", bust_4567_unsuited="1 to 1", bust_4567_suited="1 to 1",
    ),
    *_lines(
        "Ante+ Raise The Roof", bust_10_or_face="1 to 1", bust_9="1 to 1", bust_8="2 to 1",
        bust_7="5 to 1", bust_6="10 to 1", bust_4567_unsuited="30 to 1",
        bust_4567_suited="200 to 1",
    ),
]  # fmt: skip


def test_raise_the_roof_ante_agrees_with_the_simulator_and_the_raise_is_the_players_best() -> None:
    ante = [line for line in RAISE_THE_ROOF if line.column == "Ante Only"]
    raised = [line for line in RAISE_THE_ROOF if line.column != "Ante Only"]
    _agrees("raise-the-roof", ante, 2, 6_000, seed=24, hits_soft_17=True)
    alone = analyse_play_tree("raise-the-roof", ante, 2, hits_soft_17=True)
    best = analyse_play_tree("raise-the-roof", raised, 2, hits_soft_17=True, ante_lines=ante)
    # the Ante alone loses whenever the dealer does not bust (even money on a bust, about 29 %)
    assert Fraction(1, 3) < alone.house_edge < Fraction(1, 2)
    # raising only where it pays more can only lower the edge per unit staked
    assert best.house_edge < alone.house_edge
    assert "raises" in best.card_removal


SUPER_4 = _lines(  # MA 19(l)-(n) as odds (the catalog's tables pay dollars for a $5 wager)
    three_of_a_kind="150 to 1", straight="150 to 1", flush="50 to 1", two_pair="40 to 1",
    same_color="20 to 1", pair="10 to 1", any_hand="5 to 1", dealer_ace_up="1 to 1",
)  # fmt: skip


def test_the_simulator_agrees_with_super_4() -> None:
    """Super 4 reads the player's two cards and the dealer's two, never the play."""
    _agrees("super-4-progressive", SUPER_4, 1, 6_000, seed=25, jurisdiction="US-MA")
    made = play_tree("super-4-progressive", 1, False).outcomes()
    blackjacks = sum((p for keys, p in made.items() if "any-hand" in keys), Fraction(0))
    # a dealer blackjack: an ace and a ten-value card as the up and hole cards, the player's two
    # cards dealt first (any of them): 2 · 4/52 · 16/51
    assert blackjacks == Fraction(2 * 4 * 16, 52 * 51)


@pytest.mark.parametrize("decks, hits_soft_17", [(1, False), (2, True)])
def test_the_dealer_s_hands_with_two_cards_out_are_counted_as_the_hands_one_by_one(
    decks: int, hits_soft_17: bool
) -> None:
    """dealer_finals sums each group from moments shared by every pair of cards taken out; it
    must give the same numerators as counting each hand's ways from the shoe left, directly."""
    from engine.dealer_hands import falling
    from engine.playtree.dealer import _shapes, dealer_finals
    from engine.playtree.readings import DEALER_DRAWN, RANKS10

    full = [4 * decks] * 9 + [16 * decks]
    for up, a, b in [(0, 9, 9), (5, 0, 3), (9, 9, 9), (3, 3, 3), (6, 1, 8), (1, 0, 0)]:
        shoe = list(full)
        shoe[up] -= 1
        left = list(shoe)
        left[a] -= 1
        left[b] -= 1
        cards = sum(left)
        direct = []
        for hand, group in _shapes(RANKS10, hits_soft_17)[up]:
            ways = sum(
                orders
                * falling(cards - k, DEALER_DRAWN - k)
                * math.prod(falling(left[i], m) for i, m in drawn)
                for orders, drawn, k in group
            )
            if ways:
                direct.append((hand, ways))
        assert dealer_finals(RANKS10, up, tuple(shoe), (a, b), hits_soft_17) == direct
