"""A regulation file ingested into the knowledge base: its sections' provisions, citations, units,
versions, events and annotations written where they differ from what is on file; the instrument a
file is ingested under."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeGuard

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.text import slugify

from jurisdictions.models import Instrument
from pitboss.errors import DomainError
from regs.ingest.sources import SourceError, check_instrument, own_line_notes, read_source
from regs.ingest.structure import ParsedSection, Scheme, structure
from regs.ingest.timeline import SectionTimeline, kind_of, section_timeline
from regs.models import (
    Annotation,
    AnnotationKind,
    Citation,
    Event,
    Provision,
    SourceDocument,
    SourceKind,
    Status,
    Unit,
    UnitVersion,
)
from regs.signals import rules_recorded

from .writer import HistoryWriter, IngestReport, ingest_user

# Proposed texts use the rule numbers of the old statute (12-47.1): 47.1-834.23 is 30-834.23.
_LEGACY_PREFIX = re.compile(r"^47\.1-")


class IngestError(DomainError):
    def __init__(self, message: str) -> None:
        super().__init__("ingest_refused", message)


def source_ingest(
    *,
    instrument: Instrument,
    name: str,
    data: bytes,
    status: str = Status.ADOPTED,
    user: Any = None,
    progress: Callable[[int, int, str], None] | None = None,
) -> IngestReport:
    """Ingest one regulation file (PDF or text form) into the knowledge base, in one transaction.

    Re-ingesting the same text changes nothing; a changed text creates versions only where a unit's
    text or dates changed. A file that cannot be read, or that is another instrument's, is refused
    with IngestError and leaves the database as it was.
    """
    try:
        source = read_source(name, data, budget=settings.INGEST_TIME_BUDGET)
        scheme = Scheme(instrument.citation_scheme)
        doc = structure(
            source.blocks, scheme, own_line_notes(instrument.jurisdiction.code, instrument.slug)
        )
        check_instrument(doc, instrument.jurisdiction.code, instrument.slug, scheme, name)
    except SourceError as exc:
        raise IngestError(str(exc)) from exc
    report = IngestReport(source=name, kind=source.kind)
    start = timezone.now()
    report.unplaced = [b.text for b in doc.unplaced]
    writer = HistoryWriter(report, user or ingest_user(), f"ingested from {name}")
    with transaction.atomic():
        document = writer.upsert(
            SourceDocument,
            {"instrument": instrument, "sha256": source.sha256},
            {"name": name, "kind": source.kind, "status": status, "pages": source.pages},
        )
        latest = doc.latest_date()
        for number, section in enumerate(doc.sections, start=1):
            if progress:
                progress(number, len(doc.sections), section.label)
            timeline = section_timeline(section, source_latest=latest)
            report.sections += 1
            report.units += len(section.units)
            report.dates += sum(len(u.events) for u in timeline.units)
            if status == Status.PROPOSED:
                _write_proposed(writer, instrument, document, timeline, number)
            else:
                _write_adopted(writer, instrument, document, timeline, number)
        summary = {
            k: v
            for k, v in report.as_dict().items()
            if k in {"sections", "units", "dates", "unplaced"}
        }
        if document.report != summary:
            document.report = summary
            writer.save(document, created=False)
        if report.changed:
            code = instrument.jurisdiction.code
            transaction.on_commit(
                lambda: rules_recorded.send(
                    sender=source_ingest,
                    jurisdiction=code,
                    start=start,
                    end=timezone.now(),
                    reason=f"{name} ingested ({status} text)",
                )
            )
    return report


def _provision_for(
    instrument: Instrument, labels: list[str], status: str, *, current: bool = False
) -> Provision | None:
    """The provision cited by one of `labels` (with `current`, only by the label it has today)."""
    citations = Citation.objects.filter(
        provision__instrument=instrument, label__in=labels, status=status
    )
    if current:
        citations = citations.filter(effective_to__isnull=True)
    found = citations.select_related("provision").first()
    return found.provision if found else None


def _write_adopted(
    writer: HistoryWriter,
    instrument: Instrument,
    document: SourceDocument,
    timeline: SectionTimeline,
    order: int,
) -> None:
    section = timeline.section
    provision = _provision_for(instrument, [section.label], Status.ADOPTED, current=True)
    if provision is None:
        key = slugify(f"{instrument.jurisdiction.code}-{instrument.slug}-{section.label}")
        provision = writer.upsert(
            Provision,
            {"key": key},
            {"instrument": instrument, "title": section.title, "order": order},
        )
    else:
        writer.upsert(Provision, {"pk": provision.pk}, {"title": section.title, "order": order})
    for period in timeline.citations:
        writer.upsert(
            Citation,
            {"provision": provision, "label": period.label, "status": Status.ADOPTED},
            {
                "effective_from": period.effective_from,
                "effective_to": period.effective_to,
                "basis": period.basis,
            },
        )
    _write_units(writer, provision, document, timeline, proposed=False)


def _write_proposed(
    writer: HistoryWriter,
    instrument: Instrument,
    document: SourceDocument,
    timeline: SectionTimeline,
    order: int,
) -> None:
    section = timeline.section
    current = _LEGACY_PREFIX.sub("30-", section.label)
    provision = _provision_for(
        instrument, [section.label, current], Status.ADOPTED
    ) or _provision_for(instrument, [section.label], Status.PROPOSED)
    if provision is None:
        key = slugify(f"{instrument.jurisdiction.code}-{instrument.slug}-{section.label}-proposed")
        provision = writer.upsert(
            Provision,
            {"key": key},
            {"instrument": instrument, "title": section.title, "order": order},
        )
    writer.upsert(
        Citation,
        {"provision": provision, "label": section.label, "status": Status.PROPOSED},
        {
            "effective_from": None,
            "effective_to": None,
            "basis": f"label of the proposed text in {document.name}",
        },
    )
    if current != section.label:
        timeline.section.remarks.append(
            f"proposed under the older rule number {section.label} (now {current}); "
            "capitals mark proposed text"
        )
    _write_units(writer, provision, document, timeline, proposed=True)


def _write_units(
    writer: HistoryWriter,
    provision: Provision,
    document: SourceDocument,
    timeline: SectionTimeline,
    *,
    proposed: bool,
) -> None:
    """Units of the section and, per unit, its versions, events and annotations: each set loaded
    once, compared in memory, and written only where it differs."""
    section = timeline.section
    units = {u.path: u for u in Unit.objects.filter(provision=provision)}
    for order, tl in enumerate(timeline.units):
        if tl.unit.label not in units:
            writer.create_later(Unit(provision=provision, path=tl.unit.label, order=order))
    writer.flush()
    units = {u.path: u for u in Unit.objects.filter(provision=provision)}
    versions: dict[int, list[UnitVersion]] = {}
    for v in UnitVersion.objects.filter(unit__provision=provision).select_related("source"):
        versions.setdefault(v.unit_id, []).append(v)
    events = {(e.unit_id, e.order): e for e in Event.objects.filter(unit__provision=provision)}
    annotations = {
        (a.unit_id, a.kind, a.text) for a in Annotation.objects.filter(unit__provision=provision)
    }
    for order, tl in enumerate(timeline.units):
        unit = units[tl.unit.label]
        writer.change(unit, {"order": order})
        own_versions = versions.get(unit.pk, [])
        if proposed:
            _write_proposed_version(writer, unit, document, tl, own_versions)
        else:
            for remark in _write_versions(writer, unit, document, tl, own_versions):
                if (unit.pk, AnnotationKind.SOURCE_DEFECT, remark) not in annotations:
                    annotations.add((unit.pk, AnnotationKind.SOURCE_DEFECT, remark))
                    writer.create_later(
                        Annotation(unit=unit, kind=AnnotationKind.SOURCE_DEFECT, text=remark)
                    )
            for number, ue in enumerate(tl.events):
                values = {
                    "kind": kind_of(ue.event),
                    "date": ue.event.date,
                    "subject": ue.event.subject,
                    "new_label": ue.event.new_label,
                    "raw": ue.event.raw,
                    "permanent": ue.event.permanent,
                    "ambiguous": ue.ambiguous,
                }
                known = events.get((unit.pk, number))
                if known is None:
                    writer.create_later(Event(unit=unit, order=number, **values))
                else:
                    writer.change(known, values)
        for kind, text in _annotations(tl, section, timeline.remarks):
            if (unit.pk, kind, text) not in annotations:
                annotations.add((unit.pk, kind, text))
                writer.create_later(Annotation(unit=unit, kind=kind, text=text))
    writer.flush()


def _annotations(
    tl: Any, section: ParsedSection, section_remarks: list[str]
) -> list[tuple[str, str]]:
    """Source defects and ambiguities to record on a unit (whole-section ones on the section's
    unit)."""
    remarks = list(tl.unit.remarks) + tl.remarks
    notes = [placed.note for placed in tl.unit.notes]
    if not tl.unit.path:
        remarks += section.remarks + section_remarks
        notes += section.history
    out: list[tuple[str, str]] = [
        (AnnotationKind.AMBIGUITY if "ambiguous" in r else AnnotationKind.SOURCE_DEFECT, r)
        for r in remarks
    ]
    out += [(AnnotationKind.SOURCE_DEFECT, f"{d}: {n.raw}") for n in notes for d in n.defects]
    out += [
        (AnnotationKind.AMBIGUITY, _reach(placed.note.raw, placed.where, tl.unit.label))
        for placed in tl.unit.notes
        if placed.ambiguous
    ]
    return out


def _reach(note: str, where: str, label: str) -> str:
    """Why a note's reach is uncertain, for its annotation."""
    unit = label or "the section"
    if where == "lead-in":
        return (
            f"the note {note!r} ends the lead-in of {unit}: it may cover the list that follows too"
        )
    if where == "heading":
        return (
            f"the note {note!r} is in the section heading: "
            "the source does not say which parts it amended"
        )
    return (
        f"the note {note!r} is printed on a line of its own: "
        f"it is kept on {unit} and may cover only part of it"
    )


