"""Analysis of catalog and inline paytables (GET paytables/{id}/analysis/, POST analysis/): the
engine's exact analysis (engine/analysis.py) per pay column and deck count, or, for a wager decided
by how the hand is played, a seeded simulation with the basic strategy and its standard error."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.analysis import Analysis, NotAnalysable, analyse, simulate
from engine.odds import Basis, Pays, decimal_string
from engine.rules import PaytableLine, RuleSet
from engine.sidewagers import Stage, stage
from pitboss.errors import DomainError

from .models import Paytable

DEFAULT_DECKS = (1, 2, 4, 6, 8)
"""Deck counts analysed for a paytable approved for any."""
SIMULATED_ROUNDS = 20_000


def paytable_analysis(
    paytable: Paytable,
    decks: int | None = None,
    *,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
    simulate_play: bool = True,
) -> dict[str, Any]:
    """The analysis of each odds column of a catalog paytable at `decks`, or at every deck count
    it is approved for.

    :raises DomainError: the engine cannot analyse the wager; decks the paytable is not approved for.
    """
    allowed = paytable.decks or list(DEFAULT_DECKS)
    if decks is not None and paytable.decks and decks not in paytable.decks:
        raise DomainError(
            "decks_not_approved",
            f"{paytable.key} is approved for {', '.join(map(str, paytable.decks))} decks, not {decks}",
            fields={"decks": f"one of {', '.join(map(str, paytable.decks))}"},
        )
    lines = [
        PaytableLine(e.outcome, Pays.parse(e.pays), e.label, e.column)
        for e in paytable.entries.all()
    ]
    jurisdiction = paytable.wager.jurisdiction.code
    if stage(paytable.wager.slug, jurisdiction) is Stage.ROUND and not simulate_play:
        raise DomainError("not_analysable", f"{paytable.key} is analysed by simulation")
    body = lines_analysis(
        paytable.wager.slug,
        lines,
        [decks] if decks else allowed,
        jurisdiction,
        dealer_hits_soft_17=paytable.dealer_soft_17 == "hit",
        rounds=rounds,
        seed=seed,
    )
    return {"paytable": paytable.key, "label": paytable.label, **body}


def lines_analysis(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: Sequence[int],
    jurisdiction: str | None = None,
    *,
    dealer_hits_soft_17: bool = False,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
) -> dict[str, Any]:
    """Each odds column at each deck count: exact where the first cards decide the wager, else
    simulated (the dealer hitting soft 17 where the paytable is for that rule)."""
    simulated = stage(wager, jurisdiction) is Stage.ROUND
    columns: dict[str, list[PaytableLine]] = {}
    for line in lines:
        columns.setdefault(line.column, []).append(line)
    analyses, skipped = [], []
    for column, column_lines in columns.items():
        if any(line.pays.basis not in (Basis.TO, Basis.FOR, Basis.PUSH) for line in column_lines):
            skipped.append(
                f"column {column!r}: pays a meter share (alone or on top of odds) or a dollar "
                f"amount, so it has no house edge per unit staked"
            )
            continue
        for n in decks:
            try:
                if simulated:
                    rules = RuleSet(decks=n, dealer_hits_soft_17=dealer_hits_soft_17)
                    result = simulate(wager, column_lines, rules, rounds, seed, jurisdiction)
                else:
                    result = analyse(wager, column_lines, n, jurisdiction)
                analyses.append(_as_dict(result))
            except NotAnalysable as exc:
                raise DomainError("not_analysable", str(exc)) from exc
    return {
        "wager": wager,
        "method": (
            f"simulation with the basic strategy ({rounds:,} rounds, seed {seed}): the wager "
            f"depends on how the hand is played"
            if simulated
            else "exact"
        ),
        "card_removal": analyses[0]["card_removal"] if analyses else "",
        "analyses": analyses,
        "not_analysed": skipped,
    }


def _fraction(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _as_dict(a: Analysis) -> dict[str, Any]:
    return {
        "decks": a.decks,
        "column": a.column,
        "method": a.method,
        "standard_error": None if a.standard_error is None else f"{a.standard_error:.9f}",
        "house_edge": decimal_string(a.house_edge),
        "house_edge_fraction": _fraction(a.house_edge),
        "card_removal": a.card_removal,
        "combinations": a.combinations,
        "lose_probability": decimal_string(a.lose_probability),
        "push_probability": decimal_string(a.push_probability),
        "lines": [
            {
                "outcome": line.outcome,
                "label": line.label,
                "pays": line.pays,
                "probability": decimal_string(line.probability),
                "probability_fraction": _fraction(line.probability),
                "return": decimal_string(line.returns),
            }
            for line in a.lines
        ],
    }
