"""A side wager of a table: authorised and in force, its paytable approved (by id or as given
inline, the closest named when none matches), for the deck count and soft-17 rule of the table,
and the constraints on the wager (checks.SIDE_CHECKS).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from compliance.configuration import PaytableLine, SideWager, Table, pays_parse
from engine.odds import Pays
from variants.models import Paytable, Severity, Wager
from variants.reviews import catalog_reviews
from variants.selectors import Citer

from .checks import SIDE_CHECKS
from .findings import Context


def _period_note(fact: Any, as_of: dt.date) -> str:
    """Why a dated fact does not hold on the date, where its own dates say so."""
    if getattr(fact, "proposed", False):
        return " (it is a proposed text's, in force on no date; include_proposed applies it)"
    if fact.effective_from and as_of < fact.effective_from:
        return f" (the rule dates it from {fact.effective_from})"
    if fact.effective_to and as_of >= fact.effective_to:
        return f" (it ceased to apply on {fact.effective_to})"
    return ""


def _decks(decks: list[int]) -> str:
    return " or ".join(str(d) for d in decks) + " decks"


def _soft17(rule: str) -> str:
    return "stands on soft 17" if rule == "stand" else "hits soft 17"


def check_side_wager(ctx: Context, table: Table, side: SideWager, path: str) -> None:
    name, slug = table.name, side.wager
    wager = ctx.wagers.get(slug)
    if wager is None:
        codes = ", ".join(ctx.elsewhere.get(slug, []))
        ctx.add(
            Severity.ERROR,
            "wager-not-authorised",
            f"{slug} is not authorised in {ctx.jurisdiction}; the catalog has it in {codes}.",
            name,
            f"{path}.wager",
            [],
        )
        return
    if not ctx.citer.in_force(wager):
        ctx.add(
            Severity.ERROR,
            "wager-not-in-force",
            f"{wager.name} is not in force in {ctx.jurisdiction} on {ctx.as_of}.",
            name,
            f"{path}.wager",
            [wager],
        )
        return
    _check_read_from_text_in_force(ctx, wager, wager.name, name, f"{path}.wager")
    paytable = _check_paytable(ctx, wager, table, side, path)
    if paytable is not None:
        _check_read_from_text_in_force(
            ctx, paytable, f"{wager.name}'s {paytable.label}", name, f"{path}.paytable"
        )
    wager_id = wager.pk
    for constraint in ctx.constraints:
        if constraint.wager_id == wager_id:
            check = SIDE_CHECKS.get(constraint.kind)
            if check:
                check(ctx, constraint, table, side, path)


def _check_read_from_text_in_force(
    ctx: Context, fact: Any, what: str, table: str, path: str
) -> None:
    """A catalog fact applied on a date whose cited text in force then was recorded after the
    fact was last recorded (variants.reviews): the text was amended since the fact was read,
    and no officer has reviewed the fact against it. None in the shipped knowledge base; an
    amended text ingested later trips it until the fact is reviewed (the watch's finding)."""
    reviews = ctx.kept(
        ("catalog reviews", ctx.jurisdiction), lambda: catalog_reviews(ctx.jurisdiction)
    )
    amended = reviews.amended_after(fact, ctx.as_of)
    if amended is None:
        return
    cited = ctx.citer.cite_fact(fact, ctx.jurisdiction)
    since = f" in force from {amended.effective_from}" if amended.effective_from else ""
    ctx.add(
        Severity.WARNING,
        "catalog-text-amended",
        f"The catalog's {what} was read from {cited.citation} before its text{since} was "
        f"recorded ({amended.recorded_at:%Y-%m-%d %H:%M} UTC; the fact was last recorded "
        f"{amended.fact_recorded_at:%Y-%m-%d %H:%M} UTC): what is applied here may no longer "
        "be the rule's until an officer reviews it.",
        table,
        path,
        [fact],
    )


def _check_paytable(
    ctx: Context, wager: Wager, table: Table, side: SideWager, path: str
) -> Paytable | None:
    """Checks the side wager's paytable; returns the catalog's paytable it is (None: none
    found or not approved)."""
    name, given = table.name, side.paytable
    proposed = [p for p in wager.paytables.all() if p.proposed]
    approved = [p for p in wager.paytables.all() if ctx.citer.applies(p)]
    if ctx.include_proposed:  # as if adopted
        approved += proposed
    if given is None:
        if wager.paytables.all():  # prefetched
            ctx.add(
                Severity.WARNING,
                "paytable-missing",
                f"No paytable given for {wager.name}; approved: "
                f"{', '.join(p.key for p in approved)}.",
                name,
                f"{path}.paytable",
                [wager],
            )
        return None
    if isinstance(given, str):
        paytable = next((p for p in wager.paytables.all() if p.key == given), None)
        if paytable is None:
            ctx.add(
                Severity.ERROR,
                "paytable-unknown",
                f"{given} is no paytable of {wager.name} in {ctx.jurisdiction}; approved: "
                f"{', '.join(p.key for p in approved)}.",
                name,
                f"{path}.paytable",
                [wager],
            )
            return None
        if paytable not in approved:
            ctx.add(
                Severity.ERROR,
                "paytable-not-in-force",
                f"{paytable.label} of {wager.name} is not approved on {ctx.as_of}"
                f"{_period_note(paytable, ctx.as_of)}.",
                name,
                f"{path}.paytable",
                [paytable],
            )
            return None
        columns = sorted({e.column for e in paytable.entries.all()})
        if side.column is not None and side.column not in columns:
            ctx.add(
                Severity.ERROR,
                "paytable-column-unknown",
                f"{paytable.label} of {wager.name} has no column {side.column!r}; its columns: "
                f"{', '.join(map(repr, columns))}.",
                name,
                f"{path}.column",
                [paytable],
            )
            return None
    elif not wager.paytables.all():
        ctx.add(
            Severity.WARNING,
            "paytable-not-in-catalog",
            f"The catalog holds no paytable of {wager.name} in {ctx.jurisdiction} yet, so "
            "the one offered "
            f"could not be checked; compare it with the rule by hand.",
            name,
            f"{path}.paytable",
            [wager],
        )
        return None
    else:
        paytable = _matching(given, approved)
        if paytable is None:
            closest = _closest(given, approved)
            ctx.add(
                Severity.ERROR,
                "paytable-not-approved",
                _closest_message(wager, given, closest),
                name,
                f"{path}.paytable",
                closest or [wager],
            )
            return None
    decks = table.decks
    if paytable.decks and decks is not None and decks not in paytable.decks:
        ctx.add(
            Severity.ERROR,
            "paytable-decks",
            f"{paytable.label} of {wager.name} is approved for {_decks(paytable.decks)}, "
            f"not {decks}.",
            name,
            f"{path}.paytable",
            [paytable],
        )
    soft_17 = table.dealer_soft_17
    if paytable.dealer_soft_17 != "any" and soft_17 and soft_17 != paytable.dealer_soft_17:
        ctx.add(
            Severity.ERROR,
            "paytable-soft-17",
            f"{paytable.label} of {wager.name} is for a dealer who "
            f"{_soft17(paytable.dealer_soft_17)}; "
            f"this table's dealer {_soft17(soft_17)}.",
            name,
            f"{path}.paytable",
            [paytable],
        )
    if ctx.include_proposed and proposed and not paytable.proposed:
        _check_kept_by_proposed(ctx, wager, table, paytable, proposed, path)
    return paytable


def _check_kept_by_proposed(
    ctx: Context,
    wager: Wager,
    table: Table,
    paytable: Paytable,
    proposed: list[Paytable],
    path: str,
) -> None:
    """As if the proposed text were adopted: an adopted paytable stays approved only where the
    proposed text prints the same pays for the same deck counts and soft-17 rule."""
    same_game = [
        p
        for p in proposed
        if p.decks == paytable.decks and p.dealer_soft_17 == paytable.dealer_soft_17
    ]
    if any(not _differ(_lines(p), _lines(paytable)) for p in same_game):
        return
    label = ctx.citer.cite_fact(proposed[0], ctx.jurisdiction).citation
    printed = ", ".join(p.label for p in same_game) or "none"
    decks = _decks(paytable.decks) if paytable.decks else "any deck count"
    dealer = (
        "either soft-17 rule"
        if paytable.dealer_soft_17 == "any"
        else f"a dealer who {_soft17(paytable.dealer_soft_17)}"
    )
    ctx.add(
        Severity.ERROR,
        "paytable-not-in-proposed",
        f"{paytable.label} of {wager.name} is not among the pay tables of the proposed {label} "
        f"(its tables for {decks} and {dealer}: {printed}): were the text adopted, it would no "
        "longer be approved.",
        table.name,
        f"{path}.paytable",
        (same_game or proposed)[:1],
    )


def _lines(paytable: Paytable) -> dict[tuple[str, str], Pays]:
    """The paytable's pays by (outcome, column), parsed once per paytable object."""
    cached: dict[tuple[str, str], Pays] | None = getattr(paytable, "_pays", None)
    if cached is None:
        cached = {(e.outcome, e.column): pays_parse(e.pays) for e in paytable.entries.all()}
        paytable._pays = cached  # type: ignore[attr-defined]
    return cached


def _given_lines(
    given: tuple[PaytableLine, ...], paytable: Paytable
) -> dict[tuple[str, str], Pays]:
    """Inline lines keyed like the paytable's; a line without a column means the first column."""
    first = next((e.column for e in paytable.entries.all()), "")
    return {(g.outcome, g.column or first): pays_parse(g.pays) for g in given}


def _differ(a: dict[tuple[str, str], Pays], b: dict[tuple[str, str], Pays]) -> bool:
    """Whether two paytables' lines differ: a line only one has, or another payout."""
    return a.keys() != b.keys() or any(not a[key].same_payout(b[key]) for key in a)


def _differences(given: tuple[PaytableLine, ...], paytable: Paytable) -> list[str]:
    offered = _given_lines(given, paytable)
    columns = {column for _, column in offered}
    approved = {key: pays for key, pays in _lines(paytable).items() if key[1] in columns}
    out = []
    for key in sorted(approved.keys() | offered.keys()):
        a, o = approved.get(key), offered.get(key)
        if a is None:
            out.append(f"{key[0]} is not a line of {paytable.label}")
        elif o is None:
            out.append(f"{key[0]}: missing (approved {a})")
        elif not a.same_payout(o):
            out.append(f"{key[0]}: {o} offered, {a} approved")
    return out


def _matching(given: tuple[PaytableLine, ...], approved: list[Paytable]) -> Paytable | None:
    return next((p for p in approved if not _differences(given, p)), None)


def paytable_offered(
    wager: Wager, side: SideWager, citer: Citer, include_proposed: bool = False
) -> Paytable | None:
    """The approved paytable a side wager offers on the citer's date: the catalog id it names,
    or the approved table its inline lines match (of tables printed again with the same lines,
    the one with the shortest id, as `_closest` picks); None where it is neither. A proposed
    text's paytable is approved only `include_proposed`."""
    approved = sorted(
        (p for p in wager.paytables.all() if citer.applies(p, include_proposed=include_proposed)),
        key=lambda p: (len(p.key), p.key),
    )
    given = side.paytable
    if isinstance(given, str):
        return next((p for p in approved if p.key == given), None)
    return _matching(given, approved) if given else None


def _closest(given: tuple[PaytableLine, ...], approved: list[Paytable]) -> list[Paytable]:
    """The two approved paytables with the fewest differing lines; of tables printed again with
    the same lines (21+3's in 30-2107, 30-2113 and 30-2114), the one with the shortest id."""
    closest: list[Paytable] = []
    for paytable in sorted(
        approved, key=lambda p: (len(_differences(given, p)), len(p.key), p.key)
    ):
        if all(_lines(paytable) != _lines(other) for other in closest):
            closest.append(paytable)
        if len(closest) == 2:
            break
    return closest


def _closest_message(wager: Wager, given: tuple[PaytableLine, ...], closest: list[Paytable]) -> str:
    if not closest:
        return f"No paytable of {wager.name} is approved on this date."
    parts = [f"{p.key} differs in: {'; '.join(_differences(given, p))}" for p in closest]
    return (
        f"The paytable offered for {wager.name} matches no approved paytable. Closest: "
        + " | ".join(parts)
    )
