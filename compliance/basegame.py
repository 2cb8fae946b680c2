"""The base game's exact house edge for a table of a configuration (GET/POST
analysis/base-game/): engine.basegame's combinatorial analysis of the table's rules with the best
composition-dependent play and with the engine's basic strategy (the simulator's), and the change
each rule option makes to it, computed exactly as the simulation job estimates it.

Face Up, Blackjack Switch and Double Up Blackjack tables (engine.basegame.variants,
engine.basegame.double_up) get the same: both values and each rule option's effect, the variants'
own options included.

Each distinct rule set is analysed once and its value kept, the values of a rule's effects too:
in this process, and in the BaseGameEdge table so that it survives a restart. An analysis takes
about half a second for the standard game and Switch, about 1 s for a 6-deck face-up game
(0.3 s for a rule set sharing its dealer's odds, 0.1 s or less for most of a rule's effects,
which share its hands' values too: shared_dealer_odds): a face-up table's first request with its
effects takes about 3 s of one core (benchmarks: bench_face_up_first_request), later ones read
what was kept. A validation run carries each table's value (table_base_games) beside its
findings."""

from __future__ import annotations

import functools
import hashlib
import time
from dataclasses import fields, replace
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

import engine.basegame.assumptions
import engine.basegame.contexts
import engine.basegame.double_up
import engine.basegame.hands
import engine.basegame.standard
import engine.basegame.value
import engine.basegame.variants
import engine.dealer_odds
import engine.strategy
from engine.analysis import NotAnalysable
from engine.basegame import (
    DOUBLE_UP_FIELDS,
    MAX_SPLIT_HANDS,
    BaseGameValue,
    Play,
    base_game_value,
    check_analysable,
    check_variant,
    is_variant,
    rule_effects,
    shared_dealer_odds,
)
from engine.odds import decimal_string
from engine.readings import Reading, rules_read_otherwise
from engine.rules import RuleSet
from engine.simulate import rules_as_dict
from pitboss import kbcache
from pitboss.errors import DomainError
from regs.models import AnnotationKind
from regs.selectors import unit_annotations
from variants.models import Constraint, ConstraintKind
from variants.selectors import Citer

from .configuration import Configuration, Table, value_at
from .models import BaseGameEdge
from .rounds import configuration_table
from .rulesets import TableRules, as_dealt, table_rules
from .side_wagers import table_side_wagers
from .validator import bonus_house_advantage

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
    "game_version": "game_version",
}
"""GET's query parameters → the table field each sets (of the configuration, docs/api.md)."""


def check_rules(rules: RuleSet) -> None:
    """:raises NotAnalysable: what the analysis of these rules (a variant's or the standard
    game's) does not play."""
    (check_variant if is_variant(rules) else check_analysable)(rules)


def base_game_analysis(
    *, configuration: Configuration, table: str | None = None, effects: bool = True
) -> dict[str, Any]:
    """The exact house edge of the named table's base game (default the first), its conventions
    and (with `effects`) the change each rule option makes.

    :raises pitboss.errors.DomainError: an unknown table, or rules the analysis does not play.
    """
    index, dealt, found = configuration_table(configuration, table)
    rules = found.rules
    try:
        check_rules(rules)
    except NotAnalysable as exc:
        field = f"configuration.tables[{index}].{_field(rules)}"
        raise DomainError(
            "game_not_analysed", f"{dealt.name}: {exc}", fields={field: str(exc)}
        ) from exc
    with shared_dealer_odds():  # a face-up table's analyses share odds and hands' values
        return _analysis_body(effects, dealt, found, rules)


def _analysis_body(
    effects: bool, table: Table, found: TableRules, rules: RuleSet
) -> dict[str, Any]:
    [value] = base_game_values([rules])
    assumed = list(found.assumed)
    if rules.side_wagers:
        assumed.append("side wagers: not analysed (the base game only)")
    body: dict[str, Any] = {
        "table": table.name,
        "rules": rules_as_dict(rules) | _spanish_rules(rules) | _variant_rules(rules),
        "assumed": assumed,
        **value.as_dict(),
        "alternative_readings": alternative_readings([rules])[0],
        "basic_strategy": _basic_strategy(rules),
    }
    if effects:
        body["effects"] = [
            effect.as_dict() for effect in rule_effects(rules, value, values=base_game_values)
        ]
    return body


