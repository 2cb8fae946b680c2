"""The catalog facts that cite a provision, for its page (registered in regs.citing)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from jurisdictions.web import paytable_url, wager_url
from regs.citing import CitingFact

from .models import Constraint, Paytable, PlayRule, PostingRequirement, Wager, WagerKind

_CITED = ("unit_path", "effective_from", "effective_to")


def _fact(
    kind: str, row: dict[str, Any], name: str, detail: str, url: str, as_of: dt.date
) -> CitingFact:
    start, end = row["effective_from"], row["effective_to"]
    return CitingFact(
        kind=kind,
        name=name,
        unit=row["unit_path"],
        detail=detail,
        url=url,
        effective_from=start,
        effective_to=end,
        in_force=(start is None or start <= as_of) and (end is None or as_of < end),
    )


def _wager_link(row: dict[str, Any]) -> str:
    slug = row["wager__slug"]
    return wager_url(row["jurisdiction__code"], slug) if slug else ""


def catalog_facts_citing(provision_id: int, as_of: dt.date) -> list[CitingFact]:
    """Wagers, paytables, constraints, play rules and posting requirements citing the provision,
    each linked to its catalog page (a constraint, rule or requirement: its wager's page).
    Five queries of plain values."""
    found: list[CitingFact] = []
    kinds = dict(WagerKind.choices)
    for w in Wager.objects.filter(provision_id=provision_id).values(
        *_CITED, "name", "kind", "slug", "jurisdiction__code"
    ):
        url = wager_url(w["jurisdiction__code"], w["slug"])
        found.append(_fact("wager", w, w["name"], kinds.get(w["kind"], w["kind"]), url, as_of))
    for p in Paytable.objects.filter(provision_id=provision_id).values(
        *_CITED, "key", "label", "wager__name", "proposed"
    ):
        name = f"{p['wager__name']}: {p['label']}"
        detail = p["key"] + (" (proposed)" if p["proposed"] else "")
        found.append(_fact("paytable", p, name, detail, paytable_url(p["key"]), as_of))
    related = (*_CITED, "jurisdiction__code", "wager__slug")
    for c in Constraint.objects.filter(provision_id=provision_id).values(
        *related, "code", "message", "proposed"
    ):
        detail = c["message"] + (" (proposed)" if c["proposed"] else "")
        found.append(_fact("constraint", c, c["code"], detail, _wager_link(c), as_of))
    for r in PlayRule.objects.filter(provision_id=provision_id).values(
        *related, "wager__name", "key", "summary"
    ):
        name = f"{r['wager__name']}: {r['key']}"
        found.append(_fact("play rule", r, name, r["summary"], _wager_link(r), as_of))
    for q in PostingRequirement.objects.filter(provision_id=provision_id).values(
        *related, "code", "what", "proposed"
    ):
        detail = q["what"] + (" (proposed)" if q["proposed"] else "")
        found.append(_fact("posting requirement", q, q["code"], detail, _wager_link(q), as_of))
    return found
