"""How the rule text is written: one object at a time, only where something changed, so
django-simple-history records who made each change and why; the report of an ingest."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from simple_history.utils import bulk_create_with_history

INGEST_USERNAME = "pitboss-ingest"


@dataclass
class IngestReport:
    source: str
    kind: str
    sections: int = 0
    units: int = 0
    dates: int = 0
    created: dict[str, int] = field(default_factory=dict)
    updated: dict[str, int] = field(default_factory=dict)
    unplaced: list[str] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)

    def count(self, bucket: dict[str, int], name: str) -> None:
        bucket[name] = bucket.get(name, 0) + 1

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated)

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "sections": self.sections,
            "units": self.units,
            "dates": self.dates,
            "created": self.created,
            "updated": self.updated,
            "unplaced": self.unplaced,
            "remarks": self.remarks,
        }


def ingest_user() -> Any:
    """The account ingestion is recorded under when no person is named."""
    user, _ = get_user_model().objects.get_or_create(
        username=INGEST_USERNAME, defaults={"is_active": False}
    )
    return user


class HistoryWriter:
    """Saves objects only when something changed, recording the user and reason in record history.

    New objects are validated, then created in bulk with their history rows (flush); changed
    objects are saved one by one.
    """

    def __init__(self, report: IngestReport, user: Any, reason: str) -> None:
        self.report, self.user, self.reason = report, user, reason
        self.pending: dict[type[models.Model], list[models.Model]] = {}

    @staticmethod
    def _clean(obj: models.Model) -> None:
        relations = [f.name for f in obj._meta.fields if f.is_relation]
        obj.full_clean(exclude=relations, validate_unique=False, validate_constraints=False)

    def save(self, obj: models.Model, *, created: bool) -> None:
        obj._history_user = self.user  # type: ignore[attr-defined]
        obj._change_reason = self.reason  # type: ignore[attr-defined]
        self._clean(obj)
        obj.save()
        self.report.count(
            self.report.created if created else self.report.updated, type(obj).__name__
        )

    def create_later(self, obj: models.Model) -> None:
        self._clean(obj)
        self.pending.setdefault(type(obj), []).append(obj)

    def flush(self) -> None:
        for model, objs in self.pending.items():
            bulk_create_with_history(
                objs, model, default_user=self.user, default_change_reason=self.reason
            )
            self.report.created[model.__name__] = self.report.created.get(model.__name__, 0) + len(
                objs
            )
        self.pending = {}

    def change(self, obj: models.Model, values: dict[str, Any]) -> None:
        changed = [k for k, v in values.items() if getattr(obj, k) != v]
        if changed:
            for k in changed:
                setattr(obj, k, values[k])
            self.save(obj, created=False)

    def upsert(
        self, model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any]
    ) -> Any:
        obj = model._default_manager.filter(**lookup).first()
        if obj is None:
            obj = model(**lookup, **values)
            self.save(obj, created=True)
        else:
            self.change(obj, values)
        return obj
