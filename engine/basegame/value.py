"""The base game's value as the apps ask for it: the standard game's analysis
(engine.basegame.standard) or a variant's (engine.basegame.variants, double_up), chosen by the
rules; the refusal of rules no analysis plays; a hand's values; and the exact effect of each rule
option. This module sits above the analyses it chooses between, so none of them imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from engine.analysis import NotAnalysable
from engine.basegame.assumptions import BaseGameValue, Play, beyond_limits, unplayed
from engine.basegame.double_up import double_up_variations
from engine.basegame.hands import Hand, add_card
from engine.basegame.standard import Analysis
from engine.basegame.variants import (
    is_variant,
    misplaced_variant_rules,
    shared_dealer_odds,
    variant_value,
)
from engine.dealer_odds import RANKS
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender


def check_analysable(rules: RuleSet) -> None:
    """:raises NotAnalysable: naming what the analysis does not play."""
    missing = unplayed(rules)
    if is_variant(rules):
        missing.append("a variant's own play (base_game_value analyses it)")
    missing += misplaced_variant_rules(rules) + beyond_limits(rules)
    if missing:
        raise NotAnalysable(
            "the exact analysis plays the standard game only, not " + ", ".join(missing)
        )


def base_game_value(rules: RuleSet, play: Play = Play.COMPOSITION) -> BaseGameValue:
    """The exact expected value of a round under `rules`, played as `play` says.

    :raises NotAnalysable: the rules use what the analysis does not play.
    """
    if is_variant(rules):  # the variants' own play (engine.basegame.variants)
        return variant_value(rules, play)
    check_analysable(rules)
    return Analysis(rules, play).value()


def hand_values(rules: RuleSet, cards: list[int], up: int) -> dict[str, float]:
    """The values of standing, hitting and doubling a hand (card values, ace 1) against an up card
    (ace 1), played on composition-dependently; where the dealer peeks, given no dealer blackjack
    (as published tables give them), else over every hole card.

    :raises NotAnalysable: the rules use what the analysis does not play.
    :raises ValueError: no such hand, or not from this shoe.
    """
    check_analysable(rules)
    hand: Hand = (0,) * RANKS
    for value in cards:
        if not 1 <= value <= 10:
            raise ValueError(f"{value} is no card value (ace 1, ten-value cards 10)")
        hand = add_card(hand, value - 1)
    analysis = Analysis(rules)
    if len(cards) < 2 or hand not in analysis.index:
        raise ValueError(f"{cards} is not a hand of two cards or more, 21 or less, from the shoe")
    h, u = analysis.index[hand], up - 1
    unsplit = analysis.contexts[(0, 0)]
    values = {"stand": unsplit.stand[h, u], "hit": unsplit.hit[h, u]}
    if len(cards) == 2 or (rules.doubles_any_time and analysis.may_double_drawn(h)):
        values["double"] = unsplit.double[h, u]
    if rules.peeks:
        blackjack = analysis.blackjack_chance(np.array([hand], dtype=np.int64))[0, u]
        natural = bool(analysis.natural[h])
        if natural and rules.blackjack_beats_dealer_blackjack:
            blackjack = 0.0  # paid whatever the dealer holds
        values = {
            name: (v if natural and name == "stand" else v + blackjack) / (1 - blackjack)
            for name, v in values.items()
        }
    return {name: float(v) for name, v in values.items()}


# --- effects of rule options --------------------------------------------------------------------


@dataclass(frozen=True)
class RuleEffect:
    option: str
    base: str
    changed: str
    value: BaseGameValue
    change: float
    """The variation's house edge less the base rules' (positive: it costs the player)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "from": self.base,
            "to": self.changed,
            "house_edge_change": f"{self.change:.12f}",
            "house_edge_change_percent": f"{100 * self.change:.9f}",
            "house_edge": f"{self.value.house_edge:.12f}",
        }


Values = Callable[[list[RuleSet]], list[BaseGameValue]]
"""How a list of rule sets is valued (each as base_game_value gives it)."""


def rule_effects(
    rules: RuleSet, base: BaseGameValue | None = None, values: Values | None = None
) -> list[RuleEffect]:
    """The change each analysable rule option makes to the house edge, one at a time: the exact
    edge of the rules with the option changed less the rules' own. For a face-up, Switch or
    Double Up game the options include the variant's own rules (ties_lose, double_up, …).

    values: how the rule sets are valued; by default analysed here, the face-up analyses sharing
    the dealer's odds and hands' values (compliance.basegame passes its kept values)."""
    variations = list(_variations(rules))
    # Analysed with the dealer's soft-17 rule changed last, and ties_lose before it: face-up
    # analyses alike in the soft-17 rule share the dealer's odds, and alike in both, most of the
    # hands' values (engine.basegame.variants.shared_dealer_odds).
    order = sorted(
        range(len(variations)),
        key=lambda i: (
            variations[i][3].dealer_hits_soft_17 != rules.dealer_hits_soft_17,
            variations[i][3].ties_lose != rules.ties_lose,
        ),
    )
    asked = ([] if base else [rules]) + [variations[i][3] for i in order]
    in_order = (values or analyse_together)(asked)
    base = base or in_order.pop(0)
    analysed = [in_order[order.index(i)] for i in range(len(variations))]
    return [
        RuleEffect(option, was, now, value, value.house_edge - base.house_edge)
        for (option, was, now, _), value in zip(variations, analysed, strict=True)
    ]


