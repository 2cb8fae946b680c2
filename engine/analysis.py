"""Exact analysis of a side wager's paytable: the probability and return of every line, and the
house edge as an exact fraction, for a shoe of N decks.

Card removal: the cards the wager is decided on (the player's first two cards and the dealer's up
card, and for wagers paying on a dealer blackjack the dealer's hole card) are drawn from a full shoe;
no other card is removed (no burn card, no other players' cards). This is the convention of the
published analyses of these wagers (e.g. the Wizard of Odds' 21+3 and King's Bounty pages).
Every count is an integer and every ratio a Fraction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from math import comb

from engine.cards import Card, EngineError, deck
from engine.odds import Basis
from engine.rules import PaytableLine
from engine.sidewagers import EVALUATORS, Deal, Stage, outcome, stage

REMOVAL = {
    False: "the player's first two cards and the dealer's up card are drawn from a full shoe; no "
    "other cards are removed",
    True: "the player's first two cards and the dealer's two cards are drawn from a full shoe; no "
    "other cards are removed",
}


class NotAnalysable(EngineError):
    """The engine has no exact analysis for this wager or paytable."""


@dataclass(frozen=True)
class LineResult:
    outcome: str
    label: str
    pays: str
    probability: Fraction
    returns: Fraction
    """probability × what the line wins per unit staked."""


@dataclass(frozen=True)
class Analysis:
    wager: str
    decks: int
    column: str
    lines: tuple[LineResult, ...]
    lose_probability: Fraction
    house_edge: Fraction
    card_removal: str
    combinations: int
    method: str = "exact"


def analyse(wager: str, lines: Sequence[PaytableLine], decks: int) -> Analysis:
    """The exact analysis of a paytable column (its lines) for a shoe of `decks` decks.

    :raises NotAnalysable: no evaluator for the wager, or a line paying a meter share or a dollar
        amount (its return depends on the meter or the stake).
    """
    if wager not in EVALUATORS:
        raise NotAnalysable(f"the engine has no exact analysis of {wager} yet")
    if stage(wager) is Stage.ROUND:
        raise NotAnalysable(
            f"{wager} depends on {Stage.ROUND.value}, which depend on how the hand is played: "
            f"it needs a simulation with a stated strategy"
        )
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    for line in lines:
        if line.pays.basis not in (Basis.TO, Basis.FOR):
            raise NotAnalysable(
                f"{line.label or line.outcome} pays {line.pays}: its return depends on the meter "
                f"or the stake, so the paytable has no house edge per unit staked"
            )
    by_outcome = {line.outcome: line for line in lines}
    hole = stage(wager) is Stage.HOLE
    counts = _outcome_counts(wager, frozenset(by_outcome), decks, hole)
    total = sum(counts.values())
    results = []
    edge = Fraction(0)
    for line in lines:
        probability = Fraction(counts.get(line.outcome, 0), total)
        win = line.pays.ratio - (1 if line.pays.basis is Basis.FOR else 0)  # type: ignore[operator]
        results.append(
            LineResult(line.outcome, line.label, str(line.pays), probability, probability * win)
        )
        edge -= probability * win
    lose = Fraction(counts.get(None, 0), total)
    edge += lose
    return Analysis(
        wager,
        decks,
        lines[0].column if lines else "",
        tuple(results),
        lose,
        edge,
        REMOVAL[hole],
        total,
    )


@lru_cache(maxsize=256)
def _outcome_counts(
    wager: str, outcomes: frozenset[str], decks: int, hole: bool
) -> dict[str | None, int]:
    """Ordered deals (player pair unordered, times up card, times hole) counted per outcome."""
    cards = deck()
    n = decks
    tens = [c for c in cards if c.is_ten_value]
    counts: dict[str | None, int] = {}
    for i, a in enumerate(cards):
        for b in cards[i:]:
            pair_ways = comb(n, 2) if a == b else n * n
            if pair_ways == 0:
                continue
            for up in cards:
                left_up = n - (a == up) - (b == up)
                if left_up <= 0:
                    continue
                ways = pair_ways * left_up
                if not hole:
                    key = _classify(wager, outcomes, a, b, up, False)
                    counts[key] = counts.get(key, 0) + ways
                    continue
                blackjack_holes = _blackjack_holes(a, b, up, n, tens)
                other_holes = 52 * n - 3 - blackjack_holes
                for bj, holes in ((True, blackjack_holes), (False, other_holes)):
                    if holes:
                        key = _classify(wager, outcomes, a, b, up, bj)
                        counts[key] = counts.get(key, 0) + ways * holes
    return counts


def _blackjack_holes(a: Card, b: Card, up: Card, n: int, tens: list[Card]) -> int:
    """Hole cards, among those left, that give the dealer a blackjack under `up`."""
    if up.is_ace:
        needed = tens
    elif up.is_ten_value:
        needed = [c for c in deck() if c.is_ace]
    else:
        return 0
    removed = (a, b, up)
    return sum(n - removed.count(card) for card in needed)


@cache
def _classify(
    wager: str, outcomes: frozenset[str], a: Card, b: Card, up: Card, bj: bool
) -> str | None:
    return outcome(wager, Deal((a, b), up, bj), set(outcomes))


def decimal_string(value: Fraction, digits: int = 12) -> str:
    """A fraction as a decimal string with `digits` places, rounded half away from zero."""
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**digits
    whole = int(scaled + Fraction(1, 2))
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"
