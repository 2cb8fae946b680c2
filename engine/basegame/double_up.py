"""The exact base-game analysis (engine.basegame) of Double Up Blackjack's own play rules
(Colorado 30-899.10, Versions 1 and 2), the RuleSet fields double_up, double_up_split_aces,
dealer_stops_on_16, dealer_16_pays_21, blackjack_paid_at_once and split_aces_21_pays:

- Double up: on two cards that are not a blackjack (nor, in Version 1, a hand of split aces),
  the player stands with a second wager of up to the main wager, paid 1:1 where the main wager
  wins, lost on a tie, pushed (or paid) with the main wager where the dealer stops on 16. Its
  value is linear in its amount, so the best play stakes all of it or nothing: doubling up is
  worth standing's value plus the second wager's, standing's less the chance of a tie (a dealer
  16 is no tie), and is taken where that beats every other play.
- The dealer's play stops on reaching a total of 16, a soft 16 such as A-5 too (the reading
  taken: "a total of 16" is the hand's total as the dealer counts it, soft or hard; a soft 17
  hit under H17 may reach a hard 16 and stop): every active wager pushes (Version 1), or a
  player's 21 wins 1:1 and every other hand pushes (Version 2, dealer_16_pays_21). A busted hand
  lost already. The dealer's odds count the stop apart (engine.dealer_odds.SIXTEEN).
- Version 1: a blackjack is paid 3:2 whatever the dealer holds (blackjack_paid_at_once), and a
  split ace that draws a ten-value card is paid 2:1 at once (split_aces_21_pays), whatever the
  dealer ends with.

- A dealer blackjack: where the dealer peeks it ends the round before anyone doubles up; where
  nobody peeks it takes the double up, a wager of its own and no double down, even where it takes
  only the original wager of a double or a split (original_bets_only): the reading the engine
  plays (engine.round settles it so, engine.strategy ranks the double up so).

The rest is engine.basegame's analysis and conventions (one player from a full shoe,
composition-dependent play, Farmer's split algorithm, insurance declined). After a split the
double up is chosen as the other plays are (CDZ-): where the unsplit hand of the same two cards
would double up (an ace and a ten-value card after a split counted a 21, not a blackjack).

Play.BASIC values the engine's basic strategy (engine.strategy.BasicStrategy) exactly: a hand of
two cards, unsplit or split, doubles up where the strategy's ranking for its total and the up
card puts the double up before every other play the hand has (engine.strategy.allowed_actions:
a split ace given one card only stands or doubles up, a split hand's 21 stands or doubles up),
and plays on as the strategy says where it does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.analysis import NotAnalysable
from engine.basegame.assumptions import BaseGameValue, Play, beyond_limits, conventions, unplayed
from engine.basegame.contexts import Context
from engine.basegame.hands import ACE, TEN, Vector, add_card
from engine.basegame.standard import Analysis
from engine.dealer_odds import RANKS, SIXTEEN, dealer_odds
from engine.rules import DoubleOn, RuleSet
from engine.strategy import Action

FIELDS = (
    "double_up",
    "double_up_split_aces",
    "dealer_stops_on_16",
    "dealer_16_pays_21",
    "blackjack_paid_at_once",
    "split_aces_21_pays",
)
"""The RuleSet fields of Double Up Blackjack's own play rules."""

VERSION_1: dict[str, Any] = {
    "double_up": True,
    "double_up_split_aces": False,
    "dealer_stops_on_16": True,
    "dealer_16_pays_21": False,
    "blackjack_paid_at_once": True,
    "split_aces_21_pays": Fraction(2),
}
"""30-899.10 Version 1's rules, as RuleSet fields."""
VERSION_2: dict[str, Any] = {
    "double_up": True,
    "double_up_split_aces": True,
    "dealer_stops_on_16": True,
    "dealer_16_pays_21": True,
    "blackjack_paid_at_once": False,
    "split_aces_21_pays": None,
}
"""30-899.10 Version 2's rules (Alternate rules/Pay table), as RuleSet fields."""


