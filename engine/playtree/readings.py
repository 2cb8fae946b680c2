"""What a play-tree wager reads of a round: the wagers analysed this way (PLAY_TREE), the ranks
and suits each reads (Reads, SUITS_READ), the readings of a round's cards (Readings), how a
wager's outcomes are decided from them, and the shared counts of an enumeration (its
constants, the cards by value).
"""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property, lru_cache

from engine.cards import Card, Suit, card_of
from engine.dealer_hands import CLASSES, falling
from engine.hands import hand_total
from engine.sidewagers import Deal, evaluator
from engine.sidewagers.base import consecutive

PLAY_TREE = {
    "progressive-blackjack",
    "straight-jack",
    "straight-jack-progressive",
    "raise-the-roof",
    "buffalo-blackjack-bonus",
    "super-4-progressive",
    "push-your-luck",
}


"""Wagers analysed exactly by enumerating the play tree (this module)."""


RANKS13 = "A23456789TJQK"


RANKS10 = "".join(CLASSES)


@dataclass(frozen=True)
class Reads:
    """What of the round a wager's evaluator reads, so the enumeration walks no more."""

    plays: bool
    """The seat's first hand as played (else only its first two cards)."""
    dealer: bool
    """The dealer's final hand (else only whether the dealer has blackjack)."""
    ranks: str
    """The rank classes told apart: A-K (straights, poker hands) or A-9 and T (point values)."""


READS: dict[str, Reads] = {
    "progressive-blackjack": Reads(True, False, RANKS10),
    "straight-jack": Reads(True, False, RANKS13),
    "straight-jack-progressive": Reads(True, False, RANKS13),
    # Raise the Roof reads the dealer's hand alone: see `_DEALER_REMOVAL`
    "raise-the-roof": Reads(False, True, RANKS10),
    "buffalo-blackjack-bonus": Reads(True, True, RANKS10),
    "push-your-luck": Reads(True, True, RANKS10),
    "super-4-progressive": Reads(False, False, RANKS13),
}