def _write_proposed_version(
    writer: HistoryWriter,
    unit: Unit,
    document: SourceDocument,
    tl: Any,
    existing: list[UnitVersion],
) -> None:
    values = {
        "text": tl.unit.text,
        "on_file": True,
        "effective_to": None,
        "source": document,
        "page": tl.unit.page,
        "line": tl.unit.line,
    }
    known = next((v for v in existing if v.status == Status.PROPOSED), None)
    if known is None:
        writer.create_later(
            UnitVersion(unit=unit, status=Status.PROPOSED, effective_from=None, **values)
        )
    else:
        writer.change(known, values)


def _write_versions(
    writer: HistoryWriter,
    unit: Unit,
    document: SourceDocument,
    tl: Any,
    existing: list[UnitVersion],
) -> list[str]:
    """Merge the periods a source implies with what is on file: a period already known keeps its
    text; the period on file gains its end when a later version starts."""
    text, page, line = tl.unit.text, tl.unit.page, tl.unit.line
    remarks: list[str] = []
    known_by_start = {v.effective_from: v for v in existing if v.status != Status.PROPOSED}
    starts = {period.effective_from for period in tl.versions}
    for start, stale in list(known_by_start.items()):
        if start not in starts and not (stale.on_file and stale.source_id != document.pk):
            # A period this source no longer implies (the dates were read differently before):
            # removed, its record history kept. Words another source put on file are kept.
            stale._history_user = writer.user  # type: ignore[attr-defined]
            stale._change_reason = writer.reason  # type: ignore[attr-defined]
            stale.delete()
            del known_by_start[start]
            remarks.append(f"the period from {start or 'the start'} is no longer implied; removed")
    for period in tl.versions:
        if period.temporary:
            status = Status.TEMPORARY
        else:
            status = Status.SUPERSEDED if period.effective_to else Status.ADOPTED
        known = known_by_start.get(period.effective_from)
        if known is not None and known.on_file and not period.on_file:
            # An earlier source gave the words of a period this source only dates: keep them.
            writer.change(
                known,
                {
                    "effective_to": period.effective_to,
                    "status": status,
                    "ambiguous": period.ambiguous,
                    "ambiguous_until": period.ambiguous_until,
                },
            )
            continue
        values: dict[str, Any] = {
            "effective_to": period.effective_to,
            "status": status,
            "on_file": period.on_file,
            "ambiguous": period.ambiguous,
            "ambiguous_until": period.ambiguous_until,
            "text": text if period.on_file else "",
        }
        if period.on_file:
            same_words = known is not None and known.text == text and known.source_id is not None
            values["source"] = known.source if same_words and known else document
            values["page"] = page or (known.page if known else None)
            values["line"] = line or (known.line if known else None)
            if _text_form_prevails(known, document, text):
                # The PDF renders this unit differently from the text form of the same regulation
                # (footnote marks, a break it cannot show): keep the text form's words, add the
                # page.
                values |= {"text": known.text, "source": known.source, "line": known.line}
                remarks.append(
                    f"the PDF ({document.name}, page {page}) prints this unit differently "
                    "from the text "
                    f"form; the text form is kept. PDF: {_excerpt(text, known.text)!r}"
                )
        if known is None:
            writer.create_later(
                UnitVersion(unit=unit, effective_from=period.effective_from, **values)
            )
        else:
            writer.change(known, values)
    return remarks


