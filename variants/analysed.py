"""A paytable's analyses before they are shown (`Analysed`) and how they are shown: each analysis
as a dict, the player's edges as catalog findings or readings under review, the readings set aside
with their figures (variants/analysis.py makes them; the API, the par sheet and the review read
them)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.analysis import Analysis
from engine.odds import Pays, decimal_string
from engine.published import cases_for, confirmed, disagreements, figures_at
from engine.readings import Reading
from regs.models import AnnotationKind
from regs.selectors import unit_annotations

from .stakes import stake_terms


@dataclass(frozen=True)
class Analysed:
    """A paytable's analyses, per odds column and deck count, before they are shown."""

    wager: str
    method: str
    results: list[Analysis]
    """Player edges included: they are reported as catalog findings or readings under review
    (`edge_explained`), never as house edges."""
    not_analysed: list[str]
    """Columns paying a meter share or a dollar amount, without a stake to settle them."""
    lines_left_out: list[str]
    alternatives: list[tuple[Reading, list[Analysis]]] = field(default_factory=list)
    """Each reading of the rule the engine sets aside (engine/readings.py), analysed as it reads
    the wager: the same columns and deck counts as `results`."""
    hits_soft_17: bool = False
    """The dealer's soft-17 rule the analyses play (it matters to a wager on the dealer's hand)."""
    meter_wins: Mapping[tuple[str, str], Fraction] = field(default_factory=dict)
    """At a stake: what each (column, outcome) line wins per unit staked from the meter's share
    alone (the part of its pay the meter gives)."""


def player_edge(result: Analysis) -> bool:
    """An exact analysis the player wins: a catalog finding or a reading under review
    (`edge_explained`), never a house edge."""
    return result.house_edge < 0 and result.method == "exact"


def edge_explained(analysed: Analysed, result: Analysis) -> str:
    """Why an analysis giving the player the edge is a finding about the catalog: a published
    analysis of the same pays agrees with the engine at every deck count it prints, and with this
    analysis where it prints its deck count (engine/published.yaml: Royal Match 21 Pay Table 1,
    a player's edge from 3 decks up), or the progressive meter's share makes it so (without the
    share the house keeps its edge). "" otherwise: an approved wager that favours the player
    means the reading is wrong until proven otherwise, so it is a reading under review, not a
    finding."""
    lines = {line.outcome: Pays.parse(line.pays) for line in result.lines}
    for case in cases_for(result.wager, lines):
        here = figures_at(case, result.decks, analysed.hits_soft_17)
        if confirmed(case) and not any(disagreements(f, result) for f in here):
            return f"a published analysis of these pays agrees: {case.source}"
    share = sum(
        (
            line.probability * analysed.meter_wins.get((result.column, line.outcome), Fraction(0))
            for line in result.lines
        ),
        Fraction(0),
    )
    if share and result.house_edge + share >= 0:
        return (
            f"the progressive meter makes it so: its share returns {decimal_string(share * 100)}% "
            f"of each unit staked at this stake and meter"
        )
    return ""


def shown_analysed(
    analysed: Analysed, stake: Decimal | None, meters: Mapping[str, Decimal] | None
) -> dict[str, Any]:
    """The analyses as the API answers them, with the player's edges, the readings set aside and
    the terms at a stake."""
    analyses = [analysis_dict(r) for r in analysed.results if not player_edge(r)]
    edges = [(r, edge_explained(analysed, r)) for r in analysed.results if player_edge(r)]
    return {
        "wager": analysed.wager,
        "method": analysed.method,
        "card_removal": analyses[0]["card_removal"] if analyses else "",
        "analyses": analyses,
        "not_analysed": analysed.not_analysed,
        "lines_left_out": analysed.lines_left_out,
        "catalog_findings": [player_edge_finding(r, why) for r, why in edges if why],
        "readings_under_review": [player_edge_finding(r) for r, why in edges if not why],
        # the analyses giving the player the edge, line by line, apart: never a house edge
        "player_edge_analyses": [analysis_dict(r) for r, _ in edges],
        "alternative_readings": alternative_readings(analysed),
        "at_stake": stake_terms(stake, meters),
    }


