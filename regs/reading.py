"""Reads for the reader's pages: an instrument's contents and a provision as of a date, with what
a reader needs around the text (its other labels, its legal and record history, what cites it).

Selectors like regs.selectors: `as_of` and `today` come from the caller, results are frozen.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from jurisdictions.models import Instrument
from pitboss.errors import DomainError
from pitboss.periods import covers

from . import selectors
from .citing import CitingFact, facts_citing
from .models import EventKind, Provision, Status


class UnknownInstrument(DomainError):
    def __init__(self, jurisdiction: str, instrument: str, known: list[str]) -> None:
        names = ", ".join(known) or "none (unknown jurisdiction)"
        super().__init__(
            "unknown_instrument",
            f"{jurisdiction} has no instrument {instrument!r}; its instruments are: {names}.",
            404,
        )


def instrument_get(*, jurisdiction: str, slug: str) -> Instrument:
    """The jurisdiction's instrument with this slug (rule-8).

    :raises UnknownInstrument: none; the message lists the slugs there are.
    """
    instruments = list(
        Instrument.objects.select_related("jurisdiction").filter(jurisdiction__code=jurisdiction)
    )
    found = next((i for i in instruments if i.slug == slug), None)
    if found is None:
        raise UnknownInstrument(jurisdiction, slug, [i.slug for i in instruments])
    return found


def instrument_contents(
    *, instrument: Instrument, as_of: dt.date
) -> list[selectors.ProvisionState]:
    """The instrument's provisions in source order, each as it stood on `as_of` (label of that
    date, title, state); proposed-only provisions are listed as proposed."""
    pks = list(
        Provision.objects.filter(instrument=instrument)
        .order_by("order")
        .values_list("pk", flat=True)
    )
    return [selectors.provision_state(r, as_of=as_of) for r in selectors.provision_records(pks)]


@dataclass(frozen=True)
class TimelineEntry:
    """A dated note of the provision's legal history, on the unit it belongs to."""

    date: dt.date | None
    kind: str
    kind_label: str
    citation: str
    raw: str
    new_label: str
    ambiguous: bool


@dataclass(frozen=True)
class OtherLabel:
    label: str
    effective_from: dt.date | None
    effective_to: dt.date | None
    status: str


@dataclass(frozen=True)
class ProvisionReading:
    """A provision as of a date, and everything its page shows around the text."""

    state: selectors.ProvisionState
    instrument: Instrument
    asked: str
    """The section label the reader asked for (it may be an old or reused one)."""
    target: str
    """The subsection path asked for ("" for the section)."""
    proposed: bool
    """The asked label is a proposed text's: its proposed version is shown."""
    former: tuple[OtherLabel, ...]
    """The provision's other labels (earlier, later, proposed), in date order."""
    reused: tuple[dict[str, object], ...]
    """Other provisions the asked label has named, each with its period."""
    timeline: tuple[TimelineEntry, ...]
    records: tuple[selectors.Record, ...]
    records_total: int
    facts: tuple[CitingFact, ...]


def label_on(state: selectors.ProvisionState, day: dt.date | None) -> str:
    """The adopted label the provision bore on `day` (before its first label, that one; undated,
    today's): an event is named as it was cited when it happened (30-834.23 on 2016-10-30)."""
    adopted = [c for c in state.citations if c.status == Status.ADOPTED]
    if day is None or not adopted:
        return state.current_citation
    for c in adopted:
        if covers(c.effective_from, c.effective_to, day):
            return c.label
    first = min(adopted, key=lambda c: c.effective_from or dt.date.min)
    if first.effective_from and day < first.effective_from:
        return first.label
    return state.current_citation


def _timeline(state: selectors.ProvisionState) -> tuple[TimelineEntry, ...]:
    entries = [
        TimelineEntry(
            date=note["date"],
            kind=str(note["kind"]),
            kind_label=EventKind(note["kind"]).label if note["kind"] in EventKind else "",
            citation=selectors.unit_citation(
                label_on(state, note["date"]),
                str(note["unit"]),
            ),
            raw=str(note["raw"]),
            new_label=str(note["new_label"]),
            ambiguous=bool(note["ambiguous"]),
        )
        for note in state.notes
    ]
    entries.sort(key=lambda e: (e.date is None, e.date or dt.date.min))
    return tuple(entries)


def provision_reading(
    *,
    jurisdiction: str,
    label: str,
    as_of: dt.date,
    today: dt.date,
    provision_id: int | None = None,
    records_limit: int = 25,
) -> ProvisionReading:
    """What `label` (old, reused, proposed, with or without a subsection) names in the
    jurisdiction on `as_of`, and the provision as it stood that day. With `provision_id`, that
    provision whatever the label names (an as-of change keeps the provision the reader is on).

    :raises UnknownCitation: the jurisdiction never had the label.
    :raises UnknownSubsection: the provision has no such subsection.
    """
    section, path = selectors.normalise_label(label)
    found = selectors.citation_resolve(
        jurisdiction=jurisdiction, citation=label, as_of=as_of, today=today
    )
    # An unknown provision id (an edited address) falls back to what the label names.
    records = selectors.provision_records([provision_id]) if provision_id else []
    record = (records or selectors.provision_records([found.provision.pk]))[0]
    pk = record.pk
    if path and not any(u.path == path for u in record.units):
        raise selectors.UnknownSubsection(section, path, [u.path for u in record.units])
    statuses = {c.status for c in record.citations if c.label == section}
    proposed = statuses == {Status.PROPOSED}
    state = selectors.provision_state(record, as_of=as_of, include_proposed=proposed)
    shown = section if proposed else state.citation
    former = tuple(
        OtherLabel(c.label, c.effective_from, c.effective_to, c.status)
        for c in record.citations
        if c.label != shown
    )
    reused = tuple(m for m in found.meanings if m["provision"] != pk)
    provision = Provision.objects.select_related("instrument__jurisdiction").get(pk=pk)
    history = selectors.provision_record_history(provision)
    return ProvisionReading(
        state=state,
        instrument=provision.instrument,
        asked=section,
        target=path,
        proposed=proposed,
        former=former,
        reused=reused,
        timeline=_timeline(state),
        records=tuple(history[:records_limit]),
        records_total=len(history),
        facts=tuple(facts_citing(pk, as_of=as_of)),
    )
