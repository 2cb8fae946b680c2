"""The reviewed catalog (fixtures/catalog/*.yaml): read, check against the rule text, load.

A catalog file lists a jurisdiction's wagers, their paytables and the constraints, each with the
citation (current label plus unit path) of the rule that says it. A paytable is printed as rows
exactly as in the source table (label, then one pay per column), so a test can compare each row
with the source; `outcomes` names each row.

Where the source prints bare numbers and says elsewhere what they mean (30-899.12: 'All odds shown
above are "to 1"'; MA 27(g): 'all pays "to 1"'), the table's `pays_suffix` ("to 1") completes each
printed pay into the payout stored (`reading`); the rows stay as printed. Marks printed before
every pay that are no part of it (30-899.29(2)'s "-" and "_", a printing defect annotated on the
unit) are named by the table's `leading_marks` and dropped the same way. A dated note printed in
a pay cell ("40 for 1 amended 1/14/14", 30-899.11(17)) is not part of the pay: the reading drops
it, and the paytable's `effective_from` says from when the line is on file.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from django.db import models, transaction

from engine.odds import InvalidPays, Pays
from jurisdictions.models import Jurisdiction
from pitboss.errors import DomainError
from regs.models import AnnotationKind, Provision
from regs.selectors import normalise_label, provision_by_citation
from regs.services import HistoryWriter, IngestReport, annotation_add

from .models import (
    Constraint,
    Paytable,
    PaytableEntry,
    PlayRule,
    PostingRequirement,
    Wager,
)

CATALOG = Path(__file__).resolve().parent.parent / "fixtures" / "catalog"
# Cells that print no pay: the line does not exist in that column.
NO_PAY = {None, "", "N/A", "NA", "n/a"}
# A dated note after a pay in its cell: "40 for 1 amended 1/14/14".
_CELL_NOTE = re.compile(r"\s+(?:amended|eff(?:ective)?)\s+\d{1,2}/\d{1,2}/\d{2,4}$", re.IGNORECASE)


class CatalogError(DomainError):
    def __init__(self, where: str, message: str) -> None:
        super().__init__("catalog_invalid", f"{where}: {message}")


@dataclass(frozen=True)
class Cite:
    provision: Provision
    unit_path: str


def _cite(jurisdiction: str, citation: str, where: str) -> Cite:
    label, path = normalise_label(citation)
    try:
        provision = provision_by_citation(jurisdiction=jurisdiction, label=label)
    except DomainError as exc:
        raise CatalogError(where, exc.message) from exc
    if not provision.units.filter(path=path).exists():
        raise CatalogError(where, f"{label} has no unit {path}")
    return Cite(provision, path)


def _params(item: dict[str, Any], where: str) -> dict[str, Any]:
    """A fact's params, refusing keys YAML read as something other than text (an unquoted `on:`
    is the boolean true in YAML 1.1)."""
    params = item.get("params", {})
    odd = [key for key in params if not isinstance(key, str)]
    if odd:
        raise CatalogError(where, f'params key {odd[0]!r} is not text: quote it ("on": …)')
    return params


def _date(value: Any) -> dt.date | None:
    return (
        value if isinstance(value, dt.date) or value is None else dt.date.fromisoformat(str(value))
    )


def read_catalog(path: Path) -> dict[str, Any]:
    """A catalog file, with every pay parsed (so a typo fails here, not in a validation)."""
    # libyaml's safe loader (PyYAML's wheels carry it): the same data as yaml.safe_load, in a
    # fifteenth of the time (every test process reads the catalogs, some several times).
    data = yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
    for table in data.get("paytables", []):
        for row in table["rows"]:
            for pays in row[1:]:
                if pays in NO_PAY:
                    continue
                try:
                    Pays.parse(reading(pays, table))
                except InvalidPays as exc:
                    raise CatalogError(f"{path.name} {table['id']}", str(exc)) from exc
    return data


def reading(pays: Any, table: dict[str, Any]) -> str:
    """A printed pay as the payout it means: with `pays_suffix` "to 1", "1000" is "1000 to 1";
    "40 for 1 amended 1/14/14" is "40 for 1"; with `leading_marks` "-_", the marks a source
    prints before its pays (30-899.29(2): "-100%", "- 100 for 1", "_3 for 1") are dropped."""
    suffix = table.get("pays_suffix")
    text = _CELL_NOTE.sub("", str(pays))
    if marks := table.get("leading_marks"):
        text = text.lstrip(marks + " ")
    return f"{text} {suffix}" if suffix else text


def catalogs_load(*, paths: list[Path], user: Any = None) -> dict[str, dict[str, int]]:
    """Load the catalog files of one or more jurisdictions, whole, in one transaction: then the
    knowledge base holds what they hold. A fact of those jurisdictions that no file holds any more
    is deleted (its history keeps it), so a constraint taken out of the YAML stops binding.

    :raises CatalogError: as catalog_load; nothing is written.
    """
    kept: dict[type[models.Model], set[int]] = {}
    out: dict[str, dict[str, int]] = {}
    with transaction.atomic():
        jurisdictions = set()
        for path in paths:
            data = read_catalog(path)
            out[path.name] = _catalog_save(data, path.name, user, kept)
            jurisdictions.add(data["jurisdiction"])
        removed = _prune(jurisdictions, kept, user, "catalog: no longer in the files")
    if paths:
        out[paths[-1].name]["removed"] = removed
    return out


def catalog_load(*, path: Path, user: Any = None) -> dict[str, int]:
    """Load one catalog file into wagers, paytables and constraints, in one transaction.

    Loading the same file again changes nothing; a changed row is saved (and its history kept).
    :raises CatalogError: a citation that names no provision or unit, a pay that is not a payout.
    """
    return _catalog_save(read_catalog(path), path.name, user, {})


def _catalog_save(
    data: dict[str, Any], source: str, user: Any, kept: dict[type[models.Model], set[int]]
) -> dict[str, int]:
    """catalog_load of a file read (`source` its name); `kept` collects the rows the file holds
    (catalogs_load deletes the others)."""
    code = data["jurisdiction"]
    jurisdiction = Jurisdiction.objects.get(code=code)
    counts = {
        "wagers": 0,
        "paytables": 0,
        "entries": 0,
        "constraints": 0,
        "play_rules": 0,
        "posting_requirements": 0,
    }

    writer = HistoryWriter(IngestReport(source=source, kind="catalog"), user, f"catalog {source}")

    def save(model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any]) -> Any:
        obj = writer.upsert(model, lookup, values)
        kept.setdefault(model, set()).add(obj.pk)
        return obj

    with transaction.atomic():
        wagers: dict[str, Wager] = {}
        next_order: dict[str, int] = {}  # per paytable, for a table printed in parts
        for item in data.get("wagers", []):
            cite = _cite(code, item["citation"], f"wager {item['slug']}")
            wagers[item["slug"]] = save(
                Wager,
                {"jurisdiction": jurisdiction, "slug": item["slug"]},
                {
                    "name": item["name"],
                    "kind": item["kind"],
                    "owner": item.get("owner", ""),
                    "outcomes": item.get("outcomes", []),
                    "provision": cite.provision,
                    "unit_path": cite.unit_path,
                    "effective_from": _date(item.get("effective_from")),
                    "effective_to": _date(item.get("effective_to")),
                    "source_line": item.get("line"),
                },
            )
            counts["wagers"] += 1
        for table in data.get("paytables", []):
            for spec, columns, rows, outcomes in _paytables_of(table):
                wager = wagers[spec.get("wager", table["wager"])]
                cite = _cite(code, table["citation"], f"paytable {spec['id']}")
                continues = spec.get("continues", table.get("continues"))
                if continues:  # a table the source prints in parts is one paytable
                    paytable = Paytable.objects.get(key=continues)
                    next_order[paytable.key] = _entries_save(
                        save,
                        paytable,
                        wager,
                        table,
                        (columns, rows, outcomes),
                        next_order[paytable.key],
                        counts,
                    )
                    continue
                paytable = save(
                    Paytable,
                    {"key": spec["id"]},
                    {
                        "wager": wager,
                        "label": spec["label"],
                        "decks": spec.get("decks", table.get("decks", [])),
                        "dealer_soft_17": table.get("dealer_soft_17", "any"),
                        "base_wager": table.get("base_wager"),
                        "footnotes": [note["text"] for note in table.get("footnotes", [])],
                        "proposed": table.get("proposed", False),
                        "provision": cite.provision,
                        "unit_path": cite.unit_path,
                        "effective_from": _date(
                            spec.get("effective_from", table.get("effective_from"))
                        ),
                        "effective_to": _date(spec.get("effective_to", table.get("effective_to"))),
                        "source_line": table.get("line"),
                    },
                )
                counts["paytables"] += 1
                next_order[paytable.key] = _entries_save(
                    save, paytable, wager, table, (columns, rows, outcomes), 0, counts
                )
        for item in data.get("constraints", []):
            cite = _cite(code, item["citation"], f"constraint {item['code']}")
            for slug in item.get("wagers") or [item.get("wager")]:
                suffix = f"/{slug}" if item.get("wagers") else ""
                save(
                    Constraint,
                    {"code": item["code"] + suffix},
                    {
                        "jurisdiction": jurisdiction,
                        "kind": item["kind"],
                        "wager": wagers.get(slug) if slug else None,
                        "params": _params(item, f"constraint {item['code']}"),
                        "severity": item.get("severity", "error"),
                        "message": item["message"],
                        "proposed": item.get("proposed", False),
                        "provision": cite.provision,
                        "unit_path": cite.unit_path,
                        "effective_from": _date(item.get("effective_from")),
                        "effective_to": _date(item.get("effective_to")),
                        "source_line": item.get("line"),
                    },
                )
                counts["constraints"] += 1
        for item in data.get("play_rules", []):
            cite = _cite(code, item["citation"], f"play rule {item['wager']} {item['key']}")
            save(
                PlayRule,
                {"wager": wagers[item["wager"]], "key": item["key"]},
                {
                    "jurisdiction": jurisdiction,
                    "params": _params(item, f"play rule {item['wager']} {item['key']}"),
                    "summary": item["summary"],
                    "provision": cite.provision,
                    "unit_path": cite.unit_path,
                    "effective_from": _date(item.get("effective_from")),
                    "effective_to": _date(item.get("effective_to")),
                    "source_line": item.get("line"),
                },
            )
            counts["play_rules"] += 1
        for item in data.get("posting_requirements", []):
            where = f"posting requirement {item['code']}"
            cite = _cite(code, item["citation"], where)
            for slug in item.get("wagers") or [item.get("wager")]:
                if slug and slug not in wagers:
                    raise CatalogError(where, f"{slug!r} is no wager of this catalog")
                suffix = f"/{slug}" if item.get("wagers") else ""
                save(
                    PostingRequirement,
                    {"code": item["code"] + suffix},
                    {
                        "jurisdiction": jurisdiction,
                        "wager": wagers.get(slug) if slug else None,
                        "what": item["what"],
                        "notice": item["notice"],
                        "when": _params({"params": item.get("when", {})}, where),
                        "wording": item.get("wording", ""),
                        "params": _params(item, where),
                        "placements": item["placements"],
                        "wall_allowed_if_uniform": item.get("wall_allowed_if_uniform", False),
                        "proposed": item.get("proposed", False),
                        "provision": cite.provision,
                        "unit_path": cite.unit_path,
                        "effective_from": _date(item.get("effective_from")),
                        "effective_to": _date(item.get("effective_to")),
                        "source_line": item.get("line"),
                    },
                )
                counts["posting_requirements"] += 1
        _note_one_way_exclusions(data.get("constraints", []), code, user)
    return counts


def _prune(
    jurisdictions: set[str], kept: dict[type[models.Model], set[int]], user: Any, reason: str
) -> int:
    """Delete the jurisdictions' facts not in `kept` (their history keeps them)."""
    scopes: list[tuple[type[models.Model], dict[str, Any]]] = [
        (PaytableEntry, {"paytable__wager__jurisdiction__code__in": jurisdictions}),
        (Paytable, {"wager__jurisdiction__code__in": jurisdictions}),
        (Constraint, {"jurisdiction__code__in": jurisdictions}),
        (PlayRule, {"jurisdiction__code__in": jurisdictions}),
        (PostingRequirement, {"jurisdiction__code__in": jurisdictions}),
        (Wager, {"jurisdiction__code__in": jurisdictions}),
    ]
    removed = 0
    for model, scope in scopes:
        for obj in model._default_manager.filter(**scope).exclude(pk__in=kept.get(model, set())):
            obj._history_user = user  # type: ignore[attr-defined]
            obj._change_reason = reason  # type: ignore[attr-defined]
            obj.delete()
            removed += 1
    return removed


