"""The dealer's final totals for every up card, from a finite shoe with given cards removed, by
enumeration of every hand the dealer can draw (engine.basegame's dealer side).

Every way the dealer can end is enumerated once per hit rule as a multiset of drawn cards (the
hole card, then each hit) with the number of orders in which the dealer draws exactly those cards:
all orders of a multiset are equally likely, so a hand's probability from a shoe is
orders × Π_rank fall(count of the rank, cards of the rank drawn) / fall(cards in the shoe, cards
drawn), where fall(n, k) = n (n-1) … (n-k+1). The probabilities of many shoes are computed in one
compiled pass.
"""

from __future__ import annotations

from functools import lru_cache

import numba
import numpy as np
import numpy.typing as npt

from engine.hands import dealer_draws

RANKS = 10
"""Card ranks by value: index 0 is the ace, 1 the deuce, …, 9 every ten-value card."""
OUTCOMES = ("17", "18", "19", "20", "21", "blackjack")
"""The dealer's final totals other than a bust, in the order of the arrays here."""
BLACKJACK = 5


def _total(cards: tuple[int, ...]) -> tuple[int, bool]:
    hard = sum((rank + 1) * n for rank, n in enumerate(cards))
    if cards[0] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


TWENTY_TWO = len(OUTCOMES)
"""The extra outcome index of a dealer's 22 (dealer_odds with twenty_two: Blackjack Switch)."""
SIXTEEN = len(OUTCOMES)
"""The extra outcome index of a dealer whose play stopped on a total of 16, hard or soft
(dealer_odds with sixteen: Double Up Blackjack, 30-899.10); never with TWENTY_TWO."""
_BUST, _DRAWS = -2, -1


def _final(
    cards: tuple[int, ...], hits_soft_17: bool, twenty_two: bool, sixteen: bool = False
) -> int:
    """The outcome of the dealer's cards: an index into OUTCOMES (TWENTY_TWO for a 22 where it
    counts apart, SIXTEEN for a 16 where play stops on it), _BUST, or _DRAWS while the dealer
    must draw."""
    total, soft = _total(cards)
    if sixteen and total == 16:  # a soft 16 is a total of 16 too
        return SIXTEEN
    if total > 21:
        return TWENTY_TWO if twenty_two and total == 22 else _BUST
    if sum(cards) == 2 and total == 21:
        return BLACKJACK
    if sum(cards) < 2 or dealer_draws(total, soft, hits_soft_17):
        return _DRAWS
    return total - 17


@lru_cache(maxsize=24)
def dealer_hands(
    hits_soft_17: bool, up: int | None = None, twenty_two: bool = False, sixteen: bool = False
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.int64]
]:
    """Every final dealer hand that does not bust: (up card rank, cards drawn after it by rank as
    a 10-column array, number of drawing orders, outcome index into OUTCOMES).

    With `up` given (the dealer's cards face up): the first column is the second (hole) card's
    rank instead, and the draws are those after both cards. With `twenty_two`, a final 22 is kept
    too, as outcome TWENTY_TWO. With `sixteen`, the dealer stops on reaching a total of 16 (hard
    or soft: a soft 17 hit under H17 may reach a hard 16), outcome SIXTEEN."""
    if twenty_two and sixteen:
        raise ValueError("one extra outcome at a time: a 22 or a stop on 16")
    ups: list[int] = []
    draws: list[tuple[int, ...]] = []
    orders: list[int] = []
    outcomes: list[int] = []
    for index in range(RANKS):
        start = tuple(int(r == index) + int(r == up) for r in range(RANKS))
        layer: dict[tuple[int, ...], int] = {}
        final = _final(start, hits_soft_17, twenty_two, sixteen)
        if final == _DRAWS:
            layer[start] = 1
        elif final != _BUST:
            ups.append(index)
            draws.append((0,) * RANKS)
            orders.append(1)
            outcomes.append(final)
        while layer:
            following: dict[tuple[int, ...], int] = {}
            for hand, ways in layer.items():
                for rank in range(RANKS):
                    new = tuple(n + (r == rank) for r, n in enumerate(hand))
                    final = _final(new, hits_soft_17, twenty_two, sixteen)
                    if final == _BUST:
                        continue
                    if final == _DRAWS:
                        following[new] = following.get(new, 0) + ways
                        continue
                    ups.append(index)
                    draws.append(tuple(n - s for n, s in zip(new, start, strict=True)))
                    orders.append(ways)
                    outcomes.append(final)
            layer = following
    # Equal multisets reached by different last cards are one hand: merge their orders.
    merged: dict[tuple[int, tuple[int, ...], int], int] = {}
    for up, drawn, ways, final in zip(ups, draws, orders, outcomes, strict=True):
        key = (up, drawn, final)
        merged[key] = merged.get(key, 0) + ways
    keys = sorted(merged)
    return (
        np.array([k[0] for k in keys], dtype=np.int64),
        np.array([k[1] for k in keys], dtype=np.int64).reshape(len(keys), RANKS),
        np.array([float(merged[k]) for k in keys], dtype=np.float64),
        np.array([k[2] for k in keys], dtype=np.int64),
    )


