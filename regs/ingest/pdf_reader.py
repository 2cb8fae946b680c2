"""Read the regulator's PDF of a regulation into blocks: the same stream `read_text` gives for the
text form of the same regulation.

Reads: a PDF (a path, or a binary file object) as the regulator prints it: a running header and a
"Page N of M" footer on every page, paragraphs of wrapped lines, "•" list bullets, bold headings,
italic date notes ("Amended 03/01/2012"), ruled tables.
Writes: one Block per heading, paragraph and table row, in reading order, each with its page.

How:
- pdfplumber parses each page once. Characters and ruling lines are taken from the parsed layout
  (`page.layout`), which is much cheaper than pdfplumber's per-object dictionaries and gives the
  same coordinates; parsing is then almost all of the time (about 5 s for 79 pages).
- Characters form printed lines by vertical overlap (a superscript "nd" stays on its line); words
  split at gaps, which space glyphs leave.
- The running header and footer are a first or last line repeated, digits aside, at the same
  height on most pages; a last line "Page N of M" is always a footer.
- Lines form blocks: a new block starts after a vertical gap wider than between wrapped lines, at
  a bullet, or where boldness or type size changes. In a block, a line whose first word would
  have fitted at the end of the line above follows a hard line break, kept as "\\n" as the text
  form keeps a markdown hard break. Across a page break a paragraph goes on when its last line
  was filled to the margin, and ends when it was not.
- Ruled tables are found with pdfplumber's table geometry (edges → intersections → cells); each
  row is a ROW block of its cells' texts.
"""

from __future__ import annotations

import io
import pathlib
import re
import statistics
import struct
import time
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, BinaryIO

import pdfplumber
from pdfminer.layout import LTChar, LTComponent, LTContainer, LTCurve, LTPage, LTRect
from pdfminer.psparser import PSException
from pdfplumber.page import Page
from pdfplumber.table import (
    cells_to_tables,
    edges_to_intersections,
    intersections_to_cells,
    merge_edges,
)
from pdfplumber.utils.exceptions import PdfminerException

from .blocks import Block, BlockKind, normalise, row_block

__all__ = ["UnreadablePdfError", "read_pdf"]


class UnreadablePdfError(ValueError):
    """The source is not a PDF, or is a PDF too damaged (empty, truncated) to read."""


# Vertical layout, as shares of the type size. Measured on the regulator's PDFs (10.5pt text):
# 3.7pt between the wrapped lines of a paragraph, 5.7pt between list items, 14.2pt between
# paragraphs. A wider gap than this starts a new block.
_PARAGRAPH_GAP = 0.45
# A character overlapping a line by more than this share of its size is on that line.
_LINE_OVERLAP = 0.3
# A horizontal gap between glyphs wider than this share of the size is a word space.
_WORD_GAP = 0.15
# A space is this share of the size, unless the PDF's own space glyphs say otherwise.
_SPACE_WIDTH = 0.3
# A running header or footer is on at least this share of the pages.
_RUNNING_SHARE = 0.5
_FOOTER = re.compile(r"^Page \d+ of \d+$")
_BULLET = re.compile(r"^[•●▪◦‣]\s*")
# Wrapped lines join with a space, except where the line broke inside a word or number, which
# the text form has unbroken: after a hyphen or dash ("44-30-" + "816" is "44-30-816", "in-" +
# "between"), after a slash ("his/" + "her"), and inside a label chain ("(b)" + "(3)(i)"). Not
# after a dash standing alone ("(Spades) -" + "AK/Q"), nor after a hyphen before a digit: line
# breaking never splits "-2" (Unicode line breaking, rule LB25), so the break was at a space
# ("PT- BJS-" + "213-01" is "PT- BJS- 213-01").
_BROKEN_AFTER = re.compile(r"(?<=\S)([-‐‑–—/])$")
_LABEL_END = re.compile(r"\)$")
_LABEL_START = re.compile(r"^\(\w{1,4}\)")
# The PDF prints the markdown escape of a dollar sign ("\$100"), once across a line break ("the
# \" + "$50"); the text form's reader removes it, and so does this one.
_ESCAPED_DOLLAR = re.compile(r"\\\s?(?=\$)")
# An ordered-list number before a subsection label or a lowercase continuation ("2. (a) Blackjack
# shall be …", "4. provided that …") is the PDF's list numbering, where the text form has a bullet.
_LIST_NUMBER = re.compile(r"^\d+\.\s+(?=\(\w{1,4}\)|[a-z])")
# A list item printed inside a paragraph after a sentence ("… wager. - (3) The player …"): the
# text form has it on a line of its own, as a "- " bullet.
_INLINE_ITEM = re.compile(r"(?<=[.:;]) - (?=\(\w{1,4}\) )")
_TABLE_TOLERANCE = 3.0
# What pdfminer (whose errors derive from PSException) and the decoders under it raise on a
# damaged file.
_PARSE_ERRORS = (
    PSException,
    PdfminerException,
    ValueError,
    TypeError,
    KeyError,
    IndexError,
    AttributeError,
    AssertionError,
    EOFError,
    struct.error,
    zlib.error,
)

