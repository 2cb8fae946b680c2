"""A side wager's figure by simulation, for a wager the engine cannot enumerate: seeded rounds
played through engine.round, the return of each line and the house edge with its standard error.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

from engine.round import MAIN, SeatSpec, play_round
from engine.rules import PaytableLine, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.sidewagers import SIDES
from engine.strategy import BasicStrategy

from .lines import Analysis, NotAnalysable, line_results, refuse_unless_odds


def simulate(
    wager: str,
    lines: Sequence[PaytableLine],
    rules: RuleSet,
    rounds: int,
    seed: int,
    jurisdiction: str | None = None,
) -> Analysis:
    """The paytable's return estimated by playing `rounds` seeded rounds of one seat under `rules`
    with the basic strategy for them, a unit on the main wager and on the side wager: for wagers
    decided by how the hand is played (the dealer's bust hand, the player's third card). The same
    seed gives the same figures.

    :raises NotAnalysable: a line paying a meter share or a dollar amount; a wager the cards do not
        decide.
    """
    for line in lines:
        refuse_unless_odds(line)
    side = SideWagerRules(wager, "analysed", tuple(lines))
    rules = replace(rules, side_wagers=(side,), jurisdiction=jurisdiction or rules.jurisdiction)
    shoe = Shoe.shuffled(rules.decks, seed, spanish=rules.spanish_decks)
    # a wager with sides (SIDES) bets the side the lines pay: each side is analysed apart
    bet = [s.name for s in SIDES.get(wager, ()) if any(line.outcome == s.outcome for line in lines)]
    sides = {wager: bet[0]} if bet else {}
    seats = [SeatSpec({MAIN: Decimal(1), wager: Decimal(1)}, BasicStrategy(rules), sides)]
    total, squares, lost, pushed = Fraction(0), Fraction(0), 0, 0
    hits: Counter[str] = Counter()
    for _ in range(rounds):
        log = play_round(rules, shoe, seats)
        shoe.end_round()
        settled = next(s for s in log.settlements if s.wager == wager)
        if settled.result == "not_settled":
            raise NotAnalysable(settled.rule)
        net = Fraction(settled.net)
        total += net
        squares += net * net
        lost += settled.result == "lose"
        pushed += settled.result == "push"
        hits.update(settled.outcomes)
    mean = total / rounds
    variance = squares / rounds - mean * mean
    return Analysis(
        wager,
        rules.decks,
        lines[0].column if lines else "",
        line_results(lines, hits, rounds),
        Fraction(lost, rounds),
        Fraction(pushed, rounds),
        -mean,
        f"{rounds:,} rounds dealt from a shuffled {rules.decks}-deck shoe (cut card at three "
        f"quarters), seed {seed}; one seat, basic strategy for the rules",
        rounds,
        method="simulation",
        standard_error=math.sqrt(variance / rounds),
    )
