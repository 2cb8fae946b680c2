"""Diffs of the rule text read from the knowledge base: a provision at two dates or versions, its
proposed text against the adopted one, and an instrument between two dates.

Every selector takes its dates from the caller and never reads the clock. A side is named by a
`Version`: a date (the text in force that day) or "proposed" (the proposed text).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from pitboss.errors import DomainError
from regs import selectors
from regs.models import Status

from .text import Change, Side, TextDiff, UnitText, diff_units, word_diff

PROPOSED = "proposed"
Version = dt.date | str
"""A date (the text in force that day) or "proposed"."""


class NoProposedText(DomainError):
    def __init__(self, label: str) -> None:
        super().__init__(
            "no_proposed_text",
            f"{label} has no proposed text on file; compare two dates instead "
            f"(left=YYYY-MM-DD&right=YYYY-MM-DD). Proposed text on file: 47.1-834.23 (US-CO).",
            fields={"left": "proposed is accepted only for a provision with a proposed text"},
        )


@dataclass(frozen=True)
class ProvisionSide:
    """One side of a provision diff: what was compared."""

    version: str
    """The date (ISO) or "proposed"."""
    citation: str
    state: str
    """in_force, not_in_force, proposed."""
    effective_from: dt.date | None


@dataclass(frozen=True)
class ProvisionDiff:
    provision: dict[str, object]
    left: ProvisionSide
    right: ProvisionSide
    changes: tuple[Change, ...]
    text: TextDiff
    events: tuple[dict[str, object], ...]
    """The dated notes between the two sides (events, never inserted text)."""
    not_on_file: tuple[dict[str, object], ...]
    """Units whose text on one side is in no source: reported, never diffed."""

    @property
    def substantive(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if c.substantive)

    @property
    def editorial(self) -> tuple[Change, ...]:
        return tuple(c for c in self.changes if not c.substantive)


def _version_label(version: Version) -> str:
    return version if isinstance(version, str) else version.isoformat()


def _proposed_units(record: selectors.ProvisionRecord) -> tuple[str, list[UnitText]]:
    label = next((c.label for c in record.citations if c.status == Status.PROPOSED), None)
    units = []
    for order, unit in enumerate(record.units):
        draft = next((v for v in unit.versions if v.status == Status.PROPOSED), None)
        if draft is not None and label is not None:
            units.append(
                UnitText(
                    unit.path,
                    selectors.unit_citation(label, unit.path),
                    None,
                    draft.text,
                    "proposed",
                    order,
                )
            )
    if label is None or not units:
        adopted = [c.label for c in record.citations if c.status == Status.ADOPTED]
        raise NoProposedText(adopted[-1] if adopted else record.key)
    return label, units


def _dated_units(
    record: selectors.ProvisionRecord, day: dt.date
) -> tuple[selectors.ProvisionState, list[UnitText]]:
    state = selectors.provision_state(record, as_of=day)
    units = [
        UnitText(u.path, u.citation, u.effective_from, u.text, u.state, order)
        for order, u in enumerate(state.units)
    ]
    return state, units


def _side(
    record: selectors.ProvisionRecord, version: Version
) -> tuple[ProvisionSide, list[UnitText]]:
    if version == PROPOSED:
        label, units = _proposed_units(record)
        return ProvisionSide(PROPOSED, label, "proposed", None), units
    assert isinstance(version, dt.date)
    state, units = _dated_units(record, version)
    return ProvisionSide(
        version.isoformat(), state.citation, state.state, state.effective_from
    ), units


def _events(
    record: selectors.ProvisionRecord, left: Version, right: Version
) -> list[dict[str, object]]:
    """The provision's dated notes between the two sides: after the earlier date, up to and
    including the later one; from a proposed text, every note up to the adopted side's date."""
    dates = [v for v in (left, right) if isinstance(v, dt.date)]
    high = max(dates) if dates else None
    low = min(dates) if len(dates) == 2 else None
    found = []
    for unit in record.units:
        for e in unit.events:
            if e.date is None or (high is not None and e.date > high):
                continue
            if low is not None and e.date <= low:
                continue
            found.append(
                {
                    "unit": unit.path,
                    "kind": e.kind,
                    "date": e.date,
                    "raw": e.raw,
                    "subject": e.subject,
                    "new_label": e.new_label,
                }
            )
    found.sort(key=lambda e: (e["date"], e["unit"], e["raw"]))
    return found


