"""Whether a catalog fact has been reviewed against the rule text in force (docs/architecture.md,
"The watch"): by record time. A fact is read from a text; when a new version of that text is
recorded later (an amendment ingested), the fact still says what the old text said until an
officer edits it (or saves it unchanged, having checked it), which records it anew. The catalog
is loaded after the texts it cites, so a fact of the shipped knowledge base is never behind.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Max, OuterRef, Subquery, Value

from regs.models import Status, UnitVersion

from .models import Paytable, PaytableEntry, Wager


@dataclass(frozen=True)
class Amended:
    """The version of a fact's text in force on a date, recorded after the fact was."""

    effective_from: dt.date | None
    recorded_at: dt.datetime
    fact_recorded_at: dt.datetime


@dataclass
class Reviews:
    """A jurisdiction's catalog facts' record times and its texts' versions, read at once."""

    facts: dict[tuple[str, int], dt.datetime] = field(default_factory=dict)
    """When each fact (model name, id) was last recorded (a paytable: or any of its lines)."""
    versions: dict[tuple[int, str], list[tuple[dt.date | None, dt.date | None, dt.datetime]]] = (
        field(default_factory=dict)
    )
    """Each unit's adopted versions (provision id, path): from, to, when recorded."""

    def amended_after(self, fact: Any, as_of: dt.date) -> Amended | None:
        """The version of the fact's text in force on `as_of`, if it was recorded after the fact
        was last recorded (None: reviewed since, or not in force, or never recorded)."""
        fact_recorded = self.facts.get((type(fact).__name__, fact.pk))
        if fact_recorded is None:
            return None
        for start, end, recorded in self.versions.get((fact.provision_id, fact.unit_path), []):
            if (start is None or start <= as_of) and (end is None or as_of < end):
                if recorded > fact_recorded:
                    return Amended(start, recorded, fact_recorded)
                return None
        return None


def catalog_reviews(jurisdiction: str) -> Reviews:
    """Reviews of `jurisdiction`'s wagers and paytables (the facts the validator checks this
    way), in two queries: the facts' last record times, and the texts' versions with the time
    each was created."""
    reviews = Reviews()
    where = "provision__instrument__jurisdiction__code"

    def last_recorded(model: Any, kind: str, path: str, key: str = "id") -> Any:
        return (
            model.history.filter(**{path: jurisdiction})
            .order_by()
            .values(key)
            .annotate(kind=Value(kind), last=Max("history_date"))
            .values_list("kind", key, "last")
        )

    facts = last_recorded(Wager, "Wager", where).union(
        last_recorded(Paytable, "Paytable", where),
        last_recorded(PaytableEntry, "Paytable", f"paytable__{where}", "paytable_id"),
        all=True,
    )
    for kind, pk, last in facts:
        key = (kind, pk)
        if key not in reviews.facts or last > reviews.facts[key]:
            reviews.facts[key] = last
    created = UnitVersion.history.filter(id=OuterRef("pk"), history_type="+").values(
        "history_date"
    )[:1]
    versions: dict[tuple[int, str], list[Any]] = defaultdict(list)
    for provision, path, start, end, recorded in (
        UnitVersion.objects.filter(**{f"unit__{where}": jurisdiction})
        .exclude(status=Status.PROPOSED)
        .annotate(created=Subquery(created))
        .values_list(
            "unit__provision_id", "unit__path", "effective_from", "effective_to", "created"
        )
    ):
        if recorded is not None:
            versions[(provision, path)].append((start, end, recorded))
    reviews.versions = dict(versions)
    return reviews