def alternative_readings(
    rules_list: list[RuleSet], kept: kbcache.Kept = kbcache.read_now
) -> list[list[dict[str, Any]]]:
    """For each rule set, each reading of its rules that the analysis sets aside
    (engine/readings.py: 30-2105(8)(e)'s dealer 22 read as a bust), valued as the rules are (the
    values kept alike), with the rule's annotation that states both: the figure shown beside
    the one the table's edge rests on. With `kept`, the annotations are read once per revision."""
    read = [rules_read_otherwise(rules) for rules in rules_list]
    values = iter(base_game_values([other for pairs in read for _, other in pairs]))
    return [[_reading_shown(reading, next(values), kept) for reading, _ in pairs] for pairs in read]


def _reading_shown(reading: Reading, value: BaseGameValue, kept: kbcache.Kept) -> dict[str, Any]:
    body = value.as_dict()

    def annotations() -> list[str]:
        return unit_annotations(
            jurisdiction=reading.jurisdiction,
            citation=reading.citation,
            kind=AnnotationKind.AMBIGUITY,
        )

    return {
        **reading.as_dict(),
        "house_edge": body["house_edge"],
        "house_edge_percent": body["house_edge_percent"],
        "favours": "player" if value.house_edge < 0 else "house",
        # a copy: what is kept is shared between answers
        "annotations": list(
            kept(("ambiguities", reading.jurisdiction, reading.citation), annotations)
        ),
    }


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


VARIANT_RULES = (
    "dealer_face_up",
    "ties_lose",
    "blackjack_beats_dealer_blackjack",
    "switch",
    "spots_per_seat",
    "switched_blackjack_pushes_22",
    "dealer_22_pushes",
    *DOUBLE_UP_FIELDS,
)
"""The RuleSet fields of the variants' own play rules, shown with a variant's analysis."""


def _variant_rules(rules: RuleSet) -> dict[str, Any]:
    if not is_variant(rules):
        return {}
    return {name: _shown(getattr(rules, name)) for name in VARIANT_RULES}


def _shown(value: Any) -> Any:
    """Odds (split_aces_21_pays) as "2 to 1"; other values as they are."""
    if isinstance(value, Fraction):
        return f"{value.numerator} to {value.denominator}"
    return value


def _basic_strategy(rules: RuleSet) -> dict[str, Any]:
    """The engine's basic strategy (the simulator's) valued exactly: for a face-up table its
    play by the dealer's two-card total, for Switch its play and its switching too, for Double
    Up its double ups. Where it is not valued, why not."""
    try:
        [basic_value] = base_game_values([rules], Play.BASIC)
    except NotAnalysable as exc:
        return {"play": Play.BASIC.value, "not_analysed": str(exc)}
    basic = basic_value.as_dict()
    keys = ("play", "house_edge", "house_edge_percent", "expected_value_by_up_card")
    return {key: basic[key] for key in keys} | {"strategy": basic["conventions"][1]}


def _field(rules: RuleSet) -> str:
    """The table field that asks for what the analysis does not play."""
    if rules.max_split_hands > MAX_SPLIT_HANDS:
        return "split.max_hands"
    if not 1 <= rules.decks <= 8:
        return "decks"
    return "game"


# --- the values kept ------------------------------------------------------------------------------

NOT_READ = frozenset(
    {"jurisdiction", "insurance", "insurance_pays", "even_money", "chip_unit", "citations",
     "side_wagers"}
)  # fmt: skip
"""RuleSet fields the analysis does not read: it declines insurance and even money (the chip unit
only rounds insurance), and values the base game without its side wagers. Every other field is
part of a kept value's key, so a rule the analysis learns to play later cannot share a key with
the standard game."""
_ENGINE_MODULES = (
    engine.basegame.standard,
    engine.basegame.contexts,
    engine.basegame.hands,
    engine.basegame.assumptions,
    engine.basegame.value,
    engine.basegame.variants,
    engine.basegame.double_up,
    engine.dealer_odds,
    engine.strategy,
)
"""The modules whose code the value comes from: a change to any gives new keys."""
_Kept = tuple[float, tuple[float, ...], tuple[str, ...]]
"""A value kept: the expected value, by up card, and the conventions stated (BaseGameValue's)."""
_MEMO: dict[str, _Kept] = {}
_MEMO_SIZE = 4096


@lru_cache(maxsize=1)
def _engine_revision() -> str:
    digest = hashlib.sha256()
    for module in _ENGINE_MODULES:
        digest.update(Path(str(module.__file__)).read_bytes())
    return digest.hexdigest()


