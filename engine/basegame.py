"""The base game's expected value for a rule set, by combinatorial analysis: every hand the player
and the dealer can hold is enumerated over the finite shoe, each card dealt removed from it.

Conventions (as Eric Farmer's combinatorial analyzer states them, whose method this follows):

- One player, alone at the table, from a full shoe: the round's cards are the only ones removed
  (the up card, the player's cards, and for the dealer's draws every card dealt before).
- Composition-dependent play: every decision (stand, hit, double, split, surrender) maximises the
  expected value for the cards of the hand and the up card ("CDZ-": a hand after a split is played
  as the same cards would be played before any split, though its value is computed with the
  split's cards removed).
- Splits: to `max_split_hands` (at most 4; aces to 2 unless resplit_aces), valued by Farmer's
  exact algorithm for that strategy (blackjack_split.pdf): each hand's value given how many pair
  cards and other second cards the other hands took.
- Or (Play.BASIC) the engine's total-dependent basic strategy, the simulator's, valued exactly.
- Insurance and even money declined.
- Where the dealer peeks, decisions are taken knowing the dealer has no blackjack. With no peek
  (no hole card, or not looked at) a dealer blackjack takes only the original wager where
  original_bets_only, else doubles and splits too; late surrender there loses the whole wager to a
  dealer blackjack (MA 8(a)(2)); early surrender gives back half whatever the dealer holds.

Arithmetic: the enumeration is complete, but the probabilities are summed in double precision
(numpy, numba), not as fractions: results hold about 13 significant digits, and no fraction is
given. The dealer's totals come from engine.dealer_odds.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.analysis import NotAnalysable
from engine.dealer_odds import BLACKJACK, OUTCOMES, RANKS, dealer_odds
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender
from engine.simulate import NOT_SIMULATED
from engine.strategy import Action, BasicStrategy, _doubles_on

ACE, TEN = 0, 9
MAX_SPLIT_HANDS = 4
"""The most hands the split algorithm values."""
METHOD = "combinatorial analysis (every hand enumerated over the finite shoe)"


class Play(StrEnum):
    COMPOSITION = "composition"
    """Every decision the best for the hand's cards and the up card (CDZ-)."""
    BASIC = "basic"
    """The engine's basic strategy (engine.strategy.BasicStrategy): total-dependent, computed for
    an infinite shoe; the strategy the simulator and the logged rounds play."""


def conventions(rules: RuleSet, play: Play = Play.COMPOSITION) -> list[str]:
    """What the analysis of `rules` assumes, in words, as published analyzers state it."""
    aces = "aces too" if rules.resplit_aces else "aces to 2 hands"
    if play is Play.COMPOSITION:
        how = (
            "composition-dependent play (CDZ-): each decision maximises the expected value for "
            "the hand's cards and the up card; a hand after a split is played as the same cards "
            "unsplit"
        )
    else:
        how = (
            "the engine's basic strategy: total-dependent, computed for an infinite shoe (the "
            "strategy the simulator plays), valued exactly over the finite shoe"
        )
    out = [
        "one player from a full shoe; only the round's own cards are removed (the up card, the "
        "player's cards, and every card dealt before each draw)",
        how,
        f"splits to {rules.max_split_hands} hands ({aces}), a pair card drawn to a split hand "
        "always resplit where allowed, valued exactly for that play by Eric Farmer's algorithm "
        "(blackjack_split.pdf)",
        "insurance and even money declined",
    ]
    if rules.peeks:
        out.append("the dealer peeks: decisions are taken knowing the dealer has no blackjack")
    else:
        taken = "the original wager only" if rules.original_bets_only else "every wager"
        out.append(
            f"no peek: decisions are taken not knowing whether the dealer has blackjack, which "
            f"takes {taken}"
        )
    if rules.late_surrender and not rules.peeks:
        out.append("late surrender with no peek: a dealer blackjack takes the whole wager")
    out.append(
        "double-precision sums over a complete enumeration (rounding error below 1e-12 of a "
        "wager), so no fraction is given"
    )
    return out


Vector = npt.NDArray[np.float64]
Hand = tuple[int, ...]
"""A hand's cards, as counts by rank (engine.dealer_odds.RANKS)."""

