"""What the validator reports and reads: the finding codes that are not catalog constraints,
a Finding with its citations, the context a validation accumulates findings in, and the
jurisdiction's catalog facts, read in four queries.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from compliance.configuration import Table
from pitboss import kbcache
from variants.models import Constraint, Wager
from variants.selectors import Citer

FINDING_CODES = {
    "game-not-authorised": (
        "The table's game is not a base game or full variant of the jurisdiction on the date."
    ),
    "wager-not-authorised": (
        "The side wager is not authorised in the jurisdiction (it exists elsewhere)."
    ),
    "wager-not-in-force": "The side wager is authorised, but not on the as-of date.",
    "paytable-unknown": (
        "The catalog has no paytable with this id for this wager in the jurisdiction."
    ),
    "paytable-not-in-force": "The paytable is not approved on the as-of date.",
    "paytable-not-approved": (
        "The inline paytable matches no approved paytable; the closest are named."
    ),
    "paytable-missing": "No paytable was given for a wager that pays by one.",
    "paytable-not-in-catalog": (
        "The catalog holds no paytable of the wager in the jurisdiction to compare with."
    ),
    "paytable-decks": "The paytable is approved for other deck counts.",
    "paytable-not-in-proposed": (
        "With include_proposed: the paytable is not among the wager's pay tables in the proposed "
        "text, so it would not be approved were the text adopted."
    ),
    "paytable-soft-17": "The paytable is approved for the other dealer soft-17 rule.",
    "catalog-text-amended": "The rule text in force that a catalog fact applied here cites was "
    "recorded after the fact was: the fact has not been reviewed against it.",
    "fact-missing": "A fact the rules need (deck count, limits, odds) is not in the configuration.",
    "paytable-column-unknown": "The side wager names a pay column its paytable does not print.",
    "proposed-not-applied": (
        "include_proposed was asked, but the catalog holds no facts from proposed texts."
    ),
    "proposed-applied": (
        "include_proposed was asked: the facts the catalog draws from proposed texts (never in "
        "force) are applied as if adopted; the findings they cause cite the proposed label."
    ),
    "sign-fact-missing": "A notice to post needs a fact the configuration does not give.",
    "option-not-authorised": (
        "The table asks for a procedure the jurisdiction's rules do not provide (face-up "
        "dealing outside MA 6(k))."
    ),
}


@dataclass
class Finding:
    severity: str
    code: str
    message: str
    table: str
    path: str
    citations: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "table": self.table,
            "path": self.path,
            "citations": [
                c | {"effective_from": _iso(c["effective_from"])} for c in self.citations
            ],
        }


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


@dataclass
class Context:
    jurisdiction: str
    as_of: dt.date
    citer: Citer
    wagers: dict[str, Wager]
    elsewhere: dict[str, list[str]]
    constraints: list[Constraint]
    include_proposed: bool = False
    """The floor is judged as if the proposed texts were adopted: their facts apply."""
    findings: list[Finding] = field(default_factory=list)
    # reads a value once per revision of the knowledge base (configuration_validate's), or now
    kept: kbcache.Kept = field(default=kbcache.read_now, repr=False)

    def breach(self, c: Constraint, what: str, table: Table, path: str, note: str = "") -> None:
        """A finding that the table breaks constraint `c`: what the table does, then the rule."""
        self.add(c.severity, c.code, f"{what}; {c.message}{note}", table.name, path, [c])

    def add(
        self, severity: str, code: str, message: str, table: str, path: str, cited: list[Any]
    ) -> None:
        citations = [self.citer.cite_fact(c, self.jurisdiction).as_dict() for c in cited]
        self.findings.append(Finding(severity, code, message, table, path, citations))


@dataclass(frozen=True)
class Catalog:
    """The catalog facts of one jurisdiction the validator reads, whatever the date."""

    wagers: dict[str, Wager]
    """Its games and wagers by slug, with their paytables' lines."""
    elsewhere: dict[str, list[str]]
    """The other jurisdictions of each slug."""
    constraints: list[Constraint]


def catalog_read(jurisdiction: str) -> Catalog:
    """The jurisdiction's catalog facts, in five queries: the wagers with their paytables' lines
    and their play rules (the signs post a game's), the other jurisdictions of each slug, the
    constraints."""
    wagers = {
        w.slug: w
        for w in Wager.objects.filter(jurisdiction__code=jurisdiction).prefetch_related(
            "paytables__entries", "play_rules"
        )
    }
    elsewhere: dict[str, list[str]] = {}
    for slug, code in Wager.objects.exclude(jurisdiction__code=jurisdiction).values_list(
        "slug", "jurisdiction__code"
    ):
        elsewhere.setdefault(slug, []).append(code)
    constraints = list(
        Constraint.objects.filter(jurisdiction__code=jurisdiction).select_related("wager")
    )
    return Catalog(wagers, elsewhere, constraints)