def alternative_readings(analysed: Analysed) -> list[dict[str, Any]]:
    """Each reading of the rule set aside (engine/readings.py), with its figure at each column and
    deck count analysed (a negative house edge: the player's edge under that reading) and the
    rule's annotation that states both."""
    return [
        {
            **reading.as_dict(),
            "annotations": unit_annotations(
                jurisdiction=reading.jurisdiction,
                citation=reading.citation,
                kind=AnnotationKind.AMBIGUITY,
            ),
            "figures": [reading_figure(r) for r in figures],
        }
        for reading, figures in analysed.alternatives
    ]


def reading_figure(result: Analysis) -> dict[str, Any]:
    """A reading's exact figure: the house edge (negative where the player has the edge)."""
    return {
        "decks": result.decks,
        "column": result.column,
        "house_edge": decimal_string(result.house_edge),
        "house_edge_fraction": fraction_text(result.house_edge),
        "favours": "player" if result.house_edge < 0 else "house",
    }


def player_edge_finding(result: Analysis, explained: str = "") -> dict[str, Any]:
    """An analysis giving the player the edge: a finding about the approved paytable where
    `explained` says why it holds (`edge_explained`), else a reading under review."""
    edge = -result.house_edge
    gives = (
        f"At {result.decks} decks this paytable gives the player an edge of "
        f"{decimal_string(edge * 100)}% ({fraction_text(edge)} per unit staked)"
    )
    if explained:
        code = "player-edge"
        message = (
            f"{gives}, as printed: a finding about the approved paytable, not a house edge to "
            f"rely on ({explained})."
        )
    else:
        code = "reading-under-review"
        message = (
            f"{gives} as the engine reads it: an approved wager that favours the player means "
            f"the reading is wrong until proven otherwise, so this is a reading under review "
            f"(python manage.py review_readings), not a finding about the paytable and not a "
            f"house edge."
        )
    return {
        "code": code,
        "decks": result.decks,
        "column": result.column,
        "message": message,
        "player_edge": decimal_string(edge),
        "player_edge_fraction": fraction_text(edge),
    }


def fraction_text(value: Fraction) -> str:
    """An exact fraction as "numerator/denominator"."""
    return f"{value.numerator}/{value.denominator}"


def analysis_dict(a: Analysis) -> dict[str, Any]:
    """An exact analysis gives its fractions; a simulated one only decimals with its standard
    error, to the places the error leaves meaningful (`estimate_places`): a sampled count is an
    estimate, never a fraction to take as exact."""
    exact = a.method == "exact"
    places = 12 if exact else estimate_places(a.standard_error)

    def shown(value: Fraction, error: float | None = None) -> str:
        return decimal_string(value, places if error is None else estimate_places(error))

    def sampled(p: Fraction) -> float | None:
        """A line's probability's standard error, as a share of the rounds or wagers counted."""
        return None if exact else math.sqrt(float(p * (1 - p)) / max(a.combinations, 1))

    return {
        "decks": a.decks,
        "column": a.column,
        "method": a.method,
        "standard_error": None if a.standard_error is None else f"{a.standard_error:.{places}f}",
        "house_edge": shown(a.house_edge),
        "house_edge_fraction": fraction_text(a.house_edge) if exact else None,
        "card_removal": a.card_removal,
        "combinations": a.combinations,
        "lose_probability": shown(a.lose_probability, sampled(a.lose_probability)),
        "push_probability": shown(a.push_probability, sampled(a.push_probability)),
        "lines": [
            {
                "outcome": line.outcome,
                "label": line.label,
                "pays": line.pays,
                "probability": shown(line.probability, sampled(line.probability)),
                "probability_fraction": fraction_text(line.probability) if exact else None,
                "return": shown(line.returns),
            }
            for line in a.lines
        ],
    }


def estimate_places(error: float | None) -> int:
    """Decimal places worth showing of an estimate with this standard error: down to the second
    significant digit of the error (0.0012 → 4 places: 0.0981); 12 with no error to go by."""
    if not error or not math.isfinite(error) or error <= 0:
        return 12
    return min(12, max(0, 1 - math.floor(math.log10(error))))
