"""The dealer's hand as a play-tree wager reads it: the shapes of the dealer's final hands, their
moments and finals from a shoe, and the terms that remove the seat's cards from the dealer's
draws, exactly.
"""

from __future__ import annotations

import bisect
import math
import operator
from functools import cache, lru_cache

from engine.dealer_hands import CLASSES, falling, hand_shapes

from .readings import DEALER_DRAWN, VALUES, dealer_reading, total_of


@cache
def _shapes(ranks: str, hits_soft_17: bool) -> dict[int, list[tuple[tuple[int, ...], list]]]:
    """The dealer's final hands (engine/dealer_hands.hand_shapes) by up card, blackjacks left
    out, grouped by what a wager reads of them (`dealer_reading`): for each, one hand of the
    group (as indices into `ranks`) and the group's hands as (orders of the middle cards, the
    cards drawn after the up card by class (index, count), how many). A ten-value card is read
    as T: the wagers reading the dealer's hand read point values."""
    out: dict[int, dict[tuple, tuple[tuple[int, ...], list]]] = {}
    index = {r: i for i, r in enumerate(ranks)}
    classes = [index[c] for c in CLASSES]
    for names, orders, held in hand_shapes(hits_soft_17):
        if len(names) == 2 and total_of(names) == 21:
            continue
        up = index[names[0]]
        first = CLASSES.index(names[0])
        drawn = ((i, k - (i == first)) for i, k in held)
        after = tuple((classes[i], k) for i, k in drawn if k)
        groups, reading = out.setdefault(up, {}), dealer_reading(names)
        if reading not in groups:  # the group's first hand stands for it
            groups[reading] = (tuple(index[n] for n in names), [])
        groups[reading][1].append((orders, after, len(names) - 1))
    return {up: list(groups.values()) for up, groups in out.items()}


@lru_cache(maxsize=256)
def _dealer_moments(
    ranks: str, up: int, shoe: tuple[int, ...], hits_soft_17: bool, busts: bool = False
) -> list[tuple[tuple[int, ...], int, list[int], list[int]]]:
    """For `dealer_finals`: each group of the dealer's final hands (`_shapes`) from `shoe` (the
    up card already out of it, two cards still to come out) as one hand of the group and the sums
    over its hands of w, w·m_i and w·m_i·m_j (i ≤ j, at i × classes + j), where m_i is how many
    cards of class i the hand draws after the up card and w its ordered ways from `shoe` times
    falling(cards in `shoe` − 2 − k, DEALER_DRAWN − k), k the cards it draws. With `busts`, the
    groups of bust hands alone."""
    left = sum(shoe) - 2
    rest = [falling(left - k, DEALER_DRAWN - k) for k in range(DEALER_DRAWN + 1)]
    draws = [[falling(n, m) for m in range(DEALER_DRAWN + 1)] for n in shoe]
    out = []
    classes = len(shoe)
    for hand, group in _shapes(ranks, hits_soft_17)[up]:
        if busts and total_of(tuple(ranks[c] for c in hand)) <= 21:
            continue
        total, by_class, by_pair = 0, [0] * classes, [0] * classes * classes
        for orders, after, k in group:
            w = orders * rest[k]
            for i, m in after:
                w *= draws[i][m]
            if not w:
                continue
            total += w
            for x, (i, m) in enumerate(after):
                wm = w * m
                by_class[i] += wm
                for j, n in after[x:]:  # after is in class order: i ≤ j
                    by_pair[i * classes + j] += wm * n
        out.append((hand, total, by_class, by_pair))
    return out


