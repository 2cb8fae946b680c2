"""The hands the base game's analysis enumerates, and the store of the dealer's odds it computes:
a hand as counts by rank, the table of every hand a shoe holds, and the removed cards packed as one
integer each (engine.basegame.standard)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from engine.dealer_odds import RANKS
from engine.rules import RuleSet

ACE, TEN = 0, 9

Vector = npt.NDArray[np.float64]
Hand = tuple[int, ...]
"""A hand's cards, as counts by rank (engine.dealer_odds.RANKS)."""


def hand_total(hand: Hand) -> tuple[int, bool]:
    hard = sum((rank + 1) * n for rank, n in enumerate(hand))
    if hand[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def add_card(hand: Hand, rank: int, n: int = 1) -> Hand:
    return hand[:rank] + (hand[rank] + n,) + hand[rank + 1 :]


def _hands(full: Hand) -> list[Hand]:
    """Every hand of at least one card with a hard total of at most 21 that the shoe holds."""
    out: list[Hand] = []

    def extend(prefix: Hand, total: int) -> None:
        rank = len(prefix)
        if rank == RANKS:
            if total:
                out.append(prefix)
            return
        n = 0
        while n <= full[rank] and total + (rank + 1) * n <= 21:
            extend((*prefix, n), total + (rank + 1) * n)
            n += 1

    extend((), 0)
    return out


@dataclass(frozen=True)
class _HandTable:
    """Every hand the player can hold from a shoe of so many decks, by index."""

    index: dict[Hand, int]
    counts: npt.NDArray[np.int64]
    size: npt.NDArray[np.int64]
    total: npt.NDArray[np.int64]
    children: npt.NDArray[np.int64]
    """[hand, card]: the hand after drawing the card; len(hands) for a bust."""
    natural: npt.NDArray[np.bool_]


def full_shoe(rules: RuleSet) -> Hand:
    """The shoe's cards by rank: a Spanish deck (30-899.16(2)) has no 10s, 12 ten-value cards."""
    d = rules.decks
    return (4 * d,) * 9 + ((12 if rules.spanish_decks else 16) * d,)


def hand_table(full: Hand) -> _HandTable:
    """The table of the hands a shoe holds. A hand holds at most 21 // value cards of a rank
    (a hard total of 21 at most), so shoes that differ only beyond that share one table (a face-up
    analysis's shoes, each less one up card, share the full shoe's)."""
    return _hand_table_of(tuple(min(n, 21 // (rank + 1)) for rank, n in enumerate(full)))


@lru_cache(maxsize=8)
def _hand_table_of(full: Hand) -> _HandTable:
    # The fewest cards first: the hands of two cards are the first rows (all a face-up analysis
    # keeps of a split's values).
    hands = sorted(_hands(full), key=sum)
    index = {hand: i for i, hand in enumerate(hands)}
    counts = np.array(hands, dtype=np.int64)
    size = counts.sum(axis=1)
    total = np.array([hand_total(hand)[0] for hand in hands], dtype=np.int64)
    bust = len(hands)
    children = np.array(
        [[index.get(add_card(hand, rank), bust) for rank in range(RANKS)] for hand in hands],
        dtype=np.int64,
    )
    return _HandTable(index, counts, size, total, children, (size == 2) & (total == 21))


OddsStore = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]
"""The dealer's odds computed for sets of removed cards: their packed keys (pack_removed) sorted,
each key's row, and the rows [row, up, outcome]."""
_PACK = 32 ** np.arange(RANKS, dtype=np.int64)
"""Removed cards as one integer, 5 bits a rank: a hand holds at most 21 cards of a rank (aces),
and a split's context removes at most 5 more pair cards."""


def pack_removed(removed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Rows of removed cards by rank → one integer each (their order kept)."""
    return removed @ _PACK


def unpack_removed(packed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    return (packed[:, None] // _PACK[None, :]) % 32


def store_add(store: OddsStore, new: npt.NDArray[np.int64], odds: Vector) -> OddsStore:
    """The store with rows of odds added for the packed keys `new` (none of them in it)."""
    keys, rows, known = store
    keys = np.concatenate([keys, new])
    rows = np.concatenate([rows, len(known) + np.arange(len(new), dtype=np.int64)])
    order = np.argsort(keys, kind="stable")
    return keys[order], rows[order], np.concatenate([known, odds])


def store_rows(store: OddsStore, packed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The rows of packed keys that are in the store."""
    keys, rows, _ = store
    return rows[np.searchsorted(keys, packed)]
