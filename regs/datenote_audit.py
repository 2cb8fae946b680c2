"""Every date printed in an ingested source, and what the knowledge base made of it (issue #23).

The scan is deliberately broad: every m/d/y date ("5/13/93", "03/01/2012", "10/15/20") and every
"Month d, yyyy" in the raw source — the text form's lines as written, the PDF's pages as pdfplumber
extracts them — not only the notes the date-note parser recognised, so that a note the parser
drops shows up. Each date is then looked up in what ingestion wrote:

- version: a version of the unit it is printed on (or a unit enclosing it or enclosed by it)
  starts or ends on the date;
- warning: a version's answers carry a warning until the date (a note of uncertain reach);
- label: a label of the provision starts or ends on the date (a renumbering);
- event: a repeal or renumbering of another section, recorded as an event;
- annotation: an annotation on the unit quotes the date and says why it bounds nothing;
- words: the date is part of the rule's own words ("the rights to which on December 1, 2001
  were owned by …"), in the unit's text on file and after no note keyword;
- contents: a table-of-contents entry repeating a section heading's note;
- reviewed: a note no unit holds (a front-matter statement's date), with the reason recorded in
  fixtures/date_notes.yaml;

and otherwise UNACCOUNTED. The text form is checked unit by unit (its line numbers place each date
on a unit); the PDF, whose pages give no line numbers, section by section.
"""

from __future__ import annotations

import datetime as dt
import re
from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, cast

import yaml
from django.conf import settings

from .ingest.datenotes import parse_date
from .ingest.pdf_reader import read_pdf
from .ingest.sources import own_line_notes
from .ingest.structure import ParsedDocument, ParsedSection, Scheme, structure
from .ingest.text_reader import read_text, strip_markup
from .models import Citation, Status
from .selectors import ProvisionRecord, provision_records

UNACCOUNTED = "UNACCOUNTED"

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_ANY_DATE = re.compile(
    rf"(?<![\d/])\d{{1,2}}\s*/\s*\d{{1,2}}\s*/\s*\d{{2,4}}(?![\d/])|\b(?:{_MONTHS})\s+\d{{1,2}},?\s+\d{{4}}\b"
)
"""Deliberately broad: any m/d/y date, spaces around the slashes allowed, and "June 1, 1999"."""
_NOTE_WORD = re.compile(
    r"\b(?:amended|amen|added|adopted|readopted|renumbered|relocated|repealed|temp|perm|"
    r"effective|eff)\b\W*$",
    re.IGNORECASE,
)
"""A note keyword just before a date: such a date left in a unit's text is a note not split off."""
_SECTION_LABEL = re.compile(r"(?:30|47\.1)-\s?\d{3,4}(?:\.\d{1,2})?")
_TOC_LEADER = re.compile(r"\.{4,}")
REVIEWED = Path(settings.BASE_DIR) / "fixtures" / "date_notes.yaml"


@dataclass(frozen=True)
class DatedNote:
    """One date printed in a source and what became of it."""

    source: str
    where: str
    """"line 327" in the text form, "page 13" in the PDF."""
    section: str
    """The section it is printed in ("" in the front matter), or the front-matter heading."""
    unit: str
    """The unit it is printed on, as cited (text form only; "" in the PDF or front matter)."""
    printed: str
    """The date as printed."""
    date: dt.date | None
    context: str
    """The printed line around the date."""
    outcome: str
    """version, warning, label, event, annotation, words, contents, reviewed or UNACCOUNTED."""
    detail: str

    @property
    def accounted(self) -> bool:
        return self.outcome != UNACCOUNTED


@dataclass(frozen=True)
class _Printed:
    index: int
    """Which of the source's lines the date starts on."""
    text: str
    """The printed line (the lines, where the date is wrapped over two), markup removed."""
    start: int
    """Where the date starts in `text`."""
    printed: str


