"""Face Up Blackjack (30-899.02) and MA 6(k)'s face-up dealing in the exact base-game analysis
(engine/basegame/variants.py): against published figures, an independent infinite-shoe
calculation, exact differences between rule sets, and rounds the engine plays."""

from __future__ import annotations

import statistics
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from engine.analysis import NotAnalysable
from engine.basegame import (
    Play,
    base_game_value,
    face_up_value,
    hand_values,
    rule_effects,
    shared_dealer_odds,
)
from engine.dealer_odds import RANKS, dealer_odds
from engine.round import SeatSpec, play_round
from engine.rules import DoubleOn, RuleSet, Surrender
from engine.shoe import Shoe
from engine.strategy import BasicStrategy

COLORADO = RuleSet(
    decks=6,
    dealer_hits_soft_17=True,
    dealer_face_up=True,
    ties_lose=True,
    blackjack_pays=Fraction(1),
    insurance=False,
    even_money=False,
)
"""30-899.02: blackjack 1 to 1, every push (a blackjack's too) lost, no insurance."""
SMALL = replace(COLORADO, decks=2, max_split_hands=2)
"""The same from 2 decks, splits to 2 hands: quicker to analyse, for comparisons."""


def _value(rules: RuleSet) -> float:
    key = repr(rules)
    if key not in _VALUES:
        _VALUES[key] = face_up_value(rules).expected_value
    return _VALUES[key]


_VALUES: dict[str, float] = {}


def test_the_dealers_odds_given_both_cards_average_to_the_odds_given_the_up_card() -> None:
    full = np.array([24] * 9 + [96])
    shoe = full - np.eye(RANKS, dtype=np.int64)[4] * 2  # two fives dealt to the player
    given_up = dealer_odds(shoe[None, :], True)[0]
    for up in range(RANKS):
        rest = shoe - np.eye(RANKS, dtype=np.int64)[up]
        given_both = dealer_odds(rest[None, :], True, up=up)[0]  # [hole, outcome]
        averaged = rest / rest.sum() @ given_both
        assert averaged == pytest.approx(given_up[up], abs=1e-13)


def _infinite_shoe_value(rules: RuleSet) -> float:
    """Face-up blackjack from an infinite shoe, best play, splits to 2 hands: written apart from
    the engine, as a check on it (an infinite shoe is the limit of ever more decks)."""
    p = [1 / 13] * 9 + [4 / 13]

    def add(total: int, soft: bool, rank: int) -> tuple[int, bool]:
        hard = (total - 10 if soft else total) + rank + 1
        if (soft or rank == 0) and hard <= 11:
            return hard + 10, True
        return hard, False

    @cache
    def dealer(total: int, soft: bool) -> dict[int, float]:
        if total > 21:
            return {22: 1.0}
        if total > 17 or (total == 17 and not (soft and rules.dealer_hits_soft_17)):
            return {total: 1.0}
        out: dict[int, float] = {}
        for rank, pr in enumerate(p):
            for final, q in dealer(*add(total, soft, rank)).items():
                out[final] = out.get(final, 0.0) + pr * q
        return out

    def against(dealer_total: int, dealer_soft: bool) -> float:
        finals = dealer(dealer_total, dealer_soft)

        @cache
        def stand(total: int) -> float:
            if total > 21:
                return -1.0
            tie = -1.0 if rules.ties_lose else 0.0
            return sum(
                q * (1.0 if d == 22 or total > d else tie if total == d else -1.0)
                for d, q in finals.items()
            )

        @cache
        def best(total: int, soft: bool) -> float:
            if total > 21:
                return -1.0
            return max(stand(total), hit(total, soft)) if total < 21 else stand(total)

        @cache
        def hit(total: int, soft: bool) -> float:
            return sum(pr * best(*add(total, soft, rank)) for rank, pr in enumerate(p))

        def double(total: int, soft: bool) -> float:
            return 2 * sum(pr * stand(add(total, soft, rank)[0]) for rank, pr in enumerate(p))

        def split(card: int) -> float:
            value = 0.0
            for rank, pr in enumerate(p):
                total, soft = add(*add(0, False, card), rank)
                value += pr * (
                    stand(total)
                    if card == 0
                    else max(best(total, soft), double(total, soft) if total < 21 else -1.0)
                )
            return 2 * value

        value = 0.0
        for a, pa in enumerate(p):
            for b, pb in enumerate(p):
                total, soft = add(*add(0, False, a), b)
                if total == 21:
                    ev = float(rules.blackjack_pays)
                else:
                    options = [stand(total), hit(total, soft), double(total, soft)]
                    ev = max(options + ([split(a)] if a == b else []))
                value += pa * pb * ev
        return value

    natural = 2 * p[0] * p[9]
    total = 0.0
    for up, pu in enumerate(p):
        for hole, ph in enumerate(p):
            dealer_total, soft = add(*add(0, False, up), hole)
            if dealer_total == 21:
                ev = natural * (-1.0 if rules.ties_lose else 0.0) - (1 - natural)
            else:
                ev = against(dealer_total, soft)
            total += pu * ph * ev
    return total