def analysis_rules(rules: RuleSet) -> str:
    """The fields of `rules` the analysis reads, in words (name=value; …)."""
    return "; ".join(
        f"{f.name}={getattr(rules, f.name)!r}" for f in fields(RuleSet) if f.name not in NOT_READ
    )


def analysis_key(rules: RuleSet, play: Play = Play.COMPOSITION) -> str:
    """The key of the value of `rules` played as `play`: a SHA-256 of the fields the analysis
    reads, the play and the engine's source."""
    text = f"{_engine_revision()}|{play.value}|{analysis_rules(rules)}"
    return hashlib.sha256(text.encode()).hexdigest()


def base_game_values(
    rules_list: list[RuleSet], play: Play = Play.COMPOSITION
) -> list[BaseGameValue]:
    """The exact value of each rule set, as engine.basegame.base_game_value gives it: from this
    process's memory, else from the BaseGameEdge table (one query for all), else analysed now and
    kept in both.

    :raises NotAnalysable: a rule set the analysis does not play (check_analysable first).
    """
    keys = [analysis_key(rules, play) for rules in rules_list]
    unknown = {key for key in keys if key not in _MEMO}
    found = {key: _MEMO[key] for key in keys if key in _MEMO}
    if unknown:
        for row in BaseGameEdge.objects.filter(key__in=unknown):
            by_up, stated = tuple(row.by_up_card), tuple(row.stated)
            found[row.key] = _remember(row.key, row.expected_value, by_up, stated)
    # Face-up analyses of rule sets alike in shoe and soft 17 share the dealer's odds.
    with shared_dealer_odds():
        for key, rules in zip(keys, rules_list, strict=True):
            if key not in found:
                found[key] = _analyse_and_keep(key, rules, play)
    return [
        BaseGameValue(rules, *found[key][:2], play, found[key][2])
        for key, rules in zip(keys, rules_list, strict=True)
    ]


def _analyse_and_keep(key: str, rules: RuleSet, play: Play) -> _Kept:
    """Analyse `rules` and keep the value: in this process and in the BaseGameEdge table."""
    start = time.perf_counter()
    value = base_game_value(rules, play)
    BaseGameEdge.objects.bulk_create(
        [
            BaseGameEdge(
                key=key,
                rules=analysis_rules(rules),
                play=play.value,
                expected_value=value.expected_value,
                by_up_card=list(value.by_up_card),
                stated=list(value.stated),
                seconds=time.perf_counter() - start,
            )
        ],
        ignore_conflicts=True,  # another process analysed the same rules meanwhile
    )
    return _remember(key, value.expected_value, value.by_up_card, value.stated)


def _remember(
    key: str, expected_value: float, by_up_card: tuple[float, ...], stated: tuple[str, ...]
) -> _Kept:
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.clear()
    kept = _MEMO[key] = (float(expected_value), tuple(float(v) for v in by_up_card), stated)
    return kept


def base_game_memory_clear() -> None:
    """Forget the values this process holds (they stay in the BaseGameEdge table): a cold
    start, for tests and the benchmark."""
    _MEMO.clear()


# --- each table of a validation run ---------------------------------------------------------------


