"""Published analyses of side wagers the repository pins (engine/published.yaml): each case's
source, wager, pays and figures, read once; the engine's analysis of a case at a figure's deck
count; whether a figure agrees with an analysis (the exact fraction rounds to the printed digits);
and the figures published for a paytable column of the same wager and pays.

Read by the tests that pin them and by the review of readings (variants/review.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import yaml

from engine.analysis import DEALER_HAND, Analysis, analyse, analyse_dealer_hand
from engine.odds import Pays, decimal_string
from engine.rules import PaytableLine

SOURCE = Path(__file__).with_name("published.yaml")


@dataclass(frozen=True)
class Figure:
    """A published figure at one deck count (and soft-17 rule, "hit" or "stand", for a wager on
    the dealer's hand): the house edge and/or line probabilities, decimal strings as printed."""

    decks: int
    soft_17: str | None
    house_edge: str | None
    lines: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Case:
    id: str
    source: str
    assumes: str
    wager: str
    jurisdiction: str | None
    pays: tuple[tuple[str, str], ...]
    """The lines analysed, in order: (outcome, pays as printed)."""
    paytables: tuple[str, ...]
    """Catalog paytables printing these pays (less an optional line left out)."""
    figures: tuple[Figure, ...]

    def lines(self) -> list[PaytableLine]:
        return [PaytableLine(key, Pays.parse(pays), key) for key, pays in self.pays]


@cache
def cases() -> tuple[Case, ...]:
    """Every published case, in the file's order."""
    return tuple(
        Case(
            item["id"],
            " ".join(item["source"].split()),
            item.get("assumes", ""),
            item["wager"],
            item.get("jurisdiction"),
            tuple((str(k), str(v)) for k, v in item["pays"].items()),
            tuple(item.get("paytables", [])),
            tuple(
                Figure(
                    int(f["decks"]),
                    f.get("soft_17"),
                    f.get("house_edge"),
                    tuple((str(k), str(v)) for k, v in f.get("lines", {}).items()),
                )
                for f in item["figures"]
            ),
        )
        for item in yaml.load(SOURCE.read_text(), Loader=yaml.CSafeLoader)
    )


def analysed(case: Case, figure: Figure) -> Analysis:
    """The engine's exact analysis of the case's pays at the figure's deck count (and soft-17
    rule, for a wager on the dealer's hand)."""
    if case.wager in DEALER_HAND:
        hits = figure.soft_17 == "hit"
        return analyse_dealer_hand(case.wager, case.lines(), figure.decks, hits_soft_17=hits)
    return analyse(case.wager, case.lines(), figure.decks, case.jurisdiction)


def printed(value: Fraction, published: str) -> str:
    """`value` rounded to the places `published` prints ("0.0877": 4)."""
    places = len(published.split(".")[1]) if "." in published else 0
    return decimal_string(value, places)


def disagreements(figure: Figure, analysis: Analysis) -> list[str]:
    """Where the analysis does not round to the figure: each differing number, "house edge
    published 0.0877, analysed 0.0880" or "line x published …, analysed …"; none if it agrees."""
    out = []
    if figure.house_edge is not None:
        got = printed(analysis.house_edge, figure.house_edge)
        if got != figure.house_edge:
            out.append(f"house edge published {figure.house_edge}, analysed {got}")
    by = {line.outcome: line.probability for line in analysis.lines}
    for outcome, published in figure.lines:
        got = printed(by.get(outcome, Fraction(0)), published)
        if got != published:
            out.append(f"line {outcome} published {published}, analysed {got}")
    return out


def cases_for(wager: str, lines: Mapping[str, Pays]) -> list[Case]:
    """The published cases of `wager` paying `lines` (outcome → pays): the same outcomes, each
    paying the same."""
    return [
        case
        for case in cases()
        if case.wager == wager
        and dict(case.pays).keys() == lines.keys()
        and all(lines[k].same_payout(Pays.parse(p)) for k, p in case.pays)
    ]


def figures_at(case: Case, decks: int, hits_soft_17: bool | None) -> list[Figure]:
    """The case's figures at `decks` decks, under the dealer's soft-17 rule where one states it."""
    return [
        f
        for f in case.figures
        if f.decks == decks and (f.soft_17 is None or (f.soft_17 == "hit") == hits_soft_17)
    ]


def published_for(
    wager: str, lines: Mapping[str, Pays], decks: int, hits_soft_17: bool | None
) -> list[tuple[Case, Figure]]:
    """The published figures of a column of `wager` paying `lines` at `decks` decks (and the
    dealer's soft-17 rule, where the figure states one)."""
    return [
        (case, figure)
        for case in cases_for(wager, lines)
        for figure in figures_at(case, decks, hits_soft_17)
    ]


@cache
def confirmed(case: Case) -> bool:
    """Whether the engine agrees with every figure of the case: its reading of these pays is the
    published analysis's, at whatever deck count."""
    return all(not disagreements(figure, analysed(case, figure)) for figure in case.figures)
