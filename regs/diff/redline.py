"""Redlines of a text diff: HTML with <ins>/<del> (every piece of rule text escaped) and a
terminal form with [-deleted-]{+inserted+} markers."""

from __future__ import annotations

import re
from html import escape

from .text import TextDiff, UnitDiff


def _trailing(text: str) -> str:
    return text[len(text.rstrip()) :]


def _label(unit: UnitDiff) -> tuple[str, str]:
    left = unit.left.citation if unit.left else ""
    right = unit.right.citation if unit.right else ""
    return left, right


def html_redline(diff: TextDiff, *, changed_only: bool = False) -> str:
    """The diff as HTML: one <div> per unit, deletions in <del>, insertions in <ins>. Editorial
    differences (case, markdown) show the right side's text."""
    parts = ['<div class="redline">']
    for unit in diff.units:
        if changed_only and unit.status == "same":
            continue
        left, right = _label(unit)
        cite = (
            escape(right or left)
            if left == right or not left or not right
            else (f"<del>{escape(left)}</del> <ins>{escape(right)}</ins>")
        )
        parts.append(f'<div class="unit {escape(unit.status)}"><span class="cite">{cite}</span> ')
        if unit.status == "not_on_file":
            parts.append('<span class="not-on-file">text on one side not on file</span>')
        for span in unit.spans:
            if span.op == "equal":
                parts.append(escape(span.right))
                continue
            cls = "" if span.substantive else ' class="editorial"'
            if span.left.strip():
                parts.append(f"<del{cls}>{escape(span.left.rstrip())}</del>")
            if span.right.strip():
                parts.append(f"<ins{cls}>{escape(span.right.rstrip())}</ins>")
            parts.append(escape(_trailing(span.right or span.left)))
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)


def terminal_redline(diff: TextDiff, *, color: bool = False, changed_only: bool = True) -> str:
    """The diff for a terminal: each changed unit's citation, then its text with deletions as
    [-…-] and insertions as {+…+} (red and green with `color`)."""
    red, green, bold, off = ("\x1b[31m", "\x1b[32m", "\x1b[1m", "\x1b[0m") if color else ("",) * 4
    lines = []
    for unit in diff.units:
        if changed_only and unit.status in ("same", "editorial"):
            continue
        left, right = _label(unit)
        cite = right or left if left == right or not left or not right else f"{left} → {right}"
        head = f"{bold}{cite}{off}  [{unit.status}]"
        if unit.status == "not_on_file":
            lines.append(f"{head}\n  (text on one side not on file: no diff shown)")
            continue
        body = []
        for span in unit.spans:
            if span.op == "equal":
                body.append(span.right)
                continue
            if span.left.strip():
                body.append(f"{red}[-{span.left.rstrip()}-]{off}")
            if span.right.strip():
                body.append(f"{green}{{+{span.right.rstrip()}+}}{off}")
            body.append(_trailing(span.right or span.left))
        lines.append(f"{head}\n  " + "".join(body).rstrip().replace("\n", "\n  "))
    return "\n".join(lines)


_TAG = re.compile(r"(</?(?:ins|del)\b[^>]*>)")
_UNIT = re.compile(r'(<div class="unit [^"]*"><span class="cite">.*?</span> )(.*?)(</div>)', re.S)


def with_tables(redline: str) -> str:
    """An HTML redline (html_redline) with each run of a unit's lines holding " | " cells (a
    printed table, as the rule text stores it) laid out as a table, its insertions and deletions
    kept cell by cell; for the pages (the API gives the redline as it is)."""
    return _UNIT.sub(lambda m: m[1] + _unit_tables(m[2]) + m[3], redline)


def _split(html: str, separator: str) -> list[str]:
    """`html` split at `separator` in its text, an <ins> or <del> open across a split closed
    before it and opened again after, so each piece is whole."""
    pieces, current, open_tag = [], "", ""
    for token in _TAG.split(html):
        if _TAG.fullmatch(token):
            open_tag = "" if token.startswith("</") else token
            current += token
            continue
        parts = token.split(separator)
        for n, part in enumerate(parts):
            if n:
                closing = f"</{open_tag[1:4]}>" if open_tag else ""
                pieces.append(current + closing)
                current = open_tag
            current += part
    pieces.append(current)
    return pieces


def _text(html: str) -> str:
    return _TAG.sub("", html)


def _unit_tables(body: str) -> str:
    out: list[str] = []
    rows: list[str] = []

    def flush() -> None:
        if rows:
            cells = [[c.strip() for c in _split(row.strip(), "|")] for row in rows]
            cells = [row[1:-1] if len(row) > 2 and not _text(row[0]) else row for row in cells]
            out.append(
                '<table class="data rule-table">'
                + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in cells)
                + "</table>"
            )
            rows.clear()

    for line in _split(body, "\n"):
        text = _text(line).strip()
        if "|" in text:
            if set(text) - set("|-: "):  # not a markdown separator row
                rows.append(line)
            continue
        flush()
        out.append(line)
    flush()
    return "\n".join(piece for piece in out if piece)
