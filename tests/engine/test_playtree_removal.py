"""The play-tree wagers reading both the seat's first hand and the dealer's (Push Your Luck,
Buffalo Blackjack Bonus's 21 Magic): the dealer's hole card and draws come from the shoe less
every card the first hand holds when it ends (issue #13), exactly.

Checked against a slow recursion written independently of engine/playtree/: one deck, the
cards dealt in the literal order of the table (the player's two cards and the up card, the
hole card, the dealer's peek, the player's hits as engine/strategy.py BasicStrategy decides
them, then the dealer drawing from what is left), every probability a Fraction."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.cards import Card, Suit
from engine.hands import Hand, hand_total
from engine.playtree import (
    PLAY_TREE_REMOVAL,
    analyse_play_tree,
    play_tree,
    state_tree,
)
from engine.playtree.readings import RANKS10
from engine.rules import RuleSet
from engine.strategy import Action, BasicStrategy, allowed_actions
from tests.engine.test_playtree import MAGIC_21, PUSH_YOUR_LUCK

ONE_DECK = RuleSet(decks=1, dealer_hits_soft_17=False)
STRATEGY = BasicStrategy(ONE_DECK)


def _cards(ranks: list[str]) -> list[Card]:
    return [Card(r, Suit.CLUBS) for r in ranks]


def _take(shoe: dict[str, int], rank: str) -> dict[str, int]:
    return {**shoe, rank: shoe[rank] - 1}


def _draws(shoe: dict[str, int]) -> list[tuple[str, Fraction, dict[str, int]]]:
    cards = sum(shoe.values())
    return [(r, Fraction(n, cards), _take(shoe, r)) for r, n in shoe.items() if n]


def _dealer(hand: list[str], shoe: dict[str, int]) -> dict[int, Fraction]:
    """The dealer's final total (22: bust) drawing from `shoe`, standing on soft 17."""
    total, _ = hand_total(_cards(hand))
    if total >= 17:
        return {min(total, 22): Fraction(1)}
    out: dict[int, Fraction] = {}
    for rank, p, rest in _draws(shoe):
        for final, q in _dealer([*hand, rank], rest).items():
            out[final] = out.get(final, Fraction(0)) + p * q
    return out


def _player(
    hand: list[str], up: str, shoe: dict[str, int]
) -> list[tuple[list[str], Fraction, dict[str, int]]]:
    """The first hand played out with the basic strategy (no pair dealt here: no split): its
    final cards, their probability and the shoe they leave."""
    cards = Hand(_cards(hand), ONE_DECK.chip_unit)
    allowed = allowed_actions(cards, 1, ONE_DECK)
    if hand_total(cards.cards)[0] >= 21 or not allowed:
        return [(hand, Fraction(1), shoe)]
    action = STRATEGY.decide(cards, Card(up, Suit.CLUBS), allowed)
    if action is Action.STAND:
        return [(hand, Fraction(1), shoe)]
    assert action in (Action.HIT, Action.DOUBLE), action
    out = []
    for rank, p, rest in _draws(shoe):
        if action is Action.DOUBLE:
            out.append(([*hand, rank], p, rest))
            continue
        for final, q, left in _player([*hand, rank], up, rest):
            out.append((final, p * q, left))
    return out


def _round(first: tuple[str, str], up: str) -> dict[str, Fraction]:
    """Given the first two cards and the up card: the probability that Push Your Luck ties, that
    the first hand makes 21 against a dealer's 21 (21 Magic's push) and that the dealer busts
    (Raise the Roof), no dealer blackjack."""
    shoe = {r: 16 if r == "T" else 4 for r in RANKS10}
    for rank in (*first, up):
        shoe = _take(shoe, rank)
    out = {"tie": Fraction(0), "push": Fraction(0), "bust": Fraction(0)}
    for hole, p, after_hole in _draws(shoe):
        if hand_total(_cards([up, hole]))[0] == 21:
            continue  # the dealer peeks: the round ends before the player draws
        for final, q, left in _player(list(first), up, after_hole):
            total = hand_total(_cards(final))[0]
            dealer = _dealer([up, hole], left)
            out["bust"] += p * q * dealer.get(22, Fraction(0))
            if total > 21:
                continue
            out["tie"] += p * q * dealer.get(total, Fraction(0))
            if total == 21 and len(final) > 2:
                out["push"] += p * q * dealer.get(21, Fraction(0))
    return out


