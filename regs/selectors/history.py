"""Who changed a provision's rule text, and when: its record history (django-simple-history), in
record time, not valid time."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model

from regs.models import Annotation, Citation, Event, Provision, Unit, UnitVersion


@dataclass(frozen=True)
class Record:
    """One change to the knowledge base in record time (django-simple-history)."""

    model: str
    object: str
    change: str
    date: dt.datetime
    user: str | None
    reason: str | None
    fields: tuple[str, ...]


_CHANGE = {"+": "created", "~": "changed", "-": "deleted"}


def provision_record_history(provision: Provision, *, limit: int = 500) -> list[Record]:
    """Who changed what in the provision's rule text, and when: newest first.

    This is record time (edits to the knowledge base), not valid time (when the text was law).
    Seven queries whatever the provision's size: history rows are read as plain values, each
    change compared in memory with the object's previous row, and named from the rows read.
    """
    unit_rows = list(
        Unit.history.filter(provision_id=provision.pk)
        .order_by("history_date", "history_id")
        .values()
    )
    paths = {row["id"]: row["path"] for row in unit_rows}  # the latest path of each unit
    unit_ids = list(paths)
    sources: list[tuple[str, type[Any], Any]] = [
        ("provision", Provision, Provision.history.filter(id=provision.pk)),
        ("citation", Citation, Citation.history.filter(provision_id=provision.pk)),
        ("unit", Unit, None),
        ("version", UnitVersion, UnitVersion.history.filter(unit_id__in=unit_ids)),
        ("event", Event, Event.history.filter(unit_id__in=unit_ids)),
        ("annotation", Annotation, Annotation.history.filter(unit_id__in=unit_ids)),
    ]
    read = [
        (
            name,
            model,
            unit_rows if qs is None else list(qs.order_by("history_date", "history_id").values()),
        )
        for name, model, qs in sources
    ]
    ids = {row["history_user_id"] for _, _, rows in read for row in rows}
    users = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))
    records: list[Record] = []
    for name, model, rows in read:
        tracked = [(f.name, f.attname) for f in model._meta.concrete_fields if f.editable]
        previous: dict[int, dict[str, Any]] = {}
        for row in rows:
            prior = previous.get(row["id"])
            previous[row["id"]] = row
            changed: tuple[str, ...] = ()
            if row["history_type"] == "~" and prior is not None:
                changed = tuple(sorted(field for field, att in tracked if row[att] != prior[att]))
            records.append(
                Record(
                    model=name,
                    object=_record_name(name, row, provision.key, paths),
                    change=_CHANGE[row["history_type"]],
                    date=row["history_date"],
                    user=users.get(row["history_user_id"]),
                    reason=row["history_change_reason"],
                    fields=changed,
                )
            )
    records.sort(key=lambda r: r.date, reverse=True)
    return records[:limit]


def _record_name(model: str, row: dict[str, Any], key: str, paths: dict[int, str]) -> str:
    """The object as its model's str() names it, from its history row's values."""
    if model == "provision":
        return f"{row['key']} {row['title']}"
    if model == "citation":
        return str(row["label"])
    if model == "unit":
        return f"{key}{row['path']}"
    if model == "version":
        return f"{key}{paths.get(row['unit_id'], '')} from {row['effective_from'] or 'unknown'}"
    if model == "event":
        return f"{row['kind']} {row['date']} {row['subject']}".strip()
    return str(row["text"])[:60]