BBox = tuple[float, float, float, float]


@dataclass(slots=True)
class _Char:
    text: str
    bold: bool
    italic: bool
    size: float
    x0: float
    x1: float
    top: float
    bottom: float

    def inside(self, box: BBox) -> bool:
        x, y = (self.x0 + self.x1) / 2, (self.top + self.bottom) / 2
        return box[0] <= x <= box[2] and box[1] <= y <= box[3]


@dataclass(slots=True)
class _Line:
    """One printed line: its text and where it stands on its page."""

    text: str
    page: int
    x1: float
    top: float
    bottom: float
    size: float
    starts_bold: bool
    """Its first character (after a bullet) is bold: the text form marks such a line a heading."""
    all_bold: bool
    first_word_width: float
    starts_block: bool = False
    """It follows another line at the same height that it must not be joined to."""

    @property
    def bulleted(self) -> bool:
        return bool(_BULLET.match(self.text))


@dataclass(slots=True)
class _Table:
    top: float
    rows: list[list[str]]
    page: int


@dataclass(frozen=True)
class _Measure:
    """The text column: where lines end when they wrap, and how wide a space is."""

    right_margin: float
    space: float
    """Width of a space, as a share of the type size."""

    def fits(self, before: _Line, after: _Line) -> bool:
        """Whether the first word of `after` would have fitted at the end of `before`, so that
        the line did not wrap there but was broken on purpose."""
        end = before.x1 + self.space * before.size + after.first_word_width
        return end < self.right_margin - 0.5


def _open(source: str | pathlib.Path | BinaryIO) -> pdfplumber.PDF:
    """Open the source, refusing with a clear error anything that is not a readable PDF."""
    if isinstance(source, (str, pathlib.Path)):
        name = str(source)
        try:
            data = pathlib.Path(source).read_bytes()
        except OSError as error:
            raise UnreadablePdfError(f"cannot read {name}: {error.strerror or error}") from error
    else:
        name = str(getattr(source, "name", "the file"))
        data = source.read()
    if not data.strip():
        raise UnreadablePdfError(f"{name} is empty, not a PDF")
    if not data.lstrip().startswith(b"%PDF-"):
        raise UnreadablePdfError(f"{name} is not a PDF: it does not start with %PDF-")
    pdf: pdfplumber.PDF | None = None
    try:
        pdf = pdfplumber.open(io.BytesIO(data))
        if pdf.pages:
            return pdf
        problem = "it has no pages"
    except _PARSE_ERRORS as error:
        problem = str(error) or type(error).__name__
    if pdf is not None:
        pdf.close()
    raise UnreadablePdfError(f"{name} is a damaged or truncated PDF ({problem})")


def _leaves(objects: Iterable[LTComponent]) -> Iterator[LTComponent]:
    for obj in objects:
        if isinstance(obj, LTContainer):
            yield from _leaves(obj)
        else:
            yield obj


