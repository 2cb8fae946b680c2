"""What the rule writes recorded between two record times change (docs/architecture.md, "The
watch"): read from the record history (django-simple-history) of the jurisdiction's rule text
and catalog, as the changes of the rules compliance.impact judges.

- A unit version created with a date it takes effect on: an amendment (Amended), judged on the
  day before that date against the date, over the provision's sections.
- A proposed text's label or version written: the proposed text against the adopted rules
  (Proposed), on `as_of`.
- What those cannot judge, said in words: a version's text corrected within its period (the
  rules before the correction are not kept to judge by), an undated version, a deleted one, an
  edit of the catalog.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from regs.models import Citation, Status, UnitVersion
from variants.models import Constraint, Paytable, PaytableEntry, PlayRule, PostingRequirement, Wager

from .impact import Amended, Proposed, Recorded, section_of

# Catalog models and the path from each to its jurisdiction's code.
_CATALOG = (
    (Wager, "provision__instrument__jurisdiction__code"),
    (Paytable, "provision__instrument__jurisdiction__code"),
    (PaytableEntry, "paytable__provision__instrument__jurisdiction__code"),
    (Constraint, "provision__instrument__jurisdiction__code"),
    (PlayRule, "provision__instrument__jurisdiction__code"),
    (PostingRequirement, "provision__instrument__jurisdiction__code"),
)


def recorded(
    jurisdiction: str, start: dt.datetime, end: dt.datetime, *, as_of: dt.date
) -> Recorded:
    """The writes of `jurisdiction`'s rules recorded after `start` and up to `end`, as changes
    of the rules (a proposed text judged against the adopted rules on `as_of`)."""
    window = {"history_date__gt": start, "history_date__lte": end}
    versions = (
        UnitVersion.history.filter(
            unit__provision__instrument__jurisdiction__code=jurisdiction, **window
        )
        .select_related("unit__provision")
        .order_by("history_id")
    )
    amended: dict[dt.date, set[int]] = defaultdict(set)
    proposed: set[int] = set()
    not_judged: list[str] = []
    sections = _section_labels(jurisdiction)
    for row in versions:
        provision = row.unit.provision_id
        where = f"{_name(sections, provision)}{row.unit.path}"
        if row.status == Status.PROPOSED:
            proposed.add(provision)
        elif row.history_type == "-":
            not_judged.append(f"{where}: a version deleted")
        elif row.history_type == "+" and row.effective_from is not None:
            amended[row.effective_from].add(provision)
        elif row.history_type == "+":
            not_judged.append(f"{where}: a version with no date it takes effect on")
        elif _text_changed(row):
            not_judged.append(
                f"{where}: the text of its version from {row.effective_from or 'no date'} "
                "corrected within its period"
            )
    proposed |= set(
        Citation.history.filter(
            provision__instrument__jurisdiction__code=jurisdiction,
            status=Status.PROPOSED,
            **window,
        ).values_list("provision_id", flat=True)
    )
    parts: list[Amended | Proposed] = [
        Amended(jurisdiction, on, frozenset(s for p in provisions for s in sections[p]))
        for on, provisions in sorted(amended.items())
    ]
    labels = dict(
        Citation.objects.filter(provision_id__in=proposed, status=Status.PROPOSED).values_list(
            "provision_id", "label"
        )
    )
    parts += [Proposed(jurisdiction, labels[p], as_of) for p in sorted(proposed) if p in labels]
    not_judged += _catalog_edits(jurisdiction, window)
    return Recorded(jurisdiction, start, end, tuple(parts), tuple(not_judged))


def _section_labels(jurisdiction: str) -> dict[int, set[str]]:
    """Every section label each provision of the jurisdiction has borne, by provision."""
    found: dict[int, set[str]] = defaultdict(set)
    for provision, label in Citation.objects.filter(
        provision__instrument__jurisdiction__code=jurisdiction
    ).values_list("provision_id", "label"):
        found[provision].add(section_of(label))
    return found


def _name(sections: dict[int, set[str]], provision: int) -> str:
    return " / ".join(sorted(sections.get(provision, {f"provision {provision}"})))


def _text_changed(row: Any) -> bool:
    """Whether a changed version's text differs from its record before (not only its dates)."""
    before = row.prev_record
    return before is None or before.text != row.text


def _catalog_edits(jurisdiction: str, window: dict[str, Any]) -> list[str]:
    said = []
    for model, path in _CATALOG:
        count = model.history.filter(**{path: jurisdiction}, **window).count()
        if count:
            said.append(
                f"{count} {model._meta.verbose_name} edit{'s' if count > 1 else ''} of the "
                "catalog (judging catalog edits by record time is still to come)"
            )
    return said
