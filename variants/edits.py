"""What officers changed in the knowledge base between two record times (django-simple-history),
in the diff's shape: each object's tracked fields as they stood at `start` against `end`.

Record time, not valid time: "what did the knowledge base say last Tuesday", not "what was law".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from regs.diff.text import normal_form
from regs.models import Annotation, Citation, Event, Status, Unit, UnitVersion
from regs.selectors import unit_citation

from .models import Constraint, Paytable, PaytableEntry, PlayRule, Wager


@dataclass(frozen=True)
class EditSide:
    citation: str
    """What the object is: a unit's citation, a paytable line, a constraint's code."""
    recorded_at: dt.datetime | None
    text: str | None
    """The tracked field(s) as they stood."""


@dataclass(frozen=True)
class Edit:
    kind: str
    """insertion (created), deletion (deleted), replacement (changed)."""
    substantive: bool
    """False where a text changed only in case, whitespace, markdown or punctuation."""
    model: str
    field: str
    left: EditSide | None
    right: EditSide | None
    event: dict[str, object]
    """The last edit in the window: when, by whom, the reason given."""


# model, label, the fields compared, how to name an object from its historical row
def _unit_name(labels: dict[int, str], paths: dict[int, tuple[int, str]]) -> Any:
    def name(row: Any) -> str:
        provision, path = paths.get(row.unit_id, (0, f"unit {row.unit_id}"))
        return unit_citation(labels.get(provision, f"provision {provision}"), path)

    return name


def _tracked(labels: dict[int, str], paths: dict[int, tuple[int, str]]) -> list[tuple[Any, ...]]:
    unit = _unit_name(labels, paths)
    return [
        (UnitVersion, "unit version", ("text", "on_file", "effective_from", "effective_to"), unit),
        (Event, "event", ("raw", "kind", "date"), unit),
        (Annotation, "annotation", ("text", "kind"), unit),
        (Citation, "citation", ("label", "effective_from", "effective_to", "status"), None),
        (Wager, "wager", ("name", "kind", "owner", "outcomes"), lambda r: r.slug),
        (Paytable, "paytable", ("label", "decks", "dealer_soft_17"), lambda r: r.key),
        (
            PaytableEntry,
            "paytable line",
            ("pays", "label"),
            lambda r: (
                f"{r.paytable.key if r.paytable_id else '?'} {r.outcome}"
                + (f" ({r.column})" if r.column else "")
            ),
        ),
        (Constraint, "constraint", ("params", "kind", "severity", "message"), lambda r: r.code),
        (PlayRule, "play rule", ("params", "summary"), lambda r: f"{r.wager.slug}/{r.key}"),
    ]


def _values(row: Any, fields: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(str(getattr(row, f)) for f in fields)


def _shown(values: tuple[str, ...], other: tuple[str, ...] | None, fields: tuple[str, ...]) -> str:
    """The main field alone where only it differs (or the object is new or gone), else all."""
    if other is None or values[1:] == other[1:]:
        return values[0]
    return "; ".join(f"{f}: {v}" for f, v in zip(fields, values, strict=True))


def knowledge_base_edits(*, start: dt.datetime, end: dt.datetime) -> tuple[Edit, ...]:
    """Each object of the rule text and the catalog edited after `start` up to `end`: created,
    deleted, or changed in a tracked field, with its state at both times and who made the last
    edit. An object edited and changed back shows nothing. Ordered by model, then object.
    """
    labels = {
        c["provision_id"]: c["label"]
        for c in Citation.objects.filter(status=Status.ADOPTED, effective_to__isnull=True).values(
            "provision_id", "label"
        )
    }
    paths = {
        u["id"]: (u["provision_id"], u["path"])
        for u in Unit.history.values("id", "provision_id", "path")
    }
    edits: list[Edit] = []
    for model, label, fields, name in _tracked(labels, paths):
        history = model.history
        touched = set(
            history.filter(history_date__gt=start, history_date__lte=end).values_list(
                "id", flat=True
            )
        )
        if not touched:
            continue
        rows: dict[int, list[Any]] = {}
        for row in history.filter(id__in=touched, history_date__lte=end).order_by(
            "id", "history_date", "history_id"
        ):
            rows.setdefault(row.id, []).append(row)
        for pk in sorted(rows):
            before = [r for r in rows[pk] if r.history_date <= start]
            old = before[-1] if before and before[-1].history_type != "-" else None
            last = rows[pk][-1]
            new = last if last.history_type != "-" else None
            if old is None and new is None:
                continue
            named = name or (lambda r: labels.get(r.provision_id, f"provision {r.provision_id}"))
            old_values = _values(old, fields) if old else None
            new_values = _values(new, fields) if new else None
            if old_values is not None and old_values == new_values:
                continue
            old_text = _shown(old_values, new_values, fields) if old_values else None
            new_text = _shown(new_values, old_values, fields) if new_values else None
            kind = "replacement" if old and new else "insertion" if new else "deletion"
            substantive = True
            if kind == "replacement" and old_text and new_text:
                substantive = normal_form(old_text) != normal_form(new_text)
            edits.append(
                Edit(
                    kind,
                    substantive,
                    label,
                    ", ".join(fields),
                    EditSide(named(old), old.history_date, old_text) if old else None,
                    EditSide(named(new or last), last.history_date, new_text) if new else None,
                    {
                        "kind": {"+": "created", "~": "changed", "-": "deleted"}[last.history_type],
                        "date": last.history_date,
                        "user": last.history_user.get_username() if last.history_user else None,
                        "reason": last.history_change_reason,
                    },
                )
            )
    return tuple(edits)
