"""The plain C simulation the simulator is timed against (benchmarks/reference_sim.c) plays the
very same game: built with the system compiler, fed the simulator's rules, shoe, random state and
strategy, it gives the same sums round for round; and its house edge agrees with the exact value
of that strategy within its standard error."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from benchmarks import reference
from engine.basegame import Play, base_game_value
from engine.rules import HoleCard, RuleSet, Surrender
from engine.simulate import simulate

BENCHMARKED = RuleSet(decks=6, surrender=Surrender.LATE)
"""6 decks, S17, DAS, late surrender, split to 4 hands: the benchmark's game."""


@pytest.fixture(scope="module")
def binary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return reference.build(tmp_path_factory.mktemp("reference"))


@pytest.mark.parametrize(
    "rules",
    [
        BENCHMARKED,
        replace(BENCHMARKED, dealer_hits_soft_17=True, hole_card=HoleCard.NONE),
        replace(BENCHMARKED, surrender=Surrender.EARLY, resplit_aces=True, decks=2),
    ],
    ids=["6D S17 DAS LS", "H17 no hole card", "early surrender RSA 2 decks"],
)
def test_the_c_reference_plays_the_same_rounds_as_the_simulator(
    binary: Path, rules: RuleSet, tmp_path: Path
) -> None:
    rounds = 200_000
    ours = simulate(rules, rounds, seed=11, chunk_rounds=rounds)
    theirs = reference.run(binary, rules, rounds, 11, tmp_path)
    assert theirs.result == ours
    assert theirs.seconds > 0


def test_the_c_references_house_edge_agrees_with_the_exact_value_of_its_strategy(
    binary: Path, tmp_path: Path
) -> None:
    rounds = 2_000_000
    theirs = reference.run(binary, BENCHMARKED, rounds, 5, tmp_path).result
    exact = base_game_value(BENCHMARKED, Play.BASIC).house_edge
    assert abs(float(theirs.house_edge) - exact) < 3 * theirs.standard_error
