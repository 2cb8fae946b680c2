"""The provisions read for a point-in-time answer: every citation, unit, version, event and
annotation of a set of provisions as plain rows, in a few queries (the hot path of every lookup)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import F

from regs.models import Annotation, Citation, Event, UnitVersion

# An unknown start (null) sorts first on every database.
EARLIEST_FIRST = F("effective_from").asc(nulls_first=True)


class _Row:
    """A row read with .values(): attribute access without building a model instance."""

    def __init__(self, values: Mapping[str, object]) -> None:
        self.__dict__.update(values)


@dataclass
class ProvisionRecord:
    """Everything a point-in-time answer needs about one provision, read in six queries."""

    pk: int
    key: str
    title: str
    jurisdiction: str
    instrument: str
    citations: list[Any]
    units: list[Any]


def provision_records(pks: list[int]) -> list[ProvisionRecord]:
    """The provisions with these ids, in the order given, with citations, units, versions, events
    and annotations, in four queries. Plain rows, not model instances: this is the hot path of
    every lookup. (Every provision has a citation and every unit a version: ingestion writes both.)
    """
    records: dict[int, ProvisionRecord] = {}
    for c in (
        Citation.objects.filter(provision_id__in=pks)
        .order_by(EARLIEST_FIRST, "id")
        .values(
            "provision_id",
            "label",
            "effective_from",
            "effective_to",
            "status",
            "provision__key",
            "provision__title",
            "provision__instrument__name",
            "provision__instrument__jurisdiction__code",
        )
    ):
        record = records.get(c["provision_id"])
        if record is None:
            record = records[c["provision_id"]] = ProvisionRecord(
                c["provision_id"],
                c["provision__key"],
                c["provision__title"],
                c["provision__instrument__jurisdiction__code"],
                c["provision__instrument__name"],
                [],
                [],
            )
        record.citations.append(_Row(c))
    units: dict[int, Any] = {}
    for v in (
        UnitVersion.objects.filter(unit__provision_id__in=pks)
        .order_by("unit__provision_id", "unit__order", EARLIEST_FIRST, "id")
        .values(
            "unit_id",
            "unit__path",
            "unit__provision_id",
            "text",
            "on_file",
            "effective_from",
            "effective_to",
            "status",
            "ambiguous",
            "ambiguous_until",
            "page",
        )
    ):
        unit: Any = units.get(v["unit_id"])
        if unit is None:
            unit = units[v["unit_id"]] = _Row(
                {"path": v["unit__path"], "versions": [], "events": [], "annotations": []}
            )
            records[v["unit__provision_id"]].units.append(unit)
        unit.versions.append(_Row(v))
    for e in (
        Event.objects.filter(unit__provision_id__in=pks)
        .order_by("order")
        .values("unit_id", "kind", "date", "permanent", "subject", "new_label", "raw", "ambiguous")
    ):
        units[e["unit_id"]].events.append(_Row(e))
    for a in (
        Annotation.objects.filter(unit__provision_id__in=pks)
        .order_by("id")
        .values("id", "unit_id", "kind", "text")
    ):
        units[a["unit_id"]].annotations.append(_Row(a))
    return [records[pk] for pk in pks if pk in records]
