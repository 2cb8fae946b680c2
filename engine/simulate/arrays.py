"""Rule sets as the kernel reads them: what a simulation plays and refuses, each rule set's
parameter row, basic-strategy decision table, Bonus 21 wins and doubled-hand plays, the shoe's
cards, and a rule set as JSON for a stored job."""

from __future__ import annotations

import math
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cards import Card, EngineError, parse_cards
from engine.hands import bonus_21_kinds
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender
from engine.strategy import Action, BasicStrategy

from .kernel import (
    DOUBLE,
    DOUBLE_AGAIN,
    HIT,
    MAX_HANDS,
    OPTIONS,
    P_21_WINS,
    P_BLACKJACK,
    P_BLACKJACK_BEATS,
    P_BONUS_DOUBLED,
    P_DAS,
    P_DOUBLE_ON,
    P_H17,
    P_HOLE,
    P_MAX_DOUBLES,
    P_MAX_HANDS,
    P_OBO,
    P_RESCUE,
    P_RSA,
    P_SA1,
    P_STAKE,
    P_SURRENDER,
    P_TWO21,
    PARAMS,
    RESCUE_IT,
    SPLIT,
    STAND,
    SURRENDER,
)

_ACTION_CODES = {
    Action.HIT: HIT,
    Action.STAND: STAND,
    Action.DOUBLE: DOUBLE,
    Action.SPLIT: SPLIT,
    Action.SURRENDER: SURRENDER,
}
_HOLE = {HoleCard.PEEK: 0, HoleCard.NO_PEEK: 1, HoleCard.NONE: 2}
_SURRENDER_RULE = {Surrender.NONE: 0, Surrender.LATE: 1, Surrender.EARLY: 2}
_DOUBLE_RULE = {
    DoubleOn.ANY_TWO: 0,
    DoubleOn.NINE_TEN_ELEVEN: 1,
    DoubleOn.TEN_ELEVEN: 2,
    DoubleOn.ANY_TIME: 3,
    DoubleOn.NONE: 4,
}

SUITS = "SHDC"
"""Suit codes: spades 0 (Bonus 21 pays more in spades)."""
BONUS_HANDS = (
    "", "2C 3C 4C 5C 7C", "AC 2C 3C 4C 5C 6D", "AC AD 2C 3C 4C 5C 5D",
    "6S 7H 8D", "6H 7H 8H", "6S 7S 8S", "7S 7H 7D", "7H 7H 7H", "7S 7S 7S",
)  # fmt: skip
"""Bonus 21 codes (30-899.16(11)) and a hand of each, for engine.hands.bonus_21_kinds to name its
kinds: no bonus kind; 5, 6, 7 cards; 6-7-8 mixed, suited, in spades; 7-7-7 the same."""

SIMULATED_RULES = (
    "decks",
    "spanish_decks",
    "dealer_hits_soft_17",
    "hole_card",
    "blackjack_pays",
    "double_on",
    "double_after_split",
    "max_split_hands",
    "resplit_aces",
    "split_aces_one_card",
    "surrender",
    "original_bets_only",
    "two_card_21_beats_dealer_21",
)
"""The RuleSet fields a base-game simulation depends on (no insurance: basic strategy declines
it; no side wagers), besides Spanish 21's (SPANISH_RULES)."""
SPANISH_RULES = (
    "player_21_wins",
    "blackjack_beats_dealer_blackjack",
    "bonus_21",
    "bonus_on_doubled",
    "rescue",
    "max_doubles",
)
"""Spanish 21's rules the simulator plays (30-899.16): 21s and blackjacks that win, Bonus 21
odds, doubling again, rescue. The Super and Envy Bonus, dollar amounts, are not paid (a job says
so in its assumptions)."""

NOT_SIMULATED = {
    "dealer_face_up": "the dealer's cards face up (Face Up Blackjack)",
    "ties_lose": "pushes that lose",
    "switch": "switching cards (Blackjack Switch)",
    "spots_per_seat": "two hands a seat",
    "designated_blackjack": "a designated blackjack",
    "double_up": "the double up (Double Up Blackjack)",
    "dealer_stops_on_16": "a dealer who stops on 16 (Double Up Blackjack)",
    "blackjack_paid_at_once": "blackjacks paid at once whatever the dealer holds",
    "split_aces_21_pays": "a split ace and a ten paid at once",
}
"""RuleSet fields the simulator does not play: a rule set using any of them is refused, never
simulated as the plain game."""


class NotSimulable(EngineError):
    """The rules use what the simulator does not play."""


def check_simulable(rules: RuleSet) -> None:
    """:raises NotSimulable: naming what the simulator does not play (the logged engine does)."""
    default = RuleSet()
    missing = [
        what
        for name, what in NOT_SIMULATED.items()
        if getattr(rules, name) != getattr(default, name)
    ]
    if missing:
        raise NotSimulable(
            "the fast simulator plays the standard game only, not "
            + ", ".join(missing)
            + "; play these rules through POST rounds/ (seeded rounds) instead"
        )