def _first_three(first: tuple[str, str], up: str) -> Fraction:
    """The probability of the player's two cards (either order) and the up card, one deck."""
    shoe = {r: 16 if r == "T" else 4 for r in RANKS10}
    a, b = first
    ways = shoe[a] * (shoe[up] - (up == a)) * (shoe[b] - (b == a) - (b == up))
    return Fraction((1 if a == b else 2) * ways, 52 * 51 * 50)


@pytest.mark.parametrize(
    ("first", "up"),
    [
        (("T", "6"), "7"),  # hits 16: the hits decide the total and change the dealer's hand
        (("5", "6"), "6"),  # doubles 11: one card
        (("2", "3"), "T"),  # several hits against a ten: the dealer peeks for an ace
        (("7", "A"), "A"),  # soft 18 against an ace: the dealer peeks for a ten
        (("4", "7"), "5"),  # doubles 11 against a 5
    ],
)
def test_the_dealer_draws_from_what_the_first_hand_leaves(first: tuple[str, str], up: str) -> None:
    """One deck, a state at a time: the play tree's tie (Push Your Luck), 21 Magic's push (a 21
    of three cards or more against the dealer's 21) and Raise the Roof's bust are, to the last
    digit, those of the round dealt card by card with the first hand's cards out of the dealer's
    shoe."""
    expected = _round(first, up)
    weight = _first_three(first, up)
    state = (min(first, key=RANKS10.index), max(first, key=RANKS10.index), up)
    for wager, outcome in (("push-your-luck", "tie"), ("buffalo-blackjack-bonus", "push")):
        # the play tree walks every state of an up card at once: the state's rounds alone
        tree = state_tree(wager, 1, False, first, up)
        got = sum(
            n for made in tree.by_state.values() for keys, n in made.items() if outcome in keys
        )
        assert Fraction(got, tree.denominator) == weight * expected[outcome], wager
        # and the same rounds are in the whole play tree
        whole = play_tree(wager, 1, False).by_state[("", "", up)]
        assert all(
            whole.get(keys, 0) >= n for made in tree.by_state.values() for keys, n in made.items()
        )
    # Raise the Roof reads the dealer's hand alone: counted from the shoe less the first three
    # cards, its bust is that of the dealer drawing from what the first hand leaves
    tree = play_tree("raise-the-roof", 1, False)
    busts = sum((n for keys, n in tree.by_state[state].items() if keys), 0)
    assert Fraction(busts, tree.denominator) == weight * expected["bust"]


@pytest.mark.parametrize("decks", [1, 2, 6])
@pytest.mark.parametrize("wager", ["push-your-luck", "buffalo-blackjack-bonus"])
def test_every_round_adds_up_to_one(wager: str, decks: int) -> None:
    assert sum(play_tree(wager, decks, False).outcomes().values()) == 1


def test_card_removal_says_the_first_hand_s_cards_are_out_of_the_dealer_s_shoe() -> None:
    for wager, lines in (("push-your-luck", PUSH_YOUR_LUCK), ("buffalo-blackjack-bonus", MAGIC_21)):
        analysis = analyse_play_tree(wager, lines, 1, hits_soft_17=False)
        assert "every card the first hand holds when it ends" in analysis.card_removal
        assert "not removed" not in analysis.card_removal
    assert "{dealer}" in PLAY_TREE_REMOVAL
