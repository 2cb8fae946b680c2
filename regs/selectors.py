"""Reads of the rule text at a point in valid time.

Every selector takes `as_of` from its caller and never reads the clock. Results are frozen
dataclasses, ordered as the source orders them.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field, replace
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Q, QuerySet

from pitboss.errors import DomainError

from .models import Annotation, Citation, Event, Provision, Status, Unit, UnitVersion

_SPACE = re.compile(r"\s+")
# An unknown start (null) sorts first on every database.
_EARLIEST_FIRST = F("effective_from").asc(nulls_first=True)


class UnknownCitation(DomainError):
    def __init__(self, jurisdiction: str, label: str) -> None:
        super().__init__(
            "unknown_citation",
            f"No provision of {jurisdiction} has ever been cited as {label!r}. "
            "Cite a section as printed, e.g. 30-899.23 or 30-803(3)(b)(i) in US-CO, "
            "28(g) in US-MA.",
            404,
        )


@dataclass(frozen=True)
class UnitState:
    path: str
    citation: str
    """The unit's citation on the date: section label on that date plus the path."""
    text: str | None
    """None when not in force on the date or when the text then in force is not on file."""
    state: str
    """in_force, not_on_file, not_in_force, proposed."""
    effective_from: dt.date | None
    effective_to: dt.date | None
    status: str
    page: int | None
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class CitationState:
    label: str
    effective_from: dt.date | None
    effective_to: dt.date | None
    status: str


@dataclass(frozen=True)
class ProvisionState:
    id: int
    key: str
    jurisdiction: str
    instrument: str
    citation: str
    """The label the provision went by on the date (its current label if it had none then)."""
    current_citation: str
    title: str
    as_of: dt.date
    state: str
    """in_force, not_in_force (not yet, or no longer), proposed."""
    status: str
    effective_from: dt.date | None
    effective_to: dt.date | None
    undated: bool
    text: str
    units: tuple[UnitState, ...]
    citations: tuple[CitationState, ...]
    notes: tuple[dict[str, object], ...]
    annotations: tuple[dict[str, Any], ...]
    """Each with its `id` (to edit it), `unit` path, `kind` and `text`."""
    warnings: tuple[str, ...]
    other_meanings: tuple[dict[str, object], ...] = field(default=())
    temporary: bool = False
    """In force on the date by a temporary (emergency) adoption, before the permanent one."""


def _covers(start: dt.date | None, end: dt.date | None, day: dt.date) -> bool:
    return (start is None or start <= day) and (end is None or day < end)


def normalise_label(label: str) -> tuple[str, str]:
    """("30-803", "(3)(b)(i)") from "30-803(3)(b)(i)" or "30- 803 (3)(b)";
    MA "28(g)" → ("28", "(g)"); a paragraph unit: "30-899.12 ¶2(1)" → ("30-899.12", "¶2(1)")."""
    label = _SPACE.sub("", label)
    match = re.match(r"^([^()¶]+)((?:¶\d+)?(?:\([^()]+\))*)$", label)
    if not match:
        return label, ""
    return match.group(1), match.group(2).lower()


class _Row:
    """A row read with .values(): attribute access without building a model instance."""

    def __init__(self, values: dict[str, object]) -> None:
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
        .order_by(_EARLIEST_FIRST, "id")
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
        .order_by("unit__provision_id", "unit__order", _EARLIEST_FIRST, "id")
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
        unit = units.get(v["unit_id"])
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


def _citation_on(provision: ProvisionRecord, day: dt.date) -> Any:
    """The adopted label in use on `day`; before the first one began, the label the provision
    first bore (King's Bounty on 2015-11-13 is 30-834.20, not today's 30-899.20); None if no
    label is dated."""
    adopted = [c for c in provision.citations if c.status == Status.ADOPTED]
    for c in adopted:
        if _covers(c.effective_from, c.effective_to, day):
            return c
    first = adopted[0] if adopted else None
    if first is not None and first.effective_from and day < first.effective_from:
        return first
    return None


def _current_citation(provision: ProvisionRecord) -> Any:
    adopted = [c for c in provision.citations if c.status == Status.ADOPTED]
    if adopted:
        return next((c for c in adopted if c.effective_to is None), adopted[-1])
    return next(iter(provision.citations))


