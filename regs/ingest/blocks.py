"""The block stream both readers produce: what a regulation says, in reading order, without
layout."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum


class BlockKind(StrEnum):
    HEADING = "heading"
    """A bold heading line: a section heading or a heading inside a section."""
    PARAGRAPH = "paragraph"
    """A paragraph of running text, possibly opening with a subsection label such as (3)."""
    ROW = "row"
    """One row of a table, as its non-empty cells."""


@dataclass(frozen=True)
class Block:
    kind: BlockKind
    text: str
    """Plain text: markup removed, whitespace collapsed except "\n" for a forced line break; for
    a row, its cells joined by " | "."""
    page: int | None = None
    """PDF page (1-based) the block starts on; None for the text form."""
    line: int | None = None
    """Line of the text form (1-based) the block starts on; None for the PDF form."""
    cells: tuple[str, ...] = field(default=())
    bullet: bool = False
    """The source prints it as a list item ("- " in the text form, "•" in the PDF)."""


_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Collapse runs of whitespace to one space, so both source forms compare equal."""
    return _SPACES.sub(" ", text).strip()


def row_block(
    cells: list[str], *, page: int | None = None, line: int | None = None
) -> Block | None:
    """A table row from its cells; empty cells are dropped (the PDF cannot show them)."""
    kept = tuple(c for c in (normalise(c) for c in cells) if c)
    if not kept:
        return None
    return Block(BlockKind.ROW, " | ".join(kept), page=page, line=line, cells=kept)
