"""What the rule writes recorded between two record times change (docs/architecture.md, "The
watch"): read from the record history (django-simple-history) of the jurisdiction's rule text
and catalog, as the changes of the rules compliance.impact judges.

- A unit version created with a date it takes effect on: an amendment (Amended), judged on the
  day before that date against the date, over the provision's sections.
- A proposed text's label or version written: the proposed text against the adopted rules
  (Proposed), on `as_of`.
- The catalog's facts written (an officer's edit, a catalog file loaded again): the catalog as
  recorded at the window's start against the catalog as recorded at its end (CatalogEdited), on
  `as_of`.
- What those cannot judge, said in words: a version's text corrected within its period (the
  rules before the correction are not kept to judge by), an undated version, a deleted one.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from regs.models import Citation, Status, UnitVersion
from variants.recording import catalog_written

from .impact import Amended, CatalogEdited, Proposed, Recorded, section_of


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
    parts: list[Amended | Proposed | CatalogEdited] = [
        Amended(jurisdiction, on, frozenset(s for p in provisions for s in sections[p]))
        for on, provisions in sorted(amended.items())
    ]
    labels = dict(
        Citation.objects.filter(provision_id__in=proposed, status=Status.PROPOSED).values_list(
            "provision_id", "label"
        )
    )
    parts += [Proposed(jurisdiction, labels[p], as_of) for p in sorted(proposed) if p in labels]
    if edits := catalog_written(jurisdiction, start, end):
        said = tuple(f"{count} {name} record{'s' if count > 1 else ''}" for name, count in edits)
        parts.append(CatalogEdited(jurisdiction, start, end, as_of, said))
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