def is_double_up(rules: RuleSet) -> bool:
    """The rules use any of Double Up Blackjack's own play rules."""
    default = RuleSet()
    return any(getattr(rules, name) != getattr(default, name) for name in FIELDS)


def check_double_up(rules: RuleSet) -> None:
    """:raises NotAnalysable: naming what the Double Up analysis does not play."""
    missing = unplayed(rules)
    if rules.dealer_face_up or rules.switch or rules.spots_per_seat != 1 or rules.ties_lose:
        missing.append("another variant's rules with Double Up's")
    spanish = (
        rules.player_21_wins
        or rules.blackjack_beats_dealer_blackjack
        or rules.bonus_21
        or rules.rescue
        or rules.max_doubles != 1
        or rules.double_on is DoubleOn.ANY_TIME
    )
    if spanish:
        missing.append("Spanish 21's rules with Double Up's")
    if rules.double_up_split_aces and not rules.double_up:
        missing.append("doubling up split aces without the double up")
    if rules.dealer_16_pays_21 and not rules.dealer_stops_on_16:
        missing.append("a 21 paid against a dealer's 16 where the dealer does not stop on 16")
    if rules.split_aces_21_pays is not None and not rules.peeks:
        missing.append("split aces' 21 paid at once with no peek (what a dealer blackjack takes)")
    missing += beyond_limits(rules)
    if missing:
        raise NotAnalysable("the exact analysis does not play " + ", ".join(missing))


def double_up_conventions(rules: RuleSet, play: Play = Play.COMPOSITION) -> list[str]:
    """What the analysis of a Double Up game assumes, in words (engine.basegame.conventions,
    and the game's own rules)."""
    out = conventions(rules, play)
    precision = out.pop()  # stated last
    if rules.double_up:
        where = "any two cards but a blackjack" + (
            " (split aces too)" if rules.double_up_split_aces else " or split aces"
        )
        if play is Play.BASIC:
            taken = (
                "taken where the engine's basic strategy ranks it before every other play the "
                "hand has (its infinite-shoe value 2 x stand - P(tie)), split hands too"
            )
        else:
            taken = (
                "after a split taken where the unsplit hand of the same cards takes it, an ace "
                "and a ten-value card there counted a 21"
            )
        out.insert(
            2,
            f"double up on {where}, after a split too (double after split or not): all or "
            "nothing (the second wager's value is linear in its amount), worth standing's value "
            "plus standing's less the chance of a tie (lost; a dealer's 16 is no tie); " + taken,
        )
        if not rules.peeks:
            out.append(
                "no peek: a dealer blackjack takes the double up wager (a wager of its own, not "
                "a double down), whatever it takes of doubles and splits"
            )
    if rules.dealer_stops_on_16:
        settled = (
            "a player's 21 wins 1:1 (all its wagers), every other active hand pushes"
            if rules.dealer_16_pays_21
            else "every active wager pushes"
        )
        out.append(
            "the dealer stops on reaching a total of 16, hard or soft (a soft 16 such as A-5 is "
            "a total of 16; under H17 a soft 17 is hit and may reach a hard 16): "
            f"{settled}; a busted hand lost already"
        )
    if rules.blackjack_paid_at_once:
        out.append(
            f"a blackjack is paid {rules.blackjack_odds} at once, whatever the dealer holds (a "
            "dealer blackjack too)"
        )
    if rules.split_aces_21_pays is not None:
        pays = rules.split_aces_21_pays
        out.append(
            f"a split ace that draws a ten-value card is paid {pays.numerator} to "
            f"{pays.denominator} at once, whatever the dealer ends with (its 16 included)"
        )
    return [*out, precision]


def version(rules: RuleSet) -> int | None:
    """1 or 2 where the rules are all of 30-899.10's Version 1 or 2, else None."""
    for number, fields in ((1, VERSION_1), (2, VERSION_2)):
        if all(getattr(rules, name) == value for name, value in fields.items()):
            return number
    return None