def _label_change(
    left: ProvisionSide, right: ProvisionSide, events: Sequence[dict[str, object]]
) -> Change | None:
    if left.citation == right.citation or "not_in_force" in (left.state, right.state):
        return None  # a provision not yet (or no longer) in force has no label that day
    renumberings = [
        e for e in events if e["kind"] in ("renumbered", "relocated", "repealed_readopted")
    ]
    event = renumberings[-1] if renumberings else None
    kind = "moved" if event is not None and event["kind"] == "relocated" else "renumbered"
    return Change(
        kind,
        True,
        Side(left.citation, left.effective_from, None, left.state, ""),
        Side(right.citation, right.effective_from, None, right.state, ""),
        event,
        note=f"{left.citation} → {right.citation}",
    )


def provision_diff(
    *, record: selectors.ProvisionRecord, left: Version, right: Version
) -> ProvisionDiff:
    """The differences from the `left` text of a provision to the `right` one, unit by unit.

    A unit whose text on either side is not on file is listed in `not_on_file`, never diffed.
    The provision's change of label (47.1-834.23 → 30-899.23) is one `renumbered` change.

    :raises NoProposedText: "proposed" asked of a provision with no proposed text.
    """
    left_side, left_units = _side(record, left)
    right_side, right_units = _side(record, right)
    events = _events(record, left, right)
    text = diff_units(left_units, right_units, events)
    changes: list[Change] = []
    label_change = _label_change(left_side, right_side, events)
    if label_change is not None:
        changes.append(label_change)
    changes.extend(text.changes)
    not_on_file = tuple(
        {
            "unit": (u.right or u.left).path,  # type: ignore[union-attr]
            "left": _state_of(u.left),
            "right": _state_of(u.right),
        }
        for u in text.units
        if u.status == "not_on_file"
    )
    return ProvisionDiff(
        provision={
            "id": record.pk,
            "key": record.key,
            "title": record.title,
            "jurisdiction": record.jurisdiction,
            "instrument": record.instrument,
        },
        left=left_side,
        right=right_side,
        changes=tuple(changes),
        text=text,
        events=tuple(events),
        not_on_file=not_on_file,
    )


def _state_of(unit: UnitText | None) -> dict[str, object] | None:
    if unit is None:
        return None
    return {
        "citation": unit.citation,
        "state": unit.state,
        "effective_from": unit.effective_from,
    }


def provision_record(
    *,
    jurisdiction: str | None = None,
    citation: str | None = None,
    provision: int | None = None,
    as_of: dt.date,
    today: dt.date,
) -> tuple[selectors.ProvisionRecord, str]:
    """The provision a diff request names, by id or by citation on `as_of`, and the subsection
    path the citation names ("" for the whole section).

    :raises UnknownCitation: no provision of the jurisdiction was ever cited so.
    """
    path = ""
    if provision is None:
        assert jurisdiction and citation
        found = selectors.citation_resolve(
            jurisdiction=jurisdiction, citation=citation, as_of=as_of, today=today
        )
        provision, path = found.provision.pk, found.path
    records = selectors.provision_records([provision])
    if not records:
        raise DomainError(
            "unknown_provision",
            f"No provision has id {provision}; GET /api/v1/provisions/ lists them.",
            404,
            fields={"provision": "unknown id"},
        )
    record = records[0]
    if path and not any(u.path == path for u in record.units):
        raise selectors.UnknownSubsection(citation or "", path, [u.path for u in record.units])
    return record, path


def restrict(record: selectors.ProvisionRecord, path: str) -> selectors.ProvisionRecord:
    """The record with only the units at `path` and under it."""
    if not path:
        return record
    units = [u for u in record.units if u.path == path or u.path.startswith(f"{path}(")]
    return selectors.ProvisionRecord(
        record.pk,
        record.key,
        record.title,
        record.jurisdiction,
        record.instrument,
        record.citations,
        units,
    )


# ---------------------------------------------------------------------------------------------
# An instrument between two dates


@dataclass(frozen=True)
class InstrumentChange:
    """A provision or unit added, amended, renumbered, moved or repealed inside the window."""

    kind: str
    """insertion (added), deletion (repealed), replacement (amended), renumbered, moved."""
    substantive: bool | None
    """Whether the wording changed; None where the earlier text is not on file."""
    provision: dict[str, object]
    unit: str
    left: dict[str, object] | None
    right: dict[str, object] | None
    date: dt.date | None
    event: dict[str, object] | None
    link: str
    not_on_file: bool
    remark: str = ""
    """Why `substantive` is unknown, where it is."""


@dataclass(frozen=True)
class InstrumentDiff:
    jurisdiction: str
    instrument: str
    start: dt.date
    end: dt.date
    changes: tuple[InstrumentChange, ...]


_KIND_OF_EVENT = {
    "adopted": "insertion",
    "effective": "insertion",
    "amended": "replacement",
    "repealed_readopted": "replacement",
    "renumbered": "renumbered",
    "relocated": "moved",
    "repealed": "deletion",
}


