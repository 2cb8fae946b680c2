"""Open a source file in either form and check it belongs to the instrument named.

Reads: the bytes of a PDF or of the markdown text form.
Writes: the blocks (via pdf_reader or text_reader) and what kind of file it was.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

from pitboss.text import text_problem

from .blocks import Block
from .pdf_reader import read_pdf
from .structure import ParsedDocument, Scheme
from .text_reader import read_text


class SourceError(ValueError):
    """The file cannot be ingested; the message says why."""


# Limits that keep a hostile or broken file from taking the machine: the regulator's PDFs are
# under 250 kB and 79 pages, their text forms under 200 kB with lines under 3,000 characters.
MAX_BYTES = 10 * 1024 * 1024
"""A larger file is refused before it is read or parsed."""
MAX_PAGES = 500
"""A PDF with more pages is refused before any page is parsed."""
MAX_LINE = 20_000
"""A text line longer than this (characters) is refused before the markup is parsed."""
TIME_BUDGET = 120.0
"""Seconds that reading one file may take; checked between pages."""


def check_size(name: str, size: int) -> None:
    """Refuse a file larger than MAX_BYTES, before anything reads it.

    :raises SourceError: the file is too large.
    """
    if size > MAX_BYTES:
        raise SourceError(
            f"{name} is {size / 1024 / 1024:.0f} MB; a source may be at most "
            f"{MAX_BYTES // 1024 // 1024} MB."
        )


@dataclass(frozen=True)
class ReadSource:
    kind: str
    """"pdf" or "text"."""
    sha256: str
    pages: int | None
    blocks: list[Block]


def read_source(name: str, data: bytes, *, budget: float = TIME_BUDGET) -> ReadSource:
    """Blocks of a source, from a PDF or the text form, whichever the bytes are, within the
    limits above (`budget` seconds for the reading).

    :raises SourceError: empty, too large, too many pages or too long lines, not a PDF nor UTF-8
        text, a PDF pdfplumber cannot read, or reading it took longer than the budget.
    """
    check_size(name, len(data))
    sha = hashlib.sha256(data).hexdigest()
    if not data.strip():
        raise SourceError(f"{name} is empty.")
    if data.startswith(b"%PDF"):
        try:
            blocks = read_pdf(
                io.BytesIO(data), max_pages=MAX_PAGES, deadline=time.monotonic() + budget
            )
        except ValueError as exc:
            raise SourceError(f"{name} is not a readable PDF: {exc}") from exc
        pages = max((b.page or 0 for b in blocks), default=0)
        return ReadSource("pdf", sha, pages, blocks)
    if b"\x00" in data:
        raise SourceError(f"{name} is neither a PDF nor a text file (it holds NUL bytes).")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{name} is neither a PDF nor UTF-8 text ({exc.reason} at byte {exc.start})."
        ) from exc
    lines = text.splitlines()
    longest = max(lines, key=len, default="")
    if len(longest) > MAX_LINE:
        raise SourceError(
            f"{name}: line {lines.index(longest) + 1} is {len(longest):,} characters long; a line "
            f"of the text form may be at most {MAX_LINE:,}."
        )
    for number, line in enumerate(lines, start=1):
        if problem := text_problem(line):  # a control character (pitboss.text)
            raise SourceError(f"{name}: line {number} {problem}")
    return ReadSource("text", sha, None, read_text(text))


# Which section labels each instrument's text may hold.
_LABELS = {
    ("US-CO", "rule-8"): re.compile(r"^(30-8\d\d|47\.1-8\d\d)"),
    ("US-CO", "rule-21"): re.compile(r"^30-21\d\d"),
    ("US-MA", "blackjack"): re.compile(r"^\d{1,2}[a-z]?$"),
}


HINTS = Path(__file__).resolve().parents[2] / "fixtures" / "sources" / "layout_hints.yaml"


@functools.cache
def own_line_notes(jurisdiction: str, slug: str) -> frozenset[tuple[str, str]]:
    """(section, note) pairs printed on a line of their own where the PDF cannot show it."""
    hints = yaml.load(HINTS.read_text(), Loader=yaml.CSafeLoader) if HINTS.exists() else {}
    return frozenset(
        (h["section"], h["note"])
        for h in hints.get("own_line_notes", [])
        if h["instrument"] == f"{jurisdiction}/{slug}"
    )


# A document with this many blocks per section heading found has lost its headings (the
# Massachusetts PDF prints its section numbers as garbled list counters).
_BLOCKS_PER_SECTION = 150


def check_instrument(
    doc: ParsedDocument, jurisdiction: str, slug: str, scheme: Scheme, name: str
) -> None:
    """Refuse a document whose sections do not belong to the instrument.

    :raises SourceError: no section found, or sections of another instrument.
    """
    if not doc.sections:
        raise SourceError(
            f"{name}: no section headings found for a {scheme.value} instrument; is this the "
            f"right file and the right --instrument?"
        )
    blocks = len(doc.front_matter) + len(doc.unplaced) + sum(len(s.units) for s in doc.sections)
    if blocks / len(doc.sections) > _BLOCKS_PER_SECTION:
        raise SourceError(
            f"{name}: only {len(doc.sections)} section heading(s) found in {blocks} paragraphs; "
            f"the section numbers in this file are missing or garbled. Ingest the text form of "
            f"the regulation instead."
        )
    pattern = _LABELS.get((jurisdiction, slug))
    if pattern is None:
        return
    foreign = [s.label for s in doc.sections if not pattern.match(s.label)]
    if len(foreign) > len(doc.sections) // 2:
        raise SourceError(
            f"{name}: sections {', '.join(foreign[:5])} … do not belong to {jurisdiction} {slug}; "
            f"check --jurisdiction and --instrument."
        )