def dealer_odds(
    shoes: npt.NDArray[np.int64],
    hits_soft_17: bool,
    up: int | None = None,
    twenty_two: bool = False,
    sixteen: bool = False,
) -> npt.NDArray[np.float64]:
    """For each shoe (a row of counts by rank, the up card still in it): the probability of each
    final total (OUTCOMES) for each up card, given that up card: an array [shoe, up, outcome].
    A bust is 1 less the row's sum. An up card the shoe lacks gets zeros.

    With `up` given (the dealer's cards face up), the shoes lack that up card and the middle index
    is the hole card's rank: the odds given both cards. With `twenty_two`, a seventh column holds
    the chance of a 22 (TWENTY_TWO), which the bust then leaves out; with `sixteen`, the
    seventh column holds the chance that play stops on 16 (SIXTEEN)."""
    ups, draws, orders, outcomes = dealer_hands(hits_soft_17, up, twenty_two, sixteen)
    extra = twenty_two or sixteen
    out = np.zeros((len(shoes), RANKS, len(OUTCOMES) + extra), dtype=np.float64)
    starts = np.searchsorted(ups, np.arange(RANKS + 1)).astype(np.int64)
    _odds(np.ascontiguousarray(shoes, dtype=np.int64), starts, draws, orders, outcomes, out)
    return out


@numba.njit(cache=True)
def _odds(
    shoes: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
    draws: npt.NDArray[np.int64],
    orders: npt.NDArray[np.float64],
    outcomes: npt.NDArray[np.int64],
    out: npt.NDArray[np.float64],
) -> None:
    # Shoes are taken in blocks, and each hand's product is formed for a whole block at once
    # (loops over contiguous rows that the compiler vectorises).
    hands = draws.shape[0]
    cells = np.zeros((hands, RANKS), dtype=np.int64)  # rank * _MAX_DRAWN + cards of the rank
    distinct = np.zeros(hands, dtype=np.int64)
    drawn = np.zeros(hands, dtype=np.int64)
    most = np.zeros(RANKS, dtype=np.int64)  # the most cards of each rank a hand draws
    for h in range(hands):
        for r in range(RANKS):
            if draws[h, r] > 0:
                cells[h, distinct[h]] = r * _MAX_DRAWN + draws[h, r]
                distinct[h] += 1
                drawn[h] += draws[h, r]
                most[r] = max(most[r], draws[h, r])
    deepest = drawn.max() if hands else 0
    block = _BLOCK
    fall = np.zeros((RANKS * _MAX_DRAWN, block), dtype=np.float64)
    inverse = np.zeros((_MAX_DRAWN, block), dtype=np.float64)
    acc = np.zeros((out.shape[2], block), dtype=np.float64)
    p = np.zeros(block, dtype=np.float64)
    for first in range(0, shoes.shape[0], block):
        size = min(block, shoes.shape[0] - first)
        for up in range(RANKS):
            # fall[r, k][b]: orders of k cards of rank r from shoe b less the up card;
            # inverse[k][b]: 1 / orders of any k cards from it.
            for b in range(size):
                s = first + b
                total = -1
                for r in range(RANKS):
                    total += shoes[s, r]
                    n = shoes[s, r] - (1 if r == up else 0)
                    fall[r * _MAX_DRAWN, b] = 1.0
                    for k in range(1, most[r] + 1):  # no hand uses more
                        fall[r * _MAX_DRAWN + k, b] = fall[r * _MAX_DRAWN + k - 1, b] * max(
                            n - k + 1, 0
                        )
                product = 1.0
                for k in range(deepest + 1):
                    inverse[k, b] = 1.0 / product if product > 0 else 0.0
                    product *= max(total - k, 0)
            acc[:, :size] = 0.0
            for h in range(starts[up], starts[up + 1]):
                row = inverse[drawn[h]]
                weight = orders[h]
                for b in range(size):
                    p[b] = weight * row[b]
                for i in range(distinct[h]):
                    row = fall[cells[h, i]]
                    for b in range(size):
                        p[b] *= row[b]
                target = acc[outcomes[h]]
                for b in range(size):
                    target[b] += p[b]
            for b in range(size):
                if shoes[first + b, up] > 0:
                    for o in range(out.shape[2]):
                        out[first + b, up, o] = acc[o, b]


_MAX_DRAWN = 16
"""More cards than the dealer can draw (12 at most, to a total of 26 at most)."""
_BLOCK = 64
"""Shoes computed together."""