NOT_ANALYSED = {
    **NOT_SIMULATED,
    "spanish_decks": "Spanish decks",
    "super_bonus": "a super bonus",
    "max_doubles": "doubling more than once",
    "two_card_21_beats_dealer_21": "a two-card 21 that beats the dealer's 21",
}
"""RuleSet fields the analysis does not play (what the simulator does not, and four more): a rule
set using any of them is refused."""


def check_analysable(rules: RuleSet) -> None:
    """:raises NotAnalysable: naming what the analysis does not play."""
    default = RuleSet()
    missing = [
        what
        for name, what in NOT_ANALYSED.items()
        if getattr(rules, name) != getattr(default, name)
    ]
    if rules.double_on is DoubleOn.ANY_TIME:
        missing.append("doubling on any number of cards")
    if rules.max_split_hands > MAX_SPLIT_HANDS:
        missing.append(f"splits to more than {MAX_SPLIT_HANDS} hands")
    if not 1 <= rules.decks <= 8:
        missing.append(f"{rules.decks} decks (1 to 8 are analysed)")
    if missing:
        raise NotAnalysable(
            "the exact analysis plays the standard game only, not " + ", ".join(missing)
        )


@dataclass(frozen=True)
class BaseGameValue:
    """The player's expected value per initial wager, playing as `conventions` says."""

    rules: RuleSet
    expected_value: float
    by_up_card: tuple[float, ...]
    """Given each up card (ace first, ten-value last)."""
    play: Play = Play.COMPOSITION

    @property
    def house_edge(self) -> float:
        return -self.expected_value

    def as_dict(self) -> dict[str, Any]:
        return {
            "house_edge": f"{self.house_edge:.12f}",
            "house_edge_percent": f"{100 * self.house_edge:.9f}",
            "expected_value": f"{self.expected_value:.12f}",
            "expected_value_by_up_card": {
                _RANK_NAMES[rank]: f"{value:.12f}" for rank, value in enumerate(self.by_up_card)
            },
            "method": METHOD,
            "play": self.play.value,
            "conventions": conventions(self.rules, self.play),
        }


_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
_AFTER_HIT = frozenset({Action.STAND, Action.HIT})
"""What a hand may do after a third card (or a split hand that may not double)."""


def base_game_value(rules: RuleSet, play: Play = Play.COMPOSITION) -> BaseGameValue:
    """The exact expected value of a round under `rules`, played as `play` says.

    :raises NotAnalysable: the rules use what the analysis does not play.
    """
    check_analysable(rules)
    return _Analysis(rules, play).value()


def hand_values(rules: RuleSet, cards: list[int], up: int) -> dict[str, float]:
    """The values of standing, hitting and doubling a hand (card values, ace 1) against an up card
    (ace 1), played on composition-dependently; where the dealer peeks, given no dealer blackjack
    (as published tables give them), else over every hole card.

    :raises NotAnalysable: the rules use what the analysis does not play.
    :raises ValueError: no such hand, or not from this shoe.
    """
    check_analysable(rules)
    hand: Hand = (0,) * RANKS
    for value in cards:
        if not 1 <= value <= 10:
            raise ValueError(f"{value} is no card value (ace 1, ten-value cards 10)")
        hand = _add(hand, value - 1)
    analysis = _Analysis(rules)
    if len(cards) < 2 or hand not in analysis.index:
        raise ValueError(f"{cards} is not a hand of two cards or more, 21 or less, from the shoe")
    h, u = analysis.index[hand], up - 1
    unsplit = analysis.contexts[(0, 0)]
    values = {"stand": unsplit.stand[h, u], "hit": unsplit.hit[h, u]}
    if len(cards) == 2:
        values["double"] = unsplit.double[h, u]
    if rules.peeks:
        blackjack = analysis._blackjack(np.array([hand], dtype=np.int64))[0, u]
        natural = bool(analysis.natural[h])
        values = {
            name: (v if natural and name == "stand" else v + blackjack) / (1 - blackjack)
            for name, v in values.items()
        }
    return {name: float(v) for name, v in values.items()}


# --- the analysis ------------------------------------------------------------------------------


def _total(hand: Hand) -> tuple[int, bool]:
    hard = sum((rank + 1) * n for rank, n in enumerate(hand))
    if hand[ACE] and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _add(hand: Hand, rank: int, n: int = 1) -> Hand:
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


