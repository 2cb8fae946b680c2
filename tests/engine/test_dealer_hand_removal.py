"""The card-removal conventions of the wagers decided by the dealer's hand (issue #13): none (the
dealer's whole hand from a full shoe, the default) and player-cards (the player's first hand
played out with the basic strategy first, the dealer's hand from what is left).

The two give the same fractions: the first hand stops at a stopping time of the shuffled shoe
(engine/analysis/dealer.py DEALER_HAND_REMOVALS). Checked here hand by hand, independently of the
analysis: the player's first hand walked card by card as the play-tree enumeration plays it
(engine/playtree/), the dealer's hand counted from the shoe less each way it ends
(engine/dealer_hands.py), weighted by that way's probability."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.analysis import (
    DEALER_HAND_REMOVALS,
    NotAnalysable,
    analyse_dealer_hand,
)
from engine.dealer_hands import CLASSES, dealer_hands, falling
from engine.playtree.enumeration import Enumeration
from engine.playtree.readings import RANKS10, Reads, total_of
from engine.published import cases
from engine.rules import RuleSet

# Wizard of Odds' Buster Blackjack "Pay Table 1" (MA 27's Paytable C; engine/published.yaml)
BUSTER = next(c for c in cases() if c.id == "wizard-buster-pay-table-1").lines()


def _read(ranks: tuple[str, ...]) -> str:
    """What Buster Blackjack reads of the dealer's final hand."""
    if len(ranks) == 2 and total_of(ranks) == 21:
        return "blackjack"
    return f"bust-{min(len(ranks), 8)}" if total_of(ranks) > 21 else "no bust"


def _dealer_given_up(
    decks: int, hits_soft_17: bool, removed: tuple[str, ...], up: str
) -> dict[str, Fraction]:
    """The dealer's hand as Buster reads it, given the up card, from the shoe less `removed`."""
    hands, cards, longest = dealer_hands(decks, hits_soft_17, removed=tuple(sorted(removed)))
    out: dict[str, Fraction] = {}
    for hand in hands:
        if hand.ranks[0] == up:
            k = len(hand.ranks)
            p = Fraction(hand.ways * falling(cards - k, longest - k), falling(cards, longest))
            out[_read(hand.ranks)] = out.get(_read(hand.ranks), Fraction(0)) + p
    up_card = sum(out.values(), Fraction(0))
    return {reading: p / up_card for reading, p in out.items()}


def _dealer_after_first_hand(
    decks: int, hits_soft_17: bool, first: tuple[str, str], up: str
) -> tuple[dict[str, Fraction], int]:
    """The dealer's hand given the player's first two cards and the up card, the player's first
    hand played out first: a peeked blackjack ends the round before the player draws; otherwise
    each way the hand ends (its probability from the shoe less the first three cards) leaves its
    cards out of the dealer's shoe. And the number of ways the hand ends."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    walk = Enumeration("buster-blackjack", Reads(True, True, RANKS10), rules)
    a, b, u = (CLASSES.index(c) for c in (*first, up))
    shoe = list(walk.shoe)
    for card in (a, b, u):
        shoe[card] -= 1
    left = sum(shoe)
    blackjack = _dealer_given_up(decks, hits_soft_17, first, up).get("blackjack", Fraction(0))
    out = {"blackjack": blackjack} if blackjack else {}
    ends = 0
    for _, _, drawn, n, _ in walk._play((min(a, b), max(a, b)), tuple(shoe), u):
        ends += 1
        way = Fraction(n, falling(left, len(drawn)))
        removed = (*first, *(CLASSES[c] for c in drawn))
        for reading, p in _dealer_given_up(decks, hits_soft_17, removed, up).items():
            if reading != "blackjack":  # the peek found none: the player played
                out[reading] = out.get(reading, Fraction(0)) + way * p
    return out, ends


@pytest.mark.parametrize(
    ("first", "up", "hits_soft_17", "ends"),
    [
        (("T", "6"), "7", True, 10),  # hits 16 once or more
        (("9", "3"), "2", False, 10),  # hits 12 against a 2
        (("5", "6"), "6", True, 10),  # doubles 11: one card
        (("A", "A"), "6", True, 10),  # splits aces: one card to the first hand
        (("A", "6"), "3", False, 10),  # doubles soft 17
    ],
)
def test_the_dealer_s_hand_after_the_player_s_first_hand_is_that_of_the_shoe_before_it(
    first: tuple[str, str], up: str, hits_soft_17: bool, ends: int
) -> None:
    """Six decks: for each first two cards and up card, the dealer's hand (blackjack, bust by its
    number of cards, no bust) from what the first hand leaves is, exactly, the dealer's hand from
    the shoe less the first two cards alone: removing the player's later cards changes nothing."""
    after, walked = _dealer_after_first_hand(6, hits_soft_17, first, up)
    assert walked == ends  # the hand was played out: that many ways it ends
    assert sum(after.values()) == 1
    assert after == _dealer_given_up(6, hits_soft_17, first, up)


def test_a_hand_drawing_several_cards_changes_the_dealer_s_hand_by_nothing_either() -> None:
    """7-5 against a ten hits to 17 or more (up to six cards): every one of its ways to end."""
    after, walked = _dealer_after_first_hand(6, True, ("7", "5"), "T")
    assert walked > 100
    assert after == _dealer_given_up(6, True, ("7", "5"), "T")
    # one way to end, taken alone, does change the dealer's hand: the removal is real
    assert _dealer_given_up(6, True, ("7", "5", "5"), "T") != after


def test_the_conventions_give_the_same_exact_fractions_and_say_which_was_used() -> None:
    """Buster Blackjack at 6 decks, the dealer hitting soft 17 (Wizard of Odds' 6.21 %): the same
    house edge and line probabilities under both conventions (the difference is 0), each a
    Fraction, the lines, the lose and the push adding up to 1; `card_removal` names the
    convention, and "none" says it is the default."""
    none = analyse_dealer_hand("buster-blackjack", BUSTER, 6, hits_soft_17=True)
    removed = analyse_dealer_hand(
        "buster-blackjack", BUSTER, 6, hits_soft_17=True, removal="player-cards"
    )
    assert removed.house_edge - none.house_edge == 0
    assert round(float(none.house_edge), 4) == 0.0621
    assert [line.probability for line in removed.lines] == [line.probability for line in none.lines]
    for result in (none, removed):
        assert all(isinstance(line.probability, Fraction) for line in result.lines)
        total = sum((line.probability for line in result.lines), Fraction(0))
        assert total + result.lose_probability + result.push_probability == 1
    assert "removal=none, the default" in none.card_removal
    assert "removal=player-cards" in removed.card_removal
    assert "the player's first hand removed" in removed.card_removal
    assert DEALER_HAND_REMOVALS == ("none", "player-cards")


def test_an_unknown_convention_is_refused() -> None:
    with pytest.raises(NotAnalysable, match="player-cards"):
        analyse_dealer_hand("buster-blackjack", BUSTER, 6, hits_soft_17=True, removal="all")
