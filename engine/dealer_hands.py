"""Every way the dealer's hand can end, counted exactly from a finite shoe: for wagers decided by
the dealer's hand (Buster Blackjack, the Bust Bonus tables, TriLux Bust Bonanza, Ace Buster, MA
25's optional bonus on the third card, Hit and Run's dealer card count).

Reads: a shoe (decks, Spanish or not, cards removed by rank class), the dealer's soft-17 rule.
Writes: `DealerHand`s: an ordered sequence of rank classes (A, 2-9, T for any ten-value card) and
how many ordered sequences of physical cards make it, split by suit pattern (all one suit, all one
colour but not one suit, mixed), so a wager reading suits is counted exactly too.

The dealer draws to a hard 17 or a soft 18 (a soft 17 too where the dealer hits it) and stands on
two-card 21; no card is drawn for the players (no burn card, no player's hand played out): the
dealer's hand alone, from the full shoe or the shoe less the cards given. Every count is an
integer; probabilities are integers over a common denominator.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

CLASSES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
"""Rank classes by point value: T is any ten-value card (T, J, Q, K)."""


@dataclass(frozen=True)
class DealerHand:
    ranks: tuple[str, ...]
    """The dealer's cards in the order dealt, up card first, by rank class."""
    ways: int
    """Ordered sequences of physical cards with these rank classes."""
    suited: int
    """Of them, all of one suit."""
    colour: int
    """Of them, all of one colour but not all of one suit."""

    @property
    def mixed(self) -> int:
        return self.ways - self.suited - self.colour


def falling(n: int, k: int) -> int:
    """n (n-1) … (n-k+1): ordered draws of k cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _points(ranks: tuple[str, ...]) -> tuple[int, bool]:
    """The hand's total and whether it is soft (an ace counted 11)."""
    hard = sum(1 if r == "A" else 10 if r == "T" else int(r) for r in ranks)
    soft = "A" in ranks and hard + 10 <= 21
    return (hard + 10, True) if soft else (hard, False)


def _stands(ranks: tuple[str, ...], hits_soft_17: bool) -> bool:
    points, soft = _points(ranks)
    if points > 17:
        return True
    if points == 17:
        return not (soft and hits_soft_17)
    return False


@lru_cache(maxsize=64)
def dealer_hands(
    decks: int,
    hits_soft_17: bool,
    *,
    spanish: bool = False,
    removed: tuple[str, ...] = (),
    max_cards: int | None = None,
) -> tuple[tuple[DealerHand, ...], int, int]:
    """Every final dealer hand, the cards in the shoe (M) and the longest hand's length (K): a
    hand of k cards has probability `ways × falling(M - k, K - k) / falling(M, K)` (`numerator`).

    `removed`: rank classes taken out of the shoe first (the player's cards), counted without
    their suits (the hands' suit patterns are then left at zero: use it only for wagers that
    read no suits). `max_cards`: stop a hand there (MA 25 is settled on the third card).
    """
    per_suit = {c: decks * (3 if spanish else 4) if c == "T" else decks for c in CLASSES}
    counts = {c: 4 * per_suit[c] for c in CLASSES}
    for c in removed:
        counts[c] -= 1
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"cannot remove {removed} from {decks} decks")
    suits_known = not removed
    hands: list[DealerHand] = []

    def walk(ranks: tuple[str, ...], ways: int, suit: int, colour: int) -> None:
        """`suit`, `colour`: the ways of one given suit (or colour) for the cards so far."""
        done = len(ranks) >= 2 and (
            _stands(ranks, hits_soft_17) or (max_cards is not None and len(ranks) >= max_cards)
        )
        if done:
            suited = 4 * suit if suits_known else 0
            same_colour = 2 * colour - suited if suits_known else 0
            hands.append(DealerHand(ranks, ways, suited, same_colour))
            return
        for c in CLASSES:
            used = ranks.count(c)
            left = counts[c] - used
            if left <= 0:
                continue
            walk(
                (*ranks, c),
                ways * left,
                suit * max(per_suit[c] - used, 0),
                colour * max(2 * per_suit[c] - used, 0),
            )

    walk((), 1, 1, 1)
    longest = max(len(h.ranks) for h in hands)
    return tuple(hands), sum(counts.values()), longest


def numerator(hand: DealerHand, shoe: int, longest: int) -> int:
    """The hand's probability times falling(shoe, longest): its ways over the common denominator."""
    k = len(hand.ranks)
    return hand.ways * falling(shoe - k, longest - k)
