"""Check a parsed configuration against the rules in force on its as-of date.

Every finding has a severity, a stable code, a message a person understands, the table and field
path, and citations of the rule versions in force on the date, by the label used that day.
Catalog constraints carry their own codes (us-co/kings-bounty/decks); the checks below that are
not constraints use the codes in FINDING_CODES.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Q

from compliance.configuration import pays_parse
from compliance.rulesets import FACE_UP_DEALING
from engine.analysis import analyse
from engine.odds import Basis, Pays
from engine.rules import PaytableLine
from pitboss import kbcache
from regs.models import Citation, Status
from variants.models import (
    Constraint,
    ConstraintKind,
    Paytable,
    PlayRule,
    Severity,
    Wager,
    WagerKind,
)
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
    "paytable-soft-17": "The paytable is approved for the other dealer soft-17 rule.",
    "fact-missing": "A fact the rules need (deck count, limits, odds) is not in the configuration.",
    "paytable-column-unknown": "The side wager names a pay column its paytable does not print.",
    "proposed-not-applied": (
        "include_proposed was asked, but the catalog holds no facts from proposed texts."
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
    findings: list[Finding] = field(default_factory=list)

    def breach(
        self, c: Constraint, what: str, table: dict[str, Any], path: str, note: str = ""
    ) -> None:
        """A finding that the table breaks constraint `c`: what the table does, then the rule."""
        self.add(c.severity, c.code, f"{what}; {c.message}{note}", table["name"], path, [c])

    def add(
        self, severity: str, code: str, message: str, table: str, path: str, cited: list[Any]
    ) -> None:
        citations = [self.citer.cite(c.provision_id, c.unit_path).as_dict() for c in cited]
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
    """The jurisdiction's catalog facts, in four queries."""
    wagers = {
        w.slug: w
        for w in Wager.objects.filter(jurisdiction__code=jurisdiction).prefetch_related(
            "paytables__entries"
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


def configuration_validate(config: dict[str, Any], *, revision: str | None = None) -> list[Finding]:
    """Findings for a parsed configuration (configuration_parse), in table order.

    With `revision` (pitboss.kbcache's stamp of the knowledge base, read before this call), the
    catalog facts and citations are read once per revision and date and shared between calls.
    """
    jurisdiction, as_of = config["jurisdiction"], config["as_of"]
    if revision is None:
        citer, catalog = Citer(as_of), catalog_read(jurisdiction)
        constraints = [c for c in catalog.constraints if citer.in_force(c)]
    else:
        citer = kbcache.remember(revision, ("citer", as_of), lambda: Citer(as_of))
        catalog = kbcache.remember(
            revision, ("catalog", jurisdiction), lambda: catalog_read(jurisdiction)
        )
        constraints = kbcache.remember(
            revision,
            ("constraints in force", jurisdiction, as_of),
            lambda: [c for c in catalog.constraints if citer.in_force(c)],
        )
    offered = {t["game"] for t in config["tables"]} | {
        side["wager"] for t in config["tables"] for side in t.get("side_wagers", [])
    }
    # The games and wagers the floor offers.
    wagers = {slug: w for slug, w in catalog.wagers.items() if slug in offered}
    elsewhere = catalog.elsewhere
    ctx = Context(jurisdiction, as_of, citer, wagers, elsewhere, constraints)
    for index, table in enumerate(config["tables"]):
        _check_table(ctx, table, f"tables[{index}]")
    if config.get("include_proposed"):
        _proposed_not_applied(ctx)
    for constraint in constraints:
        floor_check = FLOOR_CHECKS.get(constraint.kind)
        if floor_check:
            floor_check(ctx, constraint, config["tables"])
    return ctx.findings


def _proposed_not_applied(ctx: Context) -> None:
    """Say plainly that proposed texts change nothing yet, and which ones are on file."""
    proposed = sorted(
        Citation.objects.filter(
            status=Status.PROPOSED, provision__instrument__jurisdiction__code=ctx.jurisdiction
        ).values_list("label", flat=True)
    )
    on_file = f" (proposed texts on file: {', '.join(proposed)})" if proposed else ""
    ctx.add(
        Severity.INFO,
        "proposed-not-applied",
        "include_proposed: the catalog holds no wagers, paytables or constraints drawn "
        "from proposed "
        f"texts yet{on_file}, so these findings are those of the adopted rules.",
        "",
        "include_proposed",
        [],
    )


def _check_table(ctx: Context, table: dict[str, Any], path: str) -> None:
    name = table["name"]
    game = ctx.wagers.get(table["game"])
    if (
        game is None
        or game.kind not in (WagerKind.BASE_GAME, WagerKind.VARIANT)
        or not ctx.citer.in_force(game)
    ):
        where = ctx.elsewhere.get(table["game"])
        also = f" (it is a game of {', '.join(where)})" if where else ""
        ctx.add(
            Severity.ERROR,
            "game-not-authorised",
            f"{table['game']!r} is not a game {ctx.jurisdiction} authorises on {ctx.as_of}{also}.",
            name,
            f"{path}.game",
            [],
        )
    # The table's game counts too: Massachusetts excludes wagers from Multiple Action tables.
    offered = _offered(table)
    # A full variant's own rule of a kind replaces the general rule of that kind at its tables
    # (Face Up Blackjack pays blackjack at least 1 to 1, not 6 to 5: 30-899.02(2)).
    own_kinds = {
        c.kind
        for c in ctx.constraints
        if c.wager_id is not None and c.subject.slug == table["game"]
    }
    if table.get("hole_card") == "face_up":
        _face_up_dealing(ctx, table, path)
    if table.get("variation") not in (None, "none"):
        _variation_known(ctx, table, path)
    for constraint in ctx.constraints:
        if _excepted(constraint, table):
            continue
        bound = _for_variation(constraint, table)
        if bound is None:
            continue
        constraint = bound
        # A rule of a full variant binds the tables that deal that game, not the others.
        wager = constraint.wager
        of_this_game = wager is not None and wager.slug == table["game"]
        general = wager is None or wager.kind == WagerKind.BASE_GAME
        check = TABLE_CHECKS.get(constraint.kind)
        if general and constraint.kind in own_kinds:
            continue
        if check and (general or of_this_game or constraint.kind == ConstraintKind.DECKS_REQUIRED):
            check(ctx, constraint, table, path)
        if constraint.kind == ConstraintKind.DECKS_ALLOWED and of_this_game:
            _decks_allowed(ctx, constraint, table, {}, path)
        if constraint.kind == ConstraintKind.EXCLUDES and constraint.subject.slug in offered:
            _excludes(ctx, constraint, table, path, offered)
    for index, side in enumerate(table.get("side_wagers", [])):
        _check_side_wager(ctx, table, side, f"{path}.side_wagers[{index}]")


def _for_variation(c: Constraint, table: dict[str, Any]) -> Constraint | None:
    """params {"variation": name}: a rule of a named blackjack variation of the jurisdiction
    (MA's 6 to 5 blackjack variation: 2(a)(1), 3(d), 3(e), 8(c), 12(d)). At a table whose
    `variation` is that one it binds as an error; at a table that says it deals none (7(d):
    paying 6 to 5 outside the variation) it does not bind; where the table does not say, it keeps
    its catalog severity (a warning: the configuration cannot tell)."""
    name, given = c.params.get("variation"), table.get("variation")
    if not name or given is None:
        return c
    if given != name:
        return None
    bound = copy.copy(c)
    bound.severity = Severity.ERROR
    return bound


def _variation_known(ctx: Context, table: dict[str, Any], path: str) -> None:
    """A table's `variation` must be one the jurisdiction's rules in force name."""
    named = {c.params.get("variation") for c in ctx.constraints}
    if table["variation"] not in named:
        ctx.add(
            Severity.ERROR,
            "option-not-authorised",
            f"variation {table['variation']}: the rules of {ctx.jurisdiction} on {ctx.as_of} name "
            f"no such blackjack variation (Massachusetts' 6 to 5 variation is 6-to-5).",
            table["name"],
            f"{path}.variation",
            [],
        )


def _offered(table: dict[str, Any]) -> set[str]:
    """The table's game and its side wagers, by slug."""
    return {side["wager"] for side in table.get("side_wagers", [])} | {table["game"]}


def _excepted(c: Constraint, table: dict[str, Any]) -> bool:
    """params {"unless": {option: value, …}}: the rule does not bind a table with all those
    options (MA 3(e)'s 3 to 2 or 6 to 5 does not bind 6(k)'s face-up dealing, which pays 1 to 1)."""
    unless = c.params.get("unless")
    return bool(unless) and all(table.get(option) == value for option, value in unless.items())


def _face_up_dealing(ctx: Context, table: dict[str, Any], path: str) -> None:
    """hole_card face_up needs a game dealt face up (Face Up Blackjack, 30-899.02(1)) or a face-up
    dealing procedure in the jurisdiction's rules (MA 6(k))."""
    face_up = PlayRule.objects.filter(
        Q(wager__slug=table["game"], key="deal", params__dealer_face_up=True)
        | Q(key__startswith=FACE_UP_DEALING),
        jurisdiction__code=ctx.jurisdiction,
    )
    if not any(ctx.citer.in_force(rule) for rule in face_up):
        ctx.add(
            Severity.ERROR,
            "option-not-authorised",
            f"hole_card face_up: the rules of {ctx.jurisdiction} on {ctx.as_of} provide no "
            f"face-up dealing procedure for {table['game']} (Massachusetts' is 6(k)).",
            table["name"],
            f"{path}.hole_card",
            [],
        )


def _check_side_wager(ctx: Context, table: dict[str, Any], side: dict[str, Any], path: str) -> None:
    name, slug = table["name"], side["wager"]
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
    _check_paytable(ctx, wager, table, side, path)
    wager_id = wager.pk
    for constraint in ctx.constraints:
        if constraint.wager_id == wager_id:
            check = SIDE_CHECKS.get(constraint.kind)
            if check:
                check(ctx, constraint, table, side, path)


def _check_paytable(
    ctx: Context, wager: Wager, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    name, given = table["name"], side.get("paytable")
    approved = [p for p in wager.paytables.all() if ctx.citer.in_force(p)]
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
        return
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
            return
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
            return
        columns = sorted({e.column for e in paytable.entries.all()})
        if side.get("column") is not None and side["column"] not in columns:
            ctx.add(
                Severity.ERROR,
                "paytable-column-unknown",
                f"{paytable.label} of {wager.name} has no column {side['column']!r}; its columns: "
                f"{', '.join(map(repr, columns))}.",
                name,
                f"{path}.column",
                [paytable],
            )
            return
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
        return
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
            return
    decks = table.get("decks")
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
    soft_17 = table.get("dealer_soft_17")
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


def _lines(paytable: Paytable) -> dict[tuple[str, str], Pays]:
    """The paytable's pays by (outcome, column), parsed once per paytable object."""
    cached: dict[tuple[str, str], Pays] | None = getattr(paytable, "_pays", None)
    if cached is None:
        cached = {(e.outcome, e.column): pays_parse(e.pays) for e in paytable.entries.all()}
        paytable._pays = cached  # type: ignore[attr-defined]
    return cached


def _given_lines(given: list[dict[str, Any]], paytable: Paytable) -> dict[tuple[str, str], Pays]:
    """Inline lines keyed like the paytable's; a line without a column means the first column."""
    first = next((e.column for e in paytable.entries.all()), "")
    return {(g["outcome"], g.get("column") or first): pays_parse(g["pays"]) for g in given}


def _differences(given: list[dict[str, Any]], paytable: Paytable) -> list[str]:
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


def _matching(given: list[dict[str, Any]], approved: list[Paytable]) -> Paytable | None:
    return next((p for p in approved if not _differences(given, p)), None)


def paytable_offered(wager: Wager, side: dict[str, Any], citer: Citer) -> Paytable | None:
    """The approved paytable a side wager offers on the citer's date: the catalog id it names,
    or the approved table its inline lines match (of tables printed again with the same lines,
    the one with the shortest id, as `_closest` picks); None where it is neither."""
    approved = sorted(
        (p for p in wager.paytables.all() if citer.in_force(p)), key=lambda p: (len(p.key), p.key)
    )
    given = side.get("paytable")
    if isinstance(given, str):
        return next((p for p in approved if p.key == given), None)
    return _matching(given, approved) if given else None


def _closest(given: list[dict[str, Any]], approved: list[Paytable]) -> list[Paytable]:
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


def _closest_message(wager: Wager, given: list[dict[str, Any]], closest: list[Paytable]) -> str:
    if not closest:
        return f"No paytable of {wager.name} is approved on this date."
    parts = [f"{p.key} differs in: {'; '.join(_differences(given, p))}" for p in closest]
    return (
        f"The paytable offered for {wager.name} matches no approved paytable. Closest: "
        + " | ".join(parts)
    )


def _period_note(fact: Any, as_of: dt.date) -> str:
    """Why a dated fact does not hold on the date, where its own dates say so."""
    if fact.effective_from and as_of < fact.effective_from:
        return f" (the rule dates it from {fact.effective_from})"
    if fact.effective_to and as_of >= fact.effective_to:
        return f" (it ceased to apply on {fact.effective_to})"
    return ""


def _decks(decks: list[int]) -> str:
    return " or ".join(str(d) for d in decks) + " decks"


def _soft17(rule: str) -> str:
    return "stands on soft 17" if rule == "stand" else "hits soft 17"


# --- constraint checks ------------------------------------------------------------------------

TableCheck = Callable[[Context, Constraint, dict[str, Any], str], None]
SideCheck = Callable[[Context, Constraint, dict[str, Any], dict[str, Any], str], None]


def _missing(ctx: Context, c: Constraint, table: dict[str, Any], path: str, what: str) -> None:
    ctx.add(
        Severity.WARNING,
        "fact-missing",
        f"{what} is not given, and the rule needs it: {c.message}",
        table["name"],
        path,
        [c],
    )


def _min_blackjack_pays(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if "blackjack_pays" not in table:
        return _missing(ctx, c, table, f"{path}.blackjack_pays", "Blackjack odds")
    offered, floor = pays_parse(table["blackjack_pays"]), pays_parse(c.params["pays"])
    if not offered.at_least(floor):
        ctx.breach(c, f"Blackjack pays {offered}", table, f"{path}.blackjack_pays")


def _insurance_pays(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if "insurance_pays" not in table:
        return
    offered, fixed = pays_parse(table["insurance_pays"]), pays_parse(c.params["pays"])
    if not offered.same_payout(fixed):
        ctx.breach(c, f"Insurance pays {offered}", table, f"{path}.insurance_pays")


def _no_insurance(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if "insurance_pays" in table:
        ctx.breach(
            c, f"Insurance offered at {table['insurance_pays']}", table, f"{path}.insurance_pays"
        )
    if table.get("even_money"):
        ctx.breach(c, "Even money offered", table, f"{path}.even_money")


def _max_split_hands(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    hands = table.get("split", {}).get("max_hands")
    if hands is not None and hands > c.params["hands"]:
        ctx.breach(c, f"Splits to {hands} hands", table, f"{path}.split.max_hands")


def _shoe_min_decks(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if (
        table.get("dealing") == "shoe"
        and table.get("decks") is not None
        and table["decks"] < c.params["decks"]
    ):
        ctx.breach(c, f"A shoe with {table['decks']} deck(s)", table, f"{path}.decks")


def _decks_allowed(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    decks = table.get("decks")
    if decks is None:
        return _missing(
            ctx, c, table, f"{path.rsplit('.side_wagers', 1)[0]}.decks", "The deck count"
        )
    if not c.allows_decks(decks):
        ctx.breach(
            c,
            f"{c.subject.name} on a {decks}-deck table",
            table,
            f"{path.rsplit('.side_wagers', 1)[0]}.decks",
        )


def _side_limits_within_table(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    limits, table_limits = side.get("limits"), table.get("limits")
    if not limits or not table_limits:
        return
    low, high = Decimal(table_limits["min"]), Decimal(table_limits["max"])
    if not (low <= limits["min"] and limits["max"] <= high):
        ctx.breach(
            c,
            f"{c.subject.name} limits {limits['min']}–{limits['max']} are outside the table's "
            f"{low}–{high}",
            table,
            f"{path}.limits",
        )


def _allowed_blackjack_pays(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if "blackjack_pays" not in table:
        return _missing(ctx, c, table, f"{path}.blackjack_pays", "Blackjack odds")
    offered = pays_parse(table["blackjack_pays"])
    if not any(offered.same_payout(pays_parse(p)) for p in c.params["pays"]):
        ctx.breach(c, f"Blackjack pays {offered}", table, f"{path}.blackjack_pays")


def _decks_required(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    """Deck counts required when a wager is offered, or when blackjack pays given odds."""
    offered = {side["wager"] for side in table.get("side_wagers", [])}
    trigger = c.params.get("when_blackjack_pays")
    applies = (c.wager is not None and c.subject.slug in offered) or (
        trigger
        and "blackjack_pays" in table
        and pays_parse(table["blackjack_pays"]).same_payout(pays_parse(trigger))
    )
    if not applies:
        return
    decks = table.get("decks")
    if decks is None:
        return _missing(ctx, c, table, f"{path}.decks", "The deck count")
    if decks not in c.params["decks"]:
        ctx.add(c.severity, c.code, f"{decks} deck(s)", table["name"], f"{path}.decks", [c])


def _blackjack_pays(table: dict[str, Any], odds: str) -> bool:
    """Whether the table's blackjack odds pay what `odds` pays ("12 to 10" is "6 to 5")."""
    given = table.get("blackjack_pays")
    return bool(given) and pays_parse(given).same_payout(pays_parse(odds))


def _no_even_money_at_6_to_5(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    if _blackjack_pays(table, "6 to 5") and table.get("even_money"):
        ctx.breach(c, "Even money offered where blackjack pays 6 to 5", table, f"{path}.even_money")


def _option_required(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    """params {"when": {condition: value, …}, "field": "split.max_hands", "allowed": [...] or
    "at_most": n (an amount as a string, "2.50"), "absent": value}: where every condition holds,
    the table's option must be allowed ("absent": what leaving the option out means). Conditions:
    blackjack_pays (odds), game, side_wager (offered), player_spots_at_least."""
    holds = []
    for condition, value in c.params["when"].items():
        if condition == "blackjack_pays":
            if not _blackjack_pays(table, value):
                return
            holds.append(f"blackjack pays {value}")
        elif condition == "game":
            if table["game"] != value:
                return
            holds.append(f"the game is {value}")
        elif condition == "side_wager":
            if value not in {side["wager"] for side in table.get("side_wagers", [])}:
                return
            holds.append(f"{value} is offered")
        elif condition == "player_spots_at_least":
            if (table.get("player_spots") or 0) < value:
                return
            holds.append(f"the table has {table['player_spots']} player spots")
        elif table.get(condition) != value:  # a plain option: "dealer_soft_17": "stand"
            return
        else:
            holds.append(f"{condition} is {value}")
    field_path = c.params["field"]
    value = table  # the loop's `value` above is Any: the table's option read down the path
    for part in field_path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    if value is None:
        value = c.params.get("absent")  # what an option left out means ("surrender": none)
    if value is None:
        return _missing(ctx, c, table, f"{path}.{field_path}", f"{field_path}")
    allowed, at_most = c.params.get("allowed"), c.params.get("at_most")
    if isinstance(at_most, str):  # an amount, kept exact: "2.50" (30-899.03(2))
        at_most = Decimal(at_most)
    ok = value in allowed if allowed is not None else value <= at_most
    if not ok:
        ctx.breach(c, f"{field_path} is {value} where {' and '.join(holds) or 'always'}", table,
                   f"{path}.{field_path}")  # fmt: skip


def _no_optional_payouts_at_6_to_5(
    ctx: Context, c: Constraint, table: dict[str, Any], path: str
) -> None:
    if _blackjack_pays(table, "6 to 5") and table.get("optional_payouts"):
        offered = ", ".join(table["optional_payouts"])
        ctx.breach(c, f"Optional payouts ({offered}) offered where blackjack pays 6 to 5", table,
                   f"{path}.optional_payouts")  # fmt: skip


def _limits_multiple_of(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    """Wagers in multiples of an amount, where blackjack pays the odds of params
    `when_blackjack_pays`: the table's posted minimum and maximum must be such multiples (a
    configuration holds limits, not bets)."""
    trigger = c.params.get("when_blackjack_pays")
    if trigger and not _blackjack_pays(table, trigger):
        return
    limits = table.get("limits")
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", "The table's limits")
    multiple = Decimal(c.params["multiple"])
    for bound, word in (("min", "minimum"), ("max", "maximum")):
        if limits[bound] % multiple:
            ctx.breach(
                c,
                f"The table {word} {limits[bound]} is not a multiple of {multiple}",
                table,
                f"{path}.limits.{bound}",
            )


def _excludes(
    ctx: Context, c: Constraint, table: dict[str, Any], path: str, offered: set[str]
) -> None:
    """A wager that may not share a table with others. Enforced both ways: the finding says when
    the rules state it for one of the two wagers only."""
    for other in sorted(offered & set(c.params["wagers"])):
        reverse = any(
            r.kind == ConstraintKind.EXCLUDES
            and r.wager
            and r.wager.slug == other
            and c.subject.slug in r.params.get("wagers", [])
            for r in ctx.constraints
        )
        note = (
            ""
            if reverse
            else f" (the rules state this in the {c.subject.name} rule only; it is enforced "
            "both ways)"
        )
        sides = [i for i, s in enumerate(table.get("side_wagers", [])) if s["wager"] == other]
        where = f"{path}.side_wagers[{sides[0]}]" if sides else f"{path}.game"
        ctx.breach(c, f"{c.subject.name} and {other} on one table", table, where, note=note)


def _requires_wagers(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    """A wager a player may place only together with another (Top 3 with 21+3, 30-2114(2); Match
    The Dealer's down card with its up card, 30-899.24(2)): the table must offer one of those."""
    if not _offered(table) & set(c.params["wagers"]):
        ctx.breach(
            c, f"{c.subject.name} without {' or '.join(c.params['wagers'])}", table, f"{path}.wager"
        )


def _layout_required(ctx: Context, c: Constraint, table: dict[str, Any], path: str) -> None:
    """params {"layout": slug, "or_signage": true}: a game or wager played only at a table
    displaying its layout (30-899.16(1) and the like), checked against the table's `layouts`,
    wherever the table offers the wager (as its game or as a side wager); without "layout", the
    wager's own slug (MA 17(f): each additional wager its own area of the layout). With
    `or_signage`, the rule also accepts signage ("layout and/or signage", 30-899.21(1)), which a
    configuration cannot state: the check accepts the layout, and its finding says signage would
    also do."""
    table_path = path.rsplit(".side_wagers", 1)[0]
    layout, layouts = c.params.get("layout", c.subject.slug), table.get("layouts")
    if layouts is None:
        return _missing(ctx, c, table, f"{table_path}.layouts", "The table's layout")
    if layout in layouts:
        return
    shown = f"its layouts are {', '.join(layouts)}" if layouts else "it displays no layout"
    note = (
        " (The rule accepts signage instead; a configuration cannot state signage, so a table "
        "displaying the signage keeps the rule.)"
        if c.params.get("or_signage")
        else ""
    )
    ctx.breach(
        c,
        f"{c.subject.name} is offered, but the table does not display the {layout} layout "
        f"({shown})",
        table,
        f"{table_path}.layouts",
        note=note,
    )


def _side_layout_required(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    _layout_required(ctx, c, table, path)


def _side_min(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    """params {"min": "5", "paytable": id}: the wager's minimum at least this amount, where the
    side wager uses that paytable (30-2115¶4: "Pay table TRILG-04 must be a minimum of $5")."""
    if c.params.get("paytable") and side.get("paytable") != c.params["paytable"]:
        return
    least = Decimal(str(c.params["min"]))
    limits = side.get("limits")
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", f"The {c.subject.name} minimum")
    if limits["min"] < least:
        ctx.breach(
            c, f"The {c.subject.name} minimum is {limits['min']}", table, f"{path}.limits.min"
        )


def _side_max(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    limits = side.get("limits")
    if limits and limits["max"] > Decimal(str(c.params["max"])):
        ctx.breach(c, f"{c.subject.name} maximum {limits['max']}", table, f"{path}.limits.max")


def _side_max_within_base_wager(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    """A side wager at most the player's blackjack wager on the same hand. That is a rule of each
    bet, and a configuration holds limits, not bets: what it can show is whether the posted
    limits let a side wager exceed every blackjack wager the table takes (its maximum).
    params {"except_dealing": "csm"}: the rule does not bind tables dealt that way; {"share":
    "1/2"}: at most that share of the blackjack wager (Push Your Luck, 30-899.22(3))."""
    table_path = path.rsplit(".side_wagers", 1)[0]
    limits, table_limits = side.get("limits"), table.get("limits")
    exempt = c.params.get("except_dealing")
    if exempt and table.get("dealing") == exempt:
        return
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", f"The {c.subject.name} maximum")
    if not table_limits:
        return _missing(ctx, c, table, f"{table_path}.limits", "The table maximum")
    share = Fraction(c.params.get("share", 1))
    most = table_limits["max"] * share.numerator / share.denominator
    if limits["max"] > most and exempt and "dealing" not in table:
        return _missing(ctx, c, table, f"{table_path}.dealing", "The dealing method")
    if limits["max"] > most:
        of = "" if share == 1 else f" {share} of"
        ctx.breach(
            c,
            f"The {c.subject.name} maximum {limits['max']} is above{of} the table maximum "
            f"{table_limits['max']}, so the posted limits allow a {c.subject.name} wager larger "
            f"than{of} any blackjack wager at this table",
            table,
            f"{path}.limits.max",
            note=" (A configuration shows limits only: within them the dealer must still hold each "
            "bet to the player's blackjack wager on that hand.)",
        )


def _side_max_within_table_max(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    """A side wager's maximum at most the table maximum. Silent where either is not given: the
    rules that need it bound more than a configuration holds (King's Bounty: the player's and
    the dealer's wagers together), so this is only what can be seen of them."""
    limits, table_limits = side.get("limits"), table.get("limits")
    if limits and table_limits and limits["max"] > table_limits["max"]:
        ctx.breach(
            c,
            f"The {c.subject.name} maximum {limits['max']} is above the table maximum "
            f"{table_limits['max']}",
            table,
            f"{path}.limits.max",
        )


FloorCheck = Callable[[Context, Constraint, list[dict[str, Any]]], None]


def _same_on_every_table(ctx: Context, c: Constraint, tables: list[dict[str, Any]]) -> None:
    """Floor-wide: every table offering the wager offers it with the same option (per deck count,
    with params {"per": "decks"}, where each deck count has its own tables)."""
    slug, name, per = c.params["wager"], c.params.get("field", "paytable"), c.params.get("per")
    first: dict[Any, tuple[str, str]] = {}  # group → (the option, the table that set it)
    for index, table in enumerate(tables):
        for j, side in enumerate(table.get("side_wagers", [])):
            if side["wager"] != slug:
                continue
            group = table.get(per) if per else None
            value = json.dumps(side.get(name), sort_keys=True, default=str)
            if group not in first:
                first[group] = (value, table["name"])
            elif value != first[group][0]:
                ctx.breach(
                    c,
                    f"{slug} {name} on {table['name']} differs from {first[group][1]}'s",
                    table,
                    f"tables[{index}].side_wagers[{j}].{name}",
                )


def bonus_house_advantage(
    c: Constraint, table: dict[str, Any], side: dict[str, Any], jurisdiction: str
) -> tuple[Decimal, Fraction] | tuple[str, str]:
    """(denomination, house advantage) of a bonus wager whose payout a bonus system draws
    (MA 20): the exact chance of its outcome at the table's deck count, times the expected payout,
    the payout paid on top of the returned wager. Or (missing fact, its path) where one is not
    given."""
    limits, payouts = side.get("limits"), side.get("bonus_payouts")
    if not table.get("decks"):
        return "The deck count", "decks"
    if not payouts:
        return "The bonus payouts and the probability of each", "bonus_payouts"
    if not limits or limits["min"] != limits["max"] or not limits["min"]:
        return "The wager's denomination (limits with min equal to max)", "limits"
    stake = limits["min"]
    expected = sum((Fraction(p["amount"]) * p["probability"] for p in payouts), Fraction(0))
    odds = Pays(Basis.TO, ratio=expected / Fraction(stake))
    line = PaytableLine(c.params["outcome"], odds)
    return stake, analyse(c.subject.slug, [line], table["decks"], jurisdiction).house_edge


def _percent(value: Fraction) -> str:
    return f"{float(value * 100):.4f}%"


def _house_advantage_between(
    ctx: Context, c: Constraint, table: dict[str, Any], side: dict[str, Any], path: str
) -> None:
    """params {"outcome", "min", "max"}: the wager's house advantage, computed exactly, within
    [min, max] (MA 20(k): not above 30 percent nor below zero)."""
    found = bonus_house_advantage(c, table, side, ctx.jurisdiction)
    if isinstance(found[1], str):
        what, field_name = found
        where = path if field_name != "decks" else path.rsplit(".side_wagers", 1)[0]
        return _missing(ctx, c, table, f"{where}.{field_name}", str(what))
    stake, advantage = found
    low, high = Fraction(c.params["min"]), Fraction(c.params["max"])
    if not low <= advantage <= high:
        ctx.breach(
            c,
            f"The {c.subject.name} at ${stake} has a house advantage of {_percent(advantage)} "
            f"({advantage.numerator}/{advantage.denominator}) with {table['decks']} decks",
            table,
            f"{path}.bonus_payouts",
            note=" (Computed exactly: the chance of a blackjack times the expected bonus payout, "
            "paid on top of the returned wager.)",
        )


def _same_house_advantage(ctx: Context, c: Constraint, tables: list[dict[str, Any]]) -> None:
    """Floor-wide: for each denomination, one house advantage on every table offering the wager
    (MA 20(k))."""
    first: dict[Decimal, tuple[Fraction, str]] = {}
    for index, table in enumerate(tables):
        for j, side in enumerate(table.get("side_wagers", [])):
            if side["wager"] != c.subject.slug:
                continue
            found = bonus_house_advantage(c, table, side, ctx.jurisdiction)
            if isinstance(found[1], str):
                continue  # the table's own check says what is missing
            stake, advantage = found
            if stake not in first:
                first[stake] = (advantage, table["name"])
            elif advantage != first[stake][0]:
                ctx.breach(
                    c,
                    f"The ${stake} {c.subject.name} has a house advantage of {_percent(advantage)} "
                    f"on {table['name']} and {_percent(first[stake][0])} on {first[stake][1]}",
                    table,
                    f"tables[{index}].side_wagers[{j}].bonus_payouts",
                )


FLOOR_CHECKS: dict[str, FloorCheck] = {
    ConstraintKind.SAME_ON_EVERY_TABLE: _same_on_every_table,
    ConstraintKind.SAME_HOUSE_ADVANTAGE: _same_house_advantage,
}
TABLE_CHECKS: dict[str, TableCheck] = {
    ConstraintKind.ALLOWED_BLACKJACK_PAYS: _allowed_blackjack_pays,
    ConstraintKind.DECKS_REQUIRED: _decks_required,
    ConstraintKind.NO_EVEN_MONEY_AT_6_TO_5: _no_even_money_at_6_to_5,
    ConstraintKind.NO_OPTIONAL_PAYOUTS_AT_6_TO_5: _no_optional_payouts_at_6_to_5,
    ConstraintKind.OPTION_REQUIRED: _option_required,
    ConstraintKind.LIMITS_MULTIPLE_OF: _limits_multiple_of,
    ConstraintKind.MIN_BLACKJACK_PAYS: _min_blackjack_pays,
    ConstraintKind.INSURANCE_PAYS: _insurance_pays,
    ConstraintKind.NO_INSURANCE: _no_insurance,
    ConstraintKind.MAX_SPLIT_HANDS: _max_split_hands,
    ConstraintKind.SHOE_MIN_DECKS: _shoe_min_decks,
    ConstraintKind.LAYOUT_REQUIRED: _layout_required,
}
SIDE_CHECKS: dict[str, SideCheck] = {
    ConstraintKind.SIDE_MAX: _side_max,
    ConstraintKind.SIDE_MIN: _side_min,
    ConstraintKind.REQUIRES_WAGERS: _requires_wagers,
    ConstraintKind.DECKS_ALLOWED: _decks_allowed,
    ConstraintKind.SIDE_LIMITS_WITHIN_TABLE: _side_limits_within_table,
    ConstraintKind.SIDE_MAX_WITHIN_BASE_WAGER: _side_max_within_base_wager,
    ConstraintKind.SIDE_MAX_WITHIN_TABLE_MAX: _side_max_within_table_max,
    ConstraintKind.HOUSE_ADVANTAGE_BETWEEN: _house_advantage_between,
    ConstraintKind.LAYOUT_REQUIRED: _side_layout_required,
}
CHECKED_IN_PLACE = frozenset({ConstraintKind.EXCLUDES})
"""Kinds `_check_table` checks itself rather than through one of the tables above: an exclusion
reads what the whole table offers, in both directions."""
