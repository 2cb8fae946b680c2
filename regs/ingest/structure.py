"""Turn a block stream into sections and their units, with every date note placed on a unit.

Reads: the blocks of one regulation (either source form) and the instrument's citation scheme.
Writes: a ParsedDocument — sections with units (the section itself, its labelled subsections and
its further unnumbered paragraphs), the notes placed on them, source defects as remarks, and the
blocks that could not be placed.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from enum import StrEnum

from .blocks import Block, BlockKind
from .datenotes import DateEvent, Note, split_notes
from .labels import LABEL, LabelStack, path_label


class Scheme(StrEnum):
    CO_SECTION = "co_section"
    """Colorado: 30-803, 30-832.09, 30-899.23, 30-2104; proposed texts use 47.1-834.23."""
    MA_SECTION = "ma_section"
    """Massachusetts: numbered sections 1 … 31 and 6a."""


_CO_HEADING = re.compile(r"^((?:30|47\.1)-\s?\d{3,4}(?:\.\d{1,2})?)\s+(\S.*)$")
_MA_HEADING = re.compile(r"^(\d{1,2}[a-z]?)\.\s+(\S.{0,120})$")
_FORMER = re.compile(r"^Former regulations\b", re.IGNORECASE)
_TOC_LEADER = re.compile(r"\.{4,}")
# A label printed without its opening parenthesis: "d) As the terms …".
_BARE_LABEL = re.compile(r"^([a-z]|\d{1,2})\)\s+")


@dataclass
class PlacedNote:
    note: Note
    ambiguous: bool = False
    """The source does not tell whether the note covers this unit or only part of it."""
    where: str = ""
    """Where the note sits: heading, paragraph, own line, history."""


@dataclass
class ParsedUnit:
    path: tuple[str, ...]
    text: str = ""
    page: int | None = None
    line: int | None = None
    notes: list[PlacedNote] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    table_only: bool = False
    """The unit is one printed table, set apart from the paragraph before it: its table notes
    (a dated title, a date under it) are the unit's own."""
    footnote_of: tuple[str, ...] | None = None
    """An undated paragraph printed right under a table ("The … pay tables are based on a $1
    wager"): it takes the date of the table it annotates, whose unit this is."""
    after_history: str = ""
    """The section's parenthetical history printed before this unit, if any ("(30-821 renumbered
    as 30-822; amended; and (2) added; perm. 12/30/98)" ends 30-822(2), and (3) follows): the
    history dates the text up to it, so a unit printed after it was added later, on a date the
    source gives only if the unit's own note does."""

    @property
    def label(self) -> str:
        return path_label(self.path)


@dataclass
class ParsedSection:
    label: str
    printed_label: str
    title: str
    page: int | None
    line: int | None
    units: list[ParsedUnit] = field(default_factory=list)
    history: list[Note] = field(default_factory=list)
    """Parenthetical histories found in the section: "(30-1204 amended, perm. 11/30/96. …)"."""
    remarks: list[str] = field(default_factory=list)

    def unit(self, path: tuple[str, ...]) -> ParsedUnit | None:
        return next((u for u in self.units if u.path == path), None)


@dataclass
class ParsedDocument:
    sections: list[ParsedSection] = field(default_factory=list)
    front_matter: list[Block] = field(default_factory=list)
    """Blocks before the first section: table of contents, basis and purpose."""
    document_notes: list[tuple[str, Note]] = field(default_factory=list)
    """Notes that belong to no section ("Former regulations 30-835 through 30-844 …"), with their
    heading."""
    unplaced: list[Block] = field(default_factory=list)

    def latest_date(self) -> datetime.date | None:
        """The latest date any note of the document gives: by then its whole text was in force."""
        notes = [n for _, n in self.document_notes]
        for section in self.sections:
            notes += section.history + [p.note for u in section.units for p in u.notes]
        return max((e.date for n in notes for e in n.events if e.date), default=None)


