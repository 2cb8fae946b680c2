"""What a side wager is decided on (`Deal`), when it can be decided (`Stage`), and the card helpers
the evaluators share."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from engine.cards import RANKS, Card, EngineError, Suit
from engine.hands import hand_total

PUSH = "push"
"""An evaluator's key for a wager the rules return to the player (a tie): it is neither paid nor
lost, whatever the paytable holds."""


@dataclass(frozen=True)
class Deal:
    """The cards a side wager is decided on."""

    player: tuple[Card, Card]
    """The player's first two cards."""
    up: Card
    dealer_blackjack: bool = False
    dealer_cards: tuple[Card, ...] = ()
    """The dealer's whole hand once played (up card first), for wagers on the dealer's hand."""
    player_cards: tuple[Card, ...] = ()
    """The cards of the seat's first hand as played, the first two included (hits follow)."""
    player_split: bool = False
    """The first two cards were split: `player_cards` is then the first split hand (its first card,
    then the card dealt to it after the split, then its hits)."""
    specified_suit: Suit | None = None
    """The suit a "suit specific" / "chosen suit" line names, where the table specifies one
    (21+3 Progressive, Super 4 Progressive)."""
    switch_cards: tuple[Card, ...] = ()
    """Blackjack Switch: the first two cards of the player's second hand (Super Match)."""


class Stage(Enum):
    """What a wager's outcome needs, which decides when it settles and how it is analysed."""

    INITIAL = "the player's first two cards and the dealer's up card"
    HOLE = "the first cards and whether the dealer has blackjack"
    DOWN_CARD = "the player's first two cards and the dealer's down card"
    ROUND = "cards dealt later in the round (the dealer's final hand, the player's hits)"


Evaluator = Callable[[Deal], list[str]]


class NotDecidable(EngineError):
    """The cards alone do not decide the wager: the table must say something more (e.g. the
    specified suit of a suit-specific line)."""


def high(card: Card) -> int:
    """Poker rank, ace high: 2 … 10, J 11, Q 12, K 13, A 14."""
    return 14 if card.is_ace else card.number


def suited(cards: Sequence[Card]) -> bool:
    """Whether there are cards and all are of one suit (read by identity: a suit is one object)."""
    if not cards:
        return False
    suit = cards[0].suit
    return all(card.suit is suit for card in cards)


def same_colour(cards: Sequence[Card]) -> bool:
    return len({card.suit.red for card in cards}) == 1


def total(cards: Sequence[Card]) -> int:
    """Blackjack point total, an ace counting 11 unless that busts the hand (30-825, MA 2(b))."""
    return hand_total(cards)[0]


_NUMBER = {rank: n for n, rank in enumerate(RANKS, 1)}
"""Each rank's number (Card.number), ace 1."""


def consecutive(cards: Sequence[Card]) -> bool:
    """Whether the ranks are all different and in sequence, an ace high (A-K) or low (A-2)."""
    ranks = sorted(_NUMBER[c.rank] for c in cards)  # an ace low
    if _in_sequence(ranks):
        return True
    if ranks and ranks[0] == 1:  # an ace high (without an ace, the same ranks again)
        return _in_sequence(sorted(14 if n == 1 else n for n in ranks))
    return False


def _in_sequence(ranks: list[int]) -> bool:
    """Whether the sorted numbers go up by one each."""
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:], strict=False))


def rank_counts(cards: Sequence[Card]) -> list[int]:
    """How many cards of each rank, largest first: [3] trips, [2, 2] two pair, …"""
    ranks = [c.rank for c in cards]
    return sorted(map(ranks.count, set(ranks)), reverse=True)


def dealt_in_order(deal: Deal) -> tuple[Card, ...]:
    """The cards dealt to the seat's first hand in the order dealt: the first two cards, then the
    card dealt to the first hand of a split (30-899.11(13): "the two 7's and the third card dealt
    to that player"), then that hand's hits."""
    later = deal.player_cards[1:] if deal.player_split else deal.player_cards[2:]
    return (*deal.player, *later)


def without_bust_card(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The hand without the card that took it over 21 ("the bust card does not count")."""
    return tuple(cards[:-1]) if cards and total(cards) > 21 else tuple(cards)


def dealer_busted(deal: Deal) -> bool:
    return total(deal.dealer_cards) > 21


def poker_three(cards: Sequence[Card]) -> list[str]:
    """The three-card poker hands a hand makes, highest first (30-2107, MA 28(b)): an ace is high,
    or low in A-2-3."""
    out = []
    trips = rank_counts(cards)[0] == 3
    straight = consecutive(cards)
    flush = suited(cards)
    if straight and flush:
        out.append("straight-flush")
    if trips:
        out.append("three-of-a-kind")
    if straight:
        out.append("straight")
    if flush:
        out.append("flush")
    return out
