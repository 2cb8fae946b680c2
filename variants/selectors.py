"""Reads of the catalog at a point in valid time, with the citations of the rules behind each
fact."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from regs import selectors as regs
from regs.models import Citation, Status

from .models import Cited, Constraint, Paytable, PlayRule, PostingRequirement, Wager


@dataclass(frozen=True)
class CitationRef:
    """A rule as a finding cites it: its label on the date, and since when that text applies."""

    jurisdiction: str
    citation: str
    effective_from: dt.date | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "jurisdiction": self.jurisdiction,
            "citation": self.citation,
            "effective_from": self.effective_from,
        }


class Citer:
    """Cites units of provisions as of one date, reading each provision once."""

    def __init__(self, as_of: dt.date) -> None:
        self.as_of = as_of
        self._records: dict[int, Any] = {}
        self._starts: dict[int, dt.date | None] = {}
        self._first: dict[int, tuple[str, dt.date] | None] = {}
        self._cited: dict[tuple[int, str], CitationRef] = {}
        self._proposed: dict[int, str] = {}

    def prefetch(self, provision_ids: Iterable[int]) -> None:
        """Read the provisions not read yet in one go (five queries, not five each), before
        citing many of them."""
        wanted = sorted(set(provision_ids) - self._records.keys())
        if not wanted:
            return
        for record in regs.provision_records(wanted):
            self._records[record.pk] = record
        firsts: dict[int, list[tuple[str, dt.date | None]]] = {pid: [] for pid in wanted}
        for pid, label, start in (
            Citation.objects.filter(provision_id__in=wanted, status=Status.ADOPTED)
            .order_by("effective_from")
            .values_list("provision_id", "label", "effective_from")
        ):
            firsts[pid].append((label, start))
        for pid, labels in firsts.items():
            self._first.setdefault(pid, _first(labels))

    def cite(self, provision_id: int, unit_path: str) -> CitationRef:
        """The unit as cited on the date (each unit read once: a CitationRef is immutable)."""
        key = (provision_id, unit_path)
        if key not in self._cited:
            self._cited[key] = self._cite(provision_id, unit_path)
        return self._cited[key]

    def _cite(self, provision_id: int, unit_path: str) -> CitationRef:
        record = self._records.get(provision_id)
        if record is None:
            record = self._records[provision_id] = regs.provision_records([provision_id])[0]
        state = regs.provision_state(record, as_of=self.as_of, path=unit_path)
        unit = state.units[0]
        first = self._first_label(provision_id)
        if first is not None and self.as_of < first[1]:
            # Not yet in force on the date: cited by the label it first bore (King's Bounty on
            # 2015-11-13 is 30-834.20, not today's 30-899.20).
            return CitationRef(state.jurisdiction, first[0] + unit_path, unit.effective_from)
        return CitationRef(state.jurisdiction, unit.citation, unit.effective_from)

    def cite_fact(self, fact: Cited, jurisdiction: str) -> CitationRef:
        """A catalog fact as cited on the date; a fact drawn from a proposed text (`proposed`)
        by its proposed label and no date: it is in force on none."""
        if getattr(fact, "proposed", False):
            return CitationRef(
                jurisdiction, self.proposed_label(fact.provision_id) + fact.unit_path, None
            )
        return self.cite(fact.provision_id, fact.unit_path)

    def proposed_label(self, provision_id: int) -> str:
        """The label a proposed text of the provision bears (47.1-834.23); "" where none."""
        if provision_id not in self._proposed:
            found = (
                Citation.objects.filter(provision_id=provision_id, status=Status.PROPOSED)
                .order_by("pk")
                .first()
            )
            self._proposed[provision_id] = found.label if found else ""
        return self._proposed[provision_id]

    def _first_label(self, provision_id: int) -> tuple[str, dt.date] | None:
        """The provision's first adopted label and the day it took effect; None where undated."""
        if provision_id not in self._first:
            labels = list(
                Citation.objects.filter(provision_id=provision_id, status=Status.ADOPTED)
                .order_by("effective_from")
                .values_list("label", "effective_from")
            )
            self._first[provision_id] = _first(labels)
        return self._first[provision_id]

    def in_force(self, fact: Cited) -> bool:
        """Whether a cited fact holds on the date: its own period, within its provision's."""
        if not fact.covers(self.as_of):
            return False
        if not self._starts:
            self._starts = provision_starts()
        start = self._starts.get(fact.provision_id)
        return start is None or start <= self.as_of

    def applies(self, fact: Cited, *, include_proposed: bool = False) -> bool:
        """Whether a cited fact applies on the date: in force (`in_force`), and, where it is
        drawn from a proposed text (never in force), only as asked (`include_proposed`)."""
        return self.in_force(fact) and (include_proposed or not getattr(fact, "proposed", False))


