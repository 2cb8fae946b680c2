"""From a parsed section's notes to its legal timeline: the labels it went by and, per unit, the
periods whose text is on file, not on file, or uncertain.

Reads: a ParsedSection (units and placed notes).
Writes: a SectionTimeline — citations with periods, and per unit its events and version periods.

Rules (docs/architecture.md, "The knowledge model"; docs/knowledge-base.md): a permanent adoption,
an "Effective"/"Eff" date or an "Amended" date starts a version; a temporary adoption is only an
event. A note inside a unit's paragraph covers that unit; a note in the heading or a section history
covers the whole section; a note on a line of its own covers the unit enclosing the one before it,
ambiguously. Where a date says the text changed and the earlier text is in no source, the period
before it is kept with `on_file=False`: the knowledge base knows the period, not the words."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace

from .datenotes import DateEvent
from .labels import path_label
from .structure import ParsedSection, ParsedUnit

_RENUMBERING = {"renumbered", "relocated", "repealed_readopted"}
_STARTS = {"adopted", "effective"}
_SECTION_LABEL = re.compile(r"^(?:30|47\.1)-\s?\d{3,4}(?:\.\d{1,2})?$")


def kind_of(event: DateEvent) -> str:
    return str(event.kind.value if hasattr(event.kind, "value") else event.kind).lower()


@dataclass(frozen=True)
class UnitEvent:
    event: DateEvent
    ambiguous: bool
    """The note's reach is uncertain (a heading's or own-line "Amended" date)."""
    scope: str
    """"unit" (the unit's own note), "section" (covers the whole section) or "history"."""
    where: str = ""
    """Where the note is printed (heading, paragraph, lead-in, own line, table, history)."""


@dataclass(frozen=True)
class CitationPeriod:
    label: str
    effective_from: dt.date | None
    effective_to: dt.date | None
    basis: str


@dataclass(frozen=True)
class VersionPeriod:
    effective_from: dt.date | None
    effective_to: dt.date | None
    on_file: bool
    ambiguous: str = ""
    ambiguous_until: dt.date | None = None
    temporary: bool = False
    """In force by a temporary (emergency) adoption until the permanent one; its words are in no
    source, so never on file."""


@dataclass
class UnitTimeline:
    unit: ParsedUnit
    events: list[UnitEvent] = field(default_factory=list)
    """Events placed on this unit (whole-section events sit on the section's own unit)."""
    inherited: list[UnitEvent] = field(default_factory=list)
    """Notes of uncertain reach placed on an enclosing unit, which may cover this one too."""
    versions: list[VersionPeriod] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    """Why a date of the unit's own notes bounds none of its versions."""


@dataclass
class SectionTimeline:
    section: ParsedSection
    start: dt.date | None
    citations: list[CitationPeriod]
    units: list[UnitTimeline]
    remarks: list[str]


def _is_section_subject(subject: str, labels: set[str]) -> bool:
    subject = subject.strip()
    return not subject or subject.replace(" ", "") in labels or bool(_SECTION_LABEL.match(subject))


def _unit_subjects(subject: str, units: list[ParsedUnit]) -> list[tuple[str, ...]]:
    """The subsection paths a history clause names: "(1)", "30-803 (1)", "(2)-(3)", "(2)(a)–(3)".

    A span covers every unit from its first path to its last path and what that contains.
    """
    parts = re.split(r"(?<=\))\s*[-–]\s*(?=\()", subject)
    paths = [tuple(re.findall(r"\(([0-9a-z]{1,4})\)", part)) for part in parts]
    paths = [p for p in paths if p]
    if len(paths) != 2:
        return paths[:1]
    order = [u.path for u in units]
    first, last = paths
    if first not in order or last not in order:
        return paths
    end = max(i for i, p in enumerate(order) if p[: len(last)] == last)
    return order[order.index(first) : end + 1]


def _descendants(units: list[ParsedUnit], path: tuple[str, ...]) -> list[ParsedUnit]:
    if not path:
        return list(units)
    return [u for u in units if u.path[: len(path)] == path]


def section_timeline(
    section: ParsedSection, *, source_latest: dt.date | None = None
) -> SectionTimeline:
    """The citations and per-unit version periods the section's notes imply.

    `source_latest`: the latest date the whole source prints; by then every unit it prints was in
    force, so a unit it does not date (see `ParsedUnit.after_history`) warns until that date.
    """
    remarks: list[str] = []
    timelines = {u.path: UnitTimeline(u) for u in section.units}
    section_events: list[UnitEvent] = []

    # Notes placed on units by the parser.
    for unit in section.units:
        for placed in unit.notes:
            for event in placed.note.events:
                where = placed.where
                if where == "heading":
                    section_events.append(UnitEvent(event, placed.ambiguous, "section", where))
                elif placed.ambiguous:
                    # A lead-in's note surely covers the lead-in; an own-line note not even that.
                    lead_in = where == "lead-in"
                    timelines[unit.path].events.append(UnitEvent(event, not lead_in, "unit", where))
                    for target in _descendants(section.units, unit.path):
                        if target.path != unit.path:
                            timelines[target.path].inherited.append(
                                UnitEvent(event, True, "unit", where)
                            )
                else:
                    timelines[unit.path].events.append(UnitEvent(event, False, "unit", where))

    # Parenthetical histories: subsection clauses go to those subsections, the rest to the section.
    labels = {section.label}
    for note in section.history:
        for event in note.events:
            if event.new_label:
                labels.add(event.new_label.replace(" ", ""))
            if _SECTION_LABEL.match(event.subject.strip()):
                labels.add(event.subject.replace(" ", ""))
    for note in section.history:
        for event in note.events:
            paths = (
                []
                if _is_section_subject(event.subject, labels)
                else _unit_subjects(event.subject, section.units)
            )
            if not paths:
                section_events.append(UnitEvent(event, False, "history"))
                continue
            for path in paths:
                if path in timelines:
                    timelines[path].events.append(UnitEvent(event, False, "history"))
                else:
                    remarks.append(
                        f"history note names {path_label(path)}, which this section does not have"
                    )
                    section_events.append(UnitEvent(event, True, "history"))

    citations, chain_start = _citations(section, section_events, remarks)
    start = _section_start(section_events, chain_start)
    oldest = citations[0]
    if (
        oldest.effective_from is None
        and start
        and (oldest.effective_to is None or start < oldest.effective_to)
    ):
        citations[0] = CitationPeriod(oldest.label, start, oldest.effective_to, oldest.basis)
    section_temporary = _temporary_dates(section_events, section=True)
    oldest = citations[0]
    early = [d for d in section_temporary if oldest.effective_from and d < oldest.effective_from]
    if early:
        # The label was in use from the temporary adoption: "30-833 temp. 5/13/93, perm. 6/30/93".
        citations[0] = CitationPeriod(oldest.label, max(early), oldest.effective_to, oldest.basis)
    for tl in timelines.values():
        if not tl.unit.path:
            tl.events[:0] = section_events  # whole-section events are stored on the section's unit
        unit_start = start
        annotated = timelines.get(tl.unit.footnote_of) if tl.unit.footnote_of else None
        if annotated is not None and not any(e.event.date for e in tl.events):
            # A table's footnote is in force from the table's start.
            unit_start = annotated.versions[0].effective_from
        tl.versions = _versions(tl, section_events, unit_start)
        tl.remarks += _before_start(tl)
        own_temporary = _temporary_dates(tl.events if tl.unit.path else [], section=False)
        first = tl.versions[0].effective_from
        tl.versions = _temporary_first(
            tl.versions, own_temporary + (section_temporary if first == start else [])
        )
        if tl.unit.after_history and not any(e.event.date for e in tl.events + tl.inherited):
            tl.versions = _added_undated(tl.versions, tl.unit.after_history, source_latest)
    return SectionTimeline(section, start, citations, list(timelines.values()), remarks)


def _before_start(tl: UnitTimeline) -> list[str]:
    """A date of the unit's own definite note earlier than the unit's start bounds no version
    (30-899.14's lead-in, "Amended 1/15/14", under a heading "Eff 4/14/2014"): say so."""
    start = tl.versions[0].effective_from
    if start is None:
        return []
    return [
        f"the note {e.event.raw!r} gives a date before {start.isoformat()}, when this text took "
        "effect: an amendment the source dates before the text it amends; it bounds no version"
        for e in tl.events
        if e.scope == "unit"
        and not e.ambiguous
        and e.event.date
        and e.event.date < start
        and kind_of(e.event) in {"amended", "effective"}
    ]


def _temporary_dates(events: list[UnitEvent], *, section: bool) -> list[dt.date]:
    """The dates of temporary adoptions among the events: of the section, or of a subsection a
    history names ("30-835 (5), temp. 02/21/97 perm. 6/30/97")."""
    return [
        e.event.date
        for e in events
        if kind_of(e.event) == "temporary"
        and e.event.date
        and (e.scope != "unit" if section else e.scope == "history")
    ]


def _temporary_first(
    versions: list[VersionPeriod], temporary: list[dt.date]
) -> list[VersionPeriod]:
    """A temporary adoption is in force while it lasts: from its date to the permanent adoption
    that starts the unit's first version, a period in force whose words are in no source."""
    first = versions[0].effective_from
    earlier = [d for d in temporary if first is not None and d < first]
    if not earlier:
        return versions
    return [VersionPeriod(max(earlier), first, on_file=False, temporary=True), *versions]


def _added_undated(
    versions: list[VersionPeriod], history: str, source_latest: dt.date | None
) -> list[VersionPeriod]:
    """A unit printed after the section's history with no date of its own (30-822(3) after
    "(30-821 renumbered as 30-822; amended; and (2) added; perm. 12/30/98)") was added later, on
    a date the source does not give: every period warns that it may not yet have been in force."""
    when = (
        f"before {source_latest.isoformat()} (the latest date the source prints)"
        if source_latest
        else "on an earlier date"
    )
    warning = (
        f"printed after the section's history note {history!r} with no date of its own: it was "
        f"added later, on a date the source does not give, so {when} it may not yet have been in "
        "force"
    )
    return [replace(v, ambiguous=warning, ambiguous_until=source_latest) for v in versions]


def _section_start(events: list[UnitEvent], chain_start: dt.date | None) -> dt.date | None:
    adoptions = [
        e.event.date
        for e in events
        if kind_of(e.event) in _STARTS
        and e.event.date
        and e.event.permanent is not False
        and not (kind_of(e.event) == "effective" and e.scope == "history")
    ]
    if adoptions:
        return min(adoptions)
    return chain_start


def _citations(
    section: ParsedSection, events: list[UnitEvent], remarks: list[str]
) -> tuple[list[CitationPeriod], dt.date | None]:
    """Walk renumberings back from the current label: each label's period ends where the next
    begins."""
    renumberings = [
        e.event for e in events if kind_of(e.event) in _RENUMBERING and e.event.new_label
    ]
    periods: list[CitationPeriod] = []
    label, until, basis = section.label, None, ""
    seen = {label}
    while True:
        into = [e for e in renumberings if e.new_label.replace(" ", "") == label and e.subject]
        if not into:
            periods.append(CitationPeriod(label, None, until, basis))
            break
        event = max(into, key=lambda e: e.date or dt.date.min)
        periods.append(CitationPeriod(label, event.date, until, basis or event.raw))
        previous = event.subject.replace(" ", "")
        if previous in seen:
            remarks.append(f"history note renumbers {previous} into itself: {event.raw!r}")
            break
        seen.add(previous)
        label, until, basis = previous, event.date, event.raw
    for event in renumberings:
        if event.new_label.replace(" ", "") not in seen and "through" not in event.new_label:
            remarks.append(
                f"history note says {event.subject or 'a section'} was renumbered as "
                f"{event.new_label}, "
                f"but this section is {section.label}: {event.raw!r}"
            )
    periods.reverse()
    oldest = periods[0]
    adoptions = [
        e.event.date
        for e in events
        if kind_of(e.event) == "adopted"
        and e.event.date
        and e.event.permanent is not False
        and e.event.subject.replace(" ", "") in {oldest.label, ""}
    ]
    if adoptions and oldest.effective_from is None:
        first = min(adoptions)
        if oldest.effective_to is None or first < oldest.effective_to:
            periods[0] = CitationPeriod(oldest.label, first, oldest.effective_to, oldest.basis)
    return periods, periods[0].effective_from


def _versions(
    tl: UnitTimeline, section_events: list[UnitEvent], start: dt.date | None
) -> list[VersionPeriod]:
    """Periods of one unit: not in force before its start, then one period per definite change
    (not on file where no source keeps the words), then the text on file (with a warning for later
    changes of uncertain reach).

    Every definite amendment date bounds a version: "Amended 9/14/20, Amended 12/30/23" gives two
    periods not on file before the text of 12/30/23, not one. A unit's own "Effective" note is its
    start (new matter: not in force before it) where nothing earlier dates the unit; "Amended" is a
    change of a text that already stood.
    """
    own = [e for e in tl.events if e.scope == "unit" or (tl.unit.path and e.scope == "history")]
    own += tl.inherited
    unit_start = start
    for e in own:
        if kind_of(e.event) == "adopted" and e.scope == "history" and e.event.date:
            unit_start = e.event.date  # "(2)-(3) added perm 12/30/98": the subsection began then
    effective = _own_effective_start(tl, own, section_events)
    if effective is not None and (unit_start is None or effective > unit_start):
        unit_start = effective
    changes: list[dt.date] = []
    uncertain: list[dt.date] = []
    for e in own:
        kind, date = kind_of(e.event), e.event.date
        if date and (kind in {"amended", "effective"} or (kind == "adopted" and e.scope == "unit")):
            (uncertain if e.ambiguous else changes).append(date)
    for e in section_events:
        kind, date = kind_of(e.event), e.event.date
        if date and kind in {"amended", "repealed_readopted"}:
            (uncertain if e.ambiguous else changes).append(date)
    bounds = sorted({d for d in changes if unit_start is None or d > unit_start})
    versions: list[VersionPeriod] = []
    current_from = unit_start
    for bound in bounds:
        versions.append(VersionPeriod(current_from, bound, on_file=False))
        current_from = bound
    later = sorted({d for d in uncertain if current_from is None or d > current_from})
    warning = ""
    if later:
        dates = ", ".join(d.isoformat() for d in later)
        warning = (
            f"a note dated {dates} may or may not cover this text (the source does not say "
            "how far it "
            f"reaches); before {later[-1].isoformat()} the text in force may have differed"
        )
    versions.append(
        VersionPeriod(
            current_from,
            None,
            on_file=True,
            ambiguous=warning,
            ambiguous_until=later[-1] if later else None,
        )
    )
    return versions


def _own_effective_start(
    tl: UnitTimeline, own: list[UnitEvent], section_events: list[UnitEvent]
) -> dt.date | None:
    """The date a subsection's own "Effective"/"Eff" note gives, if it is the earliest thing the
    sources date about the unit: "(2) When a 21+3 Progressive wager is placed … Effective 8/14/22"
    is new matter, not in force before. The section's own unit starts with the section."""
    if not tl.unit.path:
        return None
    dated = [e for e in own if e.event.date and not e.ambiguous]
    effective = [
        e.event.date
        for e in dated
        if e.event.date is not None  # all of them (dated)
        and kind_of(e.event) == "effective"
        and e.scope == "unit"
        and (e.where != "table" or tl.unit.table_only)  # a table's date inside a subsection
    ]
    if not effective:
        return None
    first = min(effective)
    # Only the unit's own notes can date it earlier: the section's amendments (a history's
    # "amended, perm. 12/30/98", a heading's "Amended 7/1/13") say the section changed, not that
    # this subsection was in it (30-831(4), "Effective 10/15/20" beside its siblings' "Amended").
    earlier = [
        e
        for e in dated
        if e.event.date is not None  # all of them (dated)
        and e.event.date < first
        and kind_of(e.event) in {"amended", "adopted", "repealed_readopted"}
    ]
    return None if earlier else first
