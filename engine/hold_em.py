"""21-Hold 'em's poker wager (30-2104(5)-(13)) analysed exactly, the player folding or going on as
maximises the expected return.

The deal: the dealer's first two cards of the blackjack round become the two community cards
((5)); every other card goes back and the 50 are reshuffled ((6)); the player is dealt one card,
folds (losing the "PK" wager) or adds a "2" wager equal to it ((8)), is dealt a second, folds
(losing both) or adds a "3" wager ((10)), and is dealt a third. The five cards are the hand; if it
makes a line of the pay schedule, each of the three wagers is paid its odds ((13)(b)), else all
three are lost. Other players' cards, unseen, are exchangeable with the player's, so none is
removed.

The text fixes no strategy for the folds: the analysis takes the one that maximises the expected
return (going on only where that is strictly better than folding), found by working back from the
third card, as analyses of such games do. Counts are integers over every community pair and every
ordered deal of the player's three cards; the return is per unit of the "PK" wager.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np

from engine.odds import Basis
from engine.rules import PaytableLine

HOLD_EM = "21-hold-em"
OUTCOMES = (
    "royal-flush",
    "straight-flush",
    "four-of-a-kind",
    "full-house",
    "flush",
    "straight",
    "three-of-a-kind",
    "two-pairs",
    "pair-of-7s-or-better",
)
CARD_REMOVAL = (
    "the two community cards (the dealer's first two, 30-2104(5)) drawn from the full deck; the "
    "player's three cards from the other 50, reshuffled ((6)); other players' cards, unseen, not "
    'removed. The player folds or adds the "2" and "3" wagers ((8), (10)) as maximises the '
    'expected return (the text fixes no strategy); the return is per unit of the "PK" wager, '
    "and each of the three wagers is paid the line's odds ((13)(b))"
)
_SEVEN = 5
"""The rank index of a seven (0 is a two, 12 an ace)."""


def categories(cards: np.ndarray) -> np.ndarray:
    """The pay schedule's line (an index into OUTCOMES) each five-card hand makes, -1 for none:
    `cards` is an (n, 5) array of card indices, rank = index % 13 (0 a two … 12 an ace), suit =
    index // 13. An ace is high, or low in A-2-3-4-5."""
    ranks = np.sort(cards % 13, axis=1)
    suits = cards // 13
    flush = (suits == suits[:, :1]).all(axis=1)
    same = ranks[:, 1:] == ranks[:, :-1]
    pairs = same.sum(axis=1)
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    straight = (pairs == 0) & ((ranks[:, 4] - ranks[:, 0] == 4) | wheel)
    four = (same[:, 0] & same[:, 1] & same[:, 2]) | (same[:, 1] & same[:, 2] & same[:, 3])
    three = (same[:, 0] & same[:, 1]) | (same[:, 1] & same[:, 2]) | (same[:, 2] & same[:, 3])
    full = three & (pairs == 3) & ~four
    paired_rank = np.where(same, ranks[:, 1:], -1).max(axis=1)
    out = np.full(len(cards), -1)
    conditions = [
        (pairs == 1) & (paired_rank >= _SEVEN),
        (pairs == 2) & ~three,
        three & ~four & ~full,
        straight & ~flush,
        flush & ~straight,
        full,
        four,
        straight & flush & (ranks[:, 0] != 8),
        straight & flush & (ranks[:, 0] == 8),
    ]
    for index, condition in zip(range(len(OUTCOMES) - 1, -1, -1), conditions, strict=True):
        out = np.where(condition, index, out)
    return out


@cache
def _communities() -> tuple[tuple[tuple[int, int], int], ...]:
    """The community pairs up to a relabelling of the suits (which no line reads by name), each
    with how many of the 1,326 pairs it stands for: a pair of one rank (6 each), suited (4),
    offsuit (12)."""
    out = []
    for a in range(13):
        for b in range(a, 13):
            if a == b:
                out.append(((a, 13 + a), 6))
            else:
                out += [((a, b), 4), ((a, 13 + b), 12)]
    return tuple(out)