@dataclass
class _Paragraph:
    kind: BlockKind
    text: str
    page: int | None
    line: int | None


_SENTENCE_END = re.compile(r"""[.:;!?)"'\]*]$""")


def _unfinished(text: str) -> bool:
    """The paragraph stops mid-sentence (its words, without trailing date notes)."""
    words, _ = split_notes(text)
    # A title ("RULE 8 RULES OF BLACKJACK", "(2) Doubling Up") is finished without a full stop.
    title_like = (words.isupper() and len(words) < 80) or len(words.split()) < 6
    return bool(words) and not title_like and not _SENTENCE_END.search(words)


def _join_continuations(blocks: list[Block], scheme: Scheme) -> list[_Paragraph]:
    """Merge a paragraph into the one before it where a page break split it: it starts in
    lowercase, or the one before stops mid-sentence and it carries no label of its own."""
    out: list[_Paragraph] = []
    for block in blocks:
        if (
            block.kind is BlockKind.PARAGRAPH
            and out
            and out[-1].kind is BlockKind.PARAGRAPH
            and not block.bullet
            and not _starts_labelled(block.text)
            and not section_heading(scheme, block.text)
            and not section_heading(scheme, out[-1].text)
            and (block.text[:1].islower() or _unfinished(out[-1].text))
        ):
            out[-1].text = f"{out[-1].text} {block.text}"
            continue
        out.append(_Paragraph(block.kind, block.text, block.page, block.line))
    return out


def _starts_labelled(text: str) -> bool:
    return bool(LABEL.match(text) or _BARE_LABEL.match(text))


def section_heading(scheme: Scheme, text: str) -> tuple[str, str] | None:
    """(label, title) if the text is a section heading under the scheme."""
    pattern = _CO_HEADING if scheme is Scheme.CO_SECTION else _MA_HEADING
    match = pattern.match(text)
    if not match or _TOC_LEADER.search(text):
        return None
    return match.group(1), match.group(2)


