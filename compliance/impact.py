"""The impact of a change of the rules on the floors on file (issue #26; docs/api.md, "Impact of a
change"): each configuration judged before and after the change, and what differs, by table: the
findings that appear and those that clear, the house edges that move (the base game's and each
side wager's), and the signs to reprint (a sign diff). A configuration the change does not touch
is counted, not listed.

A change is a window of adopted rules (Window: the jurisdiction's rules on one date against its
rules on a later one, or only one instrument's: then only findings and notices citing that
instrument count; house edges are the whole rule set's), or a proposed text against the adopted
rules (Proposed: the catalog's proposed facts applied, include_proposed), or the writes of the
rules recorded between two record times (Recorded, read by compliance.recorded: each amendment
taking effect on a date, each proposed text written; what that cannot judge, listed)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pitboss import kbcache
from pitboss.errors import DomainError
from regs.models import Citation, Status
from variants.recording import CatalogNotRestorable, catalog_as_recorded

from .basegame import table_base_games
from .configuration import Configuration
from .models import ValidationRun
from .services import knowledge_base_revision
from .signage import signs_build
from .validator import configuration_validate


@dataclass(frozen=True)
class Window:
    """The adopted rules of a jurisdiction (or of one of its instruments, by slug) on `start`
    against those on `end`."""

    jurisdiction: str
    start: dt.date
    end: dt.date
    instrument: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "window",
            "jurisdiction": self.jurisdiction,
            "instrument": self.instrument,
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
        }

    def before(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.start)

    def after(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.end)

    def sections(self) -> set[str] | None:
        """The section labels whose findings and notices count (None: all of them)."""
        if self.instrument is None:
            return None
        return instrument_sections(self.jurisdiction, self.instrument)

    def check(self) -> None:
        if self.end <= self.start:
            raise DomainError(
                "invalid",
                f"The window runs from {self.start} to {self.end}: the end must be later.",
                fields={"change.to": f"a date after {self.start}"},
            )


@dataclass(frozen=True)
class Proposed:
    """A proposed text (by its proposed label, 47.1-834.23) against the adopted rules on `as_of`:
    each floor judged without and with the catalog's proposed facts (include_proposed); only
    findings and notices citing the proposed text count."""

    jurisdiction: str
    citation: str
    as_of: dt.date

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "proposed",
            "jurisdiction": self.jurisdiction,
            "citation": self.citation,
            "as_of": self.as_of.isoformat(),
        }

    def before(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.as_of, include_proposed=False)

    def after(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.as_of, include_proposed=True)

    def sections(self) -> set[str]:
        return {section_of(self.citation)}

    def check(self) -> None:
        """:raises DomainError: no proposed text of the jurisdiction bears the label."""
        on_file = Citation.objects.filter(
            status=Status.PROPOSED, provision__instrument__jurisdiction__code=self.jurisdiction
        ).values_list("label", flat=True)
        if self.citation not in on_file:
            raise DomainError(
                "proposed_unknown",
                f"{self.jurisdiction} has no proposed text {self.citation!r} on file",
                fields={"change.citation": f"one of {', '.join(sorted(on_file)) or '(none)'}"},
            )


@dataclass(frozen=True)
class Amended:
    """Adopted text taking effect on `on`, as recorded in the knowledge base (an ingested
    amendment): each floor judged by the rules of the day before against those of `on`; only
    findings and notices citing the amended sections count."""

    jurisdiction: str
    on: dt.date
    amended: frozenset[str]

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "amended",
            "jurisdiction": self.jurisdiction,
            "on": self.on.isoformat(),
            "sections": sorted(self.amended),
        }

    def before(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.on - dt.timedelta(days=1))

    def after(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.on)

    def sections(self) -> set[str]:
        return set(self.amended)

    def check(self) -> None:
        pass


@dataclass(frozen=True)
class CatalogEdited:
    """The catalog's facts of a jurisdiction written between two record times (an officer's
    edit, a catalog file loaded again): each floor judged on `as_of` by the catalog as recorded
    at `start` (put back from the record history: variants.recording.catalog_as_recorded)
    against the catalog as recorded at `end`. The rule text is the same on both sides, so every
    difference is the edit's. `edits`: what was written, said in words."""

    jurisdiction: str
    start: dt.datetime
    end: dt.datetime
    as_of: dt.date
    edits: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "catalog",
            "jurisdiction": self.jurisdiction,
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "as_of": self.as_of.isoformat(),
            "edits": list(self.edits),
        }

    def before(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.as_of)

    def after(self, config: Configuration) -> Configuration:
        return dataclasses.replace(config, as_of=self.as_of)

    def sections(self) -> None:
        return None

    def check(self) -> None:
        pass


