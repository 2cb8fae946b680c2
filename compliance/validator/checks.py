"""The catalog's constraints as checks, one function per kind, and the tables that say which check
each kind gets: on a table (TABLE_CHECKS), on a side wager (SIDE_CHECKS), over the whole floor
(FLOOR_CHECKS), or in place (CHECKED_IN_PLACE). tests/compliance/test_constraint_kinds.py holds
every kind to one of them.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

from compliance.configuration import SideWager, Table, pays_parse, value_at
from engine.analysis import analyse
from engine.odds import Basis, Pays
from engine.rules import PaytableLine
from variants.models import Constraint, ConstraintKind, Severity

from .findings import Context


def offered_wagers(table: Table) -> set[str]:
    """The table's game and its side wagers, by slug."""
    return table.offered()


TableCheck = Callable[[Context, Constraint, Table, str], None]


SideCheck = Callable[[Context, Constraint, Table, SideWager, str], None]


def _missing(ctx: Context, c: Constraint, table: Table, path: str, what: str) -> None:
    ctx.add(
        Severity.WARNING,
        "fact-missing",
        f"{what} is not given, and the rule needs it: {c.message}",
        table.name,
        path,
        [c],
    )


def _min_blackjack_pays(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if table.blackjack_pays is None:
        return _missing(ctx, c, table, f"{path}.blackjack_pays", "Blackjack odds")
    offered, floor = pays_parse(table.blackjack_pays), pays_parse(c.params["pays"])
    if not offered.at_least(floor):
        ctx.breach(c, f"Blackjack pays {offered}", table, f"{path}.blackjack_pays")


def _insurance_pays(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if table.insurance_pays is None:
        return
    offered, fixed = pays_parse(table.insurance_pays), pays_parse(c.params["pays"])
    if not offered.same_payout(fixed):
        ctx.breach(c, f"Insurance pays {offered}", table, f"{path}.insurance_pays")


def _no_insurance(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if table.insurance_pays is not None:
        ctx.breach(
            c, f"Insurance offered at {table.insurance_pays}", table, f"{path}.insurance_pays"
        )
    if table.even_money:
        ctx.breach(c, "Even money offered", table, f"{path}.even_money")


def _max_split_hands(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    hands = table.split.max_hands if table.split else None
    if hands is not None and hands > c.params["hands"]:
        ctx.breach(c, f"Splits to {hands} hands", table, f"{path}.split.max_hands")


def _shoe_min_decks(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if table.dealing == "shoe" and table.decks is not None and table.decks < c.params["decks"]:
        ctx.breach(c, f"A shoe with {table.decks} deck(s)", table, f"{path}.decks")


def check_decks_allowed(
    ctx: Context, c: Constraint, table: Table, side: SideWager | None, path: str
) -> None:
    decks = table.decks
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
    ctx: Context, c: Constraint, table: Table, side: SideWager, path: str
) -> None:
    limits, table_limits = side.limits, table.limits
    if not limits or not table_limits:
        return
    low, high = Decimal(table_limits.min), Decimal(table_limits.max)
    if not (low <= limits.min and limits.max <= high):
        ctx.breach(
            c,
            f"{c.subject.name} limits {limits.min}–{limits.max} are outside the table's "
            f"{low}–{high}",
            table,
            f"{path}.limits",
        )


def _allowed_blackjack_pays(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if table.blackjack_pays is None:
        return _missing(ctx, c, table, f"{path}.blackjack_pays", "Blackjack odds")
    offered = pays_parse(table.blackjack_pays)
    if not any(offered.same_payout(pays_parse(p)) for p in c.params["pays"]):
        ctx.breach(c, f"Blackjack pays {offered}", table, f"{path}.blackjack_pays")


def _decks_required(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    """Deck counts required when a wager is offered, or when blackjack pays given odds."""
    offered = {side.wager for side in table.side_wagers}
    trigger = c.params.get("when_blackjack_pays")
    applies = (c.wager is not None and c.subject.slug in offered) or (
        trigger
        and table.blackjack_pays is not None
        and pays_parse(table.blackjack_pays).same_payout(pays_parse(trigger))
    )
    if not applies:
        return
    decks = table.decks
    if decks is None:
        return _missing(ctx, c, table, f"{path}.decks", "The deck count")
    if decks not in c.params["decks"]:
        ctx.add(c.severity, c.code, f"{decks} deck(s)", table.name, f"{path}.decks", [c])


def _blackjack_pays(table: Table, odds: str) -> bool:
    """Whether the table's blackjack odds pay what `odds` pays ("12 to 10" is "6 to 5")."""
    given = table.blackjack_pays
    return bool(given) and pays_parse(given).same_payout(pays_parse(odds))


def _no_even_money_at_6_to_5(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if _blackjack_pays(table, "6 to 5") and table.even_money:
        ctx.breach(c, "Even money offered where blackjack pays 6 to 5", table, f"{path}.even_money")


def _option_required(ctx: Context, c: Constraint, table: Table, path: str) -> None:
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
            if table.game != value:
                return
            holds.append(f"the game is {value}")
        elif condition == "side_wager":
            if value not in {side.wager for side in table.side_wagers}:
                return
            holds.append(f"{value} is offered")
        elif condition == "player_spots_at_least":
            if (table.player_spots or 0) < value:
                return
            holds.append(f"the table has {table.player_spots} player spots")
        elif value_at(table, condition) != value:  # a plain option: "dealer_soft_17": "stand"
            return
        else:
            holds.append(f"{condition} is {value}")
    field_path = c.params["field"]
    value = value_at(table, field_path)
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


def _no_optional_payouts_at_6_to_5(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    if _blackjack_pays(table, "6 to 5") and table.optional_payouts:
        offered = ", ".join(table.optional_payouts)
        ctx.breach(c, f"Optional payouts ({offered}) offered where blackjack pays 6 to 5", table,
                   f"{path}.optional_payouts")  # fmt: skip


def _limits_multiple_of(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    """Wagers in multiples of an amount, where blackjack pays the odds of params
    `when_blackjack_pays`: the table's posted minimum and maximum must be such multiples (a
    configuration holds limits, not bets)."""
    trigger = c.params.get("when_blackjack_pays")
    if trigger and not _blackjack_pays(table, trigger):
        return
    limits = table.limits
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", "The table's limits")
    multiple = Decimal(c.params["multiple"])
    for bound, word in (("min", "minimum"), ("max", "maximum")):
        if getattr(limits, bound) % multiple:
            ctx.breach(
                c,
                f"The table {word} {getattr(limits, bound)} is not a multiple of {multiple}",
                table,
                f"{path}.limits.{bound}",
            )


def check_exclusion(
    ctx: Context, c: Constraint, table: Table, path: str, offered: set[str]
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
        sides = [i for i, s in enumerate(table.side_wagers) if s.wager == other]
        where = f"{path}.side_wagers[{sides[0]}]" if sides else f"{path}.game"
        ctx.breach(c, f"{c.subject.name} and {other} on one table", table, where, note=note)


def _requires_wagers(ctx: Context, c: Constraint, table: Table, side: SideWager, path: str) -> None:
    """A wager a player may place only together with another (Top 3 with 21+3, 30-2114(2); Match
    The Dealer's down card with its up card, 30-899.24(2)): the table must offer one of those."""
    if not offered_wagers(table) & set(c.params["wagers"]):
        ctx.breach(
            c, f"{c.subject.name} without {' or '.join(c.params['wagers'])}", table, f"{path}.wager"
        )


def _layout_required(ctx: Context, c: Constraint, table: Table, path: str) -> None:
    """params {"layout": slug, "or_signage": true}: a game or wager played only at a table
    displaying its layout (30-899.16(1) and the like), checked against the table's `layouts`,
    wherever the table offers the wager (as its game or as a side wager); without "layout", the
    wager's own slug (MA 17(f): each additional wager its own area of the layout). With
    `or_signage`, the rule also accepts signage ("layout and/or signage", 30-899.21(1)), which a
    configuration cannot state: the check accepts the layout, and its finding says signage would
    also do."""
    table_path = path.rsplit(".side_wagers", 1)[0]
    layout, layouts = c.params.get("layout", c.subject.slug), table.layouts
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
    ctx: Context, c: Constraint, table: Table, side: SideWager, path: str
) -> None:
    _layout_required(ctx, c, table, path)


def _side_min(ctx: Context, c: Constraint, table: Table, side: SideWager, path: str) -> None:
    """params {"min": "5", "paytable": id}: the wager's minimum at least this amount, where the
    side wager uses that paytable (30-2115¶4: "Pay table TRILG-04 must be a minimum of $5")."""
    if c.params.get("paytable") and side.paytable != c.params["paytable"]:
        return
    least = Decimal(str(c.params["min"]))
    limits = side.limits
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", f"The {c.subject.name} minimum")
    if limits.min < least:
        ctx.breach(c, f"The {c.subject.name} minimum is {limits.min}", table, f"{path}.limits.min")


def _side_max(ctx: Context, c: Constraint, table: Table, side: SideWager, path: str) -> None:
    limits = side.limits
    if limits and limits.max > Decimal(str(c.params["max"])):
        ctx.breach(c, f"{c.subject.name} maximum {limits.max}", table, f"{path}.limits.max")


def _side_max_within_base_wager(
    ctx: Context, c: Constraint, table: Table, side: SideWager, path: str
) -> None:
    """A side wager at most the player's blackjack wager on the same hand. That is a rule of each
    bet, and a configuration holds limits, not bets: what it can show is whether the posted
    limits let a side wager exceed every blackjack wager the table takes (its maximum).
    params {"except_dealing": "csm"}: the rule does not bind tables dealt that way; {"share":
    "1/2"}: at most that share of the blackjack wager (Push Your Luck, 30-899.22(3))."""
    table_path = path.rsplit(".side_wagers", 1)[0]
    limits, table_limits = side.limits, table.limits
    exempt = c.params.get("except_dealing")
    if exempt and table.dealing == exempt:
        return
    if not limits:
        return _missing(ctx, c, table, f"{path}.limits", f"The {c.subject.name} maximum")
    if not table_limits:
        return _missing(ctx, c, table, f"{table_path}.limits", "The table maximum")
    share = Fraction(c.params.get("share", 1))
    most = table_limits.max * share.numerator / share.denominator
    if limits.max > most and exempt and table.dealing is None:
        return _missing(ctx, c, table, f"{table_path}.dealing", "The dealing method")
    if limits.max > most:
        of = "" if share == 1 else f" {share} of"
        ctx.breach(
            c,
            f"The {c.subject.name} maximum {limits.max} is above{of} the table maximum "
            f"{table_limits.max}, so the posted limits allow a {c.subject.name} wager larger "
            f"than{of} any blackjack wager at this table",
            table,
            f"{path}.limits.max",
            note=" (A configuration shows limits only: within them the dealer must still hold each "
            "bet to the player's blackjack wager on that hand.)",
        )


def _side_max_within_table_max(
    ctx: Context, c: Constraint, table: Table, side: SideWager, path: str
) -> None:
    """A side wager's maximum at most the table maximum. Silent where either is not given: the
    rules that need it bound more than a configuration holds (King's Bounty: the player's and
    the dealer's wagers together), so this is only what can be seen of them."""
    limits, table_limits = side.limits, table.limits
    if limits and table_limits and limits.max > table_limits.max:
        ctx.breach(
            c,
            f"The {c.subject.name} maximum {limits.max} is above the table maximum "
            f"{table_limits.max}",
            table,
            f"{path}.limits.max",
        )


FloorCheck = Callable[[Context, Constraint, tuple[Table, ...]], None]


def _same_on_every_table(ctx: Context, c: Constraint, tables: tuple[Table, ...]) -> None:
    """Floor-wide: every table offering the wager offers it with the same option (per deck count,
    with params {"per": "decks"}, where each deck count has its own tables)."""
    slug, name, per = c.params["wager"], c.params.get("field", "paytable"), c.params.get("per")
    first: dict[Any, tuple[Any, str]] = {}  # group → (the option, the table that set it)
    for index, table in enumerate(tables):
        for j, side in enumerate(table.side_wagers):
            if side.wager != slug:
                continue
            group = value_at(table, per) if per else None
            value = value_at(side, name)
            if group not in first:
                first[group] = (value, table.name)
            elif value != first[group][0]:
                ctx.breach(
                    c,
                    f"{slug} {name} on {table.name} differs from {first[group][1]}'s",
                    table,
                    f"tables[{index}].side_wagers[{j}].{name}",
                )


def bonus_house_advantage(
    c: Constraint, table: Table, side: SideWager, jurisdiction: str
) -> tuple[Decimal, Fraction] | tuple[str, str]:
    """(denomination, house advantage) of a bonus wager whose payout a bonus system draws
    (MA 20): the exact chance of its outcome at the table's deck count, times the expected payout,
    the payout paid on top of the returned wager. Or (missing fact, its path) where one is not
    given."""
    limits, payouts = side.limits, side.bonus_payouts
    if not table.decks:
        return "The deck count", "decks"
    if not payouts:
        return "The bonus payouts and the probability of each", "bonus_payouts"
    if not limits or limits.min != limits.max or not limits.min:
        return "The wager's denomination (limits with min equal to max)", "limits"
    stake = limits.min
    expected = sum((Fraction(p.amount) * p.probability for p in payouts), Fraction(0))
    odds = Pays(Basis.TO, ratio=expected / Fraction(stake))
    line = PaytableLine(c.params["outcome"], odds)
    return stake, analyse(c.subject.slug, [line], table.decks, jurisdiction).house_edge


def _percent(value: Fraction) -> str:
    return f"{float(value * 100):.4f}%"


def _house_advantage_between(
    ctx: Context, c: Constraint, table: Table, side: SideWager, path: str
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
            f"({advantage.numerator}/{advantage.denominator}) with {table.decks} decks",
            table,
            f"{path}.bonus_payouts",
            note=" (Computed exactly: the chance of a blackjack times the expected bonus payout, "
            "paid on top of the returned wager.)",
        )


def _same_house_advantage(ctx: Context, c: Constraint, tables: tuple[Table, ...]) -> None:
    """Floor-wide: for each denomination, one house advantage on every table offering the wager
    (MA 20(k))."""
    first: dict[Decimal, tuple[Fraction, str]] = {}
    for index, table in enumerate(tables):
        for j, side in enumerate(table.side_wagers):
            if side.wager != c.subject.slug:
                continue
            found = bonus_house_advantage(c, table, side, ctx.jurisdiction)
            if isinstance(found[1], str):
                continue  # the table's own check says what is missing
            stake, advantage = found
            if stake not in first:
                first[stake] = (advantage, table.name)
            elif advantage != first[stake][0]:
                ctx.breach(
                    c,
                    f"The ${stake} {c.subject.name} has a house advantage of {_percent(advantage)} "
                    f"on {table.name} and {_percent(first[stake][0])} on {first[stake][1]}",
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
    ConstraintKind.DECKS_ALLOWED: check_decks_allowed,
    ConstraintKind.SIDE_LIMITS_WITHIN_TABLE: _side_limits_within_table,
    ConstraintKind.SIDE_MAX_WITHIN_BASE_WAGER: _side_max_within_base_wager,
    ConstraintKind.SIDE_MAX_WITHIN_TABLE_MAX: _side_max_within_table_max,
    ConstraintKind.HOUSE_ADVANTAGE_BETWEEN: _house_advantage_between,
    ConstraintKind.LAYOUT_REQUIRED: _side_layout_required,
}


CHECKED_IN_PLACE = frozenset({ConstraintKind.EXCLUDES})


"""Kinds `_check_table` checks itself rather than through one of the tables above: an exclusion
reads what the whole table offers, in both directions."""