class _SectionBuilder:
    def __init__(
        self,
        label: str,
        printed: str,
        title: str,
        para: _Paragraph,
        own_line_notes: frozenset[tuple[str, str]],
    ) -> None:
        self.section = ParsedSection(label, printed, title, para.page, para.line)
        self.own_line_notes = {note for section, note in own_line_notes if section == label}
        self.stack = LabelStack()
        self.current: ParsedUnit = ParsedUnit((), page=para.page, line=para.line)
        self.section.units.append(self.current)
        self.paragraph_count = 0
        self.last_heading: tuple[str, ...] = ()
        self.after_table = False
        self.table_from = 0
        """Where the table being read starts in the current unit's text."""
        self.table_after_closed = False
        """The table being read may be set apart as a unit of its own (see `row`)."""
        self.closing_history = ""
        """The last dated history note printed so far in the section."""
        if printed != label:
            self.section.remarks.append(f"label printed as {printed!r}")

    def add_notes(
        self, unit: ParsedUnit, notes: list[Note], *, where: str, ambiguous: bool = False
    ) -> None:
        for note in notes:
            if note.is_history:
                self._history(note)
                continue
            unit.notes.append(PlacedNote(note, ambiguous=ambiguous, where=where))

    def _history(self, note: Note) -> None:
        self.section.history.append(note)
        # A history of the section (not one naming only a subsection: 30-899.03's "(30-835 (5),
        # temp. 02/21/97 perm. 6/30/97 …)") dates the section's text printed before it.
        if any(e.date and "(" not in e.subject for e in note.events):
            self.closing_history = note.raw

    def _add_unit(self, unit: ParsedUnit) -> None:
        unit.after_history = self.closing_history
        self.section.units.append(unit)

    def heading_notes(self, notes: list[Note]) -> None:
        for note in notes:
            amended = any(e.kind == "amended" for e in note.events)
            self.current.notes.append(PlacedNote(note, ambiguous=amended, where="heading"))

    def paragraph(self, para: _Paragraph) -> None:
        body, _, last_line = para.text.rpartition("\n")
        own_line: list[Note] = []
        if body:
            rest, own_line = split_notes(last_line)
            if rest:  # the last line is text, not a note on a line of its own
                own_line, body = [], para.text
        text, notes = split_notes((body or para.text).replace("\n", " "))
        if notes and notes[-1].raw in self.own_line_notes:
            own_line, notes = [notes[-1], *own_line], notes[:-1]
        if not text:
            self.note_only(notes + own_line)
            self.after_table = False
            return
        self._paragraph(para, text, notes)
        self.after_table = False
        if own_line:
            self.note_only(own_line)

    def _paragraph(self, para: _Paragraph, text: str, notes: list[Note]) -> None:
        match = LABEL.match(text) if para.kind is BlockKind.PARAGRAPH else None
        bare = _BARE_LABEL.match(text) if para.kind is BlockKind.PARAGRAPH and not match else None
        match = match or bare
        if match:
            if (
                self.last_heading
                and self.stack.scope != self.last_heading
                and self.stack.would_repeat(match.group(1))
            ):
                self.stack.restart(self.last_heading)
            path, remarks = self.stack.place(match.group(1))
            if bare:
                remarks.append(
                    f"label printed without its opening parenthesis: {bare.group(0).strip()!r}"
                )
            unit = ParsedUnit(path, text[match.end() :], para.page, para.line, remarks=remarks)
            self._add_unit(unit)
        elif not self.current.path and not self.current.text and self.paragraph_count == 0:
            unit = self.current
            unit.text = text
        else:
            unit = self._new_paragraph_unit(text, para)
            if para.kind is BlockKind.HEADING:
                self.last_heading = unit.path
            elif self.after_table and not notes:
                unit.footnote_of = self.current.path
        self.current = unit
        # A note after a lead-in ("… except as follows:") covers the lead-in, and perhaps the list.
        lead_in = text.rstrip().endswith(":")
        self.add_notes(unit, notes, where="lead-in" if lead_in else "paragraph", ambiguous=lead_in)

    def _new_paragraph_unit(self, text: str, para: _Paragraph) -> ParsedUnit:
        self.paragraph_count += 1
        unit = ParsedUnit((f"¶{self.paragraph_count + 1}",), text, para.page, para.line)
        self._add_unit(unit)
        return unit

    def note_only(self, notes: list[Note]) -> None:
        """A paragraph that is only a note: a history goes to the section, a dated run to the
        unit enclosing the one before it (the source does not say how far it reaches)."""
        history = [n for n in notes if n.is_history]
        for note in history:
            self._history(note)
        runs = [n for n in notes if n not in history]
        if not runs:
            return
        if self.after_table and path_is_paragraph(self.current.path):
            # Under a table set apart in a paragraph of its own (its title and rows: 30-2115's
            # TriLux Bust Bonanza table, then "Amended 5/15/22"), the note dates that table, as a
            # dated title row would.
            self.add_notes(self.current, runs, where="table")
            return
        if self.after_table:
            # After a table inside a numbered subsection (which keeps every table printed in it),
            # the subsection encloses the note, which may cover only one of its tables.
            target = self.current
        elif self.current.text.rstrip().endswith(":"):
            # Right under a lead-in ("… except as follows:"), a note reads as the lead-in's own,
            # whether printed at its end or on the next line: one note, one reading.
            self.add_notes(self.current, runs, where="lead-in", ambiguous=True)
            return
        else:
            parent = (
                self.current.path[:-1]
                if self.current.path and not path_is_paragraph(self.current.path)
                else ()
            )
            target = self.section.unit(parent) or self.section.units[0]
        for note in runs:
            target.notes.append(PlacedNote(note, ambiguous=True, where="own line"))

    def row(self, para: _Paragraph) -> None:
        """A table row joins the text of the unit it follows; a date note in a cell (a dated
        column heading) becomes a note on that unit.

        A printed table keeps its own date instead of taking its neighbour's: it becomes a unit of
        its own where it follows a paragraph closed by a date note of its own and carries a date
        of its own (30-2107's face-down paragraph, "Amended 8/14/18", then the 21+3 Xtreme table,
        "Eff 10/16/13"), or where a dated title row opens a new table inside an unnumbered
        paragraph ("21+3 Progressive WINNING HAND RANKINGS Effective 8/14/22" under HAND
        RANKINGS). A numbered subsection keeps every table printed in it.
        """
        cells = [split_notes(cell) for cell in para.text.split(" | ")]
        dated = any(notes for _, notes in cells)
        current = self.current
        unnumbered = not current.path or path_is_paragraph(current.path)
        if not self.after_table:
            self.table_from = len(current.text)
            closed = any(p.where == "paragraph" and not p.ambiguous for p in current.notes)
            self.table_after_closed = (
                unnumbered
                and closed
                and self.last_heading != current.path
                and not current.text.rstrip().endswith(":")
            )
        elif unnumbered and not current.table_only and "\n" in current.text:
            if any(text and notes for text, notes in cells):  # a dated title row
                self.table_from = len(current.text)
                self.table_after_closed = True
        if dated and self.table_after_closed and not current.table_only:
            table = current.text[self.table_from :].lstrip("\n")
            current.text = current.text[: self.table_from]
            unit = self._new_paragraph_unit(table, para)
            unit.page, unit.line = para.page, para.line
            unit.table_only = True
            self.current = unit
        self.after_table = True
        row = []
        for (text, notes), cell in zip(cells, para.text.split(" | "), strict=True):
            self.add_notes(self.current, notes, where="table")
            row.append(text or cell)
        line = " | ".join(row)
        unit = self.current
        unit.text = f"{unit.text}\n{line}" if unit.text else line

    def finish(self) -> ParsedSection:
        """The section; its history notes are mapped to units by the timeline stage."""
        return self.section