def test_more_decks_come_to_an_independent_infinite_shoe_calculation() -> None:
    # The engine's analysis of ever larger shoes against a plain calculation written apart:
    # the gap shrinks as 1/decks (about 0.9 percentage points / decks here).
    rules = RuleSet(
        dealer_hits_soft_17=True,
        dealer_face_up=True,
        ties_lose=True,
        blackjack_pays=Fraction(1),
        max_split_hands=2,
    )
    infinite = _infinite_shoe_value(rules)
    gaps = [_value(replace(rules, decks=d)) - infinite for d in (8, 32, 200)]
    assert 100 * gaps[0] == pytest.approx(0.11, abs=0.02)
    assert 100 * gaps[1] == pytest.approx(0.11 * 8 / 32, abs=0.005)
    assert 100 * abs(gaps[2]) < 0.006


def test_it_comes_near_the_wizards_published_double_exposure_edge() -> None:
    # Wizard of Odds, "Double Exposure" (wizardofodds.com/games/double-exposure/; as quoted at
    # resynth1943.net/introduction/): the Stratosphere's game, 6 decks, dealer hits soft 17,
    # doubles on hard 9-11 only, double after split, tied blackjack wins, splits to 4 hands:
    # house edge 0.68 %. The page states neither its method nor its conventions; this
    # analysis (composition-dependent play from a full 6-deck shoe) gives 0.771 %, so the
    # figure is pinned to 0.1 percentage points only: the match is loose, and said so.
    rules = RuleSet(
        decks=6,
        dealer_hits_soft_17=True,
        dealer_face_up=True,
        ties_lose=True,
        blackjack_beats_dealer_blackjack=True,
        blackjack_pays=Fraction(1),
        double_on=DoubleOn.NINE_TEN_ELEVEN,
    )
    house_edge = -100 * _value(rules)
    assert house_edge == pytest.approx(0.68, abs=0.1)
    assert house_edge == pytest.approx(0.7707397, abs=1e-6)


def test_a_blackjack_beating_the_dealers_is_worth_exactly_both_blackjacks_twice() -> None:
    # MA 6(k)(1): a blackjack wins against the dealer's; Colorado (30-899.02(3)) loses it. The
    # difference is the chance of both blackjacks (a full 2-deck shoe) times 2 wagers, exactly.
    beats = replace(SMALL, blackjack_beats_dealer_blackjack=True)
    dealer = Fraction(2 * 8 * 32, 104 * 103)
    player = Fraction(2 * 7 * 31, 102 * 101)
    assert _value(beats) - _value(SMALL) == pytest.approx(float(2 * dealer * player), abs=1e-12)


def test_a_push_that_loses_costs_the_player() -> None:
    pushes = replace(SMALL, ties_lose=False)
    assert _value(pushes) - _value(SMALL) > 0.05


def test_seeing_the_hole_card_of_a_standard_game_is_worth_about_ten_percent() -> None:
    # "If you ... knew what the dealer's hole card was, you would have an edge of 10 percent on
    # every hand" (John May, casinocitytimes.com, "A Trick to Know the Dealer's Hole Card at
    # Blackjack", 2000); Wikipedia, "Hole carding": "up to 13%".
    rules = RuleSet(decks=6, dealer_face_up=True)
    assert 100 * _value(rules) == pytest.approx(10.688, abs=0.001)


def test_surrender_with_both_cards_seen_gives_back_half() -> None:
    surrender = replace(SMALL, surrender=Surrender.LATE)
    assert _value(surrender) > _value(SMALL)


