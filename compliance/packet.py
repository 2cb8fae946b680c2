"""The submission packet of a validation run (issue #27; docs/api.md, "Submission packet"): what a
vendor files with the regulator and a testing lab reviews without Pitboss.

Its parts, each a JSON (or CSV) file of the ZIP and a section of the PDF:
- report.json: the run (its id, floor, date, status, knowledge-base revision) and every finding;
- tables.json: each table's base game as the run valued it, with the exact effect of each rule
  option (compliance.basegame.base_game_analysis);
- provisions.json: every provision the findings, the tables and the signs cite, as its text
  stood on the run's date (compliance date: the run's `as_of`), unit by unit, with its state and
  the notes where a text then in force is not on file;
- par-sheets/…: each side wager's par sheet at its table's deck count, JSON and CSV
  (variants.par_sheet), or why it has none;
- signs.json: the signs the rules require, as built for the run's configuration (a draft where
  the run is not compliant);
- manifest.json: the provenance: the run, the knowledge base's revision then and now, the
  generation time, and the SHA-256 of every other part.

The same run gives the same packet, byte for byte, but for the generation time the manifest and
the PDF's cover state (`generated_at`): the ZIP's entries carry a fixed date, JSON is written
with sorted keys, and the PDF's identifier derives from the parts' digests.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from django.utils import timezone

from pitboss import kbcache
from pitboss.errors import DomainError
from regs import selectors as regs
from variants.models import Wager
from variants.par_sheet import par_sheet_csv, paytable_par_sheet
from variants.selectors import Citer

from .basegame import base_game_analysis
from .configuration import Configuration
from .models import ValidationRun
from .services import knowledge_base_revision
from .signage import signs_build
from .validator import paytable_offered

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
"""The date of every entry of the ZIP (the earliest a ZIP can hold): the packet's own date is
its generation time, stated in the manifest."""


@dataclass(frozen=True)
class Packet:
    """The packet's parts by file name (bytes), the manifest last, and what the PDF shows."""

    parts: dict[str, bytes]
    shown: dict[str, Any]

    def zip(self) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for name in sorted(self.parts):
                info = zipfile.ZipInfo(f"packet/{name}", date_time=ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                archive.writestr(info, self.parts[name])
        return out.getvalue()

    def pdf(self) -> bytes:
        from weasyprint import HTML  # imported here: loading Pango costs time at startup

        html = render_to_string("compliance/packet.html", self.shown)
        identifier = hashlib.sha256(self.parts["manifest.json"]).hexdigest()[:32].encode()
        return bytes(HTML(string=html).write_pdf(pdf_identifier=identifier))


def _json(value: Any) -> bytes:
    text = json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False, cls=DjangoJSONEncoder)
    return (text + "\n").encode()


def packet_build(
    run: ValidationRun,
    configuration: Configuration,
    *,
    generated_at: dt.datetime | None = None,
) -> Packet:
    """The packet of `run`, whose configuration as submitted is `configuration` (parsed again,
    as the run's report re-reads it)."""
    generated_at = generated_at or timezone.now()
    heads = kbcache.history_heads()
    now = knowledge_base_revision(heads)
    report = _report(run, configuration)
    tables = _tables(run, configuration)
    signs = signs_build(configuration, knowledge_base=dict(run.knowledge_base)).signs
    sheets = _par_sheets(run, configuration)
    provisions = _provisions(run, tables, signs)
    parts: dict[str, bytes] = {
        "report.json": _json(report),
        "tables.json": _json(tables),
        "provisions.json": _json(provisions),
        "signs.json": _json(signs),
    }
    for sheet in sheets:
        if "body" in sheet:
            parts[f"par-sheets/{sheet['file']}.json"] = _json(sheet["body"])
            parts[f"par-sheets/{sheet['file']}.csv"] = par_sheet_csv(sheet["body"]).encode()
    manifest = {
        "packet": "Pitboss submission packet",
        "run": str(run.pk),
        "jurisdiction": run.jurisdiction,
        "licensee": configuration.licensee,
        "as_of": run.as_of.isoformat(),
        "generated_at": generated_at.isoformat(),
        "knowledge_base": {
            "at_the_run": dict(run.knowledge_base),
            "at_this_packet": now,
            "same": dict(run.knowledge_base) == now,
        },
        "parts": {name: hashlib.sha256(body).hexdigest() for name, body in sorted(parts.items())},
    }
    parts["manifest.json"] = _json(manifest)
    shown = {
        "manifest": manifest,
        "report": report,
        "tables": tables,
        "provisions": provisions,
        "sheets": sheets,
        "signs": signs,
    }
    return Packet(parts, shown)


