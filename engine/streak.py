"""The consecutive-wins wagers, estimated by simulation: STREAK (30-899.07, MA 22) and Blackjack
Burnout's Bonus wager (30-899.25 Bonus Wager). Each spot ("2", "3", … consecutive wins) is its own
wager: won when the seat wins that many hands of the main game in a row, lost at the first hand
lost; a push neither advances nor ends the streak (30-899.07(7), Bonus Wager (3)); a round of
split hands advances it where the seat wins more of them than it loses, ends it where it loses
more, and is a push where it wins as many as it loses, a pushed split hand counting neither way
(30-899.07(8), Bonus Wager (2), read as MA 22(h) says: fixtures/annotations.yaml); a
surrender ends it (30-899.07(5)(a)); even money, taken or not, advances it unless the dealer has
blackjack (30-899.07(5)(b)(iii), Bonus Wager (5)).

Why no exact figure: the wager is settled over several rounds dealt from one shoe, which are not
independent (the cards of one round are gone from the next), and a split round's result needs the
split hands' joint outcomes, which the base game's analysis (engine.basegame: expected values)
does not give. So the compiled simulator (engine.simulate, its `one_round`) plays the base game
round after round with the basic strategy for the rules, from a shoe cut at three quarters (or a
continuous shuffler), and each spot is a player who places that wager again as soon as the last
one is settled. A spot's return is the wagers won over the wagers settled: a decimal with its
standard error, never a fraction to take as exact.
"""

from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from engine.analysis import Analysis, LineResult, NotAnalysable, line_win, refuse_unless_odds
from engine.rules import PaytableLine, RuleSet
from engine.simulate import (
    CHUNK_ROUNDS,
    PENETRATION,
    chunk_sizes,
    chunk_state,
    scripted,
)
from engine.simulate.arrays import composition, kernel_arrays, units_per_wager
from engine.simulate.kernel import MAX_HANDS, NO_REFCOUNT, SHUFFLE, one_round, reseed, shuffle

STREAK_WAGERS: dict[str, dict[str, int]] = {
    "streak": {"two-wins": 2, "three-wins": 3, "four-wins": 4, "five-wins": 5},
    "burnout-bonus": {"2-consecutive-wins": 2, "3-consecutive-wins": 3, "4-consecutive-wins": 4},
}
"""Catalog slug → its spots: the outcome key of each line and the wins in a row it needs."""

MIN_ROUNDS = 100_000_000
"""Rounds a deck count a paytable's simulation plays by default, and the fewest for a figure to
file (issue 13: 10⁸, or until the standard error is below 0.01 %); fewer give a preview, which
the result marks (`rounds_below_minimum`)."""

ADVANCE, END, PUSH = "advance", "end", "push"

_RULES: dict[str, dict[str, Any]] = {
    # 30-899.25(4)(b): any pair but aces split up to four times (five hands, as the catalog reads
    # it: fixtures/annotations.yaml), aces once; (4)(c) double on any first two cards
    "burnout-bonus": {"max_split_hands": 5, "resplit_aces": False},
}
_CONVENTIONS = {
    "streak": "the standard game (30-899.07, MA 22: standard rules of blackjack)",
    "burnout-bonus": "Blackjack Burnout's rules (30-899.25(4)); the player pays no Burnout fee "
    "(no card burned)",
}


def rules_text(rules: RuleSet) -> str:
    """The main game's rules a simulation plays, in words."""
    return (
        f"blackjack {rules.blackjack_pays.numerator} to {rules.blackjack_pays.denominator}, the "
        f"dealer peeking for blackjack, doubling on any first two cards and after splits, "
        f"pairs split to {rules.max_split_hands} hands (aces once, one card each), no surrender"
    )


def streak_class(score: int) -> str:
    """A round's effect on a streak from the hands the seat won less the hands it lost."""
    return ADVANCE if score > 0 else END if score < 0 else PUSH


def scripted_class(rules: RuleSet, values: list[Any]) -> str:
    """A round dealt from the cards given in order (engine.simulate.scripted): its effect on a
    streak. For checking the kernel against engine.round.play_round on the same cards."""
    return streak_class(scripted(rules, values)[2])


def streak_rules(wager: str, decks: int, hits_soft_17: bool = False) -> RuleSet:
    """The main game the wager's streak is won on."""
    if wager not in STREAK_WAGERS:
        raise NotAnalysable(f"{wager} is not a consecutive-wins wager")
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    return replace(rules, **_RULES.get(wager, {}))


