"""The benchmarks of the engine's play: the logged rounds, the compiled simulator (against a plain
C simulation too), STREAK's simulation, a fresh process's first simulation."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import ROOT


def bench_engine_rounds(rounds: int = 20_000) -> None:
    """The logged engine: one seat, one hand, basic strategy, 6 decks, no side wagers."""
    from decimal import Decimal

    from engine.round import SeatSpec, play_round
    from engine.rules import RuleSet
    from engine.shoe import Shoe
    from engine.strategy import BasicStrategy

    rules = RuleSet()
    shoe, seats = Shoe.shuffled(6, 1), [SeatSpec({"main": Decimal(10)}, BasicStrategy(rules))]
    start = time.perf_counter()
    for _ in range(rounds):
        play_round(rules, shoe, seats)
        shoe.end_round()
    rate = rounds / (time.perf_counter() - start)
    print(
        f"engine, logged rounds (1 seat, basic strategy, 6 decks) over {rounds} rounds: "
        f"{rate:,.0f} rounds/s on one core  (target 50,000)"
    )


def bench_simulation(rounds: int = 20_000_000) -> None:
    """The compiled simulator (engine.simulate): one seat, one hand, basic strategy, 6 decks,
    doubles and splits as the rules allow, no side wagers; after a warm-up that compiles it (or
    loads numba's cache). CPU time of this process, so another process's load does not count."""
    from engine.rules import RuleSet
    from engine.simulate import simulate

    rules = RuleSet()
    start = time.perf_counter()
    simulate(rules, 1000, seed=0)
    warm_up = time.perf_counter() - start
    start = time.process_time()
    result = simulate(rules, rounds, seed=1)
    rate = rounds / (time.process_time() - start)
    print(
        f"simulated base-game rounds (1 seat, basic strategy, 6 decks, S17, 3 to 2) over "
        f"{rounds:,} rounds: {rate:,.0f} rounds/s on one core  (target 5,000,000; warm-up "
        f"{warm_up:.1f} s; house edge {float(result.house_edge):.4%} ± "
        f"{result.standard_error:.4%})"
    )
    simulate(rules, 1000, seed=0, continuous=True)
    start = time.process_time()
    result = simulate(rules, rounds, seed=1, continuous=True)
    rate = rounds / (time.process_time() - start)
    print(
        f"  the same from a continuous shuffler: {rate:,.0f} rounds/s on one core; house edge "
        f"{float(result.house_edge):.4%} ± {result.standard_error:.4%}"
    )


def bench_streak(rounds: int = 20_000_000) -> None:
    """STREAK's Standard Schedule simulated (engine.streak): rounds a second on one core, after a
    warm-up, and the time a paytable job's 10⁸ rounds a deck count takes at that rate."""
    from engine.odds import Pays
    from engine.rules import PaytableLine
    from engine.streak import MIN_ROUNDS, streak_analyses, streak_rules, streak_simulate

    rules = streak_rules("streak", 6)
    lengths = (2, 3, 4, 5)
    start = time.perf_counter()
    streak_simulate(rules, lengths, 1000, seed=0)
    warm_up = time.perf_counter() - start
    start = time.process_time()
    counts = streak_simulate(rules, lengths, rounds, seed=1)
    rate = counts.rounds / (time.process_time() - start)
    pays = ("3 to 1", "7 to 1", "17 to 1", "37 to 1")
    keys = ("two-wins", "three-wins", "four-wins", "five-wins")
    lines = [PaytableLine(k, Pays.parse(p), k, "") for k, p in zip(keys, pays, strict=True)]
    spots = streak_analyses("streak", lines, counts, rules, seed=1)
    edges = ", ".join(f"{float(a.house_edge):.2%} ± {a.standard_error:.2%}" for a in spots)
    print(
        f"STREAK simulated (6 decks, S17, Standard Schedule) over {counts.rounds:,} rounds: "
        f"{rate:,.0f} rounds/s on one core (warm-up {warm_up:.1f} s); {MIN_ROUNDS:,} rounds a "
        f"deck count in {MIN_ROUNDS / rate:.1f} s; 2-5 win spots {edges}"
    )


def bench_simulation_vs_c(rounds: int = 5_000_000, runs: int = 5) -> None:
    """The compiled simulator against a plain C simulation of the same game (6 decks, S17, DAS,
    late surrender, split to 4 hands, basic strategy; benchmarks/reference_sim.c built with
    cc -O2), both on one core: this process is pinned to the first CPU it may use and the C
    program inherits it. Both play the same rounds from the same random numbers (the sums must be
    equal); `runs` alternating runs of each, CPU time of the simulation loop, medians."""
    from benchmarks import reference
    from engine.basegame import Play, base_game_value
    from engine.rules import RuleSet, Surrender
    from engine.simulate import simulate

    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules = RuleSet(decks=6, surrender=Surrender.LATE)
    simulate(rules, 1000, seed=0)  # compile or load numba's cache
    numba_rates, c_rates = [], []
    with tempfile.TemporaryDirectory() as directory:
        binary = reference.build(Path(directory))
        for seed in range(1, runs + 1):
            start = time.process_time()
            ours = simulate(rules, rounds, seed=seed, chunk_rounds=rounds)
            numba_rates.append(rounds / (time.process_time() - start) / 1e6)
            theirs = reference.run(binary, rules, rounds, seed, Path(directory))
            c_rates.append(rounds / theirs.seconds / 1e6)
            assert theirs.result == ours, "the C reference played other rounds"
    x, y = statistics.median(numba_rates), statistics.median(c_rates)
    exact = base_game_value(rules, Play.BASIC).house_edge  # the strategy both play
    print(
        f"simulator: {x:.2f} M rounds/s, C reference: {y:.2f} M rounds/s, ratio {x / y:.2f} "
        f"(target ≥ 1.0)  (6D S17 DAS LS, one core, medians of {runs} runs of {rounds:,} rounds; "
        f"both played the same rounds: house edge {float(ours.house_edge):.4%} ± "
        f"{ours.standard_error:.4%} in both; exact for that strategy {exact:.4%})"
    )


def bench_first_simulation() -> None:
    """A fresh Python process's first simulation (1,000 rounds), numba's cache warm: this
    process runs one first, which compiles it or loads the cache."""
    import subprocess

    from engine.rules import RuleSet
    from engine.simulate import simulate

    simulate(RuleSet(), 1000, seed=0)
    child = (
        "import time; start = time.perf_counter()\n"
        "from engine.rules import RuleSet\n"
        "from engine.simulate import simulate\n"
        "imported = time.perf_counter()\n"
        "simulate(RuleSet(), 1000, seed=0)\n"
        "print(imported - start, time.perf_counter() - imported)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, check=True
    )
    imports, first = (float(x) for x in out.stdout.split())
    print(
        f"first simulation after start (a fresh process, numba's cache warm): {first:.2f} s  "
        f"(target < 1 s; importing the engine {imports:.2f} s before it)"
    )