def _report(run: ValidationRun, configuration: Configuration) -> dict[str, Any]:
    return {
        "run": str(run.pk),
        "jurisdiction": run.jurisdiction,
        "licensee": configuration.licensee,
        "as_of": run.as_of.isoformat(),
        "filed_at": run.created_at.isoformat(),
        "filed_by": run.created_by.get_username() if run.created_by else None,
        "status": run.status,
        "decided_on": run.decided_on.isoformat() if run.decided_on else None,
        "decision_note": run.decision_note,
        "compliant": run.compliant,
        "include_proposed": bool(configuration.include_proposed),
        "configuration": run.configuration,
        "findings": run.findings,
    }


def _tables(run: ValidationRun, configuration: Configuration) -> list[dict[str, Any]]:
    """Each table's base game as the run stored it, with each rule option's exact effect (or
    why the analysis gives none)."""
    out = []
    for stored in run.tables:
        entry = {**stored, "effects": [], "effects_not_given": ""}
        try:
            body = base_game_analysis(
                configuration=configuration, table=stored["table"], effects=True
            )
            entry["effects"] = body.get("effects", [])
        except DomainError as exc:
            entry["effects_not_given"] = exc.message
        out.append(entry)
    return out


def _par_sheets(run: ValidationRun, configuration: Configuration) -> list[dict[str, Any]]:
    """Each side wager's par sheet at its table's deck count: of the catalog paytable it names,
    or the approved one its inline lines are (validator.paytable_offered); else why none."""
    citer = Citer(run.as_of)
    wagers = {
        w.slug: w
        for w in Wager.objects.filter(
            jurisdiction__code=run.jurisdiction,
            slug__in={side.wager for table in configuration.tables for side in table.side_wagers},
        ).prefetch_related("paytables__entries")
    }
    sheets = []
    for table in configuration.tables:
        for side in table.side_wagers:
            entry: dict[str, Any] = {"table": table.name, "wager": side.wager, "paytable": None}
            wager = wagers.get(side.wager)
            paytable = (
                paytable_offered(wager, side, citer, bool(configuration.include_proposed))
                if wager is not None
                else None
            )
            if paytable is None:
                entry["none"] = "its paytable is no approved paytable of the catalog"
            elif not table.decks:
                entry["paytable"] = paytable.key
                entry["none"] = "the table's deck count is not given"
            else:
                entry["paytable"] = paytable.key
                try:
                    entry["body"] = paytable_par_sheet(paytable, table.decks, as_of=run.as_of)
                    entry["file"] = f"{paytable.key.replace('/', '-')}-{table.decks}d"
                except DomainError as exc:
                    entry["none"] = exc.message
            sheets.append(entry)
    return sheets


def _cited(run: ValidationRun, tables: list[dict[str, Any]], signs: list[Any]) -> set[tuple]:
    """Every (jurisdiction, citation, proposed) the findings, the tables and the signs cite."""
    found: set[tuple[str, str, bool]] = set()

    def add(citations: list[dict[str, Any]]) -> None:
        for c in citations:
            found.add((c["jurisdiction"], c["citation"], c.get("status") == "proposed"))

    for finding in run.findings:
        add(finding.get("citations", []))
    for table in tables:
        for bonus in table.get("bonus_wagers", []):
            add(bonus.get("citations", []))
    for sign in signs:
        for notice in sign.get("notices", []):
            add(notice.get("citations", []))
    return found


def _provisions(
    run: ValidationRun, tables: list[dict[str, Any]], signs: list[Any]
) -> list[dict[str, Any]]:
    """Each cited unit's text as it stood on the run's date, with its state and notes."""
    today = timezone.localdate()
    records: dict[int, Any] = {}  # each provision read once, however many of its units cited
    out = []
    for jurisdiction, citation, proposed in sorted(_cited(run, tables, signs)):
        entry: dict[str, Any] = {"jurisdiction": jurisdiction, "citation": citation}
        try:
            found = regs.citation_resolve(
                jurisdiction=jurisdiction, citation=citation, as_of=run.as_of, today=today
            )
            pk = found.provision.pk
            if pk not in records:
                records[pk] = regs.provision_records([pk])[0]
            record = records[pk]
            state = regs.provision_state(
                record, as_of=run.as_of, path=found.path, include_proposed=proposed
            )
        except DomainError as exc:
            entry["not_read"] = exc.message
            out.append(entry)
            continue
        entry |= {
            "title": state.title,
            "section": state.citation,
            "state": state.state,
            "notes": list(state.warnings),
            "units": [
                {
                    "citation": unit.citation,
                    "state": unit.state,
                    "effective_from": unit.effective_from.isoformat()
                    if unit.effective_from
                    else None,
                    "effective_to": unit.effective_to.isoformat() if unit.effective_to else None,
                    "text": unit.text,
                    "notes": list(unit.warnings),
                }
                for unit in state.units
            ],
        }
        out.append(entry)
    return out