def _version_on(versions: list[Any], day: dt.date) -> UnitVersion | None:
    for v in versions:
        if v.status != Status.PROPOSED and _covers(v.effective_from, v.effective_to, day):
            return v
    return None


class UnknownSubsection(DomainError):
    def __init__(self, label: str, path: str, paths: list[str]) -> None:
        shown = ", ".join(p for p in paths if p)[:300]
        super().__init__(
            "unknown_subsection", f"{label} has no subsection {path}; it has: {shown}.", 404
        )


def provision_state(
    provision: ProvisionRecord, *, as_of: dt.date, include_proposed: bool = False, path: str = ""
) -> ProvisionState:
    """What the provision said on `as_of`, unit by unit, under the label it had that day.

    A unit whose text then in force is in no source says so (state not_on_file) rather than
    showing today's text; a unit not yet added is not_in_force. With include_proposed, units
    with a proposed version show that text. With `path` ("(3)(b)"), only that subsection and
    what it contains.

    :raises UnknownSubsection: the provision has no unit at `path`.
    """
    on_date = _citation_on(provision, as_of)
    current = _current_citation(provision)
    label = (on_date or current).label
    units = list(provision.units)
    section_unit = units[:1]
    if path:
        units = [u for u in units if u.path == path or u.path.startswith(f"{path}(")]
        if not units:
            raise UnknownSubsection(current.label, path, [u.path for u in provision.units])
    section_versions = (
        [v for v in section_unit[0].versions if v.status != Status.PROPOSED] if section_unit else []
    )
    starts = [v.effective_from for v in section_versions]
    start = None if not starts or None in starts else min(s for s in starts if s)
    citation_starts = [c.effective_from for c in provision.citations if c.status == Status.ADOPTED]
    if start is None and citation_starts and None not in citation_starts:
        start = min(d for d in citation_starts if d)
    undated = not any(v.effective_from for u in units for v in u.versions) and not any(
        c.effective_from or c.effective_to for c in provision.citations
    )
    adopted_exists = bool(section_versions)
    warnings: list[str] = []
    if not adopted_exists:
        state = "proposed"
    elif start is not None and as_of < start:
        state = "not_in_force"
        warnings.append(
            f"{label} was not yet in force on {as_of.isoformat()}; "
            f"it took effect on {start.isoformat()}."
        )
    else:
        state = "in_force"
    if undated:
        warnings.append(
            "The source gives no dates for this provision (undated): it is shown as published."
        )
    unit_states = tuple(
        _unit_state(unit, label, as_of, state, include_proposed or not adopted_exists)
        for unit in units
    )
    temporary = [u for u in unit_states if u.status == Status.TEMPORARY]
    warnings.extend(_temporary_warnings(provision, label, as_of, temporary))
    for u in unit_states:
        if u.state == "not_on_file" and state == "in_force":
            warnings.append(
                f"{u.citation}: the text in force on {as_of.isoformat()} is not on file."
            )
        warnings.extend(f"{u.citation}: {w}" for w in u.warnings if state == "in_force")
    text = "\n".join(
        f"{_unit_prefix(u.path)}{u.text if u.text is not None else _placeholder(u)}".strip()
        for u in unit_states
        if u.state != "not_in_force"
    )
    others = tuple(
        {
            "label": c.label,
            "effective_from": c.effective_from,
            "effective_to": c.effective_to,
            "status": c.status,
        }
        for c in provision.citations
        if c.label != label
    )
    return ProvisionState(
        id=provision.pk,
        key=provision.key,
        jurisdiction=provision.jurisdiction,
        instrument=provision.instrument,
        citation=label,
        current_citation=current.label,
        title=provision.title,
        as_of=as_of,
        state=state,
        status=Status.PROPOSED if state == "proposed" else Status.ADOPTED,
        effective_from=start,
        effective_to=None,
        undated=undated,
        text=text,
        units=unit_states,
        citations=tuple(
            CitationState(c.label, c.effective_from, c.effective_to, c.status)
            for c in provision.citations
        ),
        notes=tuple(
            {
                "unit": unit.path,
                "kind": e.kind,
                "date": e.date,
                "permanent": e.permanent,
                "subject": e.subject,
                "new_label": e.new_label,
                "raw": e.raw,
                "ambiguous": e.ambiguous,
            }
            for unit in units
            for e in unit.events
        ),
        annotations=tuple(
            {"id": a.id, "unit": unit.path, "kind": a.kind, "text": a.text}
            for unit in units
            for a in unit.annotations
        ),
        warnings=tuple(warnings),
        other_meanings=others,
        temporary=bool(temporary),
    )


