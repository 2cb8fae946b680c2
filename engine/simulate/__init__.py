"""Fast simulation of the base game: one seat, one hand, the basic strategy computed for the rule
set (engine.strategy.BasicStrategy), compiled with numba.

Each round is played as engine.round.play_round plays it for such a seat — the same deal order,
decisions, splits, doubles, surrender, peek or no hole card, and settlement — but without a log,
on card values in a numpy array. Shoes are shuffled with a cut card after 3/4 of the cards and
reshuffled after the round that reaches it (or during a round that runs out of cards); a
continuous shuffler deals every round from all the cards.

Exact sums: every round's net result is an integer number of units of 1/`units_per_wager` of the
wager (tenths for 3 to 2 and 6 to 5), and the sums of the results and of their squares are
integers, so the house edge is an exact fraction of the sums and the standard error is computed
from exact sums.


Reproducible: a simulation is split into chunks of `chunk_rounds` rounds; chunk i draws its
shuffles from numpy's SeedSequence([seed, i]), so the same seed and chunk size give the same
result however the chunks are run (in-process or by Celery workers) and in whatever order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender

from .arrays import (
    BONUS_HANDS,
    NOT_SIMULATED,
    SIMULATED_RULES,
    SPANISH_RULES,
    SUITS,
    NotSimulable,
    bonus_array,
    card_code,
    check_same_shoe,
    check_simulable,
    composition,
    decision_array,
    doubled_array,
    kernel_arrays,
    rule_params,
    rules_as_dict,
    rules_from_dict,
    spanish,
    strategy_array,
    units_per_wager,
)
from .kernel import MAX_HANDS, REFERENCE_PARAMS, SCRIPTED, one_round, run
from .results import EffectResult, EffectsResult, SimulationResult, Variation

__all__ = [
    "BONUS_HANDS",
    "CHUNK_ROUNDS",
    "MAX_HANDS",
    "METHOD",
    "NOT_SIMULATED",
    "PENETRATION",
    "REFERENCE_PARAMS",
    "SIMULATED_RULES",
    "SPANISH_RULES",
    "SUITS",
    "EffectResult",
    "EffectsResult",
    "NotSimulable",
    "SimulationResult",
    "Variation",
    "bonus_array",
    "card_code",
    "check_simulable",
    "chunk_sizes",
    "chunk_state",
    "combine",
    "composition",
    "decision_array",
    "doubled_array",
    "effects_chunk",
    "rule_effects",
    "rule_params",
    "rules_as_dict",
    "rules_from_dict",
    "scripted",
    "scripted_round",
    "simulate",
    "simulate_chunk",
    "strategy_array",
    "units_per_wager",
    "variations",
]

CHUNK_ROUNDS = 1_000_000
"""Rounds per seeded chunk, unless a caller asks for another size."""
PENETRATION = Fraction(3, 4)
"""Where the cut card sits, as in engine.shoe.Shoe.shuffled."""
METHOD = "simulation, basic strategy computed for the rules"


def chunk_sizes(rounds: int, chunk_rounds: int = CHUNK_ROUNDS) -> list[int]:
    """The rounds of each chunk of a simulation of `rounds` rounds."""
    if rounds < 1 or chunk_rounds < 1:
        raise ValueError("rounds and chunk_rounds must be at least 1")
    full, rest = divmod(rounds, chunk_rounds)
    return [chunk_rounds] * full + ([rest] if rest else [])


def chunk_state(seed: int, chunk_index: int) -> npt.NDArray[np.uint64]:
    """Chunk `chunk_index`'s random state: numpy's SeedSequence([seed, chunk_index])."""
    sequence = np.random.SeedSequence([seed, chunk_index])
    state = cast(npt.NDArray[np.uint64], sequence.generate_state(4, dtype=np.uint64))
    if not state.any():  # xoshiro's one forbidden state; SeedSequence never gives it in practice
        state[0] = 1
    return state


def _play(
    variants: list[RuleSet], rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> npt.NDArray[np.int64]:
    check_same_shoe(variants)
    units = max(units_per_wager(r) for r in variants)
    rules = kernel_arrays(variants, units)
    shoe = composition(variants[0])
    out = np.zeros((len(variants), 4), dtype=np.int64)
    cut = int(shoe.size * PENETRATION)
    dealt = np.zeros(1, dtype=np.int64) if continuous else None
    run(*rules, shoe, chunk_state(seed, chunk_index), rounds, cut, dealt, out)
    return out


def simulate_chunk(
    rules: RuleSet, rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> SimulationResult:
    """Chunk `chunk_index` of a seeded simulation: `rounds` rounds from a fresh shoe (or from a
    continuous shuffler)."""
    out = _play([rules], rounds, seed, chunk_index, continuous)
    return SimulationResult(
        rounds, int(out[0, 0]), int(out[0, 1]), Fraction(1, units_per_wager(rules))
    )


def combine(results: Iterable[SimulationResult]) -> SimulationResult:
    """The sums of chunks' results (in any order: addition of integers)."""
    total: SimulationResult | None = None
    for result in results:
        total = result if total is None else total + result
    if total is None:
        raise ValueError("no results to combine")
    return total


