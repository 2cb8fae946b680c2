"""The plain C simulation (benchmarks/reference_sim.c) the numba simulator is timed against:
built with the system compiler, fed the rules, the random state, the shoe and the strategy table
engine.simulate plays, so that both play the very same rounds (issue #15)."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from engine.rules import RuleSet
from engine.simulate import (
    PENETRATION,
    REFERENCE_PARAMS,
    SimulationResult,
    chunk_state,
    composition,
    rule_params,
    strategy_array,
    units_per_wager,
)

SOURCE = Path(__file__).resolve().parent / "reference_sim.c"


def build(directory: Path) -> Path:
    """Compile reference_sim.c with the system compiler (cc -O2) into `directory`.

    :raises RuntimeError: no C compiler."""
    compiler = shutil.which("cc")
    if compiler is None:
        raise RuntimeError("no C compiler (cc) to build the reference simulation")
    binary = Path(directory) / "reference_sim"
    subprocess.run([compiler, "-O2", "-o", str(binary), str(SOURCE)], check=True)
    return binary


def reference_input(rules: RuleSet, rounds: int, seed: int) -> str:
    """The C program's input: what engine.simulate.simulate(rules, rounds, seed,
    chunk_rounds=rounds) plays (one chunk: chunk 0's random state), for the standard game (its
    shoe is card values, as the C program reads them)."""
    units = units_per_wager(rules)
    shoe = composition(rules)
    numbers = [
        *rule_params(rules, units)[:REFERENCE_PARAMS].tolist(),
        rounds,
        int(shoe.size * PENETRATION),
        *(int(w) for w in chunk_state(seed, 0)),
        int(shoe.size),
        *shoe.tolist(),
        *np.ravel(strategy_array(rules)).tolist(),
    ]
    return " ".join(str(n) for n in numbers) + "\n"


@dataclass(frozen=True)
class ReferenceRun:
    result: SimulationResult
    seconds: float
    """CPU time of the C program's simulation loop."""


def run(binary: Path, rules: RuleSet, rounds: int, seed: int, directory: Path) -> ReferenceRun:
    """Play `rounds` rounds with the C reference."""
    path = Path(directory) / "reference_input.txt"
    path.write_text(reference_input(rules, rounds, seed))
    out = subprocess.run([str(binary), str(path)], capture_output=True, text=True, check=True)
    played, total, squares, seconds = out.stdout.split()
    unit = Fraction(1, units_per_wager(rules))
    result = SimulationResult(int(played), int(total), int(squares), unit)
    return ReferenceRun(result, float(seconds))
