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
  original_bets_only, a broken hand's too (30-899.01(10), 30-899.03(9): its wagers wait for the
  dealer's second card; the engine and the simulator settle it so), else doubles and splits
  too; late surrender there loses the whole wager to a dealer blackjack (MA 8(a)(2)); early
  surrender gives back half whatever the dealer holds.

Spanish 21 (30-899.16) is played as the logged engine plays it: 48-card decks, 21s and blackjacks
that win, Bonus 21 odds (a 6-7-8 or 7-7-7's suits weighed by their exact probability given the
ranks: play depends on ranks only), doubling on any number of cards, rescue and double-double down
(a doubled hand's own decisions, valued from the most cards to the fewest); the Super Bonus, a
dollar amount, is left out (`conventions` says so).

Arithmetic: the enumeration is complete, but the probabilities are summed in double precision
(numpy, numba), not as fractions: results hold about 13 significant digits, and no fraction is
given. The dealer's totals come from engine.dealer_odds.
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.dealer_odds import BLACKJACK, RANKS, dealer_odds
from engine.rules import RuleSet, Surrender
from engine.strategy import Action, BasicStrategy, DealerKey, doubles_on

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
    if rules.two_card_21_beats_dealer_21:
        out.append(
            "a split hand's 21 in two cards beats the dealer's 21 in three or more cards (MA "
            "3(a)(3)); a blackjack is paid as a blackjack"
        )
    out.extend(_spanish_conventions(rules))
    out.append(
        "double-precision sums over a complete enumeration (rounding error below 1e-12 of a "
        "wager), so no fraction is given"
    )
    return out


def _spanish_conventions(rules: RuleSet) -> list[str]:
    """What the analysis assumes of Spanish 21's rules (30-899.16), where the rules have them."""
    out = []
    if rules.spanish_decks:
        out.append("Spanish decks: 48 cards a deck, the four 10s removed")
    if rules.blackjack_beats_dealer_blackjack:
        out.append("a player's blackjack beats the dealer's")
    if rules.player_21_wins:
        out.append("a player's 21 beats the dealer's 21 (a dealer blackjack, seen first, still "
                   "takes the original wager)")  # fmt: skip
    if rules.bonus_21:
        doubled = "doubled hands too" if rules.bonus_on_doubled else "not on doubled hands"
        out.append(
            f"Bonus 21 odds on winning 21s ({doubled}): 5-, 6- and 7-card 21s as printed (an "
            "8-card 21 pays even money, as the engine pays it); a 6-7-8 or 7-7-7's suited and "
            "spades odds weighed by the exact probability of its suits given its ranks: play "
            "depends on the cards' ranks only, never on their suits"
        )
    if rules.doubles_any_time:
        out.append(
            "doubling on any number of cards (a soft 21 too, never a hard 21 or a blackjack)"
        )
    if rules.rescue:
        out.append(
            "after a double the player may rescue: the last doubled portion taken back, the rest "
            "forfeited"
        )
        if rules.max_doubles > 1:
            out.append(
                f"double-double down: up to {rules.max_doubles} doubles a hand, each doubling "
                "the whole wager, while the total is under 21"
            )
    if rules.super_bonus:
        out.append(
            "the Super Bonus and Envy Bonus (dollar amounts by the size of the wager, not odds) "
            "are not included"
        )
    return out


Vector = npt.NDArray[np.float64]
Hand = tuple[int, ...]
"""A hand's cards, as counts by rank (engine.dealer_odds.RANKS)."""

NOT_ANALYSED = {
    "designated_blackjack": "a designated blackjack",
}
"""RuleSet fields the analysis does not play: a rule set using any of them is refused. (Face-up
dealing and Blackjack Switch: engine.basegame.variants, Double Up Blackjack:
engine.basegame.double_up, which base_game_value calls.)"""


def unplayed(rules: RuleSet, played: Collection[str] = ()) -> list[str]:
    """The NOT_ANALYSED fields the rules use, but those a variant's analysis `played`, in words."""
    default = RuleSet()
    return [
        what
        for name, what in NOT_ANALYSED.items()
        if name not in played and getattr(rules, name) != getattr(default, name)
    ]


def beyond_limits(rules: RuleSet) -> list[str]:
    """The splits and deck counts every analysis here stops short of, in words."""
    out = []
    if rules.max_split_hands > MAX_SPLIT_HANDS:
        out.append(f"splits to more than {MAX_SPLIT_HANDS} hands")
    if not 1 <= rules.decks <= 8:
        out.append(f"{rules.decks} decks (1 to 8 are analysed)")
    return out


@dataclass(frozen=True)
class BaseGameValue:
    """The player's expected value per initial wager, playing as `conventions` says."""

    rules: RuleSet
    expected_value: float
    by_up_card: tuple[float, ...]
    """Given each up card (ace first, ten-value last)."""
    play: Play = Play.COMPOSITION
    stated: tuple[str, ...] = ()
    """The conventions in words where they are not `conventions(rules, play)` (a variant's)."""

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
            "conventions": list(self.stated) or conventions(self.rules, self.play),
        }


