"""Every way the dealer's hand can end, counted exactly from a finite shoe: for wagers decided by
the dealer's hand (Buster Blackjack, the Bust Bonus tables, TriLux Bust Bonanza, Ace Buster, MA
25's optional bonus on the third card, Hit and Run's dealer card count).

Reads: a shoe (decks, Spanish or not, cards removed by rank class), the dealer's soft-17 rule.
Writes: `DealerHand`s: the rank classes a final hand holds (A, 2-9, T for any ten-value card; the
up card first, the card it stopped on last) and how many ordered sequences of physical cards make
it, split by suit pattern (all one suit, all one colour but not one suit, mixed), so a wager
reading suits is counted exactly too; or the same as numerators over one denominator.

Whether the dealer draws depends only on the cards held, so the hands are counted by holding
(`hand_shapes`: each holding reached by so many orders of its cards), once for every shoe; a
shoe then gives each hand its ways. Walking every order card by card (six decks: about 48,000
sequences a rule) gives the same counts (tests/engine/test_analysis_families.py).

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
    """The dealer's cards by rank class: the up card first and the card the dealer stopped on
    last; the cards between in class order, standing for every order they can be drawn in (a
    wager on the dealer's hand reads its up card, its last card and what it holds, never the
    order of the cards between)."""
    ways: int
    """Ordered sequences of physical cards the dealer can draw to make this hand: every order of
    the cards between that does not stop the dealer early."""
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


def _stands(hard: int, ace: bool, hits_soft_17: bool) -> bool:
    """Whether a hand of `hard` points (aces counted 1), holding an ace or not, stops drawing."""
    if ace and 7 <= hard <= 11:  # soft 17-21
        return hard > 7 or not hits_soft_17
    return hard >= 17


_VALUE = {c: 1 if c == "A" else 10 if c == "T" else int(c) for c in CLASSES}

Shape = tuple[tuple[str, ...], int, tuple[tuple[int, int], ...]]
"""A final hand: its ranks (see DealerHand), the orders of its middle cards that keep the dealer
drawing to the last card, and how many cards of each class it holds ((index in CLASSES, count)
for each class it holds)."""


def hand_shapes(hits_soft_17: bool, max_cards: int | None = None) -> tuple[Shape, ...]:
    """Every final dealer hand from an unlimited supply of each class (a finite shoe gives the
    impossible ones no ways). Whether the dealer stops depends only on the cards held, not their
    order: so the hands are counted by what they hold, each holding reached by some number of
    orders, card by card, without walking every order (a six-deck hand of eight cards has
    thousands). Worked out once a rule, however `max_cards` is passed (`_hand_shapes`)."""
    return _hand_shapes(hits_soft_17, max_cards)


@lru_cache(maxsize=16)
def _hand_shapes(hits_soft_17: bool, max_cards: int | None) -> tuple[Shape, ...]:
    """`hand_shapes`, cached by its arguments' values (a cache keyed by the call would work the
    hands out again for `hand_shapes(rule)` and `hand_shapes(rule, None)`)."""
    index = {c: i for i, c in enumerate(CLASSES)}
    final: dict[tuple[str, ...], list] = {}
    # drawing: (up card, the classes drawn after it, sorted) -> orders, hard points, holds an ace
    drawing: dict[tuple[str, tuple[str, ...]], int] = {(c, ()): 1 for c in CLASSES}
    cards = 1
    while drawing:
        cards += 1
        following: dict[tuple[str, tuple[str, ...]], int] = {}
        for (up, middle), orders in drawing.items():
            held = (up, *middle)
            hard = sum(_VALUE[c] for c in held)
            ace = "A" in held
            for c in CLASSES:
                new_hard, new_ace = hard + _VALUE[c], ace or c == "A"
                if _stands(new_hard, new_ace, hits_soft_17) or cards == max_cards:
                    ranks = (*held, c)
                    if ranks in final:
                        final[ranks][1] += orders
                    else:
                        held_counts = tuple(
                            (i, ranks.count(r)) for i, r in enumerate(CLASSES) if r in ranks
                        )
                        final[ranks] = [ranks, orders, held_counts]
                else:
                    key = (up, tuple(sorted((*middle, c), key=index.__getitem__)))
                    following[key] = following.get(key, 0) + orders
        drawing = following
    return tuple((ranks, orders, counts) for ranks, orders, counts in final.values())


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
    shoe = _shoe(decks, hits_soft_17, spanish, removed, max_cards, not removed)
    hands = tuple(
        DealerHand(ranks, orders * shoe.ways[h], orders * shoe.suited[h], orders * shoe.colour[h])
        for (ranks, orders, _), h in zip(
            hand_shapes(hits_soft_17, max_cards), holdings(hits_soft_17, max_cards)[1], strict=True
        )
        if shoe.ways[h]
    )
    return hands, shoe.cards, shoe.longest


@lru_cache(maxsize=16)
def holdings(
    hits_soft_17: bool, max_cards: int | None = None
) -> tuple[tuple[tuple[tuple[int, int], ...], ...], list[int]]:
    """The holdings of `hand_shapes`' hands (how many cards of each class, as a Shape gives
    them), each once, and each hand's holding (an index into them). A hand's ways from a shoe are
    its orders times the ways to draw its holding's cards (and so are its ways in each suit
    pattern): a shoe is counted once a holding, not once a hand (about 3,400 holdings for 12,000
    hands)."""
    index: dict[tuple[tuple[int, int], ...], int] = {}
    of_hand = [
        index.setdefault(held, len(index)) for _, _, held in hand_shapes(hits_soft_17, max_cards)
    ]
    return tuple(index), of_hand


@dataclass(frozen=True)
class HoldingNumerators:
    """Each holding of `holdings` (in its order, impossible ones at 0) as the numerator over
    falling(cards, longest) (`numerator`) of one order of its cards: a hand's numerator is its
    orders times its holding's. All the ways, and those all of one suit, of one colour but not one
    suit, and mixed."""

    cards: int
    longest: int
    ways: list[int]
    suited: list[int]
    colour: list[int]
    mixed: list[int]


@lru_cache(maxsize=64)
def holding_numerators(
    decks: int,
    hits_soft_17: bool,
    *,
    spanish: bool = False,
    removed: tuple[str, ...] = (),
    max_cards: int | None = None,
    suits: bool = True,
) -> HoldingNumerators:
    """`dealer_hands` as numerators over one denominator, by holding (`holdings`): shared by
    every wager on the hands of one shoe and rule. Without `suits`, all ways only (the suit
    patterns' lists are left empty)."""
    shoe = _shoe(decks, hits_soft_17, spanish, removed, max_cards, suits and not removed)
    rest = [falling(shoe.cards - k, shoe.longest - k) for k in range(shoe.longest + 1)]
    lengths, most = _lengths(hits_soft_17, max_cards)
    rest += [0] * (most - shoe.longest)  # impossible holdings
    after = [rest[k] for k in lengths]
    ways = [n * r for n, r in zip(shoe.ways, after, strict=True)]
    if not suits:
        return HoldingNumerators(shoe.cards, shoe.longest, ways, [], [], [])
    suited = [n * r for n, r in zip(shoe.suited, after, strict=True)]
    colour = [n * r for n, r in zip(shoe.colour, after, strict=True)]
    mixed = [w - s - c for w, s, c in zip(ways, suited, colour, strict=True)]
    return HoldingNumerators(shoe.cards, shoe.longest, ways, suited, colour, mixed)


@dataclass(frozen=True)
class _Shoe:
    cards: int
    longest: int
    ways: list[int]
    suited: list[int]
    colour: list[int]


@lru_cache(maxsize=64)
def _shoe(
    decks: int,
    hits_soft_17: bool,
    spanish: bool,
    removed: tuple[str, ...],
    max_cards: int | None,
    suits: bool = True,
) -> _Shoe:
    """Each holding of `holdings`' ways to draw its cards from this shoe in one order (0:
    impossible), and (with `suits`, no card removed) those all of one suit and all of one colour
    but not one suit (else 0); the shoe's cards; the longest possible hand."""
    per_suit = [decks * (3 if spanish else 4) if c == "T" else decks for c in CLASSES]
    counts = [4 * n for n in per_suit]
    for c in removed:
        counts[CLASSES.index(c)] -= 1
    if any(n < 0 for n in counts):
        raise ValueError(f"cannot remove {removed} from {decks} decks")
    held_by, _ = holdings(hits_soft_17, max_cards)
    lengths, most = _lengths(hits_soft_17, max_cards)
    # falling(n, k) of each class's count, one colour's, one suit's, for every k a hand can hold
    draws = [[falling(n, k) for k in range(most + 1)] for n in counts]
    colours = [[falling(2 * n, k) for k in range(most + 1)] for n in per_suit]
    one_suit = [[falling(n, k) for k in range(most + 1)] for n in per_suit]
    all_ways = []
    for held in held_by:
        ways = 1
        for i, k in held:
            ways *= draws[i][k]
        all_ways.append(ways)
    longest = max(k for k, ways in zip(lengths, all_ways, strict=True) if ways)
    all_suited = [0] * len(held_by)
    all_colour = [0] * len(held_by)
    if suits and not removed:
        for at, held in enumerate(held_by):
            if all_ways[at]:
                suit = colour = 1
                for i, k in held:
                    suit *= one_suit[i][k]
                    colour *= colours[i][k]
                all_suited[at] = 4 * suit
                all_colour[at] = 2 * colour - all_suited[at]
    return _Shoe(sum(counts), longest, all_ways, all_suited, all_colour)


@lru_cache(maxsize=16)
def _lengths(hits_soft_17: bool, max_cards: int | None) -> tuple[list[int], int]:
    """Each holding of `holdings`' number of cards, and the most any holds."""
    lengths = [sum(k for _, k in held) for held in holdings(hits_soft_17, max_cards)[0]]
    return lengths, max(lengths)


def numerator(hand: DealerHand, shoe: int, longest: int) -> int:
    """The hand's probability times falling(shoe, longest): its ways over the common denominator."""
    k = len(hand.ranks)
    return hand.ways * falling(shoe - k, longest - k)