# --- rule sets as arrays -----------------------------------------------------------------------


def units_per_wager(rules: RuleSet) -> int:
    """Units a wager is split into so that every result is a whole number of them: tenths, or
    finer where the blackjack or Bonus 21 odds need it (4 to 3 needs thirtieths)."""
    odds = [rules.blackjack_pays, *(pays for _, pays in rules.bonus_21)]
    return math.lcm(10, *(o.denominator for o in odds))


def rule_params(rules: RuleSet, units: int) -> npt.NDArray[np.int64]:
    check_simulable(rules)
    blackjack = rules.blackjack_pays * units
    if blackjack.denominator != 1:
        raise ValueError(f"blackjack odds {rules.blackjack_odds} are not whole units of 1/{units}")
    if not 1 <= rules.max_split_hands <= MAX_HANDS:
        raise ValueError(f"max_split_hands must be 1 to {MAX_HANDS}, not {rules.max_split_hands}")
    row = np.zeros(PARAMS, dtype=np.int64)
    row[P_STAKE] = units
    row[P_BLACKJACK] = blackjack.numerator
    row[P_H17] = rules.dealer_hits_soft_17
    row[P_HOLE] = _HOLE[rules.hole_card]
    row[P_DOUBLE_ON] = _DOUBLE_RULE[rules.double_on]
    row[P_DAS] = rules.double_after_split
    row[P_MAX_HANDS] = rules.max_split_hands
    row[P_RSA] = rules.resplit_aces
    row[P_SA1] = rules.split_aces_one_card
    row[P_SURRENDER] = _SURRENDER_RULE[rules.surrender]
    row[P_OBO] = rules.original_bets_only
    row[P_TWO21] = rules.two_card_21_beats_dealer_21
    row[P_21_WINS] = rules.player_21_wins
    row[P_BLACKJACK_BEATS] = rules.blackjack_beats_dealer_blackjack
    row[P_RESCUE] = rules.rescue
    row[P_MAX_DOUBLES] = rules.max_doubles if rules.rescue else 1  # as engine.round deals them
    row[P_BONUS_DOUBLED] = rules.bonus_on_doubled
    return row


def bonus_array(rules: RuleSet, units: int) -> npt.NDArray[np.int64]:
    """What a winning 21 of each Bonus 21 code (BONUS_HANDS) wins on a wager of `units`: the odds
    of the first of the rules' Bonus 21 kinds the hand makes (engine/round/settling.py
    _settle_win), even money where it makes none."""
    out = np.full(len(BONUS_HANDS), units, dtype=np.int64)
    for code, hand in enumerate(BONUS_HANDS):
        kinds = bonus_21_kinds(parse_cards(hand.split())) if hand else set()
        odds = next((odds for kind, odds in rules.bonus_21 if kind in kinds), None)
        if odds is not None:
            win = odds * units
            if win.denominator != 1:
                raise ValueError(f"bonus odds {odds} are not whole units of 1/{units}")
            out[code] = win.numerator
    return out


def doubled_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """What the basic strategy does with a doubled hand that may go on (Spanish 21's rescue,
    30-899.16(7)), by [total, soft, up value]: DOUBLE_AGAIN where its first choice for the total
    is to double (taken where the rules allow another double), RESCUE_IT where standing is worth
    less than half the wager lost (BasicStrategy.decide)."""
    out = np.zeros((22, 2, 11), dtype=np.int8)
    if not rules.rescue:
        return out
    strategy = BasicStrategy(rules)
    for (total, soft, pair, up, two), ranked in strategy.table.items():
        if pair == 0 and not two and total <= 21 and ranked[0] is Action.DOUBLE:
            out[total, int(soft), up] |= DOUBLE_AGAIN
    for (total, up), value in strategy.stands.items():
        if isinstance(up, int) and total <= 21 and value < -0.5:
            out[total, :, up] |= RESCUE_IT
    return out