def path_is_paragraph(path: tuple[str, ...]) -> bool:
    return bool(path) and path[0].startswith("¶")


def structure(
    blocks: list[Block], scheme: Scheme, own_line_notes: frozenset[tuple[str, str]] = frozenset()
) -> ParsedDocument:
    """Sections and units of a regulation, with every date note placed.

    `own_line_notes` lists (section, note) pairs known to be printed on a line of their own where a
    source form cannot show it (layout hints, fixtures/sources/layout_hints.yaml).
    """
    doc = ParsedDocument()
    builder: _SectionBuilder | None = None
    former_heading: str | None = None
    front_heading = ""
    paragraphs = _join_continuations(blocks, scheme)
    # Section headings are bold where the source has any bold one; a plain text (Massachusetts'
    # text form, a proposed rule) has plain ones.
    plain_headings = not any(
        p.kind is BlockKind.HEADING and section_heading(scheme, p.text) for p in paragraphs
    )
    for para in paragraphs:
        can_head = para.kind is BlockKind.HEADING or (
            plain_headings and para.kind is BlockKind.PARAGRAPH
        )
        heading = section_heading(scheme, para.text) if can_head else None
        if (
            heading
            and scheme is Scheme.MA_SECTION
            and builder
            and not _ma_follows(builder.section.label, heading[0])
        ):
            heading = None
        if heading:
            if builder:
                doc.sections.append(builder.finish())
            label, rest = heading
            title, notes = split_notes(rest)
            builder = _SectionBuilder(re.sub(r"\s", "", label), label, title, para, own_line_notes)
            builder.heading_notes(notes)
            former_heading = None
            continue
        if para.kind is BlockKind.HEADING and _FORMER.match(para.text):
            if builder:
                doc.sections.append(builder.finish())
                builder = None
            former_heading = para.text
            continue
        if builder is None:
            if former_heading is not None:
                text, notes = split_notes(para.text)
                if notes and not text:
                    doc.document_notes.extend((former_heading, n) for n in notes)
                    continue
                doc.unplaced.append(_block(para))
            else:
                doc.front_matter.append(_block(para))
                if para.kind is BlockKind.HEADING:
                    front_heading = para.text
                elif para.kind is BlockKind.PARAGRAPH and not _TOC_LEADER.search(para.text):
                    # A dated note on the front matter ("Basis and Purpose … Amended 8/14/16").
                    doc.document_notes.extend((front_heading, n) for n in split_notes(para.text)[1])
            continue
        if para.kind is BlockKind.ROW:
            builder.row(para)
        else:
            builder.paragraph(para)
    if builder:
        doc.sections.append(builder.finish())
    _check_contents(doc, scheme)
    _check_references(doc, scheme)
    return doc