def _dates_in(lines: list[str]) -> list[_Printed]:
    """Every date printed in the lines, also one wrapped from a line to the next ("July 1," then
    "2010" in a PDF)."""
    texts = [strip_markup(line).replace("\t", " ") for line in lines]
    offsets = list(accumulate((len(t) + 1 for t in texts), initial=0))
    out = []
    for match in _ANY_DATE.finditer("\n".join(texts)):
        first = bisect_right(offsets, match.start()) - 1
        last = bisect_right(offsets, match.end() - 1) - 1
        text = " ".join(texts[first : last + 1])
        printed = " ".join(match.group().split())
        out.append(_Printed(first, text, match.start() - offsets[first], printed))
    return out


def _date_of(printed: str) -> dt.date | None:
    try:
        if "/" in printed:
            return parse_date(re.sub(r"\s", "", printed))
        return dt.datetime.strptime(printed.replace(",", ""), "%B %d %Y").date()
    except ValueError:
        return None


def _reviewed() -> list[dict[str, str]]:
    return yaml.load(REVIEWED.read_text(), Loader=yaml.CSafeLoader) if REVIEWED.exists() else []


# --- what the knowledge base holds ---------------------------------------------------------------


class _Holdings:
    """The provisions of one instrument as ingestion wrote them, by the section label a source
    prints today."""

    def __init__(self, jurisdiction: str, instrument: str, status: str) -> None:
        citations = Citation.objects.filter(
            provision__instrument__jurisdiction__code=jurisdiction,
            provision__instrument__slug=instrument,
        )
        current = citations.filter(status=status)
        if status == Status.ADOPTED:
            current = current.filter(effective_to__isnull=True)
        pks = dict(current.values_list("label", "provision_id"))
        records = {r.pk: r for r in provision_records(sorted(set(pks.values())))}
        self.by_label: dict[str, ProvisionRecord] = {
            label: records[pk] for label, pk in pks.items() if pk in records
        }
        self.label_starts: dict[dt.date, list[str]] = {}
        for label, start in citations.filter(status=Status.ADOPTED).values_list(
            "label", "effective_from"
        ):
            if start:
                self.label_starts.setdefault(start, []).append(label)


def _encloses(outer: str, inner: str) -> bool:
    """`outer` is `inner` or encloses it: "" the whole section, "(3)" encloses "(3)(b)", not
    "(30)"; "¶2" encloses "¶2(1)"."""
    return outer in ("", inner) or inner.startswith(f"{outer}(")


def _family(units: list[Any], path: str) -> list[Any]:
    """The unit at `path`, then the units it encloses, then those enclosing it, nearest first."""
    inside = [u for u in units if _encloses(path, u.path)]
    around = [u for u in units if _encloses(u.path, path) and u.path != path]
    return inside + sorted(around, key=lambda u: -len(u.path))


def _outcome(
    record: ProvisionRecord | None,
    path: str | None,
    printed: _Printed,
    date: dt.date | None,
) -> tuple[str, str]:
    """What became of one printed date of a section; `path` None: anywhere in the section."""
    if record is None:
        return UNACCOUNTED, "no provision of the knowledge base bears this section's label"
    units = record.units if path is None else _family(record.units, path)
    return _found(record, units, printed, date)


def _found(
    record: ProvisionRecord, units: list[Any], printed: _Printed, date: dt.date | None
) -> tuple[str, str]:
    label = next((c.label for c in record.citations if c.effective_to is None), record.key)

    def cited(unit: Any) -> str:
        return f"{label} {unit.path}" if unit.path.startswith("¶") else f"{label}{unit.path}"

    if date is not None:
        for unit in units:
            for v in unit.versions:
                if date in (v.effective_from, v.effective_to):
                    period = f"{v.effective_from or '…'} – {v.effective_to or 'now'}"
                    kind = "on file" if v.on_file else "not on file"
                    return "version", f"{cited(unit)}: {period} ({kind}, {v.status})"
        for unit in units:
            for v in unit.versions:
                if v.ambiguous_until == date:
                    return "warning", f"{cited(unit)}: answers before {date} warn: {v.ambiguous}"
        for c in record.citations:
            if date in (c.effective_from, c.effective_to):
                return "label", f"{c.label}: {c.effective_from or '…'} – {c.effective_to or 'now'}"
        for unit in record.units:
            for e in unit.events:
                if e.date == date and e.kind in {"repealed", "repealed_readopted"}:
                    return "event", f"{cited(unit)}: {e.kind} {e.subject} ({e.raw!r})"
    for unit in units:
        for a in unit.annotations:
            if printed.printed in a.text or (date and date.isoformat() in a.text):
                return "annotation", f"{cited(unit)}: {a.text}"
    before = printed.text[: printed.start]
    if not _NOTE_WORD.search(before):
        for unit in units:
            if any(v.on_file and printed.printed in v.text for v in unit.versions):
                return "words", f"part of the words of {cited(unit)}"
    return UNACCOUNTED, "no version, label, event or annotation of this section has this date"


