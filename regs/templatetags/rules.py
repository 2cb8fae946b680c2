"""Template filters for rule text: escaped, with the source's pipe tables shown as tables."""

from __future__ import annotations

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _table(rows: list[str]) -> str:
    cells = [[escape(c.strip()) for c in row.strip().strip("|").split("|")] for row in rows]
    head, body = cells[0], cells[1:]
    parts = ['<table class="data rule-table"><thead><tr>']
    parts += [f'<th scope="col">{c}</th>' for c in head]
    parts.append("</tr></thead><tbody>")
    for row in body:
        parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


@register.filter
def rule_text(text: str | None) -> SafeString:
    """Rule text as HTML: every character escaped; lines holding " | " cells (a printed table)
    become a table, other lines paragraphs."""
    if not text:
        return mark_safe("")
    out: list[str] = []
    rows: list[str] = []
    for line in text.split("\n"):
        if "|" in line and line.strip():
            if set(line.strip()) - set("|-: "):  # not a markdown separator row
                rows.append(line)
            continue
        if rows:
            out.append(_table(rows))
            rows = []
        if line.strip():
            out.append(f"<p>{escape(line)}</p>")
    if rows:
        out.append(_table(rows))
    return mark_safe("".join(out))  # noqa: S308 - every piece escaped above


_STATES = {
    "in_force": "in force",
    "not_on_file": "not on file",
    "not_in_force": "not in force",
    "proposed": "proposed",
}


@register.filter
def state_label(state: str) -> str:
    """A unit's or provision's state as a reader says it: in force, not on file, …"""
    return _STATES.get(state, state.replace("_", " "))


@register.filter
def record_object(name: str, key: str) -> str:
    """A record-history object named without its provision's key: "(7) from 2016-10-30" for
    "us-co-rule-8-30-89923(7) from 2016-10-30"; the section's own unit is "section"."""
    if not name.startswith(key):
        return name
    rest = name[len(key) :].strip()
    return rest if rest and not rest.startswith("from ") else f"section {rest}".strip()