def table_base_games(config: Configuration, *, revision: str | None = None) -> list[dict[str, Any]]:
    """For each table of a parsed configuration (configuration_parse), in order: its base game's
    exact house edge under the rules the table deals (compliance.rulesets.table_rules, side
    wagers aside), or why the analysis cannot give one; a link to the analysis with the change
    each rule option makes; and beside it the house advantage of each bonus wager MA 20(k)
    bounds, as the validator computes it.

    With `revision` (pitboss.kbcache's stamp, as configuration_validate takes it), the rules a
    table deals are read once per revision of the knowledge base and shared between calls."""
    jurisdiction, as_of = config.jurisdiction, config.as_of
    kept = kbcache.kept_for(revision)
    citer = kept(("citer", as_of), lambda: Citer(as_of))
    bounded = kept(("bonus-bounds", jurisdiction, as_of), lambda: _bonus_constraints(config, citer))
    entries: list[dict[str, Any]] = []
    analysable: list[tuple[dict[str, Any], RuleSet]] = []
    built: dict[Table, TableRules | Exception] = {}  # tables alike but for name and side wagers
    for index, table in enumerate(config.tables):
        entry: dict[str, Any] = {
            "table": table.name,
            "game": table.game,
            "house_edge": None,
            "house_edge_percent": None,
            "play": None,
            "method": None,
            "conventions": [],
            "assumed": [],
            "not_analysed": None,
            "analysis": None,
            "alternative_readings": [],
            "bonus_wagers": _bonus_wagers(config, table, bounded),
            "side_wagers": table_side_wagers(config, table, citer, kept, f"tables[{index}]"),
        }
        entries.append(entry)
        alike = base_only = replace(as_dealt(table), side_wagers=())
        if alike not in built:
            path = f"tables[{index}]"
            rules_of = functools.partial(_base_rules, config, base_only, path, citer)
            built[alike] = kept(("base-game-rules", jurisdiction, as_of, alike), rules_of)
        outcome = built[alike]
        if isinstance(outcome, Exception):
            entry["not_analysed"] = str(outcome)
            continue
        entry["assumed"] = list(outcome.assumed)
        entry["analysis"] = base_game_url(config, table)
        analysable.append((entry, outcome.rules))
    values = base_game_values([rules for _, rules in analysable])
    readings = alternative_readings([rules for _, rules in analysable], kept)
    for (entry, _), value, read in zip(analysable, values, readings, strict=True):
        body = value.as_dict()
        entry |= {key: body[key] for key in ("house_edge", "house_edge_percent", "play", "method")}
        entry["conventions"] = body["conventions"]
        entry["alternative_readings"] = read
    return entries


def _base_rules(
    config: Configuration, table: Table, path: str, citer: Citer
) -> TableRules | Exception:
    """The rules a table deals, or why the analysis cannot value them."""
    try:
        found = table_rules(config, table, path, citer)
        check_rules(found.rules)
        return found
    except (DomainError, ValueError) as exc:  # NotAnalysable, odds the engine cannot read
        return exc


def base_game_url(config: Configuration, table: Table) -> str:
    """GET analysis/base-game/ with the table's options: its house edge and each rule's effect."""
    query: dict[str, Any] = {
        "jurisdiction": config.jurisdiction,
        "as_of": str(config.as_of),
        "game": table.game,
    }
    for name, path in QUERY_FIELDS.items():
        value = value_at(table, path)
        if value is not None:
            query[name] = str(value).lower() if isinstance(value, bool) else value
    return f"{reverse('base-game-analysis')}?{urlencode(query)}"


def _bonus_constraints(
    config: Configuration, citer: Citer
) -> list[tuple[Constraint, dict[str, Any]]]:
    """The constraints bounding a bonus wager's house advantage (MA 20(k)) in force, each with
    its citation."""
    found = []
    for c in Constraint.objects.filter(
        jurisdiction__code=config.jurisdiction, kind=ConstraintKind.HOUSE_ADVANTAGE_BETWEEN
    ).select_related("wager"):
        if citer.in_force(c):
            cited = citer.cite(c.provision_id, c.unit_path).as_dict()
            since = cited["effective_from"]
            found.append((c, cited | {"effective_from": since.isoformat() if since else None}))
    return found


def _bonus_wagers(
    config: Configuration,
    table: Table,
    bounded: list[tuple[Constraint, dict[str, Any]]],
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for side in table.side_wagers:
        for c, cited in bounded:
            if c.wager is None or side.wager != c.wager.slug:
                continue
            low, high = Fraction(c.params["min"]), Fraction(c.params["max"])
            entry: dict[str, Any] = {
                "wager": c.wager.slug,
                "name": c.wager.name,
                "denomination": None,
                "house_advantage": None,
                "house_advantage_fraction": None,
                "house_advantage_percent": None,
                "bounds": f"{_percent(low)} to {_percent(high)}",
                "within_bounds": None,
                "missing": None,
                "code": c.code,
                "citations": [cited],
            }
            found = bonus_house_advantage(c, table, side, config.jurisdiction)
            if isinstance(found[1], str):
                entry["missing"] = str(found[0])
            else:
                stake, advantage = found
                entry |= {
                    "denomination": str(stake),
                    "house_advantage": decimal_string(advantage),
                    "house_advantage_fraction": f"{advantage.numerator}/{advantage.denominator}",
                    "house_advantage_percent": decimal_string(100 * advantage, 4),
                    "within_bounds": low <= advantage <= high,
                }
            out.append(entry)
    return out


def _percent(value: Fraction) -> str:
    return f"{float(value * 100):g} %"
