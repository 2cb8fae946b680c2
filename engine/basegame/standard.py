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

import numpy as np

from engine.basegame.assumptions import BaseGameValue
from engine.basegame.contexts import AFTER_HIT, ContextAnalysis
from engine.basegame.hands import ACE, TEN, Hand, Vector, add_card, hand_total
from engine.dealer_odds import RANKS
from engine.rules import Surrender
from engine.strategy import Action


class Analysis(ContextAnalysis):
    """The standard game's analysis: each two cards' best play (or the engine's basic strategy's)
    among standing, hitting, doubling, splitting and surrender, and the game's value."""

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
                allowed = AFTER_HIT | ({Action.DOUBLE} if may_double else set())
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
        allowed = set(AFTER_HIT)
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
                basic = self.basic
                assert basic is not None  # basic strategy's play (first_two)
                total, soft = hand_total(hand)
                pair_value = pair + 1 if pair is not None else 0
                early = np.array(
                    [
                        basic[(total, soft, pair_value, self._dealer_key(up), True)][0]
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