@cache
def _triples() -> np.ndarray:
    return np.array(list(combinations(range(50), 3)))


_PRIMES = np.array([2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41], dtype=np.int64)
"""One prime a rank: the product over a hand's cards names its ranks in no order."""


@cache
def _by_ranks() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every five ranks a hand can hold (no rank five times), by the product of their primes
    (sorted), with the line they make off suit and of one suit (`categories` of one hand each)."""
    held = list(combinations(range(13 + 4), 5))  # stars and bars: the multisets of 13 ranks
    ranks = np.array([[c - i for i, c in enumerate(h)] for h in held])
    ranks = ranks[~(ranks == ranks[:, :1]).all(axis=1)]  # no five of a kind
    off = ranks + 13 * np.array([0, 1, 2, 3, 0])  # suits not all alike
    suited = ranks  # all clubs (a line only where the ranks differ)
    keys = _PRIMES[ranks].prod(axis=1)
    order = np.argsort(keys)
    return keys[order], categories(off)[order], categories(suited)[order]


@cache
def _rank_lines() -> tuple[np.ndarray, np.ndarray]:
    """The line five cards make by their ranks alone, off suit and of one suit: [a, b, x·169 +
    y·13 + z] for the community ranks a, b and the player's ranks x, y, z, in any order (a hand
    reads its ranks as a multiset: `_by_ranks`, looked up by the product of their primes). Five of
    a rank, which no deck deals, reads as some other entry."""
    keys, off, suited = _by_ranks()
    primes = _PRIMES[:, None, None] * _PRIMES[None, :, None] * _PRIMES[None, None, :]
    products = _PRIMES[:, None, None] * _PRIMES[None, :, None] * primes.reshape(1, 1, -1)
    at = np.minimum(np.searchsorted(keys, products), len(keys) - 1)
    return off[at].astype(np.int8), suited[at].astype(np.int8)


@cache
def _hands(community: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The other 50 cards, and the line each three of them (in `_triples`' order) make with the
    community pair: by their ranks (`_rank_lines`), of one suit where the pair and all three
    share it."""
    rest = np.array([c for c in range(52) if c not in community])
    ranks, suits = rest % 13, rest // 13
    first, second, third = _triples().T
    code = ranks[first] * 169 + ranks[second] * 13 + ranks[third]
    off, suited = _rank_lines()
    a, b = (c % 13 for c in community)
    made = off[a, b][code]
    suit = community[0] // 13
    if suit == community[1] // 13:
        one = (suits[first] == suit) & (suits[second] == suit) & (suits[third] == suit)
        made = np.where(one, suited[a, b][code], made)
    return rest, made


@cache
def _pair_keys() -> np.ndarray:
    """For each three of the 50 (`_triples`' order) and each two of them, those two as a·50 + b
    (a < b): the three columns end to end."""
    first, second, third = _triples().T
    return np.concatenate((first * 50 + second, first * 50 + third, second * 50 + third))


def analyse_hold_em(
    lines: Sequence[PaytableLine], decks: int
) -> tuple[dict[str, int], dict[Fraction, int], int]:
    """Under the best folds: the ordered deals paying each line, the deals by net result per unit
    of the PK wager, and the deals counted (community pairs × ordered player's three cards).

    :raises ValueError: a line not paying odds; not one deck (30-2104(1))."""
    if decks != 1:
        raise ValueError(f"21-Hold 'em is dealt from a single deck (30-2104(1)), not {decks}")
    wins = {line.outcome: _odds(line) for line in lines}
    if set(wins) != set(OUTCOMES):
        missing = ", ".join(k for k in OUTCOMES if k not in wins)
        raise ValueError(
            f"a 21-Hold 'em pay schedule pays every hand of 30-2104(13)(b), only the highest: "
            f"give a line for each ({missing or 'no others'})"
        )
    scale = math.lcm(*(w.denominator for w in wins.values()), 1)
    win_by_index = np.array([int(wins[key] * scale) for key in OUTCOMES], dtype=np.int64)
    paid_lines: dict[str, int] = {}
    nets: dict[Fraction, int] = {}
    for community, weight in _communities():
        counted, by_net = _community(community, tuple(win_by_index.tolist()), scale)
        for index, n in counted.items():
            key = OUTCOMES[index]
            paid_lines[key] = paid_lines.get(key, 0) + n * weight
        for net, n in by_net.items():
            nets[net] = nets.get(net, 0) + n * weight
    return paid_lines, nets, math.comb(52, 2) * 50 * 49 * 48