@lru_cache(maxsize=4096)
def dealer_finals(
    ranks: str,
    up: int,
    shoe: tuple[int, ...],
    first: tuple[int, int],
    hits_soft_17: bool,
    stands: bool = False,
) -> list[tuple[tuple[int, ...], int]]:
    """The dealer's final hands (no blackjack) from `shoe` (the up card out of it) less the
    player's first two cards (classes `first`, a ≤ b), one for each thing a wager reads of them,
    with the probability of its group as a numerator over falling(cards left, DEALER_DRAWN).
    With `stands`, the hands that stand are one group (the first of them standing for it).

    Taking a card of class a out of the shoe turns a hand's falling(N_a, m_a) ways of drawing
    its m_a cards of that class into falling(N_a − 1, m_a) = falling(N_a, m_a)·(N_a − m_a)/N_a;
    two cards out, a group's ways are a quadratic in its hands' m_a and m_b, summed exactly from
    the group's moments (`_dealer_moments`, shared by every pair of cards taken out).

    The hands that stand are then counted as what the others leave: every ordered draw of
    DEALER_DRAWN cards from what is left begins with one final hand (a blackjack, a bust, or
    one that stands), so they are falling(cards left, DEALER_DRAWN) less the blackjacks'
    (a hole card completing 21, then falling(cards left − 1, DEALER_DRAWN − 1)) and the
    busts'."""
    a, b = first
    na, nb = shoe[a], shoe[b]
    pair = a * len(shoe) + b
    out = []
    for hand, total, by_class, by_pair in _dealer_moments(ranks, up, shoe, hits_soft_17, stands):
        if a == b:  # falling(N_a − 2, m) = falling(N_a, m)(N_a − m)(N_a − m − 1)/(N_a(N_a − 1))
            ways = na * (na - 1) * total - (2 * na - 1) * by_class[a] + by_pair[pair]
            over = na * (na - 1)
        else:
            ways = na * nb * total - na * by_class[b] - nb * by_class[a] + by_pair[pair]
            over = na * nb
        if ways:
            out.append((hand, ways // over))  # exact: each hand's term is a multiple of over
    if stands:
        left = [n - (i == a) - (i == b) for i, n in enumerate(shoe)]
        cards = sum(left)
        with_up = [(VALUES[ranks[up]], VALUES[r]) for r in ranks]  # aces as one
        holes = sum(n for n, v in zip(left, with_up, strict=True) if v in ((1, 10), (10, 1)))
        ways = falling(cards, DEALER_DRAWN) - holes * falling(cards - 1, DEALER_DRAWN - 1)
        ways -= sum(n for _, n in out)
        if ways:
            names = ranks.__getitem__
            groups = _shapes(ranks, hits_soft_17)[up]
            out.append(next((h, ways) for h, _ in groups if total_of(tuple(map(names, h))) <= 21))
    return out


@lru_cache(maxsize=1 << 16)
def read_terms(removed: tuple[int, ...], points: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`_removal_terms` of `removed` holding at most `points` points (aces as one): the codes and
    their weights."""
    codes, weights, held = _removal_terms(removed)
    read = bisect.bisect_right(held, points)
    return codes[:read], weights[:read]


@lru_cache(maxsize=1 << 15)
def _removal_terms(
    removed: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For the cards r out of the shoe (a count by class of `CLASSES`): each multiset j ≤ r, as
    an integer (5 bits a class), with its weight Π_i (−1)^j_i falling(r_i, j_i) in
    `Enumeration._ties`; those of more than 20 points (aces as one) left out: the
    dealer's cards after any up card (an ace's one point at least) hold no more in a hand that
    does not bust. As three tuples read in step, in order of points: the codes, their weights and
    their points (a hand reads only those of at most its total less the up card's points: one
    list for every up card and total, `Enumeration._ties`)."""
    most = 20
    out = [(0, 1, 0)]  # j, weight, points
    for i, r in enumerate(removed):
        if not r:
            continue
        value, row, weight = min(i + 1, 10), [], 1
        for j in range(min(r, most // value) + 1):  # j_i of class i: code, weight, points
            row.append((j << 5 * i, weight, j * value))
            weight *= j - r  # (−1)^(j+1) falling(r, j + 1)
        out = [
            (code + c, weight * w, points + p)
            for code, weight, points in out
            for c, w, p in row
            if points + p <= most
        ]
    out.sort(key=operator.itemgetter(2))
    codes, weights, points = zip(*out, strict=True)
    return codes, weights, points


@lru_cache(maxsize=64)
def total_moments(
    ranks: str, up: int, shoe: tuple[int, ...], hits_soft_17: bool
) -> dict[int, dict[int, tuple[tuple[int, ...], tuple[int, ...]]]]:
    """The dealer's final hands of each total 17 to 21 (no blackjack) under up card `up` from
    `shoe` (the up card out of it), summed by the cards j ≤ m they draw (m_i of class i after
    the up card; j as in `_removal_terms`): total → j → (each number k of cards the hands draw,
    Σ orders · Π_i C(m_i, j_i) falling(shoe_i − j_i, m_i − j_i) over those hands at each k), as
    two tuples read in step."""
    factors: dict[tuple[int, int], list[tuple[int, int]]] = {}
    out: dict[int, dict[int, dict[int, int]]] = {t: {} for t in range(17, 22)}
    for hand, group in _shapes(ranks, hits_soft_17)[up]:
        total = total_of(tuple(ranks[c] for c in hand))
        if total > 21:
            continue
        by_j = out[total]
        for orders, after, k in group:
            terms = [(0, orders)]
            for i, m in after:
                row = factors.get((i, m))
                if row is None:
                    row = factors[i, m] = [
                        (j << 5 * i, math.comb(m, j) * falling(shoe[i] - j, m - j))
                        for j in range(m + 1)
                    ]
                terms = [(code + c, ways * f) for code, ways in terms for c, f in row if f]
            for code, ways in terms:
                by_k = by_j.get(code)
                if by_k is None:
                    by_j[code] = {k: ways}
                else:
                    by_k[k] = by_k.get(k, 0) + ways
    return {
        t: {j: (tuple(ks), tuple(ks.values())) for j, ks in by_j.items()} for t, by_j in out.items()
    }


@cache
def standing(
    ranks: str, up: int, hits_soft_17: bool
) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """A dealer's final hand under up card `up` of each total 17 to 21 (no blackjack), and a bust
    one: rounds standing for the dealer's hands an `ORDER_BLIND` wager reads alike."""
    totals: dict[int, tuple[int, ...]] = {}
    for hand, _ in _shapes(ranks, hits_soft_17)[up]:
        totals.setdefault(min(total_of(tuple(ranks[c] for c in hand)), 22), hand)
    bust = totals.pop(22)
    return totals, bust
