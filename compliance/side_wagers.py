"""Each side wager of a table beside its base game (issue #23): the exact house edge of the
paytable the table offers, at the table's deck count and soft-17 rule, as the catalog's analysis
gives it (variants.analysis). A wager the player places on one side of several (MA 17's over or
under 13) shows each side as a bet of its own; a reading set aside, a reading under review and a
column the analysis cannot value without a stake are shown as the analysis shows them.

A validation run keeps the result in each table's entry (`tables[n].side_wagers`), so the report,
the API and the paytable's own analysis say the same thing."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.rules import PaytableLine, SideWagerRules
from engine.streak import STREAK_WAGERS
from jurisdictions.web import paytable_url
from pitboss import kbcache
from pitboss.errors import DomainError
from variants.analysis import lines_analysis, simulated_only
from variants.selectors import Citer

from .configuration import Configuration, SideWager, Table
from .rulesets import side_wager_rules


def table_side_wagers(
    config: Configuration,
    table: Table,
    citer: Citer,
    kept: kbcache.Kept | None = None,
    path: str = "tables[0]",
) -> list[dict[str, Any]]:
    """Each side wager of a parsed table (configuration_parse), in order, with its house edge.
    With `kept`, a catalog paytable's lines are read once per revision of the knowledge base."""
    kept = kept or kbcache.read_now
    return [
        _side_wager(config.jurisdiction, table, side, _rules(
            config.jurisdiction, citer, side, f"{path}.side_wagers[{n}]", kept
        ))
        for n, side in enumerate(table.side_wagers)
    ]  # fmt: skip


def _rules(
    jurisdiction: str, citer: Citer, side: SideWager, path: str, kept: kbcache.Kept
) -> SideWagerRules | DomainError:
    """The side wager as the table's rules read it (compliance.rulesets), or why they cannot."""

    def read() -> SideWagerRules | DomainError:
        try:
            return side_wager_rules(jurisdiction, citer, side, path)
        except DomainError as exc:
            return exc

    if not isinstance(side.paytable, str):
        return read()  # inline lines: nothing to read from the catalog
    return kept(("side-wager", jurisdiction, side.wager, side.paytable, side.column), read)


def _side_wager(
    jurisdiction: str,
    table: Table,
    side: SideWager,
    rules: SideWagerRules | DomainError,
) -> dict[str, Any]:
    wager, chosen, decks = side.wager, side.paytable, table.decks
    entry: dict[str, Any] = {
        "wager": wager,
        "paytable": chosen if isinstance(chosen, str) else ("inline" if chosen else None),
        "decks": decks,
        "analyses": [],
        "notes": [],
        "not_analysed": None,
        "paytable_url": None,
        "par_sheet": None,
    }
    if isinstance(rules, DomainError):
        entry["not_analysed"] = rules.message
        return entry
    if isinstance(chosen, str) and decks:
        entry["paytable_url"] = f"{paytable_url(chosen)}?decks={decks}"
        entry["par_sheet"] = f"/api/v1/paytables/{chosen}/par-sheet/?decks={decks}&format=pdf"
    if not decks:
        entry["not_analysed"] = "the table's deck count is not given"
        return entry
    if wager in STREAK_WAGERS or simulated_only(wager, jurisdiction):
        entry["not_analysed"] = (
            f"{wager} has no exact analysis: it is estimated by simulation, as a job "
            f"(POST /api/v1/paytable-simulations/)"
        )
        return entry
    try:
        body = _analysed(wager, rules.lines, decks, jurisdiction, table.dealer_soft_17 == "hit")
    except DomainError as exc:
        entry["not_analysed"] = exc.message
        return entry
    entry["analyses"] = [
        {
            "column": a["column"],
            "house_edge": a["house_edge"],
            "house_edge_fraction": a["house_edge_fraction"],
            "method": a["method"],
        }
        for a in body["analyses"]
    ]
    entry["notes"] = (
        [f["message"] for f in body["catalog_findings"] + body["readings_under_review"]]
        + [f"Not analysed: {note}" for note in body["not_analysed"]]
        + body["lines_left_out"]
        + [_reading_note(r) for r in body["alternative_readings"]]
    )
    return entry


@lru_cache(maxsize=1024)
def _analysed(
    wager: str,
    lines: tuple[PaytableLine, ...],
    decks: int,
    jurisdiction: str,
    hits_soft_17: bool,
) -> dict[str, Any]:
    """The analysis of these lines, kept in the process: the same lines give the same figures
    (a paytable edited in the catalog has other lines, so another key)."""
    return lines_analysis(
        wager, list(lines), [decks], jurisdiction, dealer_hits_soft_17=hits_soft_17
    )


def _reading_note(reading: dict[str, Any]) -> str:
    figures = "; ".join(
        f"{f['house_edge_fraction']} at {f['decks']} decks" for f in reading["figures"]
    )
    return (
        f"{reading['jurisdiction']} {reading['citation']} read as {reading['taken']}; read as "
        f"{reading['alternative']}, the house edge would be {figures}"
    )
