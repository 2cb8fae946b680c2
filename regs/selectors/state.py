"""What a provision said on a date, unit by unit, under the label it had that day."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from pitboss.errors import DomainError
from pitboss.periods import covers
from regs.models import Status, UnitVersion

from .records import ProvisionRecord


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
    notes: tuple[dict[str, Any], ...]
    annotations: tuple[dict[str, Any], ...]
    """Each with its `id` (to edit it), `unit` path, `kind` and `text`."""
    warnings: tuple[str, ...]
    other_meanings: tuple[dict[str, object], ...] = field(default=())
    temporary: bool = False
    """In force on the date by a temporary (emergency) adoption, before the permanent one."""


def _citation_on(provision: ProvisionRecord, day: dt.date) -> Any:
    """The adopted label in use on `day`; before the first one began, the label the provision
    first bore (King's Bounty on 2015-11-13 is 30-834.20, not today's 30-899.20); None if no
    label is dated."""
    adopted = [c for c in provision.citations if c.status == Status.ADOPTED]
    for c in adopted:
        if covers(c.effective_from, c.effective_to, day):
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
        if v.status != Status.PROPOSED and covers(v.effective_from, v.effective_to, day):
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