@lru_cache(maxsize=8)
def _hand_table(decks: int) -> _HandTable:
    full = (4 * decks,) * 9 + (16 * decks,)
    hands = _hands(full)
    index = {hand: i for i, hand in enumerate(hands)}
    counts = np.array(hands, dtype=np.int64)
    size = counts.sum(axis=1)
    total = np.array([_total(hand)[0] for hand in hands], dtype=np.int64)
    bust = len(hands)
    children = np.array(
        [[index.get(_add(hand, rank), bust) for rank in range(RANKS)] for hand in hands],
        dtype=np.int64,
    )
    return _HandTable(index, counts, size, total, children, (size == 2) & (total == 21))


_ODDS: dict[tuple[int, bool], tuple[dict[Hand, int], npt.NDArray[np.float64]]] = {}
"""(decks, hits soft 17) → the dealer's odds computed so far, by the cards removed: a row index
and the rows. Each analysis adds what it lacks."""
_ODDS_LOCK = threading.Lock()


@dataclass
class _Context:
    """The values of the hands a context plays, by hand index (zero elsewhere): the unsplit hands,
    or the hands after a split of `pair` with `extra` more pair cards removed."""

    pair: int
    extra: int
    hands: npt.NDArray[np.int64]
    stand: Vector
    hit: Vector
    double: Vector


