"""What cites a provision: the catalog facts a rule authorises, read through a registry.

The rule text knows nothing of the catalog (variants depends on regs, never the reverse), yet a
provision's page lists the wagers, paytables, constraints and posting requirements that cite it.
An app that holds such facts registers a reader here when it starts (variants/apps.py); the regs
pages call `facts_citing`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class CitingFact:
    """One fact that cites a provision, as a reader's page lists it."""

    kind: str
    """wager, paytable, constraint, posting requirement, play rule."""
    name: str
    unit: str
    """The unit it cites: "" (the section) or a path such as (3)(b)."""
    detail: str
    """What the fact says, in a line: a constraint's message, a notice's subject."""
    url: str
    """Its page, or "" where it has none."""
    effective_from: dt.date | None
    effective_to: dt.date | None
    in_force: bool
    """Whether the fact's own period covers the page's date."""


Reader = Callable[[int, dt.date], list[CitingFact]]
_READERS: list[Reader] = []


def register(reader: Reader) -> Reader:
    """Add a reader of facts citing a provision (called with the provision's id and a date)."""
    if reader not in _READERS:
        _READERS.append(reader)
    return reader


def facts_citing(provision_id: int, *, as_of: dt.date) -> list[CitingFact]:
    """Every registered app's facts that cite the provision, in the order the readers give."""
    return [fact for reader in _READERS for fact in reader(provision_id, as_of)]