def test_the_effect_of_hitting_soft_17_is_the_difference_of_the_two_exact_edges() -> None:
    # A face-up table that stands on soft 17 asks what hitting it costs the player: exactly the
    # difference of the two analyses, each as face_up_value gives it alone.
    stands = replace(SMALL, dealer_hits_soft_17=False)
    effects = {effect.option: effect for effect in rule_effects(stands)}
    h17 = effects["dealer_soft_17"]
    assert (h17.base, h17.changed) == ("stand", "hit")
    assert h17.change == face_up_value(SMALL).house_edge - face_up_value(stands).house_edge
    assert 0.002 < h17.change < 0.006  # the player sees the soft 17 and still loses by it
    pushes = effects["ties_lose"]  # 30-899.02's pushes that lose: given back, a big gain
    assert (pushes.base, pushes.changed) == ("true", "false") and pushes.change < -0.05
    assert effects["surrender"].change < 0 and effects["double.after_split"].change > 0


def test_the_effects_are_the_variants_options_not_a_hole_card() -> None:
    effects = {effect.option for effect in rule_effects(SMALL)}
    assert {"ties_lose", "blackjack_beats_dealer_blackjack", "blackjack_pays"} <= effects
    assert "hole_card" not in effects and "original_bets_only" not in effects


def test_analyses_sharing_the_dealers_odds_give_the_values_each_gives_alone() -> None:
    # shared_dealer_odds() only saves computing the same odds again: every digit is the same.
    rules = [SMALL, replace(SMALL, surrender=Surrender.LATE), replace(SMALL, max_split_hands=3)]
    alone = [face_up_value(r) for r in rules]
    with shared_dealer_odds():
        shared = [face_up_value(r) for r in rules]
    assert [v.by_up_card for v in shared] == [v.by_up_card for v in alone]
    assert [v.expected_value for v in shared] == [v.expected_value for v in alone]


def test_a_rules_effects_analysed_together_are_the_values_each_rule_set_gives_alone() -> None:
    # The effects share the dealer's odds, and where the rules differ only in what the first two
    # cards do or a natural pays, the hands' values (blackjack 6 to 5, surrender, doubling,
    # splitting): every digit is the same as each analysed alone. From 2 decks every dealer
    # holding is analysed at once, from 1 deck one up card at a time: both share.
    for rules in (SMALL, replace(SMALL, decks=1, blackjack_beats_dealer_blackjack=True)):
        effects = rule_effects(rules)
        alone = [face_up_value(effect.value.rules) for effect in effects]
        assert [e.value.by_up_card for e in effects] == [v.by_up_card for v in alone]
        assert [e.value.expected_value for e in effects] == [v.expected_value for v in alone]
        assert {"blackjack_pays", "surrender", "double.on", "split.resplit_aces"} <= {
            effect.option for effect in effects
        }


def test_the_engines_face_up_strategy_is_valued_exactly_a_little_below_the_best_play() -> None:
    # The engine plays by the hand's total and the dealer's two-card total, computed for an
    # infinite shoe; the best play sees every card. The gap is the cards' composition, which
    # matters less the more decks there are.
    gaps = []
    for decks in (2, 8):
        rules = replace(SMALL, decks=decks)
        basic = base_game_value(rules, Play.BASIC)
        assert basic.play is Play.BASIC and "two-card total" in basic.as_dict()["conventions"][1]
        gaps.append(_value(rules) - basic.expected_value)
    assert 0 < gaps[1] < gaps[0] < 0.0005


def test_a_hands_values_against_one_up_card_are_not_given_for_the_variant() -> None:
    with pytest.raises(NotAnalysable, match="a variant's own play"):
        hand_values(COLORADO, [10, 6], 10)


def test_the_engines_rounds_agree_with_the_exact_value_within_four_standard_errors() -> None:
    # The engine plays its own face-up strategy (total-dependent, for an infinite shoe) from a
    # continuous shuffler (a full shoe each round): the exact value of that strategy.
    shoe = Shoe.shuffled(COLORADO.decks, 15, continuous=True)
    strategy = BasicStrategy(COLORADO)
    nets = []
    for _ in range(20_000):
        log = play_round(COLORADO, shoe, [SeatSpec({"main": Decimal(1)}, strategy)])
        nets.append(float(log.net(1)))
        shoe.end_round()
    error = statistics.stdev(nets) / len(nets) ** 0.5
    exact = base_game_value(COLORADO, Play.BASIC).expected_value
    assert abs(statistics.mean(nets) - exact) < 4 * error
