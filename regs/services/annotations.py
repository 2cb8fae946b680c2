"""Annotations written: the reviewed ones of fixtures/annotations.yaml applied, one added to a
unit, one edited by an officer."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from pitboss.concurrency import edit_locked
from pitboss.errors import DomainError
from regs.models import Annotation, Provision, Unit

from .writer import HistoryWriter, IngestReport, ingest_user

REVIEWED = "reviewed annotation"
"""The change reason of an annotation recorded from fixtures/annotations.yaml."""


def annotations_apply(*, entries: list[dict[str, str]], user: Any = None) -> tuple[int, int]:
    """Make the reviewed annotations on file those of fixtures/annotations.yaml: record each entry
    on the unit it names (once), and retire a reviewed annotation the file no longer holds (its
    record history keeps it, with the reason), so a reading the file revised does not linger
    beside its revision. An annotation an officer made or edited is never retired.

    :raises DomainError: an entry names a citation or unit the knowledge base does not have.
    :returns: how many annotations were new, and how many were retired.
    """
    from regs.selectors import provision_by_citation

    with transaction.atomic():
        kept: set[int] = set()
        added = 0
        for entry in entries:
            annotation, new = _annotation_record(
                provision=provision_by_citation(
                    jurisdiction=entry["jurisdiction"], label=entry["citation"]
                ),
                unit_path=entry.get("unit", ""),
                kind=entry["kind"],
                text=" ".join(entry["text"].split()),
                user=user,
                reason=REVIEWED,
            )
            kept.add(annotation.pk)
            added += new
        return added, _reviewed_retire(kept, user or ingest_user())


def _reviewed_retire(kept: set[int], user: Any) -> int:
    """Delete the annotations whose every record is the reviewed file's and that `kept` lacks."""
    history = Annotation.history.model
    touched_by_others = history.objects.exclude(history_change_reason=REVIEWED).values("id")
    stale = (
        Annotation.objects.filter(
            pk__in=history.objects.filter(history_change_reason=REVIEWED).values("id")
        )
        .exclude(pk__in=touched_by_others)
        .exclude(pk__in=kept)
    )
    retired = 0
    for annotation in stale:
        annotation._history_user = user  # type: ignore[attr-defined]
        annotation._change_reason = "reviewed annotation withdrawn from fixtures/annotations.yaml"  # type: ignore[attr-defined]
        annotation.delete()
        retired += 1
    return retired


def annotation_add(
    *,
    provision: Provision,
    unit_path: str,
    kind: str,
    text: str,
    user: Any = None,
    reason: str = "annotation",
) -> bool:
    """Record an annotation on a unit unless it is there already; True if it was new.

    :raises DomainError: the provision has no unit at `unit_path`.
    """
    return _annotation_record(
        provision=provision, unit_path=unit_path, kind=kind, text=text, user=user, reason=reason
    )[1]


def _annotation_record(
    *, provision: Provision, unit_path: str, kind: str, text: str, user: Any, reason: str
) -> tuple[Annotation, bool]:
    unit = Unit.objects.filter(provision=provision, path=unit_path).first()
    if unit is None:
        raise DomainError("unknown_unit", f"{provision.key} has no unit {unit_path!r}.")
    report = IngestReport(source=reason, kind="")
    annotation = HistoryWriter(report, user or ingest_user(), reason).upsert(
        Annotation, {"unit": unit, "kind": kind, "text": text}, {}
    )
    return annotation, bool(report.created)


def annotation_update(
    *,
    annotation: Annotation,
    text: str,
    user: Any,
    reason: str = "edited on the provision page",
    revision: str | None = None,
) -> Annotation:
    """Change an annotation's text, recorded in its history with the user who made the change.
    With `revision` (pitboss.concurrency.revision of the annotation as its editor loaded it), the
    change is made only if nobody changed the annotation since.

    :raises ValidationError: the text is empty, or the unit already has this remark.
    :raises pitboss.concurrency.EditConflict: the annotation is no longer at `revision`.
    """

    def apply(current: Annotation) -> None:
        current.text = " ".join(text.split())
        current._history_user = user  # type: ignore[attr-defined]
        current._change_reason = reason  # type: ignore[attr-defined]
        current.full_clean()
        current.save()

    return edit_locked(annotation, revision, apply, user=user, attempt=text)