def _progressive_aces(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """MA 19(c), (e): the suits of the aces among the first hand's first four cards dealt."""
    if player[:2] != ("A", "A"):
        return []
    return [i for i, r in enumerate(player[:4]) if r == "A"]


def _six_card_ace(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """30-2110: a six-card straight is paid by its ace's suit."""
    return [player.index("A")] if len(player) >= 6 and "A" in player[:6] else []


def _bust_4567(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """30-899.23(12): a 4-5-6-7 bust suited or not."""
    if sorted(dealer) == ["4", "5", "6", "7"]:
        return [len(player) + i for i in range(4)]
    return []


def _super_4_cards(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """MA 19(k)-(l): the four cards' suits, with a dealer blackjack."""
    blackjack = len(dealer) == 2 and hand_total([card_of(n, Suit.CLUBS) for n in dealer])[0] == 21
    return list(range(4)) if blackjack else []


def _super_4_sees(suits: tuple[Suit, ...]) -> tuple[bool, bool, bool]:
    """MA 19(k)-(l): Super 4 reads of the four cards' suits only whether they are one suit (and
    then whether it is the chosen suit, spades here) and whether they are one colour."""
    one = len(set(suits)) == 1
    return one, one and suits[0] is Suit.SPADES, len({s.red for s in suits}) == 1


def _one_suit(suits: tuple[Suit, ...]) -> tuple[bool]:
    """30-899.23(12): Raise the Roof reads of a 4-5-6-7 bust's suits only whether they are one."""
    return (len(set(suits)) == 1,)


SUIT_CLASS: dict[str, Callable[[tuple[Suit, ...]], tuple[bool, ...]]] = {
    "super-4-progressive": _super_4_sees,
    "raise-the-roof": _one_suit,
}


"""Wager → what its evaluator can tell of the suits it reads (`SUITS_READ`): the assignments
alike in it are evaluated once."""


SUITS_READ: dict[str, Callable[[tuple[str, ...], tuple[str, ...]], list[int]]] = {
    "progressive-blackjack": _progressive_aces,
    "straight-jack-progressive": _six_card_ace,
    "raise-the-roof": _bust_4567,
    "super-4-progressive": _super_4_cards,
}


"""Wager → the cards (indices into the first hand's cards in the order dealt, then the dealer's)
whose suits its evaluator reads on that hand; the others' suits it does not read."""


@dataclass(frozen=True)
class Readings:
    """What an enumeration reads of every round before a wager's evaluator sees it: a reading
    (a key telling apart the rounds the wager can tell apart) → numerator over `denominator`."""

    by_state: dict[tuple[str, str, str], dict[tuple, int]]
    """(the player's first two cards in rank order, the up card) with no dealer blackjack →
    reading → numerator of the probability (of the whole round)."""
    blackjack: dict[tuple, int]
    """The rounds the dealer's blackjack ends: reading → numerator."""
    hands: dict[tuple, tuple]
    """Reading → a round of it (first two cards, the first hand's cards, split, the dealer's
    cards), to evaluate."""
    denominator: int

    @cached_property
    def total(self) -> dict[tuple, int]:
        """Every round, whatever the state: reading → numerator."""
        out = dict(self.blackjack)
        for reading in self.by_state.values():
            for key, n in reading.items():
                out[key] = out.get(key, 0) + n
        return out


ONE = Fraction(1)


MOST_DRAWN = 21


"""More cards than the seat's first hand ever draws, plus the dealer's hole card where it is
read after them: a hand drawing holds at most 20 points, each card at least one."""


DEALER_DRAWN = 12


"""More cards than the dealer ever draws after the up card."""


class TieSums(dict[int, int]):
    """For one total and number of cards left (`Enumeration._ties`): the code of the cards j
    (`_removal_terms`) → the sum over the dealer's hands of that total (`total_moments`' sums
    at j) weighted by what the k cards each draws leave (`rest`). Each is summed when first
    read (`__missing__`): the codes some hand of the group reads, and no others, without
    collecting them first; the read once summed is a plain dictionary's."""

    def __init__(self, by_j: dict[int, tuple[tuple[int, ...], tuple[int, ...]]], rest: list[int]):
        super().__init__()
        self.by_j = by_j
        self.rest = rest

    def __missing__(self, code: int) -> int:
        got = 0
        if code in self.by_j:
            ks, ns = self.by_j[code]
            got = sum(map(operator.mul, map(self.rest.__getitem__, ks), ns))
        self[code] = got
        return got


@lru_cache(maxsize=256)
def suits_assigned(
    pattern: tuple[int, ...], per_suit: tuple[int, ...]
) -> list[tuple[tuple[Suit, ...], Fraction]]:
    """`Enumeration._suit_assignments` for cards whose ranks are labelled 0, 1, … in `pattern`
    (cards alike in label share a rank), rank label r having per_suit[r] cards of each suit.
    Memoised: one shoe's assignments serve both of its rules."""
    out = []
    for suits in itertools.product(list(Suit), repeat=len(pattern)):
        share = Fraction(1)
        for r in set(pattern):
            held = [s for c, s in zip(pattern, suits, strict=True) if c == r]
            ways = 1
            for s in set(held):
                ways *= falling(per_suit[r], held.count(s))
            share *= Fraction(ways, falling(4 * per_suit[r], len(held)))
        if share:
            out.append((suits, share))
    return out


def with_card(cards: tuple[int, ...], card: int, split: bool) -> tuple[int, ...]:
    """An `ORDER_BLIND` walk's hand `cards` with `card` drawn: an unsplit hand's cards in class
    order, a split hand's first two as dealt and its hits in class order (`_blind_play`)."""
    if card >= cards[-1] or (split and len(cards) < 3):
        return (*cards, card)
    if split:
        return (*cards[:2], *sorted((*cards[2:], card)))
    held = list(cards)
    bisect.insort(held, card)
    return tuple(held)


_MA = {"progressive-blackjack", "super-4-progressive"}


ORDER_BLIND = {"buffalo-blackjack-bonus", "push-your-luck"}


"""Wagers that read the first hand's total and number of cards, not the order of its hits, and
of the dealer's final hand only whether its total is the first hand's (`Enumeration._round`)."""


def _progressive_decided(names: tuple[str, ...]) -> bool:
    """MA 19(c): past two cards that are not two aces, or a third that is no ace, or four."""
    return names[:2] != ("A", "A") or len(names) >= 4 or (len(names) == 3 and names[2] != "A")


def _straight_decided(names: tuple[str, ...]) -> bool:
    """30-2109(7), (8): a card that breaks the run ends the straight."""
    return not consecutive([card_of(n, Suit.CLUBS) for n in names])


DECIDED: dict[str, Callable[[tuple[str, ...]], bool]] = {
    "progressive-blackjack": _progressive_decided,
    "straight-jack": _straight_decided,
    "straight-jack-progressive": _straight_decided,
}


"""Wager → whether no later card of the first hand can change its outcome (the hand as dealt)."""


VALUES = {r: min(i + 1, 10) for i, r in enumerate(RANKS13)}


def total_of(names: tuple[str, ...]) -> int:
    """engine/hands.py hand_total's total of cards named by rank."""
    hard = sum(VALUES[n] for n in names)
    return hard + 10 if "A" in names and hard <= 11 else hard


def dealer_reading(hand: tuple[str, ...]) -> tuple[int, str, bool]:
    """What a wager here reads of the dealer's final hand: its total (22: bust), the card it
    busted on, whether it is 4-5-6-7 (Raise the Roof); hands alike in these are alike to it."""
    total = total_of(hand)
    bust = total > 21
    return (22 if bust else total, hand[-1] if bust else "", sorted(hand) == ["4", "5", "6", "7"])


def points_of(hard: int, ace: bool) -> tuple[int, bool]:
    """A hand's (total, soft) from its points with aces counting one and whether it holds an ace:
    engine/hands.py hand_total."""
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


_CLUBS = {rank: Card(rank, Suit.CLUBS) for rank in RANKS13}


@lru_cache(maxsize=1 << 18)
def evaluation(
    wager: str,
    names: tuple[str, ...],
    dealer_names: tuple[str, ...],
    split: bool,
    suits: tuple[tuple[int, Suit], ...],
) -> tuple[str, ...]:
    """The outcomes the wager's evaluator makes of a round: the first hand's cards as dealt
    (`names`, the first two then the rest, a split's second card included), the dealer's, and the
    suits read (index into the cards in that order, suit; every other card a club). Memoised:
    rounds alike recur across deck counts and rules."""
    dealt = [_CLUBS[n] for n in (*names, *dealer_names)]
    for i, suit in suits:
        dealt[i] = card_of(dealt[i].rank, suit)
    hand = dealt[: len(names)]
    player_cards = (hand[0], *hand[2:]) if split else tuple(hand)
    dealer_cards = tuple(dealt[len(names) :])
    deal = Deal(
        (hand[0], hand[1]),
        dealer_cards[0],
        len(dealer_cards) == 2 and hand_total(dealer_cards)[0] == 21,
        dealer_cards if len(dealer_cards) > 1 else (),
        player_cards,
        player_split=split,
        specified_suit=Suit.SPADES,
    )
    return tuple(evaluator(wager, "US-MA" if wager in _MA else "US-CO")(deal))