def _text_form_prevails(
    known: UnitVersion | None, document: SourceDocument, text: str
) -> TypeGuard[UnitVersion]:
    """A PDF does not overwrite words the text form of the same instrument put on file."""
    return (
        known is not None
        and known.on_file
        and known.text != text
        and document.kind == SourceKind.PDF
        and known.source is not None
        and known.source.kind == SourceKind.TEXT
        and known.source.instrument_id == document.instrument_id
    )


def _excerpt(text: str, other: str) -> str:
    """Where `text` first departs from `other`, with a little context."""
    at = next(
        (i for i, (a, b) in enumerate(zip(text, other, strict=False)) if a != b),
        min(len(text), len(other)),
    )
    return text[max(0, at - 30) : at + 50]


def instrument_for(jurisdiction: str, instrument: str) -> Instrument:
    """The instrument named by jurisdiction code and name or slug ("Rule 8" or "rule-8").

    :raises DomainError: no such instrument; the message lists the ones there are.
    """
    candidates = Instrument.objects.select_related("jurisdiction").filter(
        jurisdiction__code=jurisdiction
    )
    found = candidates.filter(
        models.Q(name__iexact=instrument) | models.Q(slug=slugify(instrument))
    ).first()
    if found is None:
        names = ", ".join(f'"{i.name}"' for i in candidates) or "none (unknown jurisdiction)"
        raise DomainError(
            "unknown_instrument",
            f"No instrument {instrument!r} in {jurisdiction}; there are: {names}.",
            404,
        )
    return found