def _temporary_warnings(
    provision: ProvisionRecord, label: str, as_of: dt.date, units: list[UnitState]
) -> list[str]:
    """A temporary (emergency) adoption is in force while it lasts ("30-833 temp. 5/13/93, perm.
    6/30/93" asked on 1993-06-01): say so, once for the section or per subsection, and that the
    temporary rule's words are in no source."""
    if not units:
        return []
    notes = {e.date: e.raw for u in provision.units for e in u.events if e.kind == "temporary"}
    whole = units[0].path == ""
    out = []
    for u in units[:1] if whole else units:
        start, end = u.effective_from, u.effective_to
        note = f" ({notes[start]!r})" if start in notes else ""
        out.append(
            f"{label if whole else u.citation} was in force on {as_of.isoformat()} by a temporary "
            f"adoption of {start.isoformat() if start else 'an unknown date'}{note}, until its "
            f"permanent adoption on {end.isoformat() if end else 'a later date'}; the words of the "
            "temporary rule are not on file."
        )
    return out


def unit_citation(label: str, path: str) -> str:
    """30-803(3)(b) for a subsection; 30-899.12 ¶2(1) for a unit under an unnumbered paragraph."""
    return f"{label} {path}" if path.startswith("¶") else f"{label}{path}"


def _unit_prefix(path: str) -> str:
    return f"{path} " if path and not path.startswith("¶") else ""


def _placeholder(u: UnitState) -> str:
    return (
        f"[text in force on this date not on file; on file from {u.effective_to or 'a later date'}]"
    )


def _unit_state(
    unit: Any, label: str, as_of: dt.date, provision_state: str, proposed: bool
) -> UnitState:
    versions = list(unit.versions)
    citation = unit_citation(label, unit.path)
    if proposed:
        draft = next((v for v in versions if v.status == Status.PROPOSED), None)
        if draft is not None:
            return UnitState(
                unit.path,
                citation,
                draft.text,
                "proposed",
                None,
                None,
                Status.PROPOSED,
                draft.page,
                (),
            )
    version = _version_on(versions, as_of)
    if provision_state == "not_in_force" or version is None:
        later = next((v for v in versions if v.status != Status.PROPOSED), None)
        return UnitState(
            unit.path,
            citation,
            None,
            "not_in_force",
            later.effective_from if later else None,
            None,
            "",
            None,
            (),
        )
    if not version.on_file:
        return UnitState(
            unit.path,
            citation,
            None,
            "not_on_file",
            version.effective_from,
            version.effective_to,
            version.status,
            None,
            (),
        )
    # A warning with no end date holds on every date (a unit the source does not date at all).
    uncertain = version.ambiguous and (
        version.ambiguous_until is None or as_of < version.ambiguous_until
    )
    warnings = (version.ambiguous,) if uncertain else ()
    return UnitState(
        unit.path,
        citation,
        version.text,
        "in_force",
        version.effective_from,
        version.effective_to,
        version.status,
        version.page,
        warnings,
    )


@dataclass(frozen=True)
class Resolution:
    provision: Provision
    path: str
    label: str
    meanings: tuple[dict[str, object], ...]
    """Every provision the label has named, with its period: for a label reused over time."""
    also: tuple[Provision, ...] = ()
    """Other provisions the label named on the date too (30-821 on 1998-12-29: The pickup until
    its renumbering that day, and The play, which the sources do not date)."""