def _page_content(page: Page, layout: LTPage) -> tuple[list[_Char], list[dict[str, Any]]]:
    """A page's characters and ruling edges, in pdfplumber's top-down coordinates."""
    height = float(page.height)
    left, above = float(page.mediabox[0]), float(page.mediabox[1])
    chars: list[_Char] = []
    edges: list[dict[str, Any]] = []

    def edge(x0: float, y0: float, x1: float, y1: float) -> None:
        vertical, horizontal = abs(x0 - x1) < 0.01, abs(y0 - y1) < 0.01
        if vertical == horizontal:  # a point, or a slanted stroke: no ruling
            return
        top, bottom = height - max(y0, y1) + above, height - min(y0, y1) + above
        edges.append(
            {
                "object_type": "line",
                "orientation": "v" if vertical else "h",
                "x0": min(x0, x1) + left,
                "x1": max(x0, x1) + left,
                "top": top,
                "bottom": bottom,
                "doctop": top,
                "width": abs(x1 - x0),
                "height": bottom - top,
            }
        )

    for obj in _leaves(layout):
        if isinstance(obj, LTChar):
            font = str(obj.fontname)
            chars.append(
                _Char(
                    obj.get_text(),
                    "Bold" in font,
                    "Italic" in font or "Oblique" in font,
                    float(obj.size),
                    obj.x0 + left,
                    obj.x1 + left,
                    height - obj.y1 + above,
                    height - obj.y0 + above,
                )
            )
        elif isinstance(obj, LTRect):
            x0, y0, x1, y1 = obj.bbox
            edge(x0, y0, x1, y0)
            edge(x0, y1, x1, y1)
            edge(x0, y0, x0, y1)
            edge(x1, y0, x1, y1)
        elif isinstance(obj, LTCurve):  # a line is a curve of two points
            for (ax, ay), (bx, by) in pairwise(obj.pts):
                edge(ax, ay, bx, by)
    return chars, edges


def _tables(edges: list[dict[str, Any]]) -> list[list[BBox]]:
    """Tables drawn with ruling lines, each as its cells' bounding boxes (pdfplumber's method)."""
    if not edges:
        return []
    t = _TABLE_TOLERANCE
    merged = merge_edges(
        edges, snap_x_tolerance=t, snap_y_tolerance=t, join_x_tolerance=t, join_y_tolerance=t
    )
    long_enough = [e for e in merged if e["width" if e["orientation"] == "h" else "height"] >= t]
    return cells_to_tables(intersections_to_cells(edges_to_intersections(long_enough, t, t)))


def _lines(chars: Iterable[_Char], page: int) -> list[_Line]:
    """Characters grouped into printed lines, top to bottom."""
    groups: list[list[_Char]] = []
    bottom = float("-inf")
    for char in sorted(chars, key=lambda c: c.top):
        if groups and char.top < bottom - _LINE_OVERLAP * char.size:
            groups[-1].append(char)
            bottom = max(bottom, char.bottom)
        else:
            groups.append([char])
            bottom = char.bottom
    return [line for group in groups for line in _split_line(group, page)]


def _split_line(chars: list[_Char], page: int) -> list[_Line]:
    """The line of these characters; two where an italic run runs into upright text with no
    space ("… Effective 9/14/2012" + "Version 1"): the text form has two headings there."""
    inked = sorted((c for c in chars if not c.text.isspace()), key=lambda c: c.x0)
    runs: list[list[_Char]] = []
    for before, char in zip([None, *inked], inked, strict=False):
        if before is None or (
            before.italic
            and not char.italic
            and _style_boundary(before, char)
            and char.x0 - before.x1 <= _WORD_GAP * char.size
        ):
            runs.append([])
        runs[-1].append(char)
    lines = [_line(run, page) for run in runs]
    for line in lines[1:]:
        line.starts_block = True
    return lines