@dataclass(frozen=True)
class StreakCounts:
    """A simulation's integer counts: rounds by their effect on a streak, and for each spot
    (`lengths`) the wagers settled and won."""

    lengths: tuple[int, ...]
    rounds: int
    advanced: int
    ended: int
    pushed: int
    settled: tuple[int, ...]
    won: tuple[int, ...]
    chunks: int = 1

    def __add__(self, other: StreakCounts) -> StreakCounts:
        if other.lengths != self.lengths:
            raise ValueError("counts of different spots do not add")
        return StreakCounts(
            self.lengths,
            self.rounds + other.rounds,
            self.advanced + other.advanced,
            self.ended + other.ended,
            self.pushed + other.pushed,
            tuple(a + b for a, b in zip(self.settled, other.settled, strict=True)),
            tuple(a + b for a, b in zip(self.won, other.won, strict=True)),
            self.chunks + other.chunks,
        )

    def as_json(self) -> dict[str, Any]:
        """Integers as strings (JSON numbers may lose digits)."""
        return {
            "lengths": list(self.lengths),
            "rounds": str(self.rounds),
            "advanced": str(self.advanced),
            "ended": str(self.ended),
            "pushed": str(self.pushed),
            "settled": [str(n) for n in self.settled],
            "won": [str(n) for n in self.won],
            "chunks": str(self.chunks),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StreakCounts:
        return cls(
            tuple(int(n) for n in data["lengths"]),
            int(data["rounds"]),
            int(data["advanced"]),
            int(data["ended"]),
            int(data["pushed"]),
            tuple(int(n) for n in data["settled"]),
            tuple(int(n) for n in data["won"]),
            int(data["chunks"]),
        )


@numba.njit(**NO_REFCOUNT)
def _streak_rounds(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    shoe: npt.NDArray[np.int8],
    cards: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    deal_s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    lengths: npt.NDArray[np.int64],
    progress: npt.NDArray[np.int64],
    by_net: bool,
    out: npt.NDArray[np.int64],
    h_total: npt.NDArray[np.int64],
    h_cards: npt.NDArray[np.int64],
    h_stake: npt.NDArray[np.int64],
    h_state: npt.NDArray[np.int64],
    h_bonus: npt.NDArray[np.int64],
    h_first: npt.NDArray[np.int64],
) -> None:
    """Rounds of rule set 0, from the shoe as engine.simulate._rounds deals them, each spot's
    wager advanced, settled and placed again; after `rounds` rounds, on until no spot has a win
    pending, so every wager counted is settled. out: rounds, advanced, ended, pushed, then for
    each spot its wagers settled and won. `by_net`: a round counted by its net instead (see
    `streak_chunk`)."""
    spots = lengths.size
    pos = 0
    played = 0
    pending = 0
    while played < rounds or pending > 0:
        if dealt is not None:
            for i in range(shoe.size):
                cards[i] = shoe[i]
            pos = 0
            dealt[0] = 0
            reseed(deal_s, s)
        net, pos, score = one_round(
            cards,
            pos,
            deal_s,
            SHUFFLE,
            params,
            strategies,
            None,
            None,
            0,
            h_total,
            h_cards,
            h_stake,
            h_state,
            h_bonus,
            h_first,
            dealt,
        )
        played += 1
        pending = 0
        if by_net:
            score = net
        if score > 0:
            out[1] += 1
            for j in range(spots):
                at = np.uint64(j)
                progress[at] += 1
                if progress[at] == lengths[at]:
                    out[4 + 2 * at] += 1
                    out[5 + 2 * at] += 1
                    progress[at] = 0
                pending += progress[at]
        elif score < 0:
            out[2] += 1
            for j in range(spots):
                at = np.uint64(j)
                out[4 + 2 * at] += 1
                progress[at] = 0
        else:
            out[3] += 1
            for j in range(spots):
                pending += progress[np.uint64(j)]
        if dealt is None and pos >= cut:
            shuffle(cards, s)
            pos = 0
    out[0] += played


@numba.njit(cache=True)
def _streak_run(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    shoe: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    lengths: npt.NDArray[np.int64],
    by_net: bool,
    out: npt.NDArray[np.int64],
) -> None:
    """`_streak_rounds` from a freshly shuffled shoe (the arrays it needs made here)."""
    cards = shoe.copy()
    shuffle(cards, s)
    deal_s = s
    if dealt is not None:
        deal_s = s.copy()
    hands = [np.zeros(MAX_HANDS, dtype=np.int64) for _ in range(6)]
    progress = np.zeros(lengths.size, dtype=np.int64)
    _streak_rounds(
        params,
        strategies,
        shoe,
        cards,
        s,
        deal_s,
        rounds,
        cut,
        dealt,
        lengths,
        progress,
        by_net,
        out,
        hands[0],
        hands[1],
        hands[2],
        hands[3],
        hands[4],
        hands[5],
    )


def streak_chunk(
    rules: RuleSet,
    lengths: tuple[int, ...],
    rounds: int,
    seed: int,
    chunk_index: int,
    continuous: bool = False,
    by_net: bool = False,
) -> StreakCounts:
    """Chunk `chunk_index` of a seeded simulation of the spots `lengths`: at least `rounds`
    rounds from a fresh shoe (or a continuous shuffler); the same seed and index, the same
    counts. `by_net` counts a round by the money it nets instead of by its hands won and lost
    (a split hand won doubled against one lost: advanced, not a push), as the Wizard of Odds'
    STREAK analysis does: for checking against it, not the rules' count."""
    params, strategies, bonus, _doubled = kernel_arrays([rules], units_per_wager(rules))
    if bonus is not None:
        raise NotAnalysable("the consecutive-wins wagers are played on the standard game")
    shoe = composition(rules)
    out = np.zeros(4 + 2 * len(lengths), dtype=np.int64)
    dealt = np.zeros(1, dtype=np.int64) if continuous else None
    cut = int(shoe.size * PENETRATION)
    spots = np.array(lengths, dtype=np.int64)
    state = chunk_state(seed, chunk_index)
    _streak_run(params, strategies, shoe, state, rounds, cut, dealt, spots, by_net, out)
    return StreakCounts(
        tuple(lengths),
        int(out[0]),
        int(out[1]),
        int(out[2]),
        int(out[3]),
        tuple(int(out[4 + 2 * j]) for j in range(len(lengths))),
        tuple(int(out[5 + 2 * j]) for j in range(len(lengths))),
    )


def streak_simulate(
    rules: RuleSet,
    lengths: tuple[int, ...],
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    continuous: bool = False,
) -> StreakCounts:
    """Every chunk of a simulation, in-process (a job runs them as Celery tasks)."""
    return functools.reduce(
        operator.add,
        (
            streak_chunk(rules, lengths, n, seed, index, continuous)
            for index, n in enumerate(chunk_sizes(rounds, chunk_rounds))
        ),
    )


def dealing_text(rules: RuleSet, continuous: bool) -> str:
    if continuous:
        return f"{rules.decks} decks in a continuous shuffler: every round dealt from all the cards"
    return f"{rules.decks} decks shuffled, cut card after 3/4 of the cards, rounds dealt in turn"


def streak_analyses(
    wager: str,
    lines: list[PaytableLine],
    counts: StreakCounts,
    rules: RuleSet,
    *,
    seed: int,
    continuous: bool = False,
) -> list[Analysis]:
    """Each spot of a paytable column as its own wager: the wagers won over those settled, the
    return, and its standard error (the wagers' nets are independent draws but for the shoe they
    share: the error is that of their mean).

    :raises NotAnalysable: a line that is not one of the wager's spots, or pays no odds; a spot the
        counts do not hold.
    """
    spots = STREAK_WAGERS[wager]
    results = []
    for line in lines:
        refuse_unless_odds(line)
        if line.outcome not in spots:
            raise NotAnalysable(f"{wager} has no spot {line.outcome!r}")
        length = spots[line.outcome]
        if length not in counts.lengths:
            raise NotAnalysable(f"the simulation did not play the {length}-win spot")
        at = counts.lengths.index(length)
        settled, won = counts.settled[at], counts.won[at]
        if settled == 0:
            raise NotAnalysable("the simulation settled no wager")
        p = Fraction(won, settled)
        win = line_win(line)
        edge = 1 - p * (win + 1)
        error = float(win + 1) * math.sqrt(float(p * (1 - p)) / settled)
        results.append(
            Analysis(
                wager,
                rules.decks,
                f"{line.column}: {line.label}" if line.column else line.label,
                (LineResult(line.outcome, line.label, str(line.pays), p, p * win, won),),
                1 - p,
                Fraction(0),
                edge,
                f"{counts.rounds:,} rounds ({dealing_text(rules, continuous)}), seed {seed}; "
                f"each spot's wager placed again as soon as the last is settled; one seat, basic "
                f"strategy for {_CONVENTIONS[wager]}: {rules_text(rules)}; insurance and even "
                f"money declined (even money would advance the streak alike)",
                settled,
                method="simulation",
                standard_error=error,
            )
        )
    return results