def _odds(line: PaytableLine) -> Fraction:
    if line.pays.basis is not Basis.TO:
        raise ValueError(f"{line.label or line.outcome} pays {line.pays}: not odds to one")
    assert line.pays.ratio is not None  # odds to one carry their ratio (engine.odds.Pays.parse)
    return line.pays.ratio


def _community(
    community: tuple[int, int], win: tuple[int, ...], scale: int
) -> tuple[dict[int, int], dict[Fraction, int]]:
    """One community pair: the ordered deals of the player's three cards paying each line, and
    all of them by net result, under the best folds.

    Every sum is an integer one. For each two of the 50 cards (a < b), how many of the 48 third
    cards make each line (column 0: none, column i + 1: line i): the second decision's sum over
    the third card is that table times the third card's net by line, and the deals played to the
    end are, summed over the pairs, the table weighted by the orders of the pair's two cards
    that go on at both decisions."""
    _, made = _hands(community)
    lines = len(OUTCOMES) + 1
    by_line = np.bincount(
        _pair_keys() * lines + np.tile(made.astype(np.int64) + 1, 3), minlength=2500 * lines
    ).reshape(2500, lines)
    end = np.array([-3 * scale, *(3 * w for w in win)], dtype=np.int64)  # the third card's net
    # the second decision: the pair of cards seen, summed over the 48 third cards
    by_pair = (by_line @ end).reshape(50, 50)
    by_pair = by_pair + by_pair.T
    go_on_2 = by_pair > -2 * 48 * scale
    value_2 = np.where(go_on_2, by_pair, -2 * 48 * scale)
    np.fill_diagonal(value_2, 0)
    # the first decision: the first card, summed over the 49 second cards
    first = value_2.sum(axis=1)
    go_on_1 = first > -1 * 49 * 48 * scale
    # the orders of each pair (a < b: the table's other entries are 0) that go on at both
    # decisions, times the third cards by line: the ordered deals played to the end
    orders = go_on_2 * (go_on_1[:, None].astype(np.int64) + go_on_1[None, :])
    ended = orders.reshape(-1) @ by_line
    counted = {index: int(n) for index, n in enumerate(ended[1:].tolist()) if n}
    folded_1 = int((~go_on_1).sum()) * 49 * 48
    ordered_2 = go_on_2 & go_on_1[:, None]
    np.fill_diagonal(ordered_2, False)
    folded_2 = int((go_on_1[:, None] & ~go_on_2 & ~np.eye(50, dtype=bool)).sum()) * 48
    lost_3 = int(ended[0])
    assert folded_2 + int(ordered_2.sum()) * 48 == int(go_on_1.sum()) * 49 * 48
    by_net: dict[Fraction, int] = {}
    for lost, n in ((-1, folded_1), (-2, folded_2), (-3, lost_3)):
        if n:
            by_net[Fraction(lost)] = by_net.get(Fraction(lost), 0) + n
    for index, n in counted.items():
        net = Fraction(3 * win[index], scale)
        by_net[net] = by_net.get(net, 0) + n
    assert sum(by_net.values()) == 50 * 49 * 48
    return counted, by_net