def _line(inked: list[_Char], page: int) -> _Line:
    """A line from its inked characters, left to right: words end at gaps and where an italic
    run meets upright text."""
    parts: list[str] = []
    first_word_end: float | None = None
    for before, char in pairwise(inked):
        if not parts:
            parts.append(before.text)
        if char.x0 - before.x1 > _WORD_GAP * char.size or _style_boundary(before, char):
            parts.append(" ")
            if first_word_end is None:
                first_word_end = before.x1
        parts.append(char.text)
    body = [c for c in inked if not _BULLET.match(c.text)] or inked
    return _Line(
        text=normalise("".join(parts) or inked[0].text),
        page=page,
        x1=inked[-1].x1,
        top=min(c.top for c in inked),
        bottom=max(c.bottom for c in inked),
        size=max(c.size for c in inked),
        starts_bold=body[0].bold,
        all_bold=all(c.bold for c in body),
        first_word_width=(inked[-1].x1 if first_word_end is None else first_word_end) - inked[0].x0,
    )


def _style_boundary(before: _Char, after: _Char) -> bool:
    """An italic run and upright text meeting inside what looks like one word: the PDF prints no
    space there ("9/14/2012Version"), the text form has a markup boundary, so a word ends."""
    return before.italic != after.italic and before.text.isalnum() and after.text.isalnum()


def _running_key(line: _Line) -> tuple[str, int]:
    return re.sub(r"\d+", "#", line.text), round(line.top)


def _drop_running_lines(pages: Sequence[list[_Line]]) -> None:
    """Remove the running header and footer: a first or last line repeated on most pages."""
    counts: Counter[tuple[str, int]] = Counter()
    for lines in pages:
        if lines:
            counts[_running_key(lines[0])] += 1
        if len(lines) > 1:
            counts[_running_key(lines[-1])] += 1
    needed = max(2.0, _RUNNING_SHARE * len(pages))
    running = {key for key, count in counts.items() if count >= needed}
    for lines in pages:
        while lines and _running_key(lines[0]) in running:
            lines.pop(0)
        while lines and (_running_key(lines[-1]) in running or _FOOTER.match(lines[-1].text)):
            lines.pop()


def _glued(before: str, after: str) -> bool:
    """Whether a line break between two texts fell inside a word, so no space joins them."""
    broken = _BROKEN_AFTER.search(before)
    if broken:
        return broken.group(1) == "/" or not after[:1].isdigit()
    return bool(_LABEL_END.search(before) and _LABEL_START.match(after))


def _join(lines: Sequence[_Line], measure: _Measure | None) -> str:
    """The text of a block's lines: wrapped lines joined by a space, or by nothing inside a word;
    given a measure, a hard line break is kept as "\\n"."""
    text = lines[0].text if lines else ""
    for before, line in pairwise(lines):
        if measure and before.page == line.page and measure.fits(before, line):
            text += "\n"
        elif not _glued(before.text, line.text):
            text += " "
        text += line.text
    return _ESCAPED_DOLLAR.sub("", text)


def _blocks(lines: list[_Line], measure: _Measure) -> list[Block]:
    """The blocks of a run of lines: one, or more where list items were printed inline."""
    kind = BlockKind.HEADING if lines[0].starts_bold else BlockKind.PARAGRAPH
    blocks = []
    for index, part in enumerate(_INLINE_ITEM.split(_join(lines, measure))):
        bullet = index > 0 or lines[0].bulleted
        part = _LIST_NUMBER.sub("", _BULLET.sub("", part.lstrip()), count=1)
        text = "\n".join(p for p in (normalise(p) for p in part.split("\n")) if p)
        if text:
            blocks.append(Block(kind, text, page=lines[0].page, bullet=bullet))
    return blocks


def _starts_block(line: _Line, previous: _Line, measure: _Measure) -> bool:
    """Whether a line begins a new block rather than continuing the one above it."""
    if line.starts_block or line.bulleted or line.all_bold != previous.all_bold:
        return True
    if abs(line.size - previous.size) > 0.25:
        return True
    if line.page != previous.page:
        # No gap to measure across a page break: the paragraph goes on if its last line was
        # filled up to the margin, so that this line's first word could not have fitted on it.
        return measure.fits(previous, line)
    return line.top - previous.bottom > _PARAGRAPH_GAP * line.size