def simulate(
    rules: RuleSet,
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    continuous: bool = False,
) -> SimulationResult:
    """The base game's house edge under `rules` by simulating `rounds` rounds, in-process, dealt
    from a shoe with a cut card or from a continuous shuffler."""
    return combine(
        simulate_chunk(rules, n, seed, i, continuous)
        for i, n in enumerate(chunk_sizes(rounds, chunk_rounds))
    )


def variations(rules: RuleSet) -> list[Variation]:
    """Each rule option the simulation can change, changed one at a time from `rules`."""
    out = []

    def add(option: str, base: Any, changed: Any, **change: Any) -> None:
        out.append(Variation(option, _text(base), _text(changed), replace(rules, **change)))

    bj = rules.blackjack_pays
    other = Fraction(6, 5) if bj == Fraction(3, 2) else Fraction(3, 2)
    add("blackjack_pays", rules.blackjack_odds, f"{other.numerator} to {other.denominator}",
        blackjack_pays=other)  # fmt: skip
    h17 = rules.dealer_hits_soft_17
    add("dealer_soft_17", "hit" if h17 else "stand", "stand" if h17 else "hit",
        dealer_hits_soft_17=not h17)  # fmt: skip
    surrender = Surrender.LATE if rules.surrender is Surrender.NONE else Surrender.NONE
    add("surrender", rules.surrender.value, surrender.value, surrender=surrender)
    das = rules.double_after_split
    add("double.after_split", das, not das, double_after_split=not das)
    double_on = DoubleOn.TEN_ELEVEN if rules.double_on is DoubleOn.ANY_TWO else DoubleOn.ANY_TWO
    add("double.on", rules.double_on.value, double_on.value, double_on=double_on)
    hands = 2 if rules.max_split_hands > 2 else 4
    add("split.max_hands", rules.max_split_hands, hands, max_split_hands=hands)
    if max(rules.max_split_hands, hands) > 2:
        rsa = rules.resplit_aces
        add("split.resplit_aces", rsa, not rsa, resplit_aces=not rsa)
    sa1 = rules.split_aces_one_card
    add("split.split_aces_one_card", sa1, not sa1, split_aces_one_card=not sa1)
    hole = HoleCard.NONE if rules.hole_card is HoleCard.PEEK else HoleCard.PEEK
    add("hole_card", rules.hole_card.value, hole.value, hole_card=hole)
    two21 = rules.two_card_21_beats_dealer_21
    add("two_card_21_beats_dealer_21", two21, not two21, two_card_21_beats_dealer_21=not two21)
    return out


def _text(value: Any) -> str:
    """An option's value as the configuration writes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def effects_chunk(
    rules: RuleSet, rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> EffectsResult:
    """Chunk `chunk_index` of the base rules and each variation, played on the same cards. The
    base's sums equal simulate_chunk's for the same arguments."""
    changes = variations(rules)
    variants = [rules] + [v.rules for v in changes]
    out = _play(variants, rounds, seed, chunk_index, continuous)
    common, own = max(units_per_wager(r) for r in variants), units_per_wager(rules)
    scale = Fraction(own, common)  # the base's sums in its own units, as simulate_chunk gives
    total, squares = int(out[0, 0]) * scale, int(out[0, 1]) * scale**2
    assert total.denominator == squares.denominator == 1
    base = SimulationResult(rounds, int(total), int(squares), Fraction(1, own))
    unit = Fraction(1, common)
    return EffectsResult(
        base,
        tuple(
            EffectResult(
                change,
                SimulationResult(rounds, int(row[0]), int(row[1]), unit),
                int(row[2]),
                int(row[3]),
            )
            for change, row in zip(changes, out[1:], strict=True)
        ),
    )


def rule_effects(
    rules: RuleSet,
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    continuous: bool = False,
) -> EffectsResult:
    """The house edge under `rules` and the change each rule option makes to it, with standard
    errors, all played on the same cards (common random numbers)."""
    total: EffectsResult | None = None
    for i, n in enumerate(chunk_sizes(rounds, chunk_rounds)):
        chunk = effects_chunk(rules, n, seed, i, continuous)
        total = chunk if total is None else total + chunk
    assert total is not None
    return total


def scripted_round(rules: RuleSet, values: list[int | Card]) -> tuple[Fraction, int]:
    """One round dealt from the cards given in order, as Cards or as values (ace 1, ten-value 10;
    read as spades): the player's net in wagers and how many cards the round took. For checking
    the kernel against engine.round.play_round on the same cards.

    :raises ValueError: the cards ran out.
    """
    net, used, _score = scripted(rules, values)
    return net, used


def scripted(rules: RuleSet, values: list[int | Card]) -> tuple[Fraction, int, int]:
    """`scripted_round`, and the hands the seat won less the hands it lost (engine.streak)."""
    units = units_per_wager(rules)
    arrays = kernel_arrays([rules], units)
    hands = [np.zeros(MAX_HANDS, dtype=np.int64) for _ in range(6)]
    suited = spanish(rules)
    codes = [(card_code(v) if suited else v.value) if isinstance(v, Card) else v for v in values]
    cards = np.array(codes, dtype=np.int8)
    state = np.ones(4, dtype=np.uint64)
    net, used, score = one_round(cards, 0, state, SCRIPTED, *arrays, 0, *hands, None)
    return Fraction(int(net), units), int(used), int(score)