def _entries_save(
    save: Any,
    paytable: Paytable,
    wager: Wager,
    table: dict[str, Any],
    part: tuple[list[str], list[list[Any]], list[str | list[str]]],
    order: int,
    counts: dict[str, int],
) -> int:
    """The lines of a printed table (or of a part of one) under `paytable`, from `order` on; the
    order after them. `part` is what `_paytables_of` gives: columns, rows and each row's outcome
    (one key for the row, or with `cell_outcomes` a key per cell)."""
    columns, rows, outcomes = part
    known = {o["key"] for o in wager.outcomes}
    labels = table.get("labels", [])
    for index, (row, outcome) in enumerate(zip(rows, outcomes, strict=True)):
        label = labels[index] if index < len(labels) and labels[index] else row[0]
        for cell, (column, pays) in enumerate(zip(columns, row[1:], strict=False)):
            if pays in NO_PAY:
                continue
            if isinstance(outcome, list):  # a line per cell: "Ace: Bust, Suited"
                key, line_column, line_label = outcome[cell], "", f"{label}: {column}"
            else:
                key, line_column, line_label = outcome, column, label
            if key not in known:
                raise CatalogError(
                    f"paytable {table['id']}", f"outcome {key!r} is not an outcome of {wager.slug}"
                )
            save(
                PaytableEntry,
                {"paytable": paytable, "outcome": key, "column": line_column},
                {"order": order, "label": line_label, "pays": reading(pays, table)},
            )
            order += 1
            counts["entries"] += 1
    return order


