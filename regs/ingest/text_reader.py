"""Read the markdown text form of a regulation into blocks.

Reads: the text (a conversion of the regulator's PDF: `#` headings, `**bold**`, `*italic*`,
`<b>`/`<i>` tags, `[text](#)` links, `- ` list bullets, tab-separated table rows).
Writes: one Block per non-empty line, markup removed.
"""

from __future__ import annotations

import re

from .blocks import Block, BlockKind, normalise, row_block

_LINK = re.compile(r"\[([^\]]*)\]\(#\)")
_TAGS = re.compile(r"</?(?:b|i|u|sup|sub)>")
# Emphasis is a balanced pair of 1-3 asterisks; a lone asterisk is text (a footnote mark "888*").
_EMPHASIS = re.compile(r"(?<![\\*])(\*{1,3})(?=[^\s*])(.+?)(?<=[^\s\\])\1(?!\*)")
_ESCAPE = re.compile(r"\\([*$_#\[\]()])")
_HEADING_MARK = re.compile(r"^#+\s*")
_BULLET = re.compile(r"^\s*[-•]\s+")
# A bold run closed and another opened on the same line ("...2012*****Version 1**") is two
# headings: the last two asterisks of the run open the second.
_GLUED_HEADINGS = re.compile(r"(?<=\S\*\*)(?=\*\*[^\s*])")


def strip_markup(text: str) -> str:
    """The plain text of a line: no emphasis, tags, links or escapes."""
    text = _LINK.sub(r"\1", text)
    text = _TAGS.sub("", text)
    while True:
        stripped = _EMPHASIS.sub(r"\2", text)
        if stripped == text:
            break
        text = stripped
    return _ESCAPE.sub(r"\1", text)


def _starts_block(raw: str) -> bool:
    """A line that opens its own block: a list item, a heading or a table row."""
    return (
        "\t" in raw
        or bool(_BULLET.match(raw) or _HEADING_MARK.match(raw))
        or raw.lstrip().startswith("**")
    )


def read_text(source: str) -> list[Block]:
    """Blocks of a regulation's text form: a paragraph per run of lines (markdown rules: a line
    ending in two spaces is a hard line break, kept as "\n"), a heading or table row per line."""
    blocks: list[Block] = []
    lines = source.splitlines()
    for index, raw in enumerate(lines):
        number = index + 1
        if not raw.strip():
            continue
        before = lines[index - 1] if index else ""
        if (
            before.strip()
            and blocks
            and blocks[-1].kind is BlockKind.PARAGRAPH
            and not _starts_block(raw)
        ):
            joiner = "\n" if before.endswith("  ") else " "
            last = blocks[-1]
            blocks[-1] = Block(
                last.kind,
                f"{last.text}{joiner}{normalise(strip_markup(raw))}",
                line=last.line,
                bullet=last.bullet,
            )
            continue
        if "\t" in raw:
            row = row_block([strip_markup(cell) for cell in raw.split("\t")], line=number)
            if row:
                blocks.append(row)
            continue
        is_heading = bool(_HEADING_MARK.match(raw)) or raw.lstrip().startswith("**")
        for part in _GLUED_HEADINGS.split(raw):
            text = normalise(strip_markup(_BULLET.sub("", _HEADING_MARK.sub("", part))))
            if text:
                kind = BlockKind.HEADING if is_heading else BlockKind.PARAGRAPH
                blocks.append(Block(kind, text, line=number, bullet=bool(_BULLET.match(raw))))
    return blocks