def double_up_variations(rules: RuleSet) -> Iterator[tuple[str, Any, Any, dict[str, Any]]]:
    """Double Up's own rule options for engine.basegame.rule_effects, where the rules are Double
    Up's: (option, from, to, the RuleSet fields changed), each variation analysable (a field
    another needs changed with it)."""
    if not is_double_up(rules):
        return
    number = version(rules)
    if number is not None and (number == 1 or rules.peeks):  # V1 needs a peek (check_double_up)
        other = VERSION_2 if number == 1 else VERSION_1
        yield "version", number, 3 - number, other
    up = rules.double_up
    yield "double_up", up, not up, {"double_up": not up, "double_up_split_aces": False}
    if up:
        aces = rules.double_up_split_aces
        yield "double_up_split_aces", aces, not aces, {"double_up_split_aces": not aces}
    stops = rules.dealer_stops_on_16
    yield (
        "dealer_stops_on_16",
        stops,
        not stops,
        {
            "dealer_stops_on_16": not stops,
            "dealer_16_pays_21": False,
        },
    )
    if stops:
        pays = rules.dealer_16_pays_21
        yield "dealer_16_pays_21", pays, not pays, {"dealer_16_pays_21": not pays}
    at_once = rules.blackjack_paid_at_once
    yield "blackjack_paid_at_once", at_once, not at_once, {"blackjack_paid_at_once": not at_once}
    if rules.peeks:
        was = rules.split_aces_21_pays
        now = None if was is not None else Fraction(2)
        yield "split_aces_21_pays", _odds(was), _odds(now), {"split_aces_21_pays": now}


def _odds(pays: Fraction | None) -> str:
    return "none" if pays is None else f"{pays.numerator} to {pays.denominator}"


