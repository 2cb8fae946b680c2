"""python -m engine.warm — compile the engine's numba functions into their on-disk caches.

The simulator's kernel (engine.simulate.kernel), the streak kernel (engine.streak) and the
dealer's odds (engine.dealer_odds) are compiled with `cache=True`: the first call of each type
signature compiles it (the kernel's four take a minute or more of CPU together) and writes it to
the `__pycache__` beside its source, where every later process finds it. Run once before the
tests of a fresh clone (`make test` runs it beside the lint gates, on the core they leave idle),
and the test processes load what they need instead of compiling it in the tests' time.

Each signature the apps call: the standard game and Spanish 21 (Bonus 21 arrays, else None), from
a shoe and from a continuous shuffler (its dealt-cards array, else None), a round from scripted
cards (one_round called on its own), the streak kernel from a shoe and a shuffler, the dealer's
odds. Tiny runs: only the compiling costs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from engine.dealer_odds import dealer_odds
from engine.rules import DoubleOn, RuleSet, Surrender
from engine.simulate import scripted_round, simulate
from engine.streak import STREAK_WAGERS, streak_chunk, streak_rules

SPANISH_21 = RuleSet(
    decks=6,
    spanish_decks=True,
    blackjack_beats_dealer_blackjack=True,
    player_21_wins=True,
    bonus_21=(("678-spades", Fraction(3)), ("5-card", Fraction(3, 2))),
    double_on=DoubleOn.ANY_TIME,
    rescue=True,
    resplit_aces=True,
    split_aces_one_card=False,
    surrender=Surrender.LATE,
    envy_bonus=Decimal(0),
)
"""A Spanish 21 game the simulator plays (its Bonus 21 compiled in)."""


PARTS = ("standard", "spanish")
"""What `warm` compiles, in two parts of about the same CPU (one a process, on two cores):
the standard game's signatures with the streak kernel and the dealer's odds (about 75 s of
CPU here), Spanish 21's (about 60 s)."""


def warm(parts: Sequence[str] = PARTS) -> list[tuple[str, float]]:
    """Call each compiled function of `parts` once per signature; (what, seconds) for each."""
    timings: list[tuple[str, float]] = []

    def timed(what: str, call: Callable[..., object], *args: Any, **kwargs: Any) -> None:
        start = time.perf_counter()
        call(*args, **kwargs)
        timings.append((what, time.perf_counter() - start))

    games = {"standard": RuleSet(), "spanish": SPANISH_21}
    for name in parts:
        rules = games[name]
        timed(f"{name}, shoe", simulate, rules, 100, seed=1)
        timed(f"{name}, shuffler", simulate, rules, 100, seed=1, continuous=True)
        timed(f"{name}, scripted", scripted_round, rules, [10, 10, 7, 10] + [5] * 20)
    if "standard" in parts:
        streak = streak_rules(next(iter(STREAK_WAGERS)), 6)
        timed("streak, shoe", streak_chunk, streak, (1, 2), 100, 1, 0)
        timed("streak, shuffler", streak_chunk, streak, (1, 2), 100, 1, 0, continuous=True)
        shoe = np.array([[24] * 9 + [96]])
        timed("dealer odds", dealer_odds, shoe, hits_soft_17=False)
    return timings


if __name__ == "__main__":
    parts = sys.argv[1:] or PARTS
    if not set(parts) <= set(PARTS):
        sys.exit(f"usage: python -m engine.warm [{' | '.join(PARTS)}]...")
    started = time.perf_counter()
    for what, seconds in warm(parts):
        print(f"engine.warm: {what} {seconds:.1f} s")
    print(f"engine.warm: {' and '.join(parts)} ready in {time.perf_counter() - started:.1f} s")