def _first(labels: list[tuple[str, dt.date | None]]) -> tuple[str, dt.date] | None:
    """The first of a provision's adopted labels, earliest first; None where one is undated."""
    if labels and all(start is not None for _, start in labels):
        label, start = labels[0]
        assert start is not None
        return label, start
    return None


def provision_starts() -> dict[int, dt.date | None]:
    """The day each provision took effect, from its adopted citations, in one query; None where
    no source says (a provision without adopted citations is absent)."""
    starts: dict[int, list[dt.date | None]] = {}
    for provision_id, start in Citation.objects.filter(status=Status.ADOPTED).values_list(
        "provision_id", "effective_from"
    ):
        starts.setdefault(provision_id, []).append(start)
    return {
        pid: None if None in dates else min(d for d in dates if d is not None)
        for pid, dates in starts.items()
    }


def wagers(*, jurisdiction: str | None = None, owner: str | None = None) -> QuerySet[Wager]:
    qs = Wager.objects.select_related("jurisdiction", "provision").prefetch_related(
        "paytables__entries"
    )
    if jurisdiction:
        qs = qs.filter(jurisdiction__code=jurisdiction)
    if owner:
        qs = qs.filter(owner__icontains=owner)
    return qs.order_by("jurisdiction__code", "slug")


def paytables(
    *, jurisdiction: str | None = None, wager: str | None = None, owner: str | None = None
) -> QuerySet[Paytable]:
    qs = Paytable.objects.select_related("wager__jurisdiction", "provision").prefetch_related(
        "entries"
    )
    if jurisdiction:
        qs = qs.filter(wager__jurisdiction__code=jurisdiction)
    if wager:
        qs = qs.filter(wager__slug=wager)
    if owner:
        qs = qs.filter(wager__owner__icontains=owner)
    return qs.order_by("key")


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """A text's order as a person reads it: its numbers by value (Pay Table 2 before Pay Table
    11), its words case-blind."""
    return tuple(
        (0, int(part)) if part.isdigit() else (1, part.lower())
        for part in re.split(r"(\d+)", text)
        if part
    )


def in_label_order(paytables: Iterable[Paytable]) -> list[Paytable]:
    """Paytables in the order of their labels as a person reads them (KB2 before KB11), the
    adopted before the proposed."""
    return sorted(paytables, key=lambda p: (p.proposed, _natural(p.label), _natural(p.key)))


def constraints(*, jurisdiction: str) -> QuerySet[Constraint]:
    return (
        Constraint.objects.filter(jurisdiction__code=jurisdiction)
        .select_related("wager")
        .order_by("code")
    )


def catalog_problems() -> list[str]:
    """What is inconsistent in the loaded catalog: a fact dated before the provision that
    authorises it took effect, a paytable without lines, a line whose outcome its wager does not
    have, a constraint's wager of another jurisdiction. Empty when all is well."""
    problems: list[str] = []
    facts: list[Any] = [
        *Wager.objects.all(),
        *Paytable.objects.all(),
        *Constraint.objects.all(),
        *PlayRule.objects.all(),
        *PostingRequirement.objects.all(),
    ]
    starts = provision_starts()
    for fact in facts:
        start = starts.get(fact.provision_id)
        if start and fact.effective_from and fact.effective_from < start:
            problems.append(
                f"{fact}: in force from {fact.effective_from}, before its provision ({start})"
            )
    for paytable in Paytable.objects.prefetch_related("entries").select_related("wager"):
        outcomes = {o["key"] for o in paytable.wager.outcomes}
        if not paytable.entries.all():
            problems.append(f"{paytable}: no lines")
        for entry in paytable.entries.all():
            if entry.outcome not in outcomes:
                problems.append(
                    f"{paytable}: line {entry.label!r} pays {entry.outcome!r}, not an "
                    "outcome of its wager"
                )
    for constraint in Constraint.objects.select_related("wager").exclude(wager=None):
        wager = constraint.wager
        if wager is not None and wager.jurisdiction_id != constraint.jurisdiction_id:
            problems.append(f"{constraint}: its wager is of another jurisdiction")
    return problems
