"""The base game's analysis up to each hand's values: for the unsplit hands and for each split's
hands (a context), the values of standing, hitting and doubling against each up card, the dealer's
odds computed once for every set of removed cards, and the engine's basic strategy by hand. The
choices of the first two cards and the game's value: engine.basegame.standard."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.basegame.assumptions import Play
from engine.basegame.hands import (
    ACE,
    TEN,
    Hand,
    OddsStore,
    Vector,
    full_shoe,
    hand_table,
    hand_total,
    pack_removed,
    store_add,
    store_rows,
    unpack_removed,
)
from engine.dealer_odds import BLACKJACK, RANKS, dealer_odds
from engine.rules import RuleSet
from engine.strategy import Action, BasicStrategy, DealerKey, doubles_on

AFTER_HIT = frozenset({Action.STAND, Action.HIT})
"""What a hand may do after a third card (or a split hand that may not double)."""


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


_ODDS: dict[tuple[Any, ...], OddsStore] = {}
"""Analysis._odds_key() (the full shoe, hits soft 17, …) → the dealer's odds computed so far, by
the cards removed. Each analysis adds what it lacks."""
_ODDS_LOCK = threading.Lock()


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


class ContextAnalysis:
    """The analysis of a rule set's hands, context by context (engine.basegame.standard.Analysis
    chooses among them)."""

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
                    allowed = AFTER_HIT | ({Action.DOUBLE} if may_double else set())
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
        packed = {key: pack_removed(self._removed(*key, hands)) for key, hands in members.items()}
        wanted = np.unique(np.concatenate([np.zeros(0, np.int64), *packed.values()]))
        store = self._odds_store(wanted)
        return store[2], {key: store_rows(store, p) for key, p in packed.items()}

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