def _read_page(
    page: Page, layout: LTPage, number: int
) -> tuple[list[_Line], list[_Table], list[float]]:
    """A page's lines outside tables, its tables, and its spaces' widths (shares of the size)."""
    chars, edges = _page_content(page, layout)
    spaces = [(c.x1 - c.x0) / c.size for c in chars if c.text == " " and c.size > 0]
    tables: list[_Table] = []
    for cells in _tables(edges):
        box = (
            min(c[0] for c in cells),
            min(c[1] for c in cells),
            max(c[2] for c in cells),
            max(c[3] for c in cells),
        )
        inside = [c for c in chars if c.inside(box)]
        if all(c.text.isspace() for c in inside):
            continue  # a ruled box without text
        chars = [c for c in chars if not c.inside(box)]
        rows: dict[float, list[tuple[float, str]]] = {}
        for cell in cells:
            text = normalise(_join(_lines((c for c in inside if c.inside(cell)), number), None))
            rows.setdefault(round(cell[1], 1), []).append((cell[0], text))
        cells_by_row = [[text for _, text in sorted(row)] for _, row in sorted(rows.items())]
        tables.append(_Table(box[1], cells_by_row, number))
    return _lines(chars, number), tables, spaces


def read_pdf(
    source: str | pathlib.Path | BinaryIO,
    *,
    max_pages: int | None = None,
    deadline: float | None = None,
) -> list[Block]:
    """Blocks of a regulation's PDF, the same as `read_text` gives for its text form.

    :param max_pages: refuse a PDF with more pages, before parsing any.
    :param deadline: a `time.monotonic()` instant; refuse the PDF if a page is still to parse then.
    :raises UnreadablePdfError: the source is not a PDF, or is empty, truncated or damaged, has
        more than `max_pages` pages or takes past `deadline` to read.
    """
    pdf = _open(source)
    pages: list[list[_Line]] = []
    tables: list[list[_Table]] = []
    spaces: list[float] = []
    try:
        if max_pages is not None and len(pdf.pages) > max_pages:
            raise UnreadablePdfError(
                f"it has {len(pdf.pages):,} pages; a source may have at most {max_pages:,}"
            )
        for number, page in enumerate(pdf.pages, start=1):
            if deadline is not None and time.monotonic() > deadline:
                raise UnreadablePdfError(
                    f"reading it took too long (stopped before page {number} of {len(pdf.pages)})"
                )
            try:
                layout = page.layout  # the parse: all that can fail on a damaged file
            except _PARSE_ERRORS as error:
                problem = str(error) or type(error).__name__
                raise UnreadablePdfError(f"page {number} is damaged ({problem})") from error
            lines, page_tables, page_spaces = _read_page(page, layout, number)
            pages.append(lines)
            tables.append(page_tables)
            spaces += page_spaces
            page.close()
    finally:
        pdf.close()

    _drop_running_lines(pages)
    measure = _Measure(
        right_margin=max((line.x1 for lines in pages for line in lines), default=0.0),
        space=statistics.median(spaces) if spaces else _SPACE_WIDTH,
    )
    blocks: list[Block] = []
    current: list[_Line] = []
    for lines, page_tables in zip(pages, tables, strict=True):
        items: list[_Line | _Table] = [*lines, *page_tables]
        for item in sorted(items, key=lambda item: item.top):
            if isinstance(item, _Table) or (current and _starts_block(item, current[-1], measure)):
                if current:
                    blocks += _blocks(current, measure)
                current = []
            if isinstance(item, _Table):
                rows = (row_block(cells, page=item.page) for cells in item.rows)
                blocks += [row for row in rows if row]
            else:
                current.append(item)
    if current:
        blocks += _blocks(current, measure)
    return blocks
