"""The base game's exact house edge for a table of a configuration (GET/POST
analysis/base-game/): engine.basegame's combinatorial analysis of the table's rules with the best
composition-dependent play and with the engine's basic strategy (the simulator's), and the change
each rule option makes to it, computed exactly as the simulation job estimates it."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.analysis import NotAnalysable
from engine.basegame import (
    MAX_SPLIT_HANDS,
    Play,
    base_game_value,
    check_analysable,
    rule_effects,
)
from engine.basegame_variants import check_variant, is_variant
from engine.rules import RuleSet
from engine.simulate import rules_as_dict
from pitboss.errors import DomainError

from .rounds import request_parse, request_table


class BaseGameIn(serializers.Serializer):
    configuration = serializers.JSONField()
    table = serializers.CharField(
        required=False, help_text="Name of the configuration's table; default the first."
    )
    effects = serializers.BooleanField(
        default=True,
        help_text="Also the change each rule option makes to the house edge (about ten analyses).",
    )


QUERY_FIELDS = {
    "decks": "decks",
    "dealer_soft_17": "dealer_soft_17",
    "hole_card": "hole_card",
    "blackjack_pays": "blackjack_pays",
    "surrender": "surrender",
    "double_on": "double.on",
    "double_after_split": "double.after_split",
    "max_hands": "split.max_hands",
    "resplit_aces": "split.resplit_aces",
    "split_aces_one_card": "split.split_aces_one_card",
}
"""GET's query parameters → the table field each sets (the DESIGN.md configuration's)."""
_INTEGERS = {"decks", "max_hands"}
_BOOLEANS = {"double_after_split", "resplit_aces", "split_aces_one_card"}


def base_game_query(params: Any) -> dict[str, Any]:
    """A GET's query (?jurisdiction=&as_of=&game=&decks=&dealer_soft_17=…&effects=) as the body
    POST takes: a configuration of one table.

    :raises rest_framework.exceptions.ValidationError: a number or yes/no that is not one.
    """
    table: dict[str, Any] = {"name": "table", "game": params.get("game", "blackjack")}
    for name, path in QUERY_FIELDS.items():
        if name not in params:
            continue
        value: Any = params[name]
        if name in _INTEGERS:
            try:
                value = int(value)
            except ValueError:
                raise serializers.ValidationError({name: "a whole number"}) from None
        elif name in _BOOLEANS:
            if value.lower() not in ("true", "false"):
                raise serializers.ValidationError({name: "true or false"})
            value = value.lower() == "true"
        where = table
        *parents, leaf = path.split(".")
        for parent in parents:
            where = where.setdefault(parent, {})
        where[leaf] = value
    configuration = {
        "jurisdiction": params.get("jurisdiction", ""),
        "as_of": params.get("as_of", ""),
        "tables": [table],
    }
    return {"configuration": configuration, "effects": params.get("effects", "true")}


def base_game_analysis(*, data: Any) -> dict[str, Any]:
    """The exact house edge of the table's base game, its conventions and (with effects) the
    change each rule option makes.

    :raises rest_framework.exceptions.ValidationError: a malformed request (the field is named).
    :raises pitboss.errors.DomainError: an unknown table, or rules the analysis does not play.
    """
    values = request_parse(BaseGameIn, data)
    table, found = request_table(values)
    rules = found.rules
    index = values["configuration"]["tables"].index(table)
    variant = is_variant(rules)
    try:
        (check_variant if variant else check_analysable)(rules)
    except NotAnalysable as exc:
        field = f"configuration.tables[{index}].{_field(rules)}"
        raise DomainError(
            "game_not_analysed", f"{table['name']}: {exc}", fields={field: str(exc)}
        ) from exc
    value = base_game_value(rules)
    assumed = list(found.assumed)
    if rules.side_wagers:
        assumed.append("side wagers: not analysed (the base game only)")
    body: dict[str, Any] = {
        "table": table["name"],
        "rules": rules_as_dict(rules) | _spanish_rules(rules) | _variant_rules(rules),
        "assumed": assumed,
        **value.as_dict(),
        "basic_strategy": _basic_strategy(rules),
    }
    if values["effects"] and variant:
        body["effects"] = []
        body["effects_not_offered"] = VARIANT_EFFECTS
    elif values["effects"]:
        body["effects"] = [effect.as_dict() for effect in rule_effects(rules, value)]
    return body


def _spanish_rules(rules: RuleSet) -> dict[str, Any]:
    """Spanish 21's rules the analysis played (30-899.16), where the table has them."""
    if not (rules.spanish_decks or rules.player_21_wins or rules.bonus_21):
        return {}
    return {
        "spanish_decks": rules.spanish_decks,
        "player_21_wins": rules.player_21_wins,
        "blackjack_beats_dealer_blackjack": rules.blackjack_beats_dealer_blackjack,
        "bonus_21": {
            kind: f"{odds.numerator} to {odds.denominator}" for kind, odds in rules.bonus_21
        },
        "bonus_on_doubled": rules.bonus_on_doubled,
        "rescue": rules.rescue,
        "max_doubles": rules.max_doubles,
    }


VARIANT_EFFECTS = (
    "the effects of rule options are computed for the standard game only; a face-up or Switch "
    "analysis takes several seconds, too long for ten of them in a request"
)


VARIANT_RULES = (
    "dealer_face_up",
    "ties_lose",
    "blackjack_beats_dealer_blackjack",
    "switch",
    "spots_per_seat",
    "switched_blackjack_pushes_22",
)
"""The RuleSet fields of the variants' own play rules, shown with a variant's analysis."""


def _variant_rules(rules: RuleSet) -> dict[str, Any]:
    return {name: getattr(rules, name) for name in VARIANT_RULES} if is_variant(rules) else {}


def _basic_strategy(rules: RuleSet) -> dict[str, Any]:
    """The engine's basic strategy (the simulator's) valued exactly, or why not."""
    if is_variant(rules):
        return {
            "play": Play.BASIC.value,
            "not_offered": "the engine's basic strategy is valued exactly for the standard game "
            "only; this variant is valued with the best composition-dependent play",
        }
    basic = base_game_value(rules, Play.BASIC).as_dict()
    keys = ("play", "house_edge", "house_edge_percent", "expected_value_by_up_card")
    return {key: basic[key] for key in keys} | {"strategy": basic["conventions"][1]}


def _field(rules: RuleSet) -> str:
    """The table field that asks for what the analysis does not play."""
    if rules.max_split_hands > MAX_SPLIT_HANDS:
        return "split.max_hands"
    if not 1 <= rules.decks <= 8:
        return "decks"
    return "game"