class _Analysis:
    def __init__(self, rules: RuleSet, play: Play = Play.COMPOSITION) -> None:
        self.rules = rules
        self.play = play
        d = rules.decks
        self.full: Hand = (4 * d,) * 9 + (16 * d,)
        self.full_array = np.array(self.full, dtype=np.int64)
        self.cards = sum(self.full)
        self.bj = float(rules.blackjack_pays)
        self.originals_only = rules.peeks or rules.original_bets_only
        self.splits = {pair: self._max_hands(pair) for pair in range(RANKS)}

        table = _hand_table(d)
        self.index, self.counts, self.size = table.index, table.counts, table.size
        self.total, self.children, self.natural = table.total, table.children, table.natural
        self.basic = BasicStrategy(rules).table if play is Play.BASIC else None
        self.hits = self._hits(table) if play is Play.BASIC else None

        contexts = [(0, 0)] + [
            (pair, extra)
            for pair in range(RANKS)
            if self.splits[pair] >= 2
            for extra in range(1, self._extra(pair) + 1)
        ]
        members = {key: self._members(*key) for key in contexts}
        self.odds, rows = self._dealer_odds(members)
        self.contexts: dict[tuple[int, int], _Context] = {}
        for key in contexts:  # the unsplit hands first: the split hands are played as they are
            self.contexts[key] = self._context(*key, members[key], rows[key])

    def _hits(self, table: _HandTable) -> npt.NDArray[np.bool_]:
        """[hand, up]: whether basic strategy hits the hand of three cards or more."""
        assert self.basic is not None
        hits = np.zeros((len(table.counts) + 1, RANKS), dtype=bool)
        for hand, h in table.index.items():
            total, soft = _total(hand)
            if sum(hand) < 3:
                continue
            for up in range(RANKS):
                ranked = self.basic[(total, soft, 0, up + 1, False)]
                hits[h, up] = (
                    next((a for a in ranked if a in _AFTER_HIT), Action.STAND) is Action.HIT
                )
        return hits

    def _choose(self, hand: Hand, allowed: frozenset[Action]) -> list[Action]:
        """Basic strategy's action for two cards against each up card, among those allowed."""
        assert self.basic is not None
        total, soft = _total(hand)
        pair = next((rank + 1 for rank in range(RANKS) if hand[rank] == 2), 0)
        chosen = []
        for up in range(RANKS):
            ranked = self.basic[(total, soft, pair, up + 1, True)]
            chosen.append(next((a for a in ranked if a in allowed), Action.STAND))
        return chosen

    def _max_hands(self, pair: int) -> int:
        rules = self.rules
        hands = rules.max_split_hands if pair != ACE or rules.resplit_aces else 2
        return min(hands, rules.max_split_hands, self.full[pair])

    def _extra(self, pair: int) -> int:
        """The most extra pair cards a split hand's value is computed with removed."""
        hands = self.splits[pair]
        return min(2 * (hands - 2) + 1, self.full[pair] - 1) if hands >= 2 else 0

    def _one_card(self, pair: int) -> bool:
        return pair == ACE and self.rules.split_aces_one_card

    def _members(self, pair: int, extra: int) -> npt.NDArray[np.int64]:
        """The hands a context values: two cards or more, holding the pair card after a split."""
        keep = self.size >= 2
        if extra:
            keep &= (self.counts[:, pair] >= 1) & (self.counts[:, pair] + extra <= self.full[pair])
            if self._one_card(pair):
                keep &= self.size == 2
        return np.flatnonzero(keep)

    def _removed(
        self, pair: int, extra: int, members: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.int64]:
        removed = self.counts[members].copy()
        removed[:, pair] += extra
        return removed

    def _dealer_odds(
        self, members: dict[tuple[int, int], npt.NDArray[np.int64]]
    ) -> tuple[npt.NDArray[np.float64], dict[tuple[int, int], npt.NDArray[np.int64]]]:
        """The dealer's odds for every set of removed cards the contexts need, computed once
        each: the odds and each context's rows into them."""
        key = (self.rules.decks, self.rules.dealer_hits_soft_17)
        with _ODDS_LOCK:
            known, odds = _ODDS.get(key, ({}, np.zeros((0, RANKS, len(OUTCOMES)))))
            known = dict(known)
            start = len(known)
            rows = {}
            for (pair, extra), hands in members.items():
                removed = self._removed(pair, extra, hands)
                rows[(pair, extra)] = np.array(
                    [known.setdefault(tuple(r), len(known)) for r in removed.tolist()],
                    dtype=np.int64,
                )
            if len(known) > start:
                new = np.array(list(known)[start:], dtype=np.int64)
                shoes = self.full_array[None, :] - new
                odds = np.concatenate([odds, dealer_odds(shoes, self.rules.dealer_hits_soft_17)])
                if len(_ODDS) >= 4 and key not in _ODDS:
                    _ODDS.pop(next(iter(_ODDS)))
                _ODDS[key] = (known, odds)
        return odds, rows

    def _following(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """[hand, up, card]: the next card's probability given the up card, from the shoe less
        each row of removed cards (zero for an up card the shoe lacks)."""
        shoe = (self.full_array[None, :] - removed).astype(np.float64)
        left = shoe.sum(axis=1) - 1
        following = (shoe[:, None, :] - np.eye(RANKS)[None, :, :]) / left[:, None, None]
        following[shoe == 0] = 0.0
        return np.clip(following, 0.0, None)

    def _blackjack(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """[hand, up]: the chance of a dealer blackjack given the up card."""
        shoe = (self.full_array[None, :] - removed).astype(np.float64)
        left = shoe.sum(axis=1) - 1
        chance = np.zeros((len(shoe), RANKS))
        chance[:, ACE] = np.where(shoe[:, ACE] > 0, shoe[:, TEN] / left, 0.0)
        chance[:, TEN] = np.where(shoe[:, TEN] > 0, shoe[:, ACE] / left, 0.0)
        return chance

    def _context(
        self, pair: int, extra: int, members: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
    ) -> _Context:
        """Values of standing, hitting and doubling (two cards) for each hand of the context
        against each up card, unconditional (a dealer blackjack included); hands are valued from
        the most cards to the fewest, so that a hit's every outcome is known."""
        n = len(self.counts) + 1
        stand, hit, double = np.zeros((n, RANKS)), np.zeros((n, RANKS)), np.zeros((n, RANKS))
        odds = self.odds[rows]
        sign = np.sign(self.total[members][:, None] - (17 + np.arange(5))[None, :])
        stand[members] = (
            (1.0 - odds.sum(axis=2))
            - odds[:, :, BLACKJACK]
            + np.einsum("hj,huj->hu", sign, odds[:, :, :5])
        )
        removed = self._removed(pair, extra, members)
        blackjack = self._blackjack(removed)
        if not extra:
            natural = self.natural[members]
            stand[members[natural]] = self.bj * (1.0 - blackjack[natural])
        stand[-1] = -1.0  # a bust
        following = self._following(removed)
        unsplit = self.contexts[(0, 0)] if extra else None
        played = np.zeros((n, RANKS))
        played[-1] = -1.0
        size = self.size[members]
        for cards in range(int(size.max()), 1, -1):
            level = size == cards
            hands = members[level]
            children = self.children[hands]  # [hand, card]
            hit[hands] = np.einsum("huc,hcu->hu", following[level], played[children])
            if cards == 2:
                doubled = np.where((children == n - 1)[:, :, None], -2.0, 2.0 * stand[children])
                double[hands] = np.einsum("huc,hcu->hu", following[level], doubled)
                if self.originals_only:  # a dealer blackjack takes the original wager only
                    double[hands] += blackjack[level]
            # How each hand is played once drawn to (no double after a third card).
            if self.hits is not None:
                played[hands] = np.where(self.hits[hands], hit[hands], stand[hands])
            elif unsplit is None:
                played[hands] = np.maximum(stand[hands], hit[hands])
            else:  # CDZ-: the unsplit hand's choice, at the split hand's value
                choose_hit = unsplit.hit[hands] > unsplit.stand[hands]
                played[hands] = np.where(choose_hit, hit[hands], stand[hands])
        return _Context(pair, extra, members, stand, hit, double)

    def _may_double(self, hand: Hand, after_split: bool) -> bool:
        if after_split and not self.rules.double_after_split:
            return False
        total, soft = _total(hand)
        return _doubles_on(self.rules.double_on, total, soft)

    # Splits (Farmer, blackjack_split.pdf): EV[X; a, b] is a split hand's value with a more pair
    # cards and b other (non-pair) second cards known removed, its own second card any card
    # (a pair card is not resplit); EV[N; a, b] the same with its own second card not a pair card.

    def _second_card(self, pair: int, a: int) -> tuple[Vector, Vector]:
        """EV[X; a, 0] and EV[P; a, 0] against each up card."""
        context = self.contexts[(pair, a + 1)]
        unsplit = self.contexts[(0, 0)]
        one = _add((0,) * RANKS, pair)
        removed = np.array([_add(one, pair, a + 1)], dtype=np.int64)
        following = self._following(removed)[0]
        values = np.zeros((RANKS, RANKS))  # [card, up]
        for rank in range(RANKS):
            hand = _add(one, rank)
            if hand[rank] + (a + 1 if rank == pair else 0) > self.full[rank]:
                continue
            h = self.index[hand]
            if self._one_card(pair):
                values[rank] = context.stand[h]
                continue
            if self.basic is not None:
                may_double = self._may_double(hand, after_split=True)
                allowed = _AFTER_HIT | ({Action.DOUBLE} if may_double else set())
                by_action = {
                    Action.STAND: context.stand[h],
                    Action.HIT: context.hit[h],
                    Action.DOUBLE: context.double[h],
                }
                actions = self._choose(hand, frozenset(allowed))
                values[rank] = [by_action[a][up] for up, a in enumerate(actions)]
                continue
            # CDZ-: the unsplit hand's choice, at the split hand's value.
            value = np.where(unsplit.hit[h] > unsplit.stand[h], context.hit[h], context.stand[h])
            if self._may_double(hand, after_split=True):
                best = np.maximum(unsplit.stand[h], unsplit.hit[h])
                value = np.where(unsplit.double[h] > best, context.double[h], value)
            values[rank] = value
        return np.einsum("uc,cu->u", following, values), values[pair]

    def split(self, pair: int) -> Vector:
        hands = self.splits[pair]
        seconds = [self._second_card(pair, a) for a in range(self._extra(pair))]
        ev_x = [x for x, _ in seconds]
        ev_p = [p for _, p in seconds]
        pairs_left = np.array(
            [self.full[pair] - 2 - (up == pair) for up in range(RANKS)], dtype=np.float64
        )
        left = self.cards - 2.0
        present = np.array([self.full[up] - 2 * (up == pair) > 0 for up in range(RANKS)])

        def x(weight: Vector, a: int, b: int) -> Vector:
            if a >= len(ev_x):  # more pair cards than the shoe holds: no weight
                return np.zeros(RANKS)
            if b == 0:
                return weight * ev_x[a]
            v = (pairs_left - a) / (left - a - b)
            weight, v = np.where(v >= 1, 0.0, weight), np.where(v >= 1, 0.0, v)
            return x(weight / (1 - v), a, b - 1) + x(weight * v / (v - 1), a + 1, b - 1)

        def n(weight: Vector, a: int, b: int) -> Vector:
            if a >= len(ev_x):
                return np.zeros(RANKS)
            v = (pairs_left - a) / (left - 1 - a - b)
            weight, v = np.where(v >= 1, 0.0, weight), np.where(v >= 1, 0.0, v)
            if b == 0:
                return weight / (1 - v) * (ev_x[a] - v * ev_p[a])
            return n(weight / (1 - v), a, b - 1) + n(weight * v / (v - 1), a + 1, b - 1)

        shoe_n, shoe_p = left - 1, pairs_left
        others = shoe_n - shoe_p

        def arrangements(pairs: int, non_pairs: int, ways: float) -> Vector:
            chance = np.full(RANKS, float(ways))
            for i in range(pairs):
                chance *= (shoe_p - i) / (shoe_n - i)
            for i in range(non_pairs):
                chance *= (others - i) / (shoe_n - pairs - i)
            return np.where(present, chance, 0.0)

        total = np.zeros(RANKS)
        # Stopping short of the most hands: h hands, every second card a non-pair card.
        for h in range(2, hands):
            total += n(arrangements(h - 2, h, h - 1) * h, h - 2, h - 1)
        # Reaching the most hands after k hands were finished with a non-pair card.
        for k in range(hands - 1):
            chance = arrangements(hands - 2, k, 2.0 if hands == 4 and k > 0 else 1.0)
            if k > 0:
                total += n(chance * k, hands - 2, k - 1)
            total += x(chance * (hands - k), hands - 2, k)
        if self.originals_only:  # a dealer blackjack takes the original wager only
            total += self._split_blackjack_refund(pair, hands)
        return total

    def _split_blackjack_refund(self, pair: int, hands: int) -> Vector:
        """The wagers of the extra hands a split makes, given back on a dealer blackjack."""
        refund = np.zeros(RANKS)
        for up, hole in ((ACE, TEN), (TEN, ACE)):
            shoe = list(self.full)
            shoe[pair] -= 2
            if shoe[up] <= 0:
                continue
            shoe[up] -= 1
            if shoe[hole] <= 0:
                continue
            chance = shoe[hole] / sum(shoe)
            shoe[hole] -= 1
            n, p = float(sum(shoe)), float(shoe[pair])
            two = (n - p) / n * (n - p - 1) / (n - 1) if hands > 2 else 1.0
            three = 0.0 if hands < 3 else 1 - two
            if hands > 3:
                three = (
                    2 * p / n * (n - p) / (n - 1) * (n - p - 1) / (n - 2) * (n - p - 2) / (n - 3)
                )
            four = 1 - two - three if hands > 3 else 0.0
            refund[up] = (2 * two + 3 * three + 4 * four - 1) * chance
        return refund

    def surrender(self, hand: Hand) -> Vector | None:
        surrender = self.rules.surrender
        if surrender is Surrender.NONE:
            return None
        if surrender is Surrender.EARLY:
            return np.full(RANKS, -0.5)
        blackjack = self._blackjack(np.array([hand], dtype=np.int64))[0]
        return -blackjack - 0.5 * (1 - blackjack)

    def first_two(self, hand: Hand) -> Vector:
        """The best play of two cards against each up card."""
        unsplit, h = self.contexts[(0, 0)], self.index[hand]
        if self.natural[h]:
            return unsplit.stand[h]
        if self.basic is not None:
            return self._first_two_basic(hand)
        value = np.maximum(unsplit.stand[h], unsplit.hit[h])
        if self._may_double(hand, after_split=False):
            value = np.maximum(value, unsplit.double[h])
        pair = next((rank for rank in range(RANKS) if hand[rank] == 2), None)
        if pair is not None and self.splits[pair] >= 2:
            value = np.maximum(value, self.split(pair))
        surrender = self.surrender(hand)
        if surrender is not None:
            value = np.maximum(value, surrender)
        return value

    def _first_two_basic(self, hand: Hand) -> Vector:
        unsplit, h = self.contexts[(0, 0)], self.index[hand]
        allowed = set(_AFTER_HIT)
        by_action = {Action.STAND: unsplit.stand[h], Action.HIT: unsplit.hit[h]}
        if self._may_double(hand, after_split=False):
            allowed.add(Action.DOUBLE)
            by_action[Action.DOUBLE] = unsplit.double[h]
        pair = next((rank for rank in range(RANKS) if hand[rank] == 2), None)
        if pair is not None and self.splits[pair] >= 2:
            allowed.add(Action.SPLIT)
            by_action[Action.SPLIT] = self.split(pair)
        surrender = self.surrender(hand)
        early = np.zeros(RANKS, dtype=bool)
        if surrender is not None:
            by_action[Action.SURRENDER] = surrender
            if self.rules.early_surrender:  # offered first, as the engine asks before the rest
                total, soft = _total(hand)
                pair_value = pair + 1 if pair is not None else 0
                early = np.array(
                    [
                        self.basic[(total, soft, pair_value, up + 1, True)][0] is Action.SURRENDER
                        for up in range(RANKS)
                    ]
                )
            else:
                allowed.add(Action.SURRENDER)
        actions = self._choose(hand, frozenset(allowed))
        value = np.array([by_action[a][up] for up, a in enumerate(actions)])
        return np.where(early, -0.5, value)

    def value(self) -> BaseGameValue:
        by_up = np.zeros(RANKS)
        full = np.array(self.full, dtype=np.float64)
        empty = (0,) * RANKS
        for first in range(RANKS):
            for second in range(first, RANKS):
                hand = _add(_add(empty, first), second)
                if hand[first] > self.full[first] or hand[second] > self.full[second]:
                    continue
                # Probability of the two cards given each up card, in either order.
                shoe = full - np.eye(RANKS)  # row: after each up card
                left = self.cards - 1
                chance = shoe[:, first] / left
                chance = chance * (shoe[:, second] - (first == second)) / (left - 1)
                if first != second:
                    chance = 2 * chance
                by_up += np.clip(chance, 0, None) * self.first_two(hand)
        ups = full / self.cards
        return BaseGameValue(
            self.rules, float(ups @ by_up), tuple(float(v) for v in by_up), self.play
        )


# --- effects of rule options --------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEffect:
    option: str
    base: str
    changed: str
    value: BaseGameValue
    change: float
    """The variation's house edge less the base rules' (positive: it costs the player)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "from": self.base,
            "to": self.changed,
            "house_edge_change": f"{self.change:.12f}",
            "house_edge_change_percent": f"{100 * self.change:.9f}",
            "house_edge": f"{self.value.house_edge:.12f}",
        }


def rule_effects(rules: RuleSet, base: BaseGameValue | None = None) -> list[RuleEffect]:
    """The change each analysable rule option makes to the house edge, one at a time."""
    base = base or base_game_value(rules)
    effects = []
    for option, was, now, changed in _variations(rules):
        value = base_game_value(changed)
        effects.append(RuleEffect(option, was, now, value, value.house_edge - base.house_edge))
    return effects


def _variations(rules: RuleSet) -> Iterator[tuple[str, str, str, RuleSet]]:
    def text(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    def change(option: str, was: Any, now: Any, **fields: Any) -> tuple[str, str, str, RuleSet]:
        return option, text(was), text(now), replace(rules, **fields)

    bj = rules.blackjack_pays
    other = type(bj)(6, 5) if bj == type(bj)(3, 2) else type(bj)(3, 2)
    yield change("blackjack_pays", rules.blackjack_odds, f"{other.numerator} to "
                 f"{other.denominator}", blackjack_pays=other)  # fmt: skip
    h17 = rules.dealer_hits_soft_17
    yield change("dealer_soft_17", "hit" if h17 else "stand", "stand" if h17 else "hit",
                 dealer_hits_soft_17=not h17)  # fmt: skip
    surrender = Surrender.LATE if rules.surrender is Surrender.NONE else Surrender.NONE
    yield change("surrender", rules.surrender.value, surrender.value, surrender=surrender)
    das = rules.double_after_split
    yield change("double.after_split", das, not das, double_after_split=not das)
    double_on = DoubleOn.TEN_ELEVEN if rules.double_on is DoubleOn.ANY_TWO else DoubleOn.ANY_TWO
    yield change("double.on", rules.double_on.value, double_on.value, double_on=double_on)
    hands = 2 if rules.max_split_hands > 2 else 4
    yield change("split.max_hands", rules.max_split_hands, hands, max_split_hands=hands)
    if max(rules.max_split_hands, hands) > 2:
        rsa = rules.resplit_aces
        yield change("split.resplit_aces", rsa, not rsa, resplit_aces=not rsa)
    sa1 = rules.split_aces_one_card
    yield change("split.split_aces_one_card", sa1, not sa1, split_aces_one_card=not sa1)
    hole = HoleCard.NONE if rules.hole_card is HoleCard.PEEK else HoleCard.PEEK
    yield change("hole_card", rules.hole_card.value, hole.value, hole_card=hole)
    if not rules.peeks:  # what a dealer blackjack takes where nobody peeked
        obo = rules.original_bets_only
        yield change("original_bets_only", obo, not obo, original_bets_only=not obo)