def _strategy_key(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """What BasicStrategy reads of a rule set, hashable (Spanish 21's extras change no play of the
    table: doubled_array reads them)."""
    data = rules_as_dict(rules)
    return tuple((name, data[name]) for name in SIMULATED_RULES)


def strategy_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """BasicStrategy(rules).table as an array [total, soft, pair value, up value, two cards,
    rank] of action codes, best first, -1 past the last."""
    return _strategy_array(_strategy_key(rules)).copy()


@lru_cache(maxsize=64)
def _strategy_array(key: tuple[tuple[str, Any], ...]) -> npt.NDArray[np.int8]:
    out = np.full((22, 2, 11, 11, 2, 5), -1, dtype=np.int8)
    table = BasicStrategy(rules_from_dict(dict(key))).table
    for (total, soft, pair, up, two), ranked in table.items():
        for rank, action in enumerate(ranked):
            out[total, int(soft), pair, up, int(two), rank] = _ACTION_CODES[action]
    return out


def decision_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """The action the basic strategy takes for each hand and option mask (OPTIONS), flattened:
    strategy_array's first ranked action among those allowed (stand where none is), looked up
    once here rather than ranked in every round."""
    return _decision_array(_strategy_key(rules)).copy()


@lru_cache(maxsize=64)
def _decision_array(key: tuple[tuple[str, Any], ...]) -> npt.NDArray[np.int8]:
    ranked = _strategy_array(key)
    out = np.full(ranked.shape[:-1] + (OPTIONS,), STAND, dtype=np.int8)
    for options in range(OPTIONS):
        allowed = (1 << HIT) | (1 << STAND)
        allowed |= (1 << DOUBLE) * (options & 1) + (1 << SPLIT) * (options >> 1 & 1)
        allowed |= (1 << SURRENDER) * (options >> 2 & 1)
        if options & 8:
            allowed &= (1 << SPLIT) | (1 << STAND)
        chosen = np.full(ranked.shape[:-1], -1, dtype=np.int8)
        for rank in range(ranked.shape[-1]):
            choice = ranked[..., rank]
            ok = (choice >= 0) & ((allowed >> np.maximum(choice, 0)) & 1 == 1) & (chosen < 0)
            chosen[ok] = choice[ok]
        out[..., options] = np.where(chosen < 0, STAND, chosen)
    return out


def composition(rules: RuleSet) -> npt.NDArray[np.int8]:
    """The cards of the rule set's shoe as the kernel holds them, in no particular order: their
    values (ace 1), and where Spanish 21's rules may pay by suit the suit's code above the value
    (see SUITS)."""
    tens = 3 if rules.spanish_decks else 4
    suits = range(len(SUITS)) if spanish(rules) else [0] * len(SUITS)
    per_deck = [value | suit << 4 for value in range(1, 10) for suit in suits]
    per_deck += [10 | suit << 4 for suit in suits for _ in range(tens)]
    return np.array(per_deck * rules.decks, dtype=np.int8)


def card_code(card: Card) -> int:
    """A card as the kernel holds it (composition)."""
    return card.value | SUITS.index(card.suit.value) << 4


def check_same_shoe(variants: list[RuleSet]) -> None:
    shoes = {(r.decks, r.spanish_decks) for r in variants}
    if len(shoes) > 1:
        raise ValueError("variations played on the same cards need the same shoe")


KernelArrays = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int8],
    npt.NDArray[np.int64] | None,
    npt.NDArray[np.int8] | None,
]
"""A simulation's rule sets as the kernel reads them (kernel_arrays)."""


def kernel_arrays(variants: list[RuleSet], units: int) -> KernelArrays:
    """What the kernel reads of the rule sets played: parameters, decisions, and where any has
    Spanish 21's rules Bonus 21 wins and doubled hands' plays (else None), rule set after rule
    set."""
    params = np.stack([rule_params(r, units) for r in variants])
    decisions = np.stack([decision_array(r) for r in variants]).ravel()
    if not any(spanish(r) for r in variants):
        return params, decisions, None, None
    bonus = np.stack([bonus_array(r, units) for r in variants])
    return params, decisions, bonus, np.stack([doubled_array(r) for r in variants])


def spanish(rules: RuleSet) -> bool:
    """Whether the rule set plays any of Spanish 21's rules (SPANISH_RULES)."""
    default = RuleSet()
    return any(getattr(rules, name) != getattr(default, name) for name in SPANISH_RULES)


def rules_as_dict(rules: RuleSet) -> dict[str, Any]:
    """The simulated fields of a rule set as JSON values (for a stored job); Spanish 21's only
    where they differ from the standard game's."""
    out: dict[str, Any] = {}
    default = RuleSet()
    for name in SIMULATED_RULES + SPANISH_RULES:
        value = getattr(rules, name)
        if name in SPANISH_RULES and value == getattr(default, name):
            continue
        if isinstance(value, Fraction):
            value = str(value)
        elif isinstance(value, StrEnum):
            value = value.value
        elif name == "bonus_21":
            value = [[kind, str(odds)] for kind, odds in value]
        out[name] = value
    return out


def rules_from_dict(data: dict[str, Any]) -> RuleSet:
    """The RuleSet that rules_as_dict described (other fields take their defaults)."""
    values = {name: data[name] for name in SIMULATED_RULES + SPANISH_RULES if name in data}
    values["blackjack_pays"] = Fraction(values["blackjack_pays"])
    values["hole_card"] = HoleCard(values["hole_card"])
    values["double_on"] = DoubleOn(values["double_on"])
    values["surrender"] = Surrender(values["surrender"])
    if "bonus_21" in values:
        values["bonus_21"] = tuple((kind, Fraction(odds)) for kind, odds in values["bonus_21"])
    return RuleSet(**values)