_REFERENCE = {
    Scheme.CO_SECTION: re.compile(r"\b(30-\d{3,4}(?:\.\d{1,2})?)((?:\([0-9a-z]{1,4}\))+)"),
    Scheme.MA_SECTION: re.compile(r"\bSection (\d{1,2}[a-z]?)((?:\([0-9a-z]{1,4}\))+)"),
}


def _check_references(doc: ParsedDocument, scheme: Scheme) -> None:
    """A cross-reference to a subsection the document does not have is a defect of the source
    (recorded where the reference is printed). References to other instruments are not checked."""
    units = {(s.label, u.path) for s in doc.sections for u in s.units}
    sections = {s.label for s in doc.sections}
    for section in doc.sections:
        for unit in section.units:
            for label, path in _REFERENCE[scheme].findall(unit.text):
                key = tuple(re.findall(r"\(([0-9a-z]{1,4})\)", path))
                if label in sections and (label, key) not in units:
                    unit.remarks.append(f"refers to {label}{path}, which the source does not have")


_LABELS_IN = re.compile(r"(?:30|47\.1)-\s?\d{3,4}(?:\.\d{1,2})?")


def _check_contents(doc: ParsedDocument, scheme: Scheme) -> None:
    """Compare the table of contents with the sections found: a section the contents omit, or an
    entry printed garbled (several labels run together), is a defect of the source."""
    if scheme is not Scheme.CO_SECTION:
        return
    entries = [b.text for b in doc.front_matter if _LABELS_IN.match(b.text)]
    if not entries:
        return
    listed: dict[str, list[str]] = {}
    for entry in entries:
        labels = [re.sub(r"\s", "", label) for label in _LABELS_IN.findall(entry.split(" | ")[0])]
        for label in labels:
            listed.setdefault(label, []).append(entry if len(labels) == 1 else f"garbled: {entry}")
    for section in doc.sections:
        lines = listed.get(section.label)
        if not lines:
            section.remarks.append("the table of contents does not list this section")
        elif all(line.startswith("garbled: ") for line in lines):
            section.remarks.append(
                f"the table of contents prints this entry garbled: {lines[0][9:200]!r}"
            )


def _ma_follows(previous: str, label: str) -> bool:
    """Massachusetts sections run 1, 2, … 6, 6a, 7 …: a numbered line out of that order is text."""
    prev_n, prev_s = int(re.sub(r"\D", "", previous)), re.sub(r"\d", "", previous)
    n, s = int(re.sub(r"\D", "", label)), re.sub(r"\d", "", label)
    return (n == prev_n + 1 and not s) or (n == prev_n and s > prev_s)


def _block(para: _Paragraph) -> Block:
    return Block(para.kind, para.text, page=para.page, line=para.line)


__all__ = [
    "DateEvent",
    "ParsedDocument",
    "ParsedSection",
    "ParsedUnit",
    "PlacedNote",
    "Scheme",
    "structure",
]