Part = Window | Proposed | Amended | CatalogEdited


@dataclass(frozen=True)
class Recorded:
    """The writes of a jurisdiction's rules recorded between two record times, judged as the
    changes of the rules they make (`recorded` reads them): each adopted text that takes effect
    on a date (Amended), each proposed text written (Proposed), the catalog's facts written
    (CatalogEdited). What cannot be judged that way (a text corrected within its period, an
    undated text) is listed in `not_judged`, not passed over."""

    jurisdiction: str
    start: dt.datetime
    end: dt.datetime
    parts: tuple[Amended | Proposed | CatalogEdited, ...] = ()
    not_judged: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": "record",
            "jurisdiction": self.jurisdiction,
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "parts": [part.as_dict() for part in self.parts],
            "not_judged": list(self.not_judged),
        }

    def check(self) -> None:
        if self.end <= self.start:
            raise DomainError(
                "invalid",
                f"The record window runs from {self.start} to {self.end}: the end must be later.",
                fields={"change.to": f"a time after {self.start}"},
            )


Change = Window | Proposed | Recorded


@dataclass(frozen=True)
class Judged:
    """A floor judged on one date: its findings (the rules' and the signs' needs), each table's
    base game and side wagers as the validation run stores them, and its signs."""

    findings: list[dict[str, Any]]
    tables: list[dict[str, Any]]
    signs: list[dict[str, Any]]


def judged(
    config: Configuration, heads: Mapping[str, int], *, revision: str | None = None
) -> Judged:
    """`config` judged by the rules on its as-of date, at the knowledge base's state `heads`
    (what it reads is kept per revision, as a validation run's is; `revision` names another
    state than `heads`', as the catalog put back as it was recorded)."""
    revision = revision or kbcache.revision_of(dict(heads))
    signs = signs_build(
        config, knowledge_base=knowledge_base_revision(dict(heads)), revision=revision
    )
    findings = configuration_validate(config, revision=revision) + signs.findings
    return Judged(
        [f.as_dict() for f in findings], table_base_games(config, revision=revision), signs.signs
    )


def configuration_impact(
    config: Configuration,
    change: Window | Proposed | Amended,
    heads: Mapping[str, int],
    cited: set[str] | None,
) -> list[dict[str, Any]]:
    """What `change` does to each table of `config` (only the tables it touches; none: the
    configuration is unaffected). `cited`: the section labels the change is limited to (None:
    the whole jurisdiction)."""
    before = judged(change.before(config), heads)
    after = judged(change.after(config), heads)
    return judged_impact(config, before, after, cited)


def catalog_judged(
    change: CatalogEdited, configs: list[Configuration], heads: Mapping[str, int]
) -> list[tuple[Judged, Judged]]:
    """Each of `configs` judged by the catalog as recorded at the change's start and at its
    end (all of them under one put-back state at a time: variants.recording keeps it in a
    savepoint, and the values read are kept under a revision of that state's own).

    :raises CatalogNotRestorable: the catalog of the start cannot be put back."""
    revision = kbcache.revision_of(dict(heads))

    def all_judged(at: dt.datetime) -> list[Judged]:
        with catalog_as_recorded(change.jurisdiction, at) as put_back:
            state = f"{revision}@{at.isoformat()}" if put_back else revision
            return [judged(change.before(c), heads, revision=state) for c in configs]

    return list(zip(all_judged(change.start), all_judged(change.end), strict=True))