# --- placing each printed date ------------------------------------------------------------------


def _unit_at(section: ParsedSection, line: int) -> str:
    """The parsed unit printed at `line` of the text form: the last one starting at or before it."""
    starts = [u for u in section.units if u.line is not None and u.line <= line]
    return max(starts, key=lambda u: cast(int, u.line)).label if starts else ""  # all given


def _heading_dates(doc: ParsedDocument) -> dict[dt.date, list[str]]:
    """The dates of every section heading's notes, with the sections printing them."""
    out: dict[dt.date, list[str]] = {}
    for section in doc.sections:
        for placed in section.units[0].notes:
            if placed.where == "heading":
                for event in placed.note.events:
                    if event.date:
                        out.setdefault(event.date, []).append(section.label)
    return out


def _front(
    printed: _Printed,
    date: dt.date | None,
    doc: ParsedDocument,
    holdings: _Holdings,
    source: str,
    former: str,
) -> tuple[str, str, str]:
    """(heading, outcome, detail) of a date printed before the first section, or under the
    "Former regulations" heading `former` (as printed)."""
    line = " ".join(printed.text.split())
    for heading, note in doc.document_notes:
        raw = " ".join(note.raw.split())
        under = heading in former if former else not heading.startswith("Former")
        if under and printed.printed in raw and (line.endswith(raw) or raw.endswith(line)):
            named = [e.new_label for e in note.events if e.new_label]
            labels = [
                label
                for label in (holdings.label_starts.get(date, []) if date else [])
                if date
                for span in named
                if _within(label, span)
            ]
            if labels:
                shown = ", ".join(sorted(labels, key=_label_key))
                return heading, "label", f"labels beginning {date}: {shown}"
            return _reviewed_note(source, heading, line)
    headed = _heading_dates(doc).get(date) if date else None
    printed_labels = {re.sub(r"\s", "", label) for label in _SECTION_LABEL.findall(printed.text)}
    if headed and printed_labels & set(headed):
        shown = ", ".join(sorted(printed_labels & set(headed)))
        return "contents", "contents", f"the contents repeat the heading note of {shown}"
    if headed:
        # Rule 21's garbled contents print 30-2108's "Amended 7/1/13" beside 30-2109 (the
        # sections carry a source-defect annotation saying the contents are garbled).
        shown, beside = ", ".join(sorted(headed)), ", ".join(sorted(printed_labels)) or "no label"
        return "contents", "contents", f"garbled contents: {shown}'s heading note beside {beside}"
    return "", UNACCOUNTED, "a date before the first section that no heading or review explains"


def _label_key(label: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.split(r"[-.]", label) if part.isdigit())


def _within(label: str, span: str) -> bool:
    """The label is one of "30-832 through 30-832.09" (or is the one label named)."""
    ends = [re.sub(r"\s", "", found) for found in _SECTION_LABEL.findall(span)]
    if not ends:
        return False
    return _label_key(ends[0]) <= _label_key(label) <= _label_key(ends[-1])


def _reviewed_note(source: str, heading: str, line: str) -> tuple[str, str, str]:
    """A note no unit holds, as fixtures/date_notes.yaml explains it (matched by the regulation,
    either form, and the note's words)."""
    for entry in _reviewed():
        if entry["source"] == source.rsplit(".", 1)[0] and entry["note"] in line:
            return heading, "reviewed", " ".join(entry["why"].split())
    return (
        heading,
        UNACCOUNTED,
        "a note no unit holds, and fixtures/date_notes.yaml does not explain",
    )


def _text_lines(path: Path) -> list[tuple[int | None, int | None, str]]:
    return [(n, None, line) for n, line in enumerate(path.read_text().splitlines(), 1)]


