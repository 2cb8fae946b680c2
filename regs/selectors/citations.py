"""Which provision a citation names: a label read and resolved on a date, the provision bearing a
label today, the search of provisions, a provision's versions and a unit's annotations."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, replace

from django.db.models import Q, QuerySet

from pitboss.errors import DomainError
from pitboss.periods import covers
from regs.models import Annotation, Citation, Provision, Status, UnitVersion

from .records import EARLIEST_FIRST
from .state import ProvisionState

_SPACE = re.compile(r"\s+")


class UnknownCitation(DomainError):
    def __init__(self, jurisdiction: str, label: str) -> None:
        super().__init__(
            "unknown_citation",
            f"No provision of {jurisdiction} has ever been cited as {label!r}. "
            "Cite a section as printed, e.g. 30-899.23 or 30-803(3)(b)(i) in US-CO, "
            "28(g) in US-MA.",
            404,
        )


def normalise_label(label: str) -> tuple[str, str]:
    """("30-803", "(3)(b)(i)") from "30-803(3)(b)(i)" or "30- 803 (3)(b)";
    MA "28(g)" → ("28", "(g)"); a paragraph unit: "30-899.12 ¶2(1)" → ("30-899.12", "¶2(1)")."""
    label = _SPACE.sub("", label)
    match = re.match(r"^([^()¶]+)((?:¶\d+)?(?:\([^()]+\))*)$", label)
    if not match:
        return label, ""
    return match.group(1), match.group(2).lower()


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
        .order_by(EARLIEST_FIRST, "id")
    )
    if not rows:
        raise UnknownCitation(jurisdiction, citation)
    day = as_of or today
    covering = [
        c
        for c in rows
        if c.status == Status.ADOPTED and covers(c.effective_from, c.effective_to, day)
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
    meanings: tuple[dict[str, object], ...] = tuple(
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


def provision_versions(provision: Provision) -> QuerySet[UnitVersion]:
    """Every version of every unit of the provision, in source order then date: its legal
    history."""
    return (
        UnitVersion.objects.filter(unit__provision=provision)
        .select_related("unit", "source")
        .order_by("unit__order", "status", EARLIEST_FIRST)
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
