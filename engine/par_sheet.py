"""A par sheet of an exact analysis, as testing labs file one with an approval request: each line's
combinations, probability, pays and return; the hit frequency, the house edge, the variance and
standard deviation per unit staked, and the combinations of the whole cycle.

Reads: an exact `Analysis` (engine/analysis/), which carries its deals counted by net result.
Writes: a `ParSheet` of integers, Fractions and Decimals (the standard deviation, the one number
that is no ratio, is a Decimal square root to `SD_DIGITS` significant digits).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction

from engine.analysis import Analysis, NotAnalysable
from engine.odds import Basis, Pays

_PUSH_PAYS, _LOSS_PAYS = str(Pays(Basis.PUSH)), str(Pays(Basis.LOSS))

SD_DIGITS = 15
"""Significant digits of the standard deviation (a square root, so no fraction)."""

LOSE, PUSHED = "lose", "push"
"""The outcome keys of the par sheet's own rows: no line paid (the unit lost), the unit returned."""


@dataclass(frozen=True)
class ParLine:
    outcome: str
    label: str
    pays: str
    combinations: int
    """Deals of the cycle that pay the line (or, for the lose row, that pay none)."""
    probability: Fraction
    returns: Fraction
    """Contribution to the expected return per unit staked: probability × net win."""
    kind: str = "line"
    """"line": a line of the paytable; LOSE or PUSHED: the par sheet's own rows."""


@dataclass(frozen=True)
class ParSheet:
    wager: str
    decks: int
    column: str
    lines: tuple[ParLine, ...]
    """The paytable's lines in printed order, then the lose row, then a push row if any."""
    combinations: int
    """Deals in the cycle: every probability is a count over this."""
    hit_frequency: Fraction
    """The chance the wager wins something (a net result above zero)."""
    house_edge: Fraction
    variance: Fraction
    """Of the net result per unit staked."""
    standard_deviation: Decimal
    card_removal: str
    lines_exclusive: bool
    """Every deal pays at most one line (so the rows' probabilities add up to 1); otherwise a deal
    paying several lines (Royal Match's Crown Treasure) is counted on each, and only the returns
    add up."""


def par_sheet(analysis: Analysis) -> ParSheet:
    """The par sheet of an exact analysis.

    :raises NotAnalysable: a simulated analysis (its counts are samples: no par sheet).
    """
    if analysis.method != "exact" or not analysis.nets:
        raise NotAnalysable(
            f"{analysis.wager} is analysed by {analysis.method}: a par sheet needs exact counts"
        )
    total = analysis.combinations
    lose = analysis.lose_probability
    # what the lost deals cost: -1 each, or more where the player added to the stake before
    # losing (21-Hold 'em's "2" and "3" wagers)
    lost = Fraction(sum(net * n for net, n in analysis.nets if net < 0), total)
    # less what the lines printed as "Loss" cost: they are rows of their own
    lost -= sum((r.returns for r in analysis.lines if r.pays == _LOSS_PAYS), Fraction(0))
    rows = [
        ParLine(r.outcome, r.label, r.pays, r.combinations, r.probability, r.returns)
        for r in analysis.lines
    ]
    rows.append(
        ParLine(
            LOSE,
            "No line paid: the wager loses",
            _LOSS_PAYS,
            _count(lose, total),
            lose,
            lost,
            LOSE,
        )
    )
    # The rules' own push (a tie returned), beside the lines printed as paying "Push"
    printed = sum((r.probability for r in analysis.lines if r.pays == _PUSH_PAYS), Fraction(0))
    pushed = analysis.push_probability - printed
    if pushed:
        rows.append(
            ParLine(
                PUSHED,
                "The wager returned",
                _PUSH_PAYS,
                _count(pushed, total),
                pushed,
                Fraction(0),
                PUSHED,
            )
        )
    mean = Fraction(0)
    square = Fraction(0)
    for net, count in analysis.nets:
        mean += net * count
        square += net * net * count
    mean /= total
    variance = square / total - mean * mean
    hits = sum(count for net, count in analysis.nets if net > 0)
    return ParSheet(
        analysis.wager,
        analysis.decks,
        analysis.column,
        tuple(rows),
        total,
        Fraction(hits, total),
        analysis.house_edge,
        variance,
        square_root(variance),
        analysis.card_removal,
        sum(r.combinations for r in rows) == total,
    )


def square_root(value: Fraction, digits: int = SD_DIGITS) -> Decimal:
    """The square root of a non-negative fraction to `digits` significant digits (rounded)."""
    context = Context(prec=digits + 5)
    root = context.divide(Decimal(value.numerator), Decimal(value.denominator)).sqrt(context)
    return Context(prec=digits).plus(root)


def significant(value: Fraction | Decimal, digits: int = 12) -> str:
    """A value as a plain decimal string to `digits` significant digits (a probability of
    0.0000152… keeps its digits, where a fixed number of places would drop them)."""
    if isinstance(value, Fraction):
        context = Context(prec=digits + 5)
        value = context.divide(Decimal(value.numerator), Decimal(value.denominator))
    rounded = Context(prec=digits).plus(value)
    return f"{rounded:f}" if rounded else "0"


def _count(probability: Fraction, total: int) -> int:
    count = probability * total
    assert count.denominator == 1, "a probability of an exact analysis is a count over its total"
    return int(count)