def _pdf_lines(path: Path) -> list[tuple[int | None, int | None, str]]:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return [
            (None, number, line)
            for number, page in enumerate(pdf.pages, 1)
            for line in (page.extract_text() or "").splitlines()
        ]


def _pdf_section_starts(
    doc: ParsedDocument, lines: list[tuple[int | None, int | None, str]]
) -> list[tuple[int, str]]:
    """Where each section's heading is printed among the PDF's lines (index, label): the first line
    of its page that starts with its label and is no contents entry."""
    starts: list[tuple[int, str]] = []
    at = 0
    for section in doc.sections:
        printed = re.sub(r"\s+", " ", section.printed_label)
        found = next(
            (
                i
                for i in range(at, len(lines))
                if lines[i][1] == section.page
                and re.sub(r"\s+", " ", lines[i][2]).startswith(printed)
                and not _TOC_LEADER.search(lines[i][2])
            ),
            None,
        )
        if found is None:
            found = next((i for i in range(at, len(lines)) if lines[i][1] == section.page), at)
        starts.append((found, section.label))
        at = found
    return starts


def dated_notes(
    path: Path, *, jurisdiction: str, instrument: str, status: str = Status.ADOPTED
) -> list[DatedNote]:
    """Every date printed in the source at `path` (text form or PDF) and what became of it in the
    knowledge base, in the order printed. The source must have been ingested."""
    pdf = path.suffix.lower() == ".pdf"
    lines = _pdf_lines(path) if pdf else _text_lines(path)
    blocks = read_pdf(path) if pdf else read_text(path.read_text())
    doc = structure(
        blocks,
        Scheme.CO_SECTION if jurisdiction == "US-CO" else Scheme.MA_SECTION,
        own_line_notes(jurisdiction, instrument),
    )
    holdings = _Holdings(jurisdiction, instrument, status)
    if pdf:
        starts = _pdf_section_starts(doc, lines)
    else:
        starts = [(s.line - 1, s.label) for s in doc.sections if s.line]
    sections = {s.label: s for s in doc.sections}
    former = [
        i for i, (_, _, text) in enumerate(lines) if re.match(r"^[#*\s]*Former regulations", text)
    ]
    out: list[DatedNote] = []
    for printed in _dates_in([raw for _, _, raw in lines]):
        line, page, _ = lines[printed.index]
        date = _date_of(printed.printed)
        opened = [label for at, label in starts if at <= printed.index]
        formerly = [at for at in former if at <= printed.index]
        if not opened or (formerly and formerly[-1] > _start_of(starts, opened[-1])):
            heading = strip_markup(lines[formerly[-1]][2]) if formerly else ""
            section_label, outcome, detail = _front(
                printed, date, doc, holdings, path.name, " ".join(heading.split())
            )
            unit = ""
        else:
            section = sections[opened[-1]]
            at = None if pdf or line is None else _unit_at(section, line)
            if any(printed.printed in note.raw for note in section.history):
                at = None  # a history's clauses may name any subsection of the section
            section_label, unit = section.label, at or ""
            outcome, detail = _outcome(holdings.by_label.get(section.label), at, printed, date)
        out.append(
            DatedNote(
                source=path.name,
                where=f"page {page}" if pdf else f"line {line}",
                section=section_label,
                unit=unit,
                printed=printed.printed,
                date=date,
                context=printed.text.strip()[:200],
                outcome=outcome,
                detail=detail,
            )
        )
    return out


def _start_of(starts: list[tuple[int, str]], label: str) -> int:
    return next(at for at, name in starts if name == label)


def shipped_sources() -> list[tuple[Path, str, str, str]]:
    """The sources `load_knowledge_base` ingests: (path, jurisdiction, instrument, status)."""
    from .management.commands.load_knowledge_base import SOURCES

    root = Path(settings.BASE_DIR) / "fixtures" / "sources"
    return [(root / name, code, slug, status) for name, code, slug, status in SOURCES]


def all_dated_notes() -> list[DatedNote]:
    """The dated notes of every shipped source, source by source."""
    return [
        note
        for path, code, slug, status in shipped_sources()
        for note in dated_notes(path, jurisdiction=code, instrument=slug, status=status)
    ]