def judged_impact(
    config: Configuration, before: Judged, after: Judged, cited: set[str] | None
) -> list[dict[str, Any]]:
    """What differs between `config` judged `before` and `after` a change, by table (see
    configuration_impact)."""
    affected = []
    for index, table in enumerate(config.tables):
        entry = _table_impact(table.name, index, before, after, cited)
        if entry is not None:
            affected.append(entry)
    wall = _sign_diff(_wall(before), _wall(after), cited)
    if wall["changed"]:
        affected.append(
            {
                "table": None,
                "new_findings": [],
                "cleared_findings": [],
                "house_edge": None,
                "side_wagers": [],
                "signs": wall,
            }  # fmt: skip
        )
    return affected


def _table_impact(
    name: str, index: int, before: Judged, after: Judged, cited: set[str] | None
) -> dict[str, Any] | None:
    def of_table(findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [f for f in findings if f["table"] == name and _counts(f["citations"], cited)]

    old, new = of_table(before.findings), of_table(after.findings)
    old_keys, new_keys = {_key(f) for f in old}, {_key(f) for f in new}
    appeared = [f for f in new if _key(f) not in old_keys]
    cleared = [f for f in old if _key(f) not in new_keys]
    base_before, base_after = before.tables[index], after.tables[index]
    edge = None
    if base_before["house_edge"] != base_after["house_edge"]:
        edge = {
            "before": base_before["house_edge"],
            "after": base_after["house_edge"],
            "before_percent": base_before["house_edge_percent"],
            "after_percent": base_after["house_edge_percent"],
        }
    sides = [
        {"wager": b["wager"], "before": _edges(b), "after": _edges(a)}
        for b, a in zip(base_before["side_wagers"], base_after["side_wagers"], strict=True)
        if _edges(b) != _edges(a)
    ]
    signs = _sign_diff(_table_sign(before, name), _table_sign(after, name), cited)
    if not (appeared or cleared or edge or sides or signs["changed"]):
        return None
    return {
        "table": name,
        "new_findings": appeared,
        "cleared_findings": cleared,
        "house_edge": edge,
        "side_wagers": sides,
        "signs": signs,
    }


def _key(finding: dict[str, Any]) -> tuple[str, ...]:
    """A finding as the same on two dates: what it says and where, not the labels it cites
    (a renumbered rule cites another label for the same requirement)."""
    return (finding["severity"], finding["code"], finding["path"], finding["message"])


def _counts(citations: list[dict[str, Any]], cited: set[str] | None) -> bool:
    """Whether a finding or notice belongs to the change: any, for a whole jurisdiction; for an
    instrument, one citing it (or citing nothing, as a game not authorised on a date does)."""
    if cited is None or not citations:
        return True
    return any(section_of(c["citation"]) in cited for c in citations)


def section_of(citation: str) -> str:
    """The section label of a cited unit: 30-899.23(12) → 30-899.23; MA 28(g) → 28."""
    return citation.split("(", 1)[0].strip()


def _edges(side: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(a.get("column", ""), a["house_edge"]) for a in side.get("analyses", [])]


def _table_sign(state: Judged, name: str) -> dict[str, Any] | None:
    return next((s for s in state.signs if s["table"] == name), None)


def _wall(state: Judged) -> dict[str, Any] | None:
    return next((s for s in state.signs if s["table"] is None), None)


def _sign_diff(
    before: dict[str, Any] | None, after: dict[str, Any] | None, cited: set[str] | None
) -> dict[str, Any]:
    """What to reprint on one sign: its notices as printed (the text and the rules it cites,
    each with the version it is of: templates/signage/signs.html) removed and added, in the
    sign's order. A notice whose text or citation changed is one of each."""

    def printed(sign: dict[str, Any] | None) -> list[tuple[str, str]]:
        if sign is None:
            return []
        return [
            (n["text"], _cites(n.get("citations", [])))
            for n in sign["notices"]
            if _counts(n.get("citations", []), cited)
        ]

    old, new = printed(before), printed(after)
    diff: list[dict[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op in ("delete", "replace"):
            diff += [{"op": "removed", "text": text, "cites": cites} for text, cites in old[i1:i2]]
        if op in ("insert", "replace"):
            diff += [{"op": "added", "text": text, "cites": cites} for text, cites in new[j1:j2]]
    return {"changed": bool(diff), "diff": diff}


def _cites(citations: list[dict[str, Any]]) -> str:
    """A notice's citations as the sign prints them."""
    shown = []
    for c in citations:
        since = c.get("effective_from")
        version = (
            " (proposed text)"
            if c.get("status") == "proposed"
            else f" (since {since})"
            if since
            else ""
        )
        shown.append(f"{c['jurisdiction']} {c['citation']}{version}")
    return "; ".join(shown)


def instrument_sections(jurisdiction: str, instrument: str) -> set[str]:
    """Every section label the instrument's provisions have borne (adopted or proposed).

    :raises DomainError: no such instrument in the jurisdiction."""
    labels = set(
        Citation.objects.filter(
            provision__instrument__jurisdiction__code=jurisdiction,
            provision__instrument__slug=instrument,
        ).values_list("label", flat=True)
    )
    if not labels:
        raise DomainError(
            "instrument_unknown",
            f"{jurisdiction} has no instrument {instrument!r} with provisions on file",
            fields={"change.instrument": "an instrument's slug, e.g. rule-8"},
        )
    return {section_of(label) for label in labels}


@dataclass(frozen=True)
class Floor:
    """A configuration the impact is computed over: a stored run's (parsed again from what was
    submitted) or one given inline, with its name."""

    configuration: Configuration
    run: ValidationRun | None = None
    name: str | None = None


def change_check(change: Change) -> tuple[Part, ...]:
    """The change's parts (a recorded change's, or the change itself), each checked.

    :raises DomainError: the window runs backwards; the instrument or the proposed text is
        unknown."""
    change.check()
    parts: tuple[Part, ...] = change.parts if isinstance(change, Recorded) else (change,)
    for part in parts:
        part.check()
    return parts


def impact(
    change: Change,
    floors: Iterable[Floor],
    *,
    heads: Mapping[str, int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The impact of `change` over `floors`, judged at the knowledge base's state `heads` (read
    now if not given): the configurations it touches, each with what it does to each table, and
    a count of those it does not. Floors of another jurisdiction than the change's are not
    judged. A recorded change is judged part by part, each table's entry naming its part
    (`change`). `progress(n)` is called after every floor, with the number judged so far.

    :raises DomainError: the window runs backwards; the instrument or the proposed text is
        unknown."""
    parts = change_check(change)
    heads = kbcache.history_heads() if heads is None else heads
    floors = list(floors)
    mine = [f.configuration for f in floors if f.configuration.jurisdiction == change.jurisdiction]
    said = change.as_dict()
    # The catalog's edits: every floor judged under one put-back catalog at a time, first.
    catalog_states: dict[int, list[tuple[Judged, Judged]]] = {}
    for index, part in enumerate(parts):
        if isinstance(part, CatalogEdited):
            try:
                catalog_states[index] = catalog_judged(part, mine, heads)
            except CatalogNotRestorable as exc:
                said["not_judged"].append(
                    f"the catalog's edits between {part.start} and {part.end}: its state "
                    f"before them cannot be put back ({exc})"
                )
    judgeable = [
        (index, part, part.sections())
        for index, part in enumerate(parts)
        if not isinstance(part, CatalogEdited) or index in catalog_states
    ]
    affected, unaffected, seen = [], 0, 0
    for done, floor in enumerate(floors, start=1):
        config = floor.configuration
        tables = []
        if config.jurisdiction == change.jurisdiction:
            for index, part, cited in judgeable:
                if isinstance(part, CatalogEdited):
                    before, after = catalog_states[index][seen]
                    found = judged_impact(config, before, after, cited)
                else:
                    found = configuration_impact(config, part, heads, cited)
                if isinstance(change, Recorded):
                    found = [{**table, "change": part.as_dict()} for table in found]
                tables += found
            seen += 1
            if not tables:
                unaffected += 1
        if tables:
            run = floor.run
            affected.append(
                {
                    "run": str(run.pk) if run else None,
                    "configuration": floor.name,
                    "licensee": config.licensee,
                    "status": run.status if run else None,
                    "as_of": config.as_of.isoformat(),
                    "tables": tables,
                }
            )
        if progress:
            progress(done)
    return {"change": said, "affected": affected, "unaffected": unaffected}