def _note_one_way_exclusions(items: list[dict[str, Any]], jurisdiction: str, user: Any) -> None:
    """An exclusion the rules state for one wager only is enforced both ways; say so on the rule."""
    stated = {
        (c["wager"], other)
        for c in items
        if c["kind"] == "excludes"
        for other in c["params"]["wagers"]
    }
    for item in items:
        if item["kind"] != "excludes":
            continue
        one_way = [
            other for other in item["params"]["wagers"] if (other, item["wager"]) not in stated
        ]
        if one_way:
            cite = _cite(jurisdiction, item["citation"], f"constraint {item['code']}")
            annotation_add(
                provision=cite.provision,
                unit_path=cite.unit_path,
                kind=AnnotationKind.AMBIGUITY,
                user=user,
                reason="catalog exclusion",
                text=f"The rule says {item['wager']} may not be offered at a table offering "
                f"{', '.join(one_way)}; "
                f"the rules of {', '.join(one_way)} do not say the same of {item['wager']}. "
                "Pitboss enforces "
                f"the exclusion both ways.",
            )


def _paytables_of(
    table: dict[str, Any],
) -> list[tuple[dict[str, Any], list[str], list[list[str]], list[str | list[str]]]]:
    """The paytables a printed table holds, each with its columns, rows and the outcome of each
    row: itself (its columns are pay columns of one table, like King's Bounty's "Pays" and
    "Dealer Envy"), or, with `split`, one per column (Lucky Lucky's "Table 1", "Table 2", "Table 3"
    printed side by side; a split spec's `effective_from` dates its column, like 30-899.15(9)'s
    "Paytables 6 and 7 effective 2/14/16", and a blank cell kept in place, `blank_cells`, is a line
    that column does not have), or, with `by_row`, one per row where each row is a paytable and
    each pay column a line (Match The Dealer's "2 deck", "4 deck", … rows, 30-899.24(6)):
    `outcomes` then names each pay column and `line_labels` labels it.

    A split spec may name its own `wager` (30-2113's "Pay Table A: 21+3" and "Pay Table B: 21+3
    Xtreme", printed side by side), the paytable it `continues` (a split table printed in parts,
    30-2114's 21+3 Pay table), and `pay_columns`, the pay columns of `columns` (0-based) that are
    its columns (MA 30's four TriLux tables side by side, each with "Pays*" and "LkyGrg**").

    With `cell_outcomes` (a list per row, a key per pay column) in place of `outcomes`, every cell
    is an outcome of its own, the row × the column (the Bust Bonus tables of 30-899.09, 30-2113 and
    30-2114: the dealer's up card × "Bust, Off Suit" / "Bust, Suited"): its line is labelled
    "<row>: <column>" and has no pay column (""). A split spec's `pay_columns` then picks the
    outcomes it has (30-899.09: "'Suited' is not applicable in single & double deck games", a
    paytable of the off-suit column for one or two decks).

    `labels` (one per row, "" keeping the printed one) labels a row printed without its own
    label, as `label_line` of the source prints it (30-2106 Schedule D's garbled first line:
    "5000 to 1" printed on a line of its own below "Three Ace of Spades 5000 to T")."""
    if "by_row" in table:
        return [
            (
                spec,
                [""],
                [[label, pays] for label, pays in zip(table["line_labels"], row[1:], strict=True)],
                list(table["outcomes"]),
            )
            for spec, row in zip(table["by_row"], table["rows"], strict=True)
        ]
    cells = table.get("cell_outcomes")
    if "split" not in table:
        whole: list[str | list[str]] = (
            [list(c) for c in cells] if cells else list(table["outcomes"])
        )
        return [(table, table.get("columns", [""]), table["rows"], whole)]
    out = []
    for index, spec in enumerate(table["split"]):
        picks = spec.get("pay_columns", [index])
        rows = [
            [row[0], *(row[1 + i] if len(row) > 1 + i else "" for i in picks)]
            for row in table["rows"]
        ]
        named = "pay_columns" in spec or cells  # a cell's line is labelled by its column
        columns = [table["columns"][i] for i in picks] if named else [""]
        outcomes: list[str | list[str]] = (
            [[row[i] for i in picks] for row in cells] if cells else list(table["outcomes"])
        )
        out.append((spec, columns, rows, outcomes))
    return out


def draft_paytables(text: str) -> list[dict[str, Any]]:
    """Draft catalog paytables from a unit's text (its table rows "a | b | c"), for review.

    A row whose cells after the first all read as payouts is a line of the current table; a row
    before such lines is its title or header.
    """
    tables: list[dict[str, Any]] = []
    heading: list[str] = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.split(" | ")]
        pays = cells[1:]
        if pays and all(_is_pays(p.rstrip("*")) for p in pays):
            if not tables or tables[-1]["_closed"]:
                title = heading[0] if heading else ""
                columns = (
                    heading[-1].split(" | ")[1:]
                    if len(heading) > 0 and " | " in heading[-1]
                    else [""]
                )
                tables.append({"label": title, "columns": columns, "rows": [], "_closed": False})
            tables[-1]["rows"].append(cells)
            heading = []
        else:
            if tables:
                tables[-1]["_closed"] = True
            heading.append(line)
    for table in tables:
        table.pop("_closed")
    return tables


def _is_pays(text: str) -> bool:
    try:
        Pays.parse(text.split(" + ")[0])
    except InvalidPays:
        return False
    return True
