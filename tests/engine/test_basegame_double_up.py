"""Double Up Blackjack (30-899.10, Versions 1 and 2) in the exact base-game analysis
(engine/basegame_double_up.py): against an independent slow enumeration written here, the
standard game's value where its rules are off, and the directions its rules must move the value."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from engine.analysis import NotAnalysable
from engine.basegame import Play, _Analysis, base_game_value, rule_effects
from engine.basegame_double_up import VERSION_1, VERSION_2, _DoubleUp, double_up_value
from engine.dealer_odds import OUTCOMES, RANKS, SIXTEEN, dealer_odds
from engine.rules import HoleCard, RuleSet

V1 = replace(RuleSet(), **VERSION_1)
V2 = replace(RuleSet(), **VERSION_2)
NO_SPLITS = {"decks": 1, "max_split_hands": 1}
"""One deck and no splits: what the slow enumeration below plays."""


def _slow(rules: RuleSet, up: int) -> float:
    """The value of a round given the up card (ace 0, ten-value 9), from a shoe of rules.decks
    decks, no splits: every card dealt enumerated by plain recursion, each decision (stand, hit,
    double, double up) the best for the hand's cards. The dealer peeks: its blackjack is an
    outcome of its play, taking the original wager only (so the best decisions are those knowing
    it has none). Written apart from the engine, as a check on it."""
    assert rules.peeks and rules.max_split_hands == 1
    full = [4 * rules.decks] * 9 + [16 * rules.decks]
    full[up] -= 1

    def total(hard: int, aces: int) -> tuple[int, bool]:
        return (hard + 10, True) if aces and hard + 10 <= 21 else (hard, False)

    @cache
    def dealer(shoe: tuple[int, ...], hard: int, aces: int, cards: int) -> dict[object, float]:
        points, soft = total(hard, aces)
        if rules.dealer_stops_on_16 and points == 16:
            return {16: 1.0}
        if points > 21:
            return {"bust": 1.0}
        if cards == 2 and points == 21:
            return {"blackjack": 1.0}
        if cards >= 2 and (
            points > 17 or (points == 17 and not (soft and rules.dealer_hits_soft_17))
        ):
            return {points: 1.0}
        out: dict[object, float] = {}
        left = sum(shoe)
        for rank, n in enumerate(shoe):
            if n:
                after = shoe[:rank] + (n - 1,) + shoe[rank + 1 :]
                for end, p in dealer(after, hard + rank + 1, aces + (rank == 0), cards + 1).items():
                    out[end] = out.get(end, 0.0) + n / left * p
        return out

    def settle(
        shoe: tuple[int, ...], points: int, natural: bool, stake: int, up_too: bool
    ) -> float:
        """Standing with a main wager of `stake` (2: doubled), and with a double up wager of 1
        where up_too."""
        value = 0.0
        for end, p in dealer(shoe, up + 1, int(up == 0), 1).items():
            if natural:
                main = 0.0 if end == "blackjack" and not rules.blackjack_paid_at_once else 1.5
                value += p * main
                continue
            if end == "blackjack":  # the original wager only
                value -= p
                continue
            if end == "bust":
                win = 1
            elif end == 16:
                win = 1 if points == 21 and rules.dealer_16_pays_21 else 0
            else:
                win = (points > end) - (points < end)
            value += p * stake * win
            if up_too:  # paid as the main wager, lost on a tie
                value += p * (win if end in ("bust", 16) or win else -1)
        return value

    def draw(shoe: tuple[int, ...]) -> list[tuple[float, tuple[int, ...], int]]:
        left = sum(shoe)
        return [(n / left, shoe[:r] + (n - 1,) + shoe[r + 1 :], r) for r, n in enumerate(shoe) if n]

    @cache
    def hand(shoe: tuple[int, ...], hard: int, aces: int, cards: int) -> float:
        """The best value of a hand of `cards` cards (2 or more)."""
        points, _ = total(hard, aces)
        if points > 21:
            return -1.0
        natural = cards == 2 and points == 21
        options = [settle(shoe, points, natural, 1, False)]
        if natural:
            return options[0]
        hit = 0.0
        for p, after, r in draw(shoe):
            hit += p * hand(after, hard + r + 1, aces + (r == 0), cards + 1)
        options.append(hit)
        if cards == 2:
            double = 0.0
            for p, after, r in draw(shoe):
                doubled, _ = total(hard + r + 1, aces + (r == 0))
                double += p * (-2.0 if doubled > 21 else settle(after, doubled, False, 2, False))
            options.append(double)
            if rules.double_up:
                options.append(settle(shoe, points, False, 1, True))
        return max(options)

    value = 0.0
    for p1, after1, r1 in draw(tuple(full)):
        for p2, after2, r2 in draw(after1):
            value += p1 * p2 * hand(after2, r1 + r2 + 2, (r1 == 0) + (r2 == 0), 2)
    return value


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(replace(V1, **NO_SPLITS), id="V1-S17"),
        pytest.param(replace(V2, **NO_SPLITS), id="V2-S17"),
        pytest.param(replace(V1, dealer_hits_soft_17=True, **NO_SPLITS), id="V1-H17"),
        pytest.param(replace(V2, dealer_hits_soft_17=True, **NO_SPLITS), id="V2-H17"),
    ],
)
@pytest.mark.parametrize("up", [0, 5, 9])
def test_it_agrees_with_a_slow_enumeration_given_the_up_card(rules: RuleSet, up: int) -> None:
    analysed = double_up_value(rules).by_up_card[up]
    assert analysed == pytest.approx(_slow(rules, up), abs=1e-12)