def analyse_together(
    rules_list: list[RuleSet], play: Play = Play.COMPOSITION
) -> list[BaseGameValue]:
    """base_game_value of each rule set; face-up analyses share the dealer's odds given both
    cards and, where they can, the hands' values (engine.basegame.variants.shared_dealer_odds)."""
    with shared_dealer_odds():
        return [base_game_value(rules, play) for rules in rules_list]


def _variations(rules: RuleSet) -> Iterator[tuple[str, str, str, RuleSet]]:
    def text(value: Any) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    def change(option: str, was: Any, now: Any, **fields: Any) -> tuple[str, str, str, RuleSet]:
        return option, text(was), text(now), replace(rules, **fields)

    bj = rules.blackjack_pays
    other = type(bj)(6, 5) if bj == type(bj)(3, 2) else type(bj)(3, 2)
    yield change("blackjack_pays", rules.blackjack_odds, f"{other.numerator} to "
                 f"{other.denominator}", blackjack_pays=other)  # fmt: skip
    h17 = rules.dealer_hits_soft_17
    yield change("dealer_soft_17", "hit" if h17 else "stand", "stand" if h17 else "hit",
                 dealer_hits_soft_17=not h17)  # fmt: skip
    surrender = Surrender.LATE if rules.surrender is Surrender.NONE else Surrender.NONE
    yield change("surrender", rules.surrender.value, surrender.value, surrender=surrender)
    das = rules.double_after_split
    yield change("double.after_split", das, not das, double_after_split=not das)
    double_on = DoubleOn.TEN_ELEVEN if rules.double_on is DoubleOn.ANY_TWO else DoubleOn.ANY_TWO
    yield change("double.on", rules.double_on.value, double_on.value, double_on=double_on)
    if rules.rescue:  # double-double down (30-899.16(8)); the engine redoubles only with rescue
        doubles = 1 if rules.max_doubles > 1 else 3
        yield change("double.max_doubles", rules.max_doubles, doubles, max_doubles=doubles)
    hands = 2 if rules.max_split_hands > 2 else 4
    yield change("split.max_hands", rules.max_split_hands, hands, max_split_hands=hands)
    if max(rules.max_split_hands, hands) > 2:
        rsa = rules.resplit_aces
        yield change("split.resplit_aces", rsa, not rsa, resplit_aces=not rsa)
    sa1 = rules.split_aces_one_card
    yield change("split.split_aces_one_card", sa1, not sa1, split_aces_one_card=not sa1)
    if rules.dealer_face_up:  # no hole card to peek at: the variant's own rules instead
        lose = rules.ties_lose
        yield change("ties_lose", lose, not lose, ties_lose=not lose)
        beats = rules.blackjack_beats_dealer_blackjack
        yield change("blackjack_beats_dealer_blackjack", beats, not beats,
                     blackjack_beats_dealer_blackjack=not beats)  # fmt: skip
        return
    hole = HoleCard.NONE if rules.hole_card is HoleCard.PEEK else HoleCard.PEEK
    if rules.split_aces_21_pays is None:  # paid at once with no peek: not analysed
        yield change("hole_card", rules.hole_card.value, hole.value, hole_card=hole)
    if not rules.peeks:  # what a dealer blackjack takes where nobody peeked
        obo = rules.original_bets_only
        yield change("original_bets_only", obo, not obo, original_bets_only=not obo)
    if rules.switch:
        # where every dealer 22 pushes, a switched blackjack's own push against it changes
        # nothing: the effect is then the 22's (the literal reading of 30-2105(8)(e))
        pushes_22 = rules.dealer_22_pushes
        yield change("dealer_22_pushes", pushes_22, not pushes_22,
                     dealer_22_pushes=not pushes_22)  # fmt: skip
        if not pushes_22:
            pushes = rules.switched_blackjack_pushes_22
            yield change("switched_blackjack_pushes_22", pushes, not pushes,
                         switched_blackjack_pushes_22=not pushes)  # fmt: skip
    for option, was, now, fields in double_up_variations(rules):
        yield change(option, was, now, **fields)