def _link(record: selectors.ProvisionRecord, start: dt.date, end: dt.date) -> str:
    query = urlencode({"provision": record.pk, "left": start.isoformat(), "right": end.isoformat()})
    return f"/api/v1/diff/provision/?{query}"


def instrument_diff(
    *, jurisdiction: str, instrument: str, start: dt.date, end: dt.date
) -> InstrumentDiff:
    """What changed in an instrument after `start` up to and including `end`: each provision or
    unit added, amended, renumbered, moved or repealed, with the date of its note and a link to
    the provision's diff across that date. An amendment whose earlier text is in no source says
    `not_on_file`; its diff is not shown.
    """
    pks = list(
        selectors.provisions_search(jurisdiction=jurisdiction, instrument=instrument).values_list(
            "pk", flat=True
        )
    )
    if not pks:
        raise DomainError(
            "unknown_instrument",
            f"{jurisdiction} has no instrument {instrument!r}; GET /api/v1/instruments/ lists them "
            f'(e.g. "Rule 8", "Rule 21", "205 CMR").',
            fields={"instrument": "unknown"},
        )
    changes: list[InstrumentChange] = []
    for record in selectors.provision_records(pks):
        changes.extend(_provision_changes(record, start, end))
    changes.sort(key=lambda c: (c.date or dt.date.min, _order(c, pks)))
    return InstrumentDiff(jurisdiction, instrument, start, end, tuple(changes))


def _order(change: InstrumentChange, pks: list[int]) -> tuple[int, str]:
    return pks.index(change.provision["id"]), change.unit  # type: ignore[arg-type]


def _provision_changes(
    record: selectors.ProvisionRecord, start: dt.date, end: dt.date
) -> list[InstrumentChange]:
    before = selectors.provision_state(record, as_of=start)
    after = selectors.provision_state(record, as_of=end)
    info = {
        "id": record.pk,
        "key": record.key,
        "title": record.title,
        "citation": after.citation,
    }
    found: list[InstrumentChange] = []
    added = before.state == "not_in_force" and after.state == "in_force"
    for unit in record.units:
        for e in unit.events:
            if e.date is None or not (start < e.date <= end):
                continue
            kind = _KIND_OF_EVENT.get(e.kind)
            if kind is None:
                continue
            if added and unit.path and kind == "insertion":
                continue  # a unit of a provision added in the window: the addition says it
            prior = _unit_on(record, unit.path, e.date - dt.timedelta(days=1))
            then = _unit_on(record, unit.path, e.date)
            if kind == "insertion" and prior is not None and prior.state == "in_force":
                kind = "replacement"  # new matter in a unit already in force ("Paytables 6 and 7")
            substantive: bool | None = True
            remark = ""
            unknown = False
            if kind == "replacement":
                unknown = prior is None or prior.state == "not_on_file"
                if unknown:
                    substantive = None
                    remark = "the text before this date is not on file"
                elif then is None or then.effective_from != e.date:
                    substantive = None
                    remark = (
                        "no version on file starts on this date (the note's reach is uncertain)"
                    )
                else:
                    assert prior is not None  # not unknown
                    substantive = any(d[3] for d in word_diff(prior.text or "", then.text or "")[1])
            if kind in ("renumbered", "moved"):
                left: dict[str, object] | None = {
                    "citation": e.subject,
                    "effective_from": None,
                    "state": "in_force",
                }
                right: dict[str, object] | None = {
                    "citation": e.new_label,
                    "effective_from": e.date,
                    "state": "in_force",
                }
            else:
                left, right = _unit_summary(prior), _unit_summary(then)
            found.append(
                InstrumentChange(
                    kind=kind,
                    substantive=substantive,
                    provision=info,
                    unit=unit.path,
                    left=left,
                    right=right,
                    date=e.date,
                    event={"kind": e.kind, "date": e.date, "raw": e.raw},
                    # The diff of this change alone: the day before its date against its date.
                    link=_link(record, max(start, e.date - dt.timedelta(days=1)), e.date),
                    not_on_file=unknown,
                    remark=remark,
                )
            )
    return found


def _unit_on(
    record: selectors.ProvisionRecord, path: str, day: dt.date
) -> selectors.UnitState | None:
    state = selectors.provision_state(record, as_of=day)
    return next((u for u in state.units if u.path == path), None)


def _unit_text(u: selectors.UnitState, order: int) -> UnitText:
    return UnitText(u.path, u.citation, u.effective_from, u.text, u.state, order)


def _unit_summary(u: selectors.UnitState | None) -> dict[str, object] | None:
    if u is None:
        return None
    return {"citation": u.citation, "effective_from": u.effective_from, "state": u.state}