_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
_AFTER_HIT = frozenset({Action.STAND, Action.HIT})
"""What a hand may do after a third card (or a split hand that may not double)."""


# --- the analysis ------------------------------------------------------------------------------


def _suits_chances(name: str, decks: int) -> tuple[float, float]:
    """The chances that a 6-7-8 or a 7-7-7 (`name`) is of one suit, and of spades, given its
    ranks only. The suits of each rank's cards are an even split dealt at random: the three
    different ranks of a 6-7-8 take independent suits (1/16 one suit, 1/64 spades); the three
    7s of a 7-7-7 are any three of the shoe's 4 × decks sevens, however many other 7s are out
    unseen."""
    if name == "678":
        return 1 / 16, 1 / 64
    spades = comb(decks, 3) / comb(4 * decks, 3)
    return 4 * spades, spades


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
"""The dealer's odds computed for sets of removed cards: their packed keys (_pack) sorted, each
key's row, and the rows [row, up, outcome]."""
_ODDS: dict[tuple[Any, ...], OddsStore] = {}
"""Analysis._odds_key() (the full shoe, hits soft 17, …) → the dealer's odds computed so far, by
the cards removed. Each analysis adds what it lacks."""
_ODDS_LOCK = threading.Lock()
_PACK = 32 ** np.arange(RANKS, dtype=np.int64)
"""Removed cards as one integer, 5 bits a rank: a hand holds at most 21 cards of a rank (aces),
and a split's context removes at most 5 more pair cards."""


