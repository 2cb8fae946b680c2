"""Open a source file in either form and check it belongs to the instrument named.

Reads: the bytes of a PDF or of the markdown text form.
Writes: the blocks (via pdf_reader or text_reader) and what kind of file it was.
"""

from __future__ import annotations

import functools
import hashlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from .blocks import Block
from .pdf_reader import read_pdf
from .structure import ParsedDocument, Scheme
from .text_reader import read_text


class SourceError(ValueError):
    """The file cannot be ingested; the message says why."""


@dataclass(frozen=True)
class ReadSource:
    kind: str
    """"pdf" or "text"."""
    sha256: str
    pages: int | None
    blocks: list[Block]


def read_source(name: str, data: bytes) -> ReadSource:
    """Blocks of a source, from a PDF or the text form, whichever the bytes are.

    :raises SourceError: empty, not a PDF nor UTF-8 text, or a PDF pdfplumber cannot read.
    """
    sha = hashlib.sha256(data).hexdigest()
    if not data.strip():
        raise SourceError(f"{name} is empty.")
    if data.startswith(b"%PDF"):
        try:
            blocks = read_pdf(io.BytesIO(data))
        except ValueError as exc:
            raise SourceError(f"{name} is not a readable PDF: {exc}") from exc
        pages = max((b.page or 0 for b in blocks), default=0)
        return ReadSource("pdf", sha, pages, blocks)
    if b"\x00" in data[:4096]:
        raise SourceError(f"{name} is neither a PDF nor a text file.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SourceError(
            f"{name} is neither a PDF nor UTF-8 text ({exc.reason} at byte {exc.start})."
        ) from exc
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
    hints = yaml.safe_load(HINTS.read_text()) if HINTS.exists() else {}
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
            f"{name}: no section headings found for a {scheme.value} instrument; is this the right file "
            f"and the right --instrument?"
        )
    blocks = len(doc.front_matter) + len(doc.unplaced) + sum(len(s.units) for s in doc.sections)
    if blocks / len(doc.sections) > _BLOCKS_PER_SECTION:
        raise SourceError(
            f"{name}: only {len(doc.sections)} section heading(s) found in {blocks} paragraphs; the section "
            f"numbers in this file are missing or garbled. Ingest the text form of the regulation instead."
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