def citation_resolve(
    *, jurisdiction: str, citation: str, as_of: dt.date | None, today: dt.date
) -> Resolution:
    """The provision a citation names on `as_of` (on `today` when no date is given).

    A label reused over time (30-832) picks the provision that bore it on the date; a label no
    provision bore that day picks the provision that bore it nearest the date. Proposed labels
    (47.1-834.23) name the provision their text proposes.

    :raises UnknownCitation: no provision of the jurisdiction was ever cited so.
    """
    section, path = normalise_label(citation)
    rows = list(
        Citation.objects.select_related("provision")
        .filter(label=section, provision__instrument__jurisdiction__code=jurisdiction)
        .order_by(_EARLIEST_FIRST, "id")
    )
    if not rows:
        raise UnknownCitation(jurisdiction, citation)
    day = as_of or today
    covering = [
        c
        for c in rows
        if c.status == Status.ADOPTED and _covers(c.effective_from, c.effective_to, day)
    ]

    def distance(c: Citation) -> int:
        if c.status == Status.PROPOSED:
            return 10**6
        if c.effective_from and day < c.effective_from:
            return (c.effective_from - day).days
        if c.effective_to and day >= c.effective_to:
            return (day - c.effective_to).days
        return 0

    chosen = covering[0] if covering else min(rows, key=distance)
    also = tuple(
        dict.fromkeys(c.provision for c in covering if c.provision_id != chosen.provision_id)
    )
    meanings = tuple(
        {
            "provision": c.provision_id,
            "title": c.provision.title,
            "label": c.label,
            "effective_from": c.effective_from,
            "effective_to": c.effective_to,
            "status": c.status,
        }
        for c in rows
    )
    return Resolution(chosen.provision, path, chosen.label, meanings, also)


def shared_label_warned(
    states: list[ProvisionState], citation: str, as_of: dt.date
) -> list[ProvisionState]:
    """The answers to a citation that named several provisions on the date, each warning that
    the label is shared and naming the others."""
    titles = "; ".join(f"{s.current_citation} {s.title}" for s in states)
    warning = (
        f"On {as_of.isoformat()} {citation} named {len(states)} provisions (now {titles}): "
        "the sources do not tell which one a citation of that day meant, so each is answered."
    )
    return [replace(s, warnings=(*s.warnings, warning)) for s in states]


def provisions_search(
    *, jurisdiction: str | None = None, instrument: str | None = None, q: str | None = None
) -> QuerySet[Provision]:
    """Provisions filtered by jurisdiction code, instrument (name or slug) and words in title or
    text."""
    qs = Provision.objects.all()
    if jurisdiction:
        qs = qs.filter(instrument__jurisdiction__code=jurisdiction)
    if instrument:
        qs = qs.filter(Q(instrument__slug=instrument) | Q(instrument__name__iexact=instrument))
    for word in (q or "").split():
        in_text = UnitVersion.objects.filter(text__icontains=word).values("unit__provision_id")
        qs = qs.filter(Q(title__icontains=word) | Q(pk__in=in_text))
    return qs.order_by("instrument__jurisdiction__code", "instrument_id", "order")


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


def provision_versions(provision: Provision) -> QuerySet[UnitVersion]:
    """Every version of every unit of the provision, in source order then date: its legal
    history."""
    return (
        UnitVersion.objects.filter(unit__provision=provision)
        .select_related("unit", "source")
        .order_by("unit__order", "status", _EARLIEST_FIRST)
    )


def provision_by_citation(*, jurisdiction: str, label: str) -> Provision:
    """The provision that bears `label` today (its current citation).

    :raises UnknownCitation: no provision of the jurisdiction bears it today.
    """
    found = (
        Citation.objects.filter(
            label=label,
            status=Status.ADOPTED,
            effective_to__isnull=True,
            provision__instrument__jurisdiction__code=jurisdiction,
        )
        .select_related("provision")
        .first()
    )
    if found is None:
        raise UnknownCitation(jurisdiction, label)
    return found.provision


def unit_annotations(*, jurisdiction: str, citation: str, kind: str | None = None) -> list[str]:
    """The annotations' texts on a unit cited as its provision's current label plus unit path
    ("17(e)(3)"), oldest first; of one `kind` where given; none where nothing bears the label."""
    label, path = normalise_label(citation)
    try:
        provision = provision_by_citation(jurisdiction=jurisdiction, label=label)
    except UnknownCitation:
        return []
    found = Annotation.objects.filter(unit__provision=provision, unit__path=path)
    if kind is not None:
        found = found.filter(kind=kind)
    return list(found.order_by("id").values_list("text", flat=True))