def _pack(removed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
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


def _store_rows(store: OddsStore, packed: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The rows of packed keys that are in the store."""
    keys, rows, _ = store
    return rows[np.searchsorted(keys, packed)]


@dataclass
class Context:
    """The values of the hands a context plays, by hand index (zero elsewhere): the unsplit hands,
    or the hands after a split of `pair` with `extra` more pair cards removed."""

    pair: int
    extra: int
    hands: npt.NDArray[np.int64]
    stand: Vector
    hit: Vector
    double: Vector
    """Doubling (on two cards, or on any number where the rules allow it), its redoubles and
    rescues played on."""
    play: npt.NDArray[np.int8]
    """[hand, up]: how a hand of three cards or more is played: _STAND, _HIT or _DOUBLE."""
    doubled: list[npt.NDArray[np.int8]]
    """[doubles - 1][hand, up]: how a doubled hand is played: _STAND, _RESCUE or _REDOUBLE."""


_STAND, _HIT, _DOUBLE = 0, 1, 2
_RESCUE, _REDOUBLE = 1, 2
_PLAY_CODES = {Action.STAND: _STAND, Action.HIT: _HIT, Action.DOUBLE: _DOUBLE}


@dataclass
class _BasicPlays:
    """The engine's basic strategy by hand index and up card (engine.strategy.BasicStrategy)."""

    unsplit: npt.NDArray[np.int8]
    """A hand of three cards or more: _STAND, _HIT or _DOUBLE."""
    split: npt.NDArray[np.int8]
    """The same after a split (no double there without double after split)."""
    redouble: npt.NDArray[np.bool_]
    """A doubled hand doubles again where it may."""
    rescue: npt.NDArray[np.bool_]
    """A doubled hand that does not double again is rescued."""


class Analysis:
    def __init__(
        self, rules: RuleSet, play: Play = Play.COMPOSITION, full: Hand | None = None
    ) -> None:
        """`full`: the shoe the round is dealt from, by rank; default the rules' whole shoe."""
        self.rules = rules
        self.play = play
        self.full: Hand = full or full_shoe(rules)
        self.full_array = np.array(self.full, dtype=np.int64)
        self.cards = sum(self.full)
        self.dealer = self._dealer_cards()
        self.columns = len(self.dealer)
        """The vectors' length: one value for each of the dealer's holdings `dealer` lists."""
        self.bj = float(rules.blackjack_pays)
        self.originals_only = rules.peeks or rules.original_bets_only
        self.splits = {pair: self._max_hands(pair) for pair in range(RANKS)}

        table = hand_table(self.full)
        self.index, self.counts, self.size = table.index, table.counts, table.size
        self.total, self.children, self.natural = table.total, table.children, table.natural
        hard = self.counts @ np.arange(1, RANKS + 1)
        self.soft = self.total != hard
        self.doubles = rules.max_doubles if rules.rescue else 1
        """Doubles a hand may take: without a rescue the engine ends a hand at its first double."""
        self.pays, self.pays_doubled = self._bonus_pays()
        strategy = BasicStrategy(rules) if play is Play.BASIC else None
        self.basic = strategy.table if strategy else None
        self.basic_plays = self._basic_plays(strategy) if strategy else None

        contexts = [(0, 0)] + [
            (pair, extra)
            for pair in range(RANKS)
            if self.splits[pair] >= 2
            for extra in range(1, self._extra(pair) + 1)
        ]
        members = {key: self._members(*key) for key in contexts}
        self.odds, rows = self._dealer_odds(members)
        self.contexts: dict[tuple[int, int], Context] = {}
        for key in contexts:  # the unsplit hands first: the split hands are played as they are
            self.contexts[key] = self._context(*key, members[key], rows[key])

    def _basic_plays(self, strategy: BasicStrategy) -> _BasicPlays:
        """What the engine's basic strategy (BasicStrategy.decide) does with each hand of three
        cards or more against each up card, and with each doubled hand."""
        n = len(self.counts) + 1
        plays = _BasicPlays(
            np.zeros((n, self.columns), dtype=np.int8),
            np.zeros((n, self.columns), dtype=np.int8),
            np.zeros((n, self.columns), dtype=bool),
            np.zeros((n, self.columns), dtype=bool),
        )
        doubles_any_time = self.rules.doubles_any_time
        # Decided by the total, softness and whether cards were drawn: each kind once.
        hands = np.flatnonzero(self.size >= 2)
        kinds = np.stack([self.total[hands], self.soft[hands], self.size[hands] >= 3], axis=1)
        distinct, which = np.unique(kinds, axis=0, return_inverse=True)
        for kind, (total, soft, drawn) in enumerate(distinct.tolist()):
            h = hands[which.ravel() == kind]
            for up in range(self.columns):
                ranked = strategy.table[(total, bool(soft), 0, self._dealer_key(up), False)]
                plays.redouble[h, up] = total < 21 and ranked[0] is Action.DOUBLE
                plays.rescue[h, up] = strategy.stands[(total, self._dealer_key(up))] < -0.5
                if not drawn or total >= 21:  # a 21 stands (a soft 21 unless doubled)
                    continue
                split_doubles = doubles_any_time and self.rules.double_after_split
                for played, may_double in (
                    (plays.unsplit, doubles_any_time),
                    (plays.split, split_doubles),
                ):
                    allowed = _AFTER_HIT | ({Action.DOUBLE} if may_double else set())
                    action = next((a for a in ranked if a in allowed), Action.STAND)
                    played[h, up] = _PLAY_CODES[action]
        return plays

    def _dealer_key(self, up: int) -> DealerKey:
        """What the engine's basic strategy knows of the dealer where the vectors' index is `up`:
        the up card's value (ace 1)."""
        return up + 1

    def _choose(self, hand: Hand, allowed: frozenset[Action]) -> list[Action]:
        """Basic strategy's action for two cards against each up card, among those allowed."""
        assert self.basic is not None
        total, soft = hand_total(hand)
        pair = next((rank + 1 for rank in range(RANKS) if hand[rank] == 2), 0)
        chosen = []
        for up in range(self.columns):
            ranked = self.basic[(total, soft, pair, self._dealer_key(up), True)]
            chosen.append(next((a for a in ranked if a in allowed), Action.STAND))
        return chosen

    def _bonus_pays(self) -> tuple[Vector, Vector]:
        """[hand]: what a winning 21 of the hand pays, undoubled and doubled (1 unless a Bonus 21
        odds, 30-899.16(11)); a 6-7-8 or 7-7-7's suits are weighed by their exact probability
        given the ranks (every rank's cards are split evenly among the suits)."""
        n = len(self.counts) + 1
        pays = np.ones(n)
        if not self.rules.bonus_21:
            return pays, pays
        odds = {kind: float(ratio) for kind, ratio in self.rules.bonus_21}

        def best(*kinds: str) -> float:
            return max([odds[kind] for kind in kinds if kind in odds], default=1.0)

        for hand, h in self.index.items():
            size = sum(hand)
            if self.total[h] != 21 or self.natural[h]:
                continue
            if size in (5, 6, 7):  # as printed: "5 card", "6 card", "7 card" 21 (engine.hands)
                pays[h] = best(f"{size}-card")
            elif size == 3 and (hand[5] == hand[6] == hand[7] == 1 or hand[6] == 3):
                name = "678" if hand[6] == 1 else "777"
                suited, spades = _suits_chances(name, self.rules.decks)
                pays[h] = (
                    spades * best(name, f"{name}-suited", f"{name}-spades")
                    + (suited - spades) * best(name, f"{name}-suited")
                    + (1 - suited) * best(name)
                )
        return pays, (pays if self.rules.bonus_on_doubled else np.ones(n))

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
        packed = {key: _pack(self._removed(*key, hands)) for key, hands in members.items()}
        wanted = np.unique(np.concatenate([np.zeros(0, np.int64), *packed.values()]))
        store = self._odds_store(wanted)
        return store[2], {key: _store_rows(store, p) for key, p in packed.items()}

    def _odds_store(self, wanted: npt.NDArray[np.int64]) -> OddsStore:
        """The store of the dealer's odds (_ODDS) holding every packed key of `wanted` (sorted,
        distinct): what it lacks computed now."""
        key = self._odds_key()
        with _ODDS_LOCK:
            store = _ODDS.get(key)
            if store is None:
                empty = np.zeros(0, dtype=np.int64)
                store = empty, empty, self._odds_of(np.zeros((0, RANKS), np.int64))
            new = np.setdiff1d(wanted, store[0], assume_unique=True)
            if len(new):
                shoes = self.full_array[None, :] - unpack_removed(new)
                store = store_add(store, new, self._odds_of(shoes))
                if len(_ODDS) >= 4 and key not in _ODDS:
                    _ODDS.pop(next(iter(_ODDS)))
                _ODDS[key] = store
        return store

    def _odds_key(self) -> tuple[Any, ...]:
        """What the dealer's odds for a set of removed cards depend on (a key of _ODDS)."""
        return (self.full, self.rules.dealer_hits_soft_17)

    def _odds_of(self, shoes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """The dealer's odds [shoe, up, outcome] for shoes by rank."""
        return dealer_odds(shoes, self.rules.dealer_hits_soft_17)

    def _signs(self, members: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """[hand, dealer's total 17-21]: +1 where standing on the hand wins against it, 0 a push,
        -1 a loss (a 21 wins against the dealer's 21 where the rules say so: 30-899.16(4), MA
        3(a)(3)). The dealer's 21 here is one of three cards or more: a blackjack is apart."""
        total = self.total[members]
        sign = np.sign(total[:, None] - (17 + np.arange(5))[None, :])
        if self.rules.player_21_wins:
            sign[total == 21, 4] = 1
        elif self.rules.two_card_21_beats_dealer_21:  # MA 3(a)(3): a split hand's 21 in two cards
            sign[(total == 21) & (self.size[members] == 2), 4] = 1  # beats 21 in three or more
        return sign

    def _stand(self, members: npt.NDArray[np.int64], odds: npt.NDArray[np.float64]) -> Vector:
        """[hand, up]: the value of standing on each of the hands (a natural's is set apart),
        given the dealer's odds [hand, up, outcome] for each."""
        sign = self._signs(members)
        return (
            (1.0 - odds.sum(axis=2))
            - odds[:, :, BLACKJACK]
            + np.einsum("hj,huj->hu", sign, odds[:, :, :5])
        )

    def _dealer_cards(self) -> npt.NDArray[np.int64]:
        """[column, rank]: the dealer's cards out of the shoe where the vectors' index is
        `column`: here one column for each up card."""
        return np.eye(RANKS, dtype=np.int64)

    def _following(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """[hand, up, card]: the next card's probability given the up card (the dealer's cards
        of each column), from the shoe less each row of removed cards (zero for dealer's cards
        the shoe lacks)."""
        shoe = (self.full_array[None, :] - removed).astype(np.float64)
        left = shoe.sum(axis=1)[:, None] - self.dealer.sum(axis=1)[None, :]
        following = (shoe[:, None, :] - self.dealer[None, :, :]) / left[:, :, None]
        # Where the shoe lacks a column's dealer's cards, no card follows (a chance below zero
        # only there, and only in rows short of some rank).
        short = np.flatnonzero(shoe.min(axis=1) < self.dealer.max())
        rows, columns = np.nonzero((following[short] < 0).any(axis=2))
        following[short[rows], columns] = 0.0
        return following

    def blackjack_chance(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """[hand, up]: the chance of a dealer blackjack given the up card."""
        shoe = (self.full_array[None, :] - removed).astype(np.float64)
        left = shoe.sum(axis=1) - 1
        chance = np.zeros((len(shoe), RANKS))
        chance[:, ACE] = np.where(shoe[:, ACE] > 0, shoe[:, TEN] / left, 0.0)
        chance[:, TEN] = np.where(shoe[:, TEN] > 0, shoe[:, ACE] / left, 0.0)
        return chance

    def _context(
        self, pair: int, extra: int, members: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
    ) -> Context:
        """Values of standing, hitting and doubling for each hand of the context against each up
        card, unconditional (a dealer blackjack included); hands are valued from the most cards to
        the fewest, so that a hit's every outcome is known.

        A doubled hand's values are kept as G = its value + `refund` (what a dealer blackjack
        gives back of the wagers beyond the original one), so that every state's dealer blackjack
        costs the same original wager; a bust's G (-2^j (1 - refund)) is summed over the bust
        cards by the tower property: the chance of a dealer blackjack after a hand is the mean of
        the chances after each card it may draw."""
        rules = self.rules
        n = len(self.counts) + 1
        shape = (n, self.columns)  # [hand, up]
        stand, stand_doubled, hit, double = (np.zeros(shape) for _ in range(4))
        odds = self.odds[rows]
        stand[members] = self._stand(members, odds)
        stand_doubled[members] = stand[members]
        bonus = np.flatnonzero(self.pays[members] != 1.0)  # 21s paid more than even money
        if len(bonus):
            b = members[bonus]
            won = (1.0 - odds[bonus].sum(axis=2)) + np.einsum(
                "hj,huj->hu", (self._signs(b) > 0).astype(np.float64), odds[bonus, :, :5]
            )
            stand[b] += won * (self.pays[b, None] - 1.0)
            stand_doubled[b] += won * (self.pays_doubled[b, None] - 1.0)
        removed = self._removed(pair, extra, members)
        blackjack = self.blackjack_chance(removed)
        if not extra:
            natural = self.natural[members]
            stand[members[natural]] = self._natural_stand(blackjack[natural])
        stand[-1] = stand_doubled[-1] = -1.0  # a bust
        chance = np.zeros(shape)
        chance[members] = blackjack
        refund = chance if self.originals_only else np.zeros(shape)
        following = self._following(removed)
        unsplit = self.contexts[(0, 0)] if extra else None
        may_double = rules.doubles_any_time and (not extra or rules.double_after_split)
        doubled = [np.zeros(shape) for _ in range(self.doubles + 1)]  # [j]: G after j doubles
        doubled_play = [np.zeros(shape, dtype=np.int8) for _ in range(self.doubles)]
        for j in range(1, self.doubles + 1):
            doubled[j][-1] = -(2.0**j)
        play = np.zeros(shape, dtype=np.int8)
        played = np.zeros(shape)
        played[-1] = -1.0
        size = self.size[members]
        for cards in range(int(size.max()), 1, -1):
            level = size == cards
            hands = members[level]
            children = self.children[hands]  # [hand, card]
            after = following[level]
            doubles_here = cards == 2 or may_double
            # Doubled hands of this many cards: reached by a double, and redoubles after it.
            doubled_here = cards >= 3 and (may_double or cards <= 2 + self.doubles)
            if doubles_here or (doubled_here and self.doubles > 1):
                # Of the refund, what the bust cards' hands hold: the hand's less the others'.
                bust_refund = refund[hands] - np.einsum("huc,hcu->hu", after, refund[children])
            below_21 = (self.total[hands] < 21)[:, None]
            for j in range(self.doubles if doubled_here else 0, 0, -1):
                # A doubled hand: stand, rescue or redouble.
                options = [2.0**j * (stand_doubled[hands] + refund[hands])]
                if rules.rescue:  # the last doubled portion back, the rest forfeited
                    lost = 2.0 ** (j - 1)
                    if rules.peeks:
                        options.append(-lost * (1.0 - chance[hands]))
                    else:  # a rescued hand loses so much whatever the dealer holds
                        options.append(-lost + refund[hands])
                    if j < self.doubles:
                        again = np.einsum("huc,hcu->hu", after, doubled[j + 1][children])
                        again += 2.0 ** (j + 1) * bust_refund
                        options.append(np.where(below_21, again, -np.inf))
                if len(options) == 1:
                    doubled[j][hands] = options[0]
                    continue
                choice = self._doubled_choice(options, hands, j, unsplit)
                doubled[j][hands] = np.take_along_axis(np.stack(options), choice[None], 0)[0]
                doubled_play[j - 1][hands] = choice
            hit[hands] = np.einsum("huc,hcu->hu", after, played[children])
            if doubles_here:
                double[hands] = (
                    np.einsum("huc,hcu->hu", after, doubled[1][children])
                    + 2.0 * bust_refund
                    - refund[hands]
                )
            # How each hand is played once drawn to.
            if self.basic_plays is None and not may_double:  # stand or hit
                hits = hit[hands] > stand[hands] if unsplit is None else (
                    unsplit.hit[hands] > unsplit.stand[hands]
                )  # fmt: skip
                play[hands] = hits
                played[hands] = np.where(hits, hit[hands], stand[hands])
                continue
            options = [stand[hands], hit[hands]]
            if may_double:  # a hard 21 may not double (a soft one may, 30-899.16's procedures)
                doubles_here = (self.total[hands] < 21) | self.soft[hands]
                doubles_here = doubles_here[:, None]
                options.append(np.where(doubles_here, double[hands], -np.inf))
            if self.basic_plays is not None:
                basic = self.basic_plays.split if extra else self.basic_plays.unsplit
                choice = basic[hands] if may_double else np.minimum(basic[hands], _HIT)
            elif unsplit is None:
                choice = np.argmax(np.stack(options), axis=0).astype(np.int8)
            else:  # CDZ-: the unsplit hand's choice, at the split hand's value
                choice = unsplit.play[hands]
            play[hands] = choice
            played[hands] = np.take_along_axis(np.stack(options), choice[None], 0)[0]
        return Context(pair, extra, members, stand, hit, double, play, doubled_play)

    def _natural_stand(self, blackjack: Vector) -> Vector | float:
        """A natural's value, given the chance of a dealer blackjack against each up card."""
        if self.rules.blackjack_beats_dealer_blackjack:
            return self.bj
        return self.bj * (1.0 - blackjack)

    def _doubled_choice(
        self, options: list[Vector], hands: npt.NDArray[np.int64], j: int, unsplit: Context | None
    ) -> npt.NDArray[np.int8]:
        """How a hand doubled j times is played: the best option, the engine's basic strategy,
        or after a split the unsplit hand's choice (CDZ-)."""
        if self.basic_plays is not None:
            shape = (len(hands), self.columns)
            choice = np.zeros(shape, dtype=np.int8)
            if len(options) > 1:
                choice[self.basic_plays.rescue[hands]] = _RESCUE
            if len(options) > 2:
                redouble = self.basic_plays.redouble[hands]
                choice[redouble] = _REDOUBLE
            return choice
        if unsplit is not None:
            return unsplit.doubled[j - 1][hands]
        return np.argmax(np.stack(options), axis=0).astype(np.int8)

    def may_double_drawn(self, h: int) -> bool:
        """Whether a hand of three cards or more may double where doubling is on any number of
        cards: below 21, or a soft 21 (engine.strategy.AT_21)."""
        return bool(self.total[h] < 21 or self.soft[h])

    def _may_double(self, hand: Hand, after_split: bool) -> bool:
        if after_split and not self.rules.double_after_split:
            return False
        total, soft = hand_total(hand)
        return doubles_on(self.rules.double_on, total, soft)

    # Splits (Farmer, blackjack_split.pdf): EV[X; a, b] is a split hand's value with a more pair
    # cards and b other (non-pair) second cards known removed, its own second card any card
    # (a pair card is not resplit); EV[N; a, b] the same with its own second card not a pair card.

    def _second_card(self, pair: int, a: int) -> tuple[Vector, Vector]:
        """EV[X; a, 0] and EV[P; a, 0] against each up card."""
        context = self.contexts[(pair, a + 1)]
        unsplit = self.contexts[(0, 0)]
        one = add_card((0,) * RANKS, pair)
        removed = np.array([add_card(one, pair, a + 1)], dtype=np.int64)
        following = self._following(removed)[0]
        values = np.zeros((RANKS, self.columns))  # [card, up]
        for rank in range(RANKS):
            hand = add_card(one, rank)
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
        values = self._split_two_cards(pair, a, values)
        return np.einsum("uc,cu->u", following, values), values[pair]

    def _split_two_cards(self, pair: int, a: int, values: Vector) -> Vector:
        """[second card, up]: the values of a split hand's two cards (`a` more pair cards
        removed), as played above, or as a variant's own choices play them (Double Up's double
        up)."""
        return values

    def split(self, pair: int) -> Vector:
        hands = self.splits[pair]
        seconds = [self._second_card(pair, a) for a in range(self._extra(pair))]
        ev_x = [x for x, _ in seconds]
        ev_p = [p for _, p in seconds]
        # [column, rank]: the shoe less the pair and the column's dealer's cards.
        after = np.array(self.full) - 2 * np.eye(RANKS, dtype=np.int64)[pair] - self.dealer
        pairs_left = after[:, pair].astype(np.float64)
        left = self.cards - 1.0 - self.dealer.sum(axis=1)  # less the pair, dealer's cards but one
        present = (after >= 0).all(axis=1)
        columns = self.columns  # not self in the recursive closures' cycle (it would outlive them)

        def x(weight: Vector, a: int, b: int) -> Vector:
            if a >= len(ev_x):  # more pair cards than the shoe holds: no weight
                return np.zeros(columns)
            if b == 0:
                return weight * ev_x[a]
            v = (pairs_left - a) / (left - a - b)
            weight, v = np.where(v >= 1, 0.0, weight), np.where(v >= 1, 0.0, v)
            return x(weight / (1 - v), a, b - 1) + x(weight * v / (v - 1), a + 1, b - 1)

        def n(weight: Vector, a: int, b: int) -> Vector:
            if a >= len(ev_x):
                return np.zeros(columns)
            v = (pairs_left - a) / (left - 1 - a - b)
            weight, v = np.where(v >= 1, 0.0, weight), np.where(v >= 1, 0.0, v)
            if b == 0:
                return weight / (1 - v) * (ev_x[a] - v * ev_p[a])
            return n(weight / (1 - v), a, b - 1) + n(weight * v / (v - 1), a + 1, b - 1)

        shoe_n, shoe_p = left - 1, pairs_left
        others = shoe_n - shoe_p

        def arrangements(pairs: int, non_pairs: int, ways: float) -> Vector:
            chance = np.full(columns, float(ways))
            for i in range(pairs):
                chance *= (shoe_p - i) / (shoe_n - i)
            for i in range(non_pairs):
                chance *= (others - i) / (shoe_n - pairs - i)
            return np.where(present, chance, 0.0)

        total = np.zeros(self.columns)
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
            return np.full(self.columns, -0.5)
        blackjack = self.blackjack_chance(np.array([hand], dtype=np.int64))[0]
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
        by_action |= self._own_first_two(hand)  # a variant's own plays (Double Up's double up)
        allowed |= by_action.keys() - {Action.SURRENDER}
        surrender = self.surrender(hand)
        early = np.zeros(self.columns, dtype=bool)
        if surrender is not None:
            by_action[Action.SURRENDER] = surrender
            if self.rules.early_surrender:  # offered first, as the engine asks before the rest
                total, soft = hand_total(hand)
                pair_value = pair + 1 if pair is not None else 0
                early = np.array(
                    [
                        self.basic[(total, soft, pair_value, self._dealer_key(up), True)][0]
                        is Action.SURRENDER
                        for up in range(self.columns)
                    ]
                )
            else:
                allowed.add(Action.SURRENDER)
        actions = self._choose(hand, frozenset(allowed))
        value = np.array([by_action[a][up] for up, a in enumerate(actions)])
        return np.where(early, -0.5, value)

    def _own_first_two(self, hand: Hand) -> dict[Action, Vector]:
        """A variant's own plays of two unsplit cards (not a natural), by the engine's action:
        their values against each up card, for the engine's basic strategy to choose among."""
        return {}

    def value(self) -> BaseGameValue:
        by_up = self.by_column()
        full = np.array(self.full, dtype=np.float64)
        ups = full / self.cards
        return BaseGameValue(
            self.rules, float(ups @ by_up), tuple(float(v) for v in by_up), self.play
        )

    def by_column(self) -> Vector:
        """The expected value given each up card (each column's dealer cards)."""
        by_up = np.zeros(self.columns)
        full = np.array(self.full, dtype=np.float64)
        empty = (0,) * RANKS
        for first in range(RANKS):
            for second in range(first, RANKS):
                hand = add_card(add_card(empty, first), second)
                if hand[first] > self.full[first] or hand[second] > self.full[second]:
                    continue
                # Probability of the two cards given each up card, in either order.
                shoe = full - self.dealer  # row: after each up card
                left = self.cards - self.dealer.sum(axis=1)
                chance = shoe[:, first] / left
                chance = chance * (shoe[:, second] - (first == second)) / (left - 1)
                if first != second:
                    chance = 2 * chance
                by_up += np.clip(chance, 0, None) * self.first_two(hand)
        return by_up
