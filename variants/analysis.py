"""Exact analysis of catalog and inline paytables (GET paytables/{id}/analysis/, POST analysis/):
the engine's analysis (engine/analysis.py) per pay column and deck count."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from engine.analysis import Analysis, NotAnalysable, analyse, decimal_string
from engine.odds import Basis, Pays
from engine.rules import PaytableLine
from pitboss.errors import DomainError

from .models import Paytable

DEFAULT_DECKS = (1, 2, 4, 6, 8)
"""Deck counts analysed for a paytable approved for any."""


def paytable_analysis(paytable: Paytable, decks: int | None = None) -> dict[str, Any]:
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
    body = lines_analysis(
        paytable.wager.slug, lines, [decks] if decks else allowed, paytable.wager.jurisdiction.code
    )
    return {"paytable": paytable.key, "label": paytable.label, **body}


def lines_analysis(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: Sequence[int],
    jurisdiction: str | None = None,
) -> dict[str, Any]:
    columns: dict[str, list[PaytableLine]] = {}
    for line in lines:
        columns.setdefault(line.column, []).append(line)
    analyses, skipped = [], []
    for column, column_lines in columns.items():
        if any(line.pays.basis not in (Basis.TO, Basis.FOR) for line in column_lines):
            skipped.append(
                f"column {column!r}: pays a meter share or a dollar amount, so it has no house "
                f"edge per unit staked"
            )
            continue
        for n in decks:
            try:
                analyses.append(_as_dict(analyse(wager, column_lines, n, jurisdiction)))
            except NotAnalysable as exc:
                raise DomainError("not_analysable", str(exc)) from exc
    return {
        "wager": wager,
        "method": "exact",
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
