"""Redlines of a text diff: HTML with <ins>/<del> (every piece of rule text escaped) and a
terminal form with [-deleted-]{+inserted+} markers."""

from __future__ import annotations

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
