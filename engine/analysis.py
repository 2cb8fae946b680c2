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
from functools import lru_cache

from engine.cards import EngineError, deck
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


def _outcome_counts(
    wager: str, outcomes: frozenset[str], decks: int, hole: bool
) -> dict[str | None, int]:
    """Deals (the player's pair unordered, the up card, and the hole card where it matters)
    counted per outcome: each class of deals weighted by how many ways `decks` decks deal it."""
    n = decks
    counts: dict[str | None, int] = {}
    for (same, up_matches, need, needed_in_pair, bj), keys in _deal_classes(
        wager, outcomes, hole
    ).items():
        pair_ways = n * (n - 1) // 2 if same else n * n
        left_up = n - up_matches
        if pair_ways <= 0 or left_up <= 0:
            continue
        ways = pair_ways * left_up
        if hole:
            blackjack_holes = 16 * n if need == "ten" else 4 * n if need == "ace" else 0
            blackjack_holes = max(blackjack_holes - needed_in_pair, 0) if need else 0
            ways *= blackjack_holes if bj else 52 * n - 3 - blackjack_holes
        for key, classes in keys.items():
            counts[key] = counts.get(key, 0) + ways * classes
    return counts


DealClass = tuple[bool, int, str, int, bool]
"""(pair of one card, up card's matches in the pair, card a blackjack needs in the hole,
how many of those the pair holds, dealer blackjack)."""


@lru_cache(maxsize=512)
def _deal_classes(
    wager: str, outcomes: frozenset[str], hole: bool
) -> dict[DealClass, dict[str | None, int]]:
    """Every deal of distinct card kinds classified once per wager and paytable, grouped by what
    its weight depends on; the weight for a deck count is then a product of counts."""
    cards = deck()
    classes: dict[DealClass, dict[str | None, int]] = {}
    for i, a in enumerate(cards):
        for b in cards[i:]:
            for up in cards:
                need = "ten" if up.is_ace else "ace" if up.is_ten_value else ""
                in_pair = (
                    sum(1 for c in (a, b) if (c.is_ten_value if need == "ten" else c.is_ace))
                    if need
                    else 0
                )
                base = (a == b, (a == up) + (b == up), need if hole else "", in_pair if hole else 0)
                for bj in (True, False) if hole else (False,):
                    if bj and not need:
                        continue
                    key = outcome(wager, Deal((a, b), up, bj), set(outcomes))
                    group = classes.setdefault((*base, bj), {})
                    group[key] = group.get(key, 0) + 1
    return classes


def decimal_string(value: Fraction, digits: int = 12) -> str:
    """A fraction as a decimal string with `digits` places, rounded half away from zero."""
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**digits
    whole = int(scaled + Fraction(1, 2))
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"
