"""Check a parsed configuration against the rules in force on its as-of date.

Every finding has a severity, a stable code, a message a person understands, the table and field
path, and citations of the rule versions in force on the date, by the label used that day.
Catalog constraints carry their own codes (us-co/kings-bounty/decks); the checks below that are
not constraints use the codes in FINDING_CODES.

This module walks the floor: each table, its game and options, its side wagers
(paytables.py), the constraints by kind (checks.py), then the checks over all tables.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from django.db.models import Q

from compliance.configuration import Configuration, Table, value_at
from compliance.rulesets import FACE_UP_DEALING
from pitboss import kbcache
from regs.models import Citation, Status
from variants.models import (
    Constraint,
    ConstraintKind,
    Paytable,
    PlayRule,
    PostingRequirement,
    Severity,
    WagerKind,
)
from variants.selectors import Citer

from .checks import (
    FLOOR_CHECKS,
    TABLE_CHECKS,
    TableCheck,
    check_decks_allowed,
    check_exclusion,
    offered_wagers,
)
from .findings import Context, Finding, catalog_read
from .paytables import check_side_wager


def configuration_validate(config: Configuration, *, revision: str | None = None) -> list[Finding]:
    """Findings for a parsed configuration (configuration_parse), in table order.

    With `revision` (pitboss.kbcache's stamp of the knowledge base, read before this call), the
    catalog facts and citations are read once per revision and date and shared between calls.
    """
    jurisdiction, as_of = config.jurisdiction, config.as_of
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
    if not config.include_proposed:  # a proposed fact is in force on no date
        constraints = [c for c in constraints if not c.proposed]
    offered = config.offered()
    # The games and wagers the floor offers.
    wagers = {slug: w for slug, w in catalog.wagers.items() if slug in offered}
    elsewhere = catalog.elsewhere
    ctx = Context(
        jurisdiction, as_of, citer, wagers, elsewhere, constraints, config.include_proposed
    )
    if revision is not None:
        ctx.kept = kbcache.kept_for(revision)
        plan = kbcache.remember(
            revision,
            ("validation plan", jurisdiction, as_of, config.include_proposed),
            lambda: _plan(constraints),
        )
    else:
        plan = _plan(constraints)
    for index, table in enumerate(config.tables):
        _check_table(ctx, plan, table, f"tables[{index}]")
    if config.include_proposed:
        _proposed_said(ctx)
    for constraint in constraints:
        floor_check = FLOOR_CHECKS.get(constraint.kind)
        if floor_check:
            floor_check(ctx, constraint, config.tables)
    return ctx.findings


def _proposed_said(ctx: Context) -> None:
    """Say plainly what include_proposed applied: the proposed texts whose facts the catalog
    holds (applied as if adopted), and those on file it holds none from (read once per
    revision)."""
    applied, others = ctx.kept(
        ("proposed texts", ctx.jurisdiction), lambda: _proposed_texts(ctx.jurisdiction)
    )
    if applied:
        also = f"; no facts are drawn yet from {', '.join(others)}" if others else ""
        ctx.add(
            Severity.INFO,
            "proposed-applied",
            f"include_proposed: the facts the catalog draws from the proposed "
            f"{', '.join(applied)} (not in force) are applied as if adopted{also}.",
            "",
            "include_proposed",
            [],
        )
        return
    on_file_text = f" (proposed texts on file: {', '.join(others)})" if others else ""
    ctx.add(
        Severity.INFO,
        "proposed-not-applied",
        "include_proposed: the catalog holds no wagers, paytables or constraints drawn "
        "from proposed "
        f"texts yet{on_file_text}, so these findings are those of the adopted rules.",
        "",
        "include_proposed",
        [],
    )


def _proposed_texts(jurisdiction: str) -> tuple[list[str], list[str]]:
    """The labels of the jurisdiction's proposed texts on file the catalog draws facts from, and
    of those it draws none from."""
    on_file = dict(
        Citation.objects.filter(
            status=Status.PROPOSED, provision__instrument__jurisdiction__code=jurisdiction
        ).values_list("provision_id", "label")
    )
    with_facts = {
        pid
        for model, path in (
            (Constraint, "jurisdiction__code"),
            (PostingRequirement, "jurisdiction__code"),
            (Paytable, "wager__jurisdiction__code"),
        )
        for pid in model.objects.filter(
            **{path: jurisdiction}, proposed=True, provision_id__in=on_file
        ).values_list("provision_id", flat=True)
    }
    applied = sorted(on_file[pid] for pid in with_facts)
    return applied, sorted(label for pid, label in on_file.items() if pid not in with_facts)


@dataclass(frozen=True)
class _Plan:
    """What checking a table reads of the constraints in force, worked out once per
    validation: each with its wager's slug (None for a rule of every table), whether it is
    general (of every table or of the base game) and its table check; and each full variant's
    own kinds of rule, by its slug."""

    checks: list[tuple[Constraint, str | None, bool, TableCheck | None]]
    own_kinds: dict[str, set[str]]


def _plan(constraints: list[Constraint]) -> _Plan:
    checks: list[tuple[Constraint, str | None, bool, TableCheck | None]] = []
    own_kinds: dict[str, set[str]] = {}
    for c in constraints:
        wager = c.wager
        checks.append((c, wager.slug if wager else None,
                       wager is None or wager.kind == WagerKind.BASE_GAME,
                       TABLE_CHECKS.get(c.kind)))  # fmt: skip
        if c.wager_id is not None:
            own_kinds.setdefault(c.subject.slug, set()).add(c.kind)
    return _Plan(checks, own_kinds)


def _check_table(ctx: Context, plan: _Plan, table: Table, path: str) -> None:
    name = table.name
    game = ctx.wagers.get(table.game)
    if (
        game is None
        or game.kind not in (WagerKind.BASE_GAME, WagerKind.VARIANT)
        or not ctx.citer.in_force(game)
    ):
        where = ctx.elsewhere.get(table.game)
        also = f" (it is a game of {', '.join(where)})" if where else ""
        ctx.add(
            Severity.ERROR,
            "game-not-authorised",
            f"{table.game!r} is not a game {ctx.jurisdiction} authorises on {ctx.as_of}{also}.",
            name,
            f"{path}.game",
            [],
        )
    # The table's game counts too: Massachusetts excludes wagers from Multiple Action tables.
    offered = offered_wagers(table)
    # A full variant's own rule of a kind replaces the general rule of that kind at its tables
    # (Face Up Blackjack pays blackjack at least 1 to 1, not 6 to 5: 30-899.02(2)).
    own_kinds = plan.own_kinds.get(table.game, set())
    if table.hole_card == "face_up":
        _face_up_dealing(ctx, table, path)
    if table.variation not in (None, "none"):
        _variation_known(ctx, table, path)
    for constraint, wager_slug, general, check in plan.checks:
        if _excepted(constraint, table):
            continue
        bound = _for_variation(constraint, table)
        if bound is None:
            continue
        constraint = bound
        # A rule of a full variant binds the tables that deal that game, not the others.
        of_this_game = wager_slug == table.game
        kind = constraint.kind
        if general and kind in own_kinds:
            continue
        if check and (general or of_this_game or kind == ConstraintKind.DECKS_REQUIRED):
            check(ctx, constraint, table, path)
        if kind == ConstraintKind.DECKS_ALLOWED and of_this_game:
            check_decks_allowed(ctx, constraint, table, None, path)
        if kind == ConstraintKind.EXCLUDES and constraint.subject.slug in offered:
            check_exclusion(ctx, constraint, table, path, offered)
    for index, side in enumerate(table.side_wagers):
        check_side_wager(ctx, table, side, f"{path}.side_wagers[{index}]")


def _for_variation(c: Constraint, table: Table) -> Constraint | None:
    """params {"variation": name}: a rule of a named blackjack variation of the jurisdiction
    (MA's 6 to 5 blackjack variation: 2(a)(1), 3(d), 3(e), 8(c), 12(d)). At a table whose
    `variation` is that one it binds as an error; at a table that says it deals none (7(d):
    paying 6 to 5 outside the variation) it does not bind; where the table does not say, it keeps
    its catalog severity (a warning: the configuration cannot tell)."""
    name, given = c.params.get("variation"), table.variation
    if not name or given is None:
        return c
    if given != name:
        return None
    bound = copy.copy(c)
    bound.severity = Severity.ERROR
    return bound


def _variation_known(ctx: Context, table: Table, path: str) -> None:
    """A table's `variation` must be one the jurisdiction's rules in force name."""
    named = {c.params.get("variation") for c in ctx.constraints}
    if table.variation not in named:
        ctx.add(
            Severity.ERROR,
            "option-not-authorised",
            f"variation {table.variation}: the rules of {ctx.jurisdiction} on {ctx.as_of} name "
            f"no such blackjack variation (Massachusetts' 6 to 5 variation is 6-to-5).",
            table.name,
            f"{path}.variation",
            [],
        )


def _excepted(c: Constraint, table: Table) -> bool:
    """params {"unless": {option: value, …}}: the rule does not bind a table with all those
    options (MA 3(e)'s 3 to 2 or 6 to 5 does not bind 6(k)'s face-up dealing, which pays 1 to 1)."""
    unless = c.params.get("unless")
    return bool(unless) and all(
        value_at(table, option) == value for option, value in unless.items()
    )


def _face_up_dealing(ctx: Context, table: Table, path: str) -> None:
    """hole_card face_up needs a game dealt face up (Face Up Blackjack, 30-899.02(1)) or a face-up
    dealing procedure in the jurisdiction's rules (MA 6(k))."""

    def procedures() -> list[PlayRule]:
        return list(
            PlayRule.objects.filter(
                Q(wager__slug=table.game, key="deal", params__dealer_face_up=True)
                | Q(key__startswith=FACE_UP_DEALING),
                jurisdiction__code=ctx.jurisdiction,
            )
        )

    face_up = ctx.kept(("face-up procedures", ctx.jurisdiction, table.game), procedures)
    if not any(ctx.citer.in_force(rule) for rule in face_up):
        ctx.add(
            Severity.ERROR,
            "option-not-authorised",
            f"hole_card face_up: the rules of {ctx.jurisdiction} on {ctx.as_of} provide no "
            f"face-up dealing procedure for {table.game} (Massachusetts' is 6(k)).",
            table.name,
            f"{path}.hole_card",
            [],
        )
