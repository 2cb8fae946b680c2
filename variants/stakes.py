"""A paytable's dollar and meter lines at a stake: the odds such a line pays on the stake with
the meters given, what the meter's share alone wins, and the terms an analysis at a stake states
(variants/analysis.py analyses the lines, variants/analysed.py shows the terms)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.odds import Basis, Pays
from engine.rules import PaytableLine


def meter_for(pays: Pays, meters: Mapping[str, Decimal]) -> Decimal | None:
    """The meter a line's pays name, else the one given for any meter (""); None if neither."""
    return meters.get(pays.meter.lower(), meters.get(""))


def at_stake(line: PaytableLine, stake: Decimal, meters: Mapping[str, Decimal]) -> PaytableLine:
    """A dollar or meter line as the odds it pays on `stake` ("$1,000" on $5 is 200 to 1; "10%"
    of a $25,000 meter on $5 is 500 to 1); other lines, and a meter line whose meter is not given,
    unchanged. The amount is paid on top of the returned stake (as rounds settle it)."""
    pays = line.pays
    if pays.basis not in (Basis.AMOUNT, Basis.METER, Basis.ODDS_AND_METER):
        return line
    if optional_amount(line):
        return line  # left out whatever the stake (see lines_analysis)
    win = pays.settle(stake, meter_for(pays, meters))
    if win is None:
        return line
    ratio = Fraction(str(win)) / Fraction(str(stake))
    return PaytableLine(line.outcome, Pays(Basis.TO, ratio=ratio), line.label, line.column)


def meter_win(line: PaytableLine, stake: Decimal, meters: Mapping[str, Decimal]) -> Fraction:
    """What the meter's share of a line's pay wins per unit of `stake` (0 for a line paying no
    share, or a share of a meter not given)."""
    pays = line.pays
    meter = meter_for(pays, meters) if pays.share is not None else None
    if meter is None or optional_amount(line):
        return Fraction(0)
    return Fraction(str(meter)) * pays.share / Fraction(str(stake))  # type: ignore[operator]


def stake_terms(
    stake: Decimal | None, meters: Mapping[str, Decimal] | None
) -> dict[str, Any] | None:
    """What an analysis at a stake states of its stake and meters; None without a stake."""
    if stake is None:
        return None
    return {
        "stake": str(stake),
        "meters": {name or "any": str(v) for name, v in (meters or {}).items()},
        "note": (
            "dollar and meter lines are analysed as the odds they pay on this stake with these "
            "meters: the return of such a line is its probability times amount (or share × meter) "
            "divided by the stake, so the house edge falls as the meter grows or the stake shrinks"
        ),
    }


def optional_amount(line: PaytableLine) -> bool:
    """A line printed as optional that pays a dollar amount ("Crown Treasure (optional) $1,000")."""
    return line.pays.basis is Basis.AMOUNT and "(optional)" in line.label.lower()
