"""Par sheets of catalog paytables (GET paytables/{id}/par-sheet/): the exact analysis of a paytable
at one deck count laid out as testing labs file it with an approval request, as JSON, CSV or PDF.

Reads: a catalog paytable, its exact analysis (variants/analysis.py, engine/par_sheet.py) and the
citation of the rule that prints it. Writes nothing.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from engine.odds import decimal_string
from engine.par_sheet import SD_DIGITS, ParSheet, par_sheet, significant
from pitboss.errors import DomainError
from variants.analysed import (
    alternative_readings,
    edge_explained,
    fraction_text,
    player_edge,
    player_edge_finding,
)
from variants.analysis import allowed_decks, decks_checked, paytable_analysed, simulated_only
from variants.models import Paytable
from variants.selectors import Citer

DIGITS = 12
"""Significant digits of the decimal strings (every ratio is also given as a fraction)."""


def paytable_par_sheet(
    paytable: Paytable,
    decks: int | None,
    *,
    stake: Decimal | None = None,
    meters: Mapping[str, Decimal] | None = None,
    as_of: dt.date | None = None,
    removal: str | None = None,
) -> dict[str, Any]:
    """The par sheet of a catalog paytable at `decks` (which may be left out where the paytable
    is approved for one deck count only): one sheet per pay column; `removal`: the card-removal
    convention of a wager decided by the dealer's hand (variants.analysis.removal_checked).

    :raises DomainError: `decks` missing, or not approved for the paytable; a wager analysed by
        simulation only (decided by the player's choices); a paytable with no exact analysis (it
        pays only meter shares or dollar amounts, and no stake is given); an approved paytable
        the player beats (a catalog finding, not a house edge); a `removal` the wager does not
        take.
    """
    decks = _decks(paytable, decks)
    wager = paytable.wager
    if simulated_only(wager.slug, wager.jurisdiction.code):
        raise DomainError(
            "not_analysable",
            f"{paytable.key}: {wager.slug} depends on how the player plays the hand; it is "
            f"analysed by simulation only, and a par sheet needs exact counts",
            fields={"paytable": "a wager decided by the cards or the dealer's hand"},
        )
    try:
        analysed = paytable_analysed(
            paytable, decks, simulate_play=False, stake=stake, meters=meters, removal=removal
        )
    except DomainError as exc:  # the wager has no exact analysis: say so of the paytable
        raise DomainError(
            exc.code, exc.message, exc.status, exc.fields or {"paytable": exc.message}
        ) from exc
    if not analysed.results:
        raise DomainError(
            "not_analysable",
            f"{paytable.key} has no exact analysis per unit staked: "
            + "; ".join(analysed.not_analysed)
            + "; give the stake (and the meter) to analyse it for them",
            fields={"stake": "the stake, with ?meter= for meter lines"},
        )
    beaten = [r for r in analysed.results if player_edge(r)]
    if beaten:
        raise DomainError(
            "player_edge",
            " ".join(player_edge_finding(r, edge_explained(analysed, r))["message"] for r in beaten)
            + " It is reported by GET paytables/{id}/analysis/ (catalog_findings or "
            "readings_under_review), not as a par sheet.",
            fields={"paytable": "gives the player an edge as read"},
        )
    sheets = [par_sheet(r) for r in analysed.results if r.nets]
    # Raise the Roof's raised column: its stake is the player's choice per deal (1 to 6 units),
    # so it has a house edge per unit staked but no fixed net per deal to count
    not_analysed = list(analysed.not_analysed) + [
        f"column {r.column!r} at {r.decks} decks: the stake is the player's choice per deal, so "
        f"the par sheet gives its house edge ({decimal_string(r.house_edge)}) in the analysis, "
        f"not a count of deals by net"
        for r in analysed.results
        if not r.nets
    ]
    if not sheets:
        raise DomainError(
            "not_analysable",
            f"{paytable.key}: " + "; ".join(not_analysed),
            fields={"paytable": "no column with a fixed stake"},
        )
    citer = Citer(as_of or timezone.localdate())
    return {
        "paytable": paytable.key,
        "label": paytable.label,
        "wager": wager.slug,
        "wager_name": wager.name,
        "jurisdiction": wager.jurisdiction.code,
        "decks": decks,
        "method": analysed.method,
        "card_removal": sheets[0].card_removal,
        "citations": [citer.cite(paytable.provision_id, paytable.unit_path).as_dict()],
        "lines_left_out": analysed.lines_left_out,
        "not_analysed": not_analysed,
        "at_stake": (
            {
                "stake": str(stake),
                "meters": {k or "any": str(v) for k, v in (meters or {}).items()},
            }
            if stake is not None
            else None
        ),
        "sheets": [_sheet(s) for s in sheets],
        "alternative_readings": alternative_readings(analysed),
    }


def _decks(paytable: Paytable, decks: int | None) -> int:
    """The deck count asked for, which the paytable must be approved for and its wager's deck rule
    allow (variants.analysis.decks_checked); left out, the only one it is analysed at."""
    allowed = allowed_decks(paytable)
    if decks is None:
        if len(allowed) == 1:
            return allowed[0]
        choices = ", ".join(map(str, allowed))
        raise DomainError(
            "decks_required",
            f"a par sheet is for one deck count: give ?decks= ({paytable.key}: {choices}, e.g. "
            f"{allowed[-1]})",
            fields={"decks": f"one of {choices}"},
        )
    decks_checked(paytable, decks)
    return decks


def _sheet(sheet: ParSheet) -> dict[str, Any]:
    return {
        "column": sheet.column,
        "combinations": sheet.combinations,
        "lines": [
            {
                "kind": line.kind,
                "outcome": line.outcome,
                "label": line.label,
                "pays": line.pays,
                "combinations": line.combinations,
                "probability": significant(line.probability, DIGITS),
                "probability_fraction": fraction_text(line.probability),
                "return": significant(line.returns, DIGITS),
                "return_fraction": fraction_text(line.returns),
            }
            for line in sheet.lines
        ],
        "lines_exclusive": sheet.lines_exclusive,
        "hit_frequency": significant(sheet.hit_frequency, DIGITS),
        "hit_frequency_fraction": fraction_text(sheet.hit_frequency),
        "house_edge": significant(sheet.house_edge, DIGITS),
        "house_edge_fraction": fraction_text(sheet.house_edge),
        "return_to_player": significant(1 - sheet.house_edge, DIGITS),
        "variance": significant(sheet.variance, DIGITS),
        "variance_fraction": fraction_text(sheet.variance),
        "standard_deviation": str(sheet.standard_deviation),
        "card_removal": sheet.card_removal,
    }


def par_sheet_csv(body: Mapping[str, Any]) -> str:
    """The par sheet as CSV: the paytable's particulars as name,value rows; a blank row; the lines
    (every sheet's, by column); a blank row; each column's totals."""
    out = io.StringIO()
    write = csv.writer(out, lineterminator="\r\n").writerow
    for name, value in _particulars(body):
        write([name, value])
    write([])
    write(
        [
            "Column",
            "Outcome",
            "Line",
            "Pays",
            "Combinations",
            "Probability",
            "Probability (fraction)",
            "Return",
            "Return (fraction)",
        ]
    )
    for sheet in body["sheets"]:
        for line in sheet["lines"]:
            write(
                [
                    sheet["column"],
                    line["outcome"],
                    line["label"],
                    line["pays"],
                    line["combinations"],
                    line["probability"],
                    line["probability_fraction"],
                    line["return"],
                    line["return_fraction"],
                ]
            )
    write([])
    write(["Column", "Measure", "Value", "Fraction"])
    for sheet in body["sheets"]:
        for measure, value, fraction in _totals(sheet):
            write([sheet["column"], measure, value, fraction])
    return out.getvalue()


def par_sheet_html(body: Mapping[str, Any]) -> str:
    return render_to_string(
        "analysis/par_sheet.html",
        {
            "sheet": body,
            "particulars": _particulars(body),
            "totals": [(s, _totals(s)) for s in body["sheets"]],
            "sd_digits": SD_DIGITS,
        },
    )


def par_sheet_pdf(body: Mapping[str, Any]) -> bytes:
    """The par sheet as a printable PDF (letter, portrait)."""
    from weasyprint import HTML  # imported here: loading Pango costs time at startup

    return HTML(string=par_sheet_html(body)).write_pdf()


def _particulars(body: Mapping[str, Any]) -> list[tuple[str, str]]:
    cited = "; ".join(f"{c['jurisdiction']} {c['citation']}" for c in body["citations"])
    rows = [
        ("Paytable", body["paytable"]),
        ("Label", body["label"]),
        ("Wager", f"{body['wager_name']} ({body['wager']})"),
        ("Jurisdiction", body["jurisdiction"]),
        ("Approved by", cited),
        ("Decks", str(body["decks"])),
        ("Method", body["method"]),
        ("Card removal", body["card_removal"]),
    ]
    if body.get("at_stake"):
        meters = ", ".join(f"{k} {v}" for k, v in body["at_stake"]["meters"].items())
        at = body["at_stake"]["stake"] + (f"; meter {meters}" if meters else "")
        rows.append(("Analysed at stake", at))
    rows += [("Line left out", note) for note in body["lines_left_out"]]
    rows += [("Not analysed", note) for note in body["not_analysed"]]
    rows += [
        (
            "Reading set aside",
            f"{other['jurisdiction']} {other['citation']} read as {other['alternative']}: house "
            f"edge {figure['house_edge']} ({figure['house_edge_fraction']})"
            + (f", {figure['column']}" if figure["column"] else "")
            + (", the player's edge" if figure["favours"] == "player" else ""),
        )
        for other in body.get("alternative_readings", [])
        for figure in other["figures"]
    ]
    return rows


def _totals(sheet: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    return [
        ("Combinations in the cycle", str(sheet["combinations"]), ""),
        ("Hit frequency", sheet["hit_frequency"], sheet["hit_frequency_fraction"]),
        ("House edge", sheet["house_edge"], sheet["house_edge_fraction"]),
        ("Return to player", sheet["return_to_player"], ""),
        ("Variance per unit staked", sheet["variance"], sheet["variance_fraction"]),
        ("Standard deviation per unit staked", sheet["standard_deviation"], ""),
    ]
