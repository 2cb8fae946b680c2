"""The engine's RuleSet for one table of a configuration: the table's options, the jurisdiction's
play rules in force on the as-of date (each with its citation by the label of that date) and the
side wagers' paytables. The engine itself never reads the database."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.cards import Suit, parse_cards
from engine.odds import Pays
from engine.rules import (
    DoubleOn,
    HoleCard,
    PaytableLine,
    RuleRef,
    RuleSet,
    SideWagerRules,
    Surrender,
)
from pitboss.errors import DomainError
from variants.models import Paytable, PlayRule, Wager, WagerKind
from variants.selectors import Citer

from .configuration import Configuration, SideWager, Table, value_at

PLAYABLE_VARIANTS = {"face-up-blackjack", "blackjack-switch", "spanish-21", "double-up-blackjack"}
"""Full variants the engine plays: their play rules replace the base game's of the same key. Other
variants (Competition 21, Multiple Action, …) are refused, never played as plain blackjack."""

FACE_UP_DEALING = "face-up-dealing_"
"""Key prefix of the play rules of a face-up dealing procedure a table may choose (hole_card:
face_up, MA 6(k)); at such a table each replaces the rule of the key after the prefix."""

VERSION_KEY = re.compile(r"^version-(\d+)_")
"""Key prefix of the play rules of a game's later version ("version-2_dealer-16", 30-899.10
Version 2): at a table whose game_version is that number each replaces the Version 1 rule of
the key after the prefix (or adds it); other tables never read them."""


def game_versions(jurisdiction: str) -> dict[str, tuple[int, ...]]:
    """Game slug → the versions its play rules define (1 and each "version-N_" prefix), for the
    games of the jurisdiction that have more than one."""
    found: dict[str, set[int]] = {}
    keys = PlayRule.objects.filter(
        jurisdiction__code=jurisdiction, key__startswith="version-"
    ).values_list("wager__slug", "key")
    for slug, key in keys:
        match = VERSION_KEY.match(key)
        if match:
            found.setdefault(slug, {1}).add(int(match.group(1)))
    return {slug: tuple(sorted(versions)) for slug, versions in found.items()}


@dataclass
class TableRules:
    rules: RuleSet
    assumed: list[str] = field(default_factory=list)
    """Options the configuration left out and the engine took a default for, in words."""


def as_dealt(table: Table) -> Table:
    """The table with only what its RuleSet is made of (its side wagers too): tables alike in
    this share their rules, whatever their names and limits. table_rules does not read the name,
    what is posted and checked (limits, tips, jokers, layouts, spots, the variation's rules), nor
    how the shoe is dealt (rounds and simulations read `dealing` themselves)."""
    return dataclasses.replace(
        table, name="", limits=None, tips=None, jokers=None, layouts=None, player_spots=None,
        variation=None, dealing=None,
    )  # fmt: skip


def table_rules(
    config: Configuration, table: Table, path: str, citer: Citer | None = None
) -> TableRules:
    """The RuleSet of a parsed configuration's table (configuration_parse). A `citer` of the
    configuration's as-of date, shared by its tables, reads each provision once.

    :raises DomainError: the game is not one the engine plays, or is not a game of the
        jurisdiction; a side wager's paytable is unknown.
    """
    jurisdiction, citer = config.jurisdiction, citer or Citer(config.as_of)
    game = Wager.objects.filter(jurisdiction__code=jurisdiction, slug=table.game).first()
    if game is None or game.kind not in (WagerKind.BASE_GAME, WagerKind.VARIANT):
        raise DomainError(
            "game_unknown",
            f"{table.game!r} is not a game of {jurisdiction}",
            fields={f"{path}.game": "not a base game or full variant of the jurisdiction"},
        )
    if game.kind != WagerKind.BASE_GAME and game.slug not in PLAYABLE_VARIANTS:
        raise DomainError(
            "game_not_playable",
            f"The engine cannot play {game.name} ({game.slug}) yet; it plays {jurisdiction}'s "
            f"base game only, and never plays a variant as plain blackjack.",
            fields={f"{path}.game": "not playable by the engine yet"},
        )
    games = [game]
    if game.kind == WagerKind.VARIANT:  # "the standard rules of blackjack, except as follows"
        games.insert(0, Wager.objects.get(jurisdiction=game.jurisdiction, kind=WagerKind.BASE_GAME))
    play_rules = {
        rule.key: rule
        for g in games
        for rule in PlayRule.objects.filter(wager=g).select_related("provision")
        if citer.in_force(rule)
    }
    assumed: list[str] = []
    play_rules = _version_rules(game, play_rules, table, path, citer, assumed)

    game_face_up = "deal" in play_rules and play_rules["deal"].params.get("dealer_face_up")
    if table.hole_card == "face_up" and not game_face_up:  # else the game deals so
        procedure = {
            key.removeprefix(FACE_UP_DEALING): rule
            for key, rule in play_rules.items()
            if key.startswith(FACE_UP_DEALING)
        }
        if not procedure:
            raise DomainError(
                "option_not_authorised",
                f"{game.name} in {jurisdiction} has no face-up dealing procedure (MA 6(k) has one)",
                fields={f"{path}.hole_card": "not a dealing procedure of these rules"},
            )
        play_rules |= procedure
    play_rules = {k: rule for k, rule in play_rules.items() if not k.startswith(FACE_UP_DEALING)}

    for n, payout in enumerate(table.optional_payouts):
        key = "designated-blackjack" if payout == "designated-blackjack" else "bonus-21"
        rule = play_rules.get(key)
        if not (rule and rule.params.get("optional")) or (
            key == "bonus-21" and payout not in rule.params.get("pays", {})
        ):
            raise DomainError(
                "option_not_authorised",
                f"{game.name} in {jurisdiction} has no optional payout {payout!r} at odds "
                "the rules "
                f"fix, so the engine cannot settle it",
                fields={f"{path}.optional_payouts[{n}]": "not an optional payout of these rules"},
            )

    def param(key: str, name: str, default: Any) -> Any:
        rule = play_rules.get(key)
        return rule.params.get(name, default) if rule else default

    citer.prefetch(rule.provision_id for rule in play_rules.values())
    citations = {
        key: RuleRef(**citer.cite(rule.provision_id, rule.unit_path).as_dict())
        for key, rule in play_rules.items()
    }

    def option(name: str, default: Any, why: str = "") -> Any:
        if (given := value_at(table, name)) is not None:
            return given
        assumed.append(f"{name}: {default}{f' ({why})' if why else ''}")
        return default

    decks = option("decks", 6)
    hole_default = param("hole-card", "default", "peek")
    hole_card = option("hole_card", hole_default, f"the {citations['hole-card']} procedure")
    split, double = table.split, table.double
    max_hands_default = param("split", "max_hands", 4)
    if split is None:
        assumed.append(f"split.max_hands: {max_hands_default} ({citations['split']})")
    if double is None:
        on = param("double", "on", DoubleOn.ANY_TWO)
        assumed.append(
            f"double: on {on.replace('_', ' ')}, after splits too ({citations['double']})"
        )
    rules = RuleSet(
        jurisdiction=jurisdiction,
        decks=decks,
        dealer_hits_soft_17=option("dealer_soft_17", "stand") == "hit",
        hole_card=HoleCard.PEEK if hole_card == "face_up" else HoleCard(hole_card),
        blackjack_pays=_odds(option("blackjack_pays", param("blackjack", "default", "3 to 2"))),
        insurance=param("insurance", "offered", True),
        insurance_pays=_odds(option("insurance_pays", "2 to 1")),
        even_money=param("even-money", "offered", True)
        and option("even_money", False, "not offered unless the table says so"),
        double_on=DoubleOn(double.on if double else param("double", "on", DoubleOn.ANY_TWO)),
        rescue=param("double", "rescue", False),
        max_doubles=double.max_doubles if double and double.max_doubles is not None else 1,
        super_bonus=tuple(
            (Decimal(least), Decimal(amount))
            for least, amount in param("super-bonus", "amounts", [])
        ),
        envy_bonus=Decimal(param("super-bonus", "envy", "0")),
        spanish_decks=param("deal", "spanish_decks", False),
        blackjack_beats_dealer_blackjack=param("blackjack", "beats_dealer_blackjack", False),
        player_21_wins=param("twenty-one", "always_wins", False),
        bonus_21=_bonus_21(play_rules.get("bonus-21"), decks, table.optional_payouts),
        bonus_on_doubled=param("bonus-21", "on_doubled", False),
        designated_blackjack=tuple(parse_cards(list(table.designated_blackjack))),
        designated_blackjack_pays=_odds(param("designated-blackjack", "pays", "2 to 1")),
        double_after_split=double.after_split if double else True,
        max_split_hands=split.max_hands if split else max_hands_default,
        resplit_aces=split.resplit_aces if split else param("split", "resplit_aces", False),
        split_aces_one_card=(
            split.split_aces_one_card if split else param("split", "split_aces_one_card", True)
        ),
        surrender=_surrender(option("surrender", "none"), play_rules, citations, assumed),
        two_card_21_beats_dealer_21="two-card-21" in play_rules,
        dealer_face_up=param("deal", "dealer_face_up", False),
        ties_lose=param("push", "ties_lose", False),
        spots_per_seat=param("deal", "spots", 1),
        switch=param("deal", "switch", False),
        switched_blackjack_pushes_22=param("switched-blackjack", "pushes_22", False),
        dealer_22_pushes=param("dealer-22", "pushes", False),
        double_up="double-up" in play_rules,
        double_up_split_aces=param("double-up", "split_aces", False),
        dealer_stops_on_16="dealer-16" in play_rules,
        dealer_16_pays_21="dealer-16-21" in play_rules,
        blackjack_paid_at_once=param("blackjack", "paid_at_once", False),
        split_aces_21_pays=_split_aces_21_pays(play_rules.get("split-aces-21")),
        chip_unit=Decimal(option("chip_unit", Decimal(1))),
        citations=citations,
        side_wagers=tuple(
            side_wager_rules(jurisdiction, citer, side, f"{path}.side_wagers[{n}]")
            for n, side in enumerate(table.side_wagers)
        ),
    )
    return TableRules(rules, assumed)


def version_problem(game: str, chosen: int, versions: list[int] | tuple[int, ...]) -> str:
    """Why a table's game_version is refused: the game has one version only, or not that one."""
    if len(versions) == 1:
        return f"{game} has one version only; leave game_version out."
    return f"{game} has no version {chosen}; its versions: {', '.join(map(str, versions))}."


def _version_rules(
    game: Wager,
    play_rules: dict[str, PlayRule],
    table: Table,
    path: str,
    citer: Citer,
    assumed: list[str],
) -> dict[str, PlayRule]:
    """The play rules of the game's version the table chooses (game_version): a later version's
    rules ("version-2_…") replace Version 1's of the same key; left out, Version 1, and
    `assumed` says so. The configuration's shape check (configuration_parse) has refused a
    version the game does not have."""
    versions = sorted({1} | {int(m.group(1)) for k in play_rules if (m := VERSION_KEY.match(k))})
    chosen = table.game_version
    if chosen is None and len(versions) > 1:
        chosen = 1
        section = citer.cite(game.provision_id, game.unit_path).citation
        assumed.append(f"game_version: 1 (Version 1 of {section}; the game has versions "
                       f"{', '.join(map(str, versions))})")  # fmt: skip
    if chosen is not None and (chosen not in versions or len(versions) == 1):
        raise DomainError(  # a configuration not checked for shape (configuration_parse is)
            "option_not_authorised",
            version_problem(game.name, chosen, versions),
            fields={f"{path}.game_version": version_problem(game.name, chosen, versions)},
        )
    return version_rules(play_rules, chosen or 1)


def version_rules(play_rules: dict[str, PlayRule], version: int) -> dict[str, PlayRule]:
    """The rules of one version of a game, by key: a later version's rules ("version-2_…")
    replace Version 1's of the same key (Version 1's rules are the unprefixed ones)."""
    prefix = f"version-{version}_"
    later = {k.removeprefix(prefix): r for k, r in play_rules.items() if k.startswith(prefix)}
    return {k: r for k, r in play_rules.items() if not VERSION_KEY.match(k)} | later


def _split_aces_21_pays(rule: PlayRule | None) -> Fraction | None:
    """The odds a ten on a split ace is paid at once (30-899.10 Player Rules (6)); None where the
    rules pay it as any 21 (no rule, or Version 2 (5)'s "not paid 2:1 automatically")."""
    if rule is None or rule.params.get("offered") is False:
        return None
    return _odds(rule.params["pays"])


def _surrender(
    asked: str, play_rules: dict[str, PlayRule], citations: dict[str, RuleRef], assumed: list[str]
) -> Surrender:
    """The table's surrender option, unless the rules in play take surrender away (MA 6(k)(3)):
    then none, and the round says so."""
    rule = play_rules.get("surrender")
    if rule and rule.params.get("offered") is False and asked != "none":
        assumed.append(f"surrender: none, not {asked} ({citations['surrender']})")
        return Surrender.NONE
    return Surrender(asked)


def _bonus_21(
    rule: PlayRule | None, decks: int, chosen: tuple[str, ...]
) -> tuple[tuple[str, Fraction], ...]:
    """The bonus odds of the rule, best first; the 2-deck game's own odds where it has them. An
    optional rule's payouts (MA 3(e)) only as far as the table chose them."""
    if rule is None:
        return ()
    pays = dict(rule.params.get("pays", {}))
    if rule.params.get("optional"):
        pays = {kind: odds for kind, odds in pays.items() if kind in chosen}
    if decks == 2:
        pays.update(rule.params.get("two_decks", {}))
    return tuple(sorted(((kind, _odds(odds)) for kind, odds in pays.items()), key=lambda p: -p[1]))


def _odds(text: str) -> Fraction:
    pays = Pays.parse(text)
    assert pays.ratio is not None
    return pays.ratio - 1 if pays.basis == "for" else pays.ratio


def side_wager_rules(jurisdiction: str, citer: Citer, side: SideWager, path: str) -> SideWagerRules:
    """A configured side wager as the engine reads it: its paytable's lines (a catalog id or
    inline lines, in the configured column) and citation.

    :raises DomainError: no such paytable of the wager, or no such column."""
    given = side.paytable_id
    suit = Suit(side.specified_suit) if side.specified_suit else None
    if side.inline_lines is not None:
        lines = tuple(
            PaytableLine(line.outcome, Pays.parse(line.pays), column=line.column)
            for line in side.inline_lines
        )
        lines = _column(lines, side, path)
        return SideWagerRules(side.wager, "inline", lines, meter=side.meter, specified_suit=suit)
    paytable = (
        Paytable.objects.filter(
            key=given, wager__slug=side.wager, wager__jurisdiction__code=jurisdiction
        )
        .prefetch_related("entries")
        .first()
        if given
        else None
    )
    if paytable is None:
        raise DomainError(
            "paytable_unknown",
            f"{side.wager} needs a paytable of {jurisdiction}: a catalog id or inline lines",
            fields={f"{path}.paytable": "no paytable of this wager in the jurisdiction"},
        )
    ref = citer.cite(paytable.provision_id, paytable.unit_path)
    lines = tuple(
        PaytableLine(e.outcome, Pays.parse(e.pays), e.label, e.column)
        for e in paytable.entries.all()
    )
    return SideWagerRules(
        side.wager,
        paytable.key,
        _column(lines, side, path),
        RuleRef(**ref.as_dict()),
        side.meter,
        paytable.base_wager,
        suit,
    )


def _column(
    lines: tuple[PaytableLine, ...], side: SideWager, path: str
) -> tuple[PaytableLine, ...]:
    """The lines of the configured pay column; all of them where none is configured (the engine
    then pays the first column that pays odds)."""
    column = side.column
    if column is None:
        return lines
    chosen = tuple(line for line in lines if line.column == column)
    if not chosen:
        columns = ", ".join(sorted({repr(line.column) for line in lines}))
        raise DomainError(
            "column_unknown",
            f"the paytable has no column {column!r}; its columns: {columns}",
            fields={f"{path}.column": f"one of {columns}"},
        )
    return chosen