class _DoubleUp(Analysis):
    """engine.basegame's analysis with Double Up's settlements and its double up."""

    def __init__(self, rules: RuleSet, play: Play = Play.COMPOSITION) -> None:
        self.plain: dict[tuple[int, int], Vector] = {}
        """Each context's [hand, up]: standing's value, a two-card 21 counted a 21 (not a
        blackjack) and a split ace's 21 as any 21."""
        self.double_up: dict[tuple[int, int], Vector] = {}
        """Each context's [hand, up]: doubling up's value (unconditional, as every value here)."""
        super().__init__(rules, play)

    def _odds_key(self) -> tuple[Any, ...]:
        return (
            (*super()._odds_key(), "16") if self.rules.dealer_stops_on_16 else super()._odds_key()
        )

    def _odds_of(self, shoes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        sixteen = self.rules.dealer_stops_on_16
        return dealer_odds(shoes, self.rules.dealer_hits_soft_17, sixteen=sixteen)

    def _stand(self, members: npt.NDArray[np.int64], odds: npt.NDArray[np.float64]) -> Vector:
        value = super()._stand(members, odds)  # a stop on 16 left out of the bust: a push
        if self.rules.dealer_16_pays_21:
            value += (self.total[members] == 21)[:, None] * odds[:, :, SIXTEEN]
        return value

    def _context(
        self, pair: int, extra: int, members: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
    ) -> Context:
        context = super()._context(pair, extra, members, rows)
        rules = self.rules
        odds = self.odds[rows]
        chance = self.blackjack_chance(self._removed(pair, extra, members))
        if not extra and rules.blackjack_paid_at_once:
            context.stand[members[self.natural[members]]] = self.bj
        n = len(self.counts) + 1
        plain = np.zeros((n, RANKS))
        plain[members] = self._stand(members, odds)
        self.plain[(pair, extra)] = plain
        if pair == ACE and extra and rules.split_aces_21_pays is not None:
            # Paid at once: a dealer blackjack (which a peek shows before any split) takes the
            # original wager, as every split hand's value here counts it (_split_blackjack_refund).
            h = self.index[add_card(add_card((0,) * RANKS, ACE), TEN)]
            at = np.flatnonzero(members == h)
            if len(at):
                c = chance[at[0]]
                context.stand[h] = float(rules.split_aces_21_pays) * (1.0 - c) - c
        if rules.double_up:
            ties = np.einsum(
                "hj,huj->hu", (self._signs(members) == 0).astype(np.float64), odds[:, :, :5]
            )
            # Placed only after a peek shows no dealer blackjack; with no peek a dealer blackjack
            # takes it (a wager of its own, not a double down: engine.round's reading).
            refund = chance if rules.peeks else 0.0
            double_up = np.zeros((n, RANKS))
            double_up[members] = 2.0 * plain[members] - ties + refund
            self.double_up[(pair, extra)] = double_up
        return context

    def _doubles_up_split(self, pair: int, hand: tuple[int, ...]) -> bool:
        rules = self.rules
        if not rules.double_up:
            return False
        if pair != ACE:
            return True
        paid_at_once = rules.split_aces_21_pays is not None and hand[TEN] == 1
        return rules.double_up_split_aces and not paid_at_once

    def _split_two_cards(self, pair: int, a: int, values: Vector) -> Vector:
        """A split hand of two cards doubles up where _split_doubles_up says, else is played
        as `values` has it."""
        out = values.copy()
        one = add_card((0,) * RANKS, pair)
        for rank in range(RANKS):
            hand = add_card(one, rank)
            if hand[rank] + (a + 1 if rank == pair else 0) > self.full[rank]:
                continue
            if not self._doubles_up_split(pair, hand):
                continue
            h = self.index[hand]
            chosen = self._split_doubles_up(pair, hand)
            out[rank] = np.where(chosen, self.double_up[(pair, a + 1)][h], values[rank])
        return out

    def _split_doubles_up(self, pair: int, hand: tuple[int, ...]) -> npt.NDArray[np.bool_]:
        """[up]: whether a split hand of these two cards doubles up, against the plays it has
        (stand only for one-card split aces): where the engine's basic strategy ranks the double
        up first among them, or (CDZ-) where the unsplit hand of the same cards is worth most
        doubled up."""
        plays = {Action.STAND}
        if not self._one_card(pair):
            plays.add(Action.HIT)
            if self._may_double(hand, after_split=True):
                plays.add(Action.DOUBLE)
        if self.basic is not None:
            chosen = self._choose(hand, frozenset(plays | {Action.DOUBLE_UP}))
            return np.array([action is Action.DOUBLE_UP for action in chosen])
        h, unsplit = self.index[hand], self.contexts[(0, 0)]
        values = {Action.STAND: self.plain[(0, 0)][h], Action.HIT: unsplit.hit[h],
                  Action.DOUBLE: unsplit.double[h]}  # fmt: skip
        best = np.max([values[action] for action in plays], axis=0)
        return self.double_up[(0, 0)][h] > best

    def _own_first_two(self, hand: tuple[int, ...]) -> dict[Action, Vector]:
        if not self.rules.double_up:
            return {}
        return {Action.DOUBLE_UP: self.double_up[(0, 0)][self.index[hand]]}

    def first_two(self, hand: tuple[int, ...]) -> Vector:
        value = super().first_two(hand)  # the engine's basic strategy: _own_first_two
        h = self.index[hand]
        if self.basic is None and self.rules.double_up and not self.natural[h]:
            value = np.maximum(value, self.double_up[(0, 0)][h])
        return value


def double_up_value(rules: RuleSet, play: Play = Play.COMPOSITION) -> BaseGameValue:
    """The exact expected value of a Double Up Blackjack round (double_up_conventions says how
    it is played).

    :raises NotAnalysable: rules the analysis does not play.
    """
    check_double_up(rules)
    value = _DoubleUp(rules, play).value()
    return replace(value, stated=tuple(double_up_conventions(rules, play)))
