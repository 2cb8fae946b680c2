"""The records of an exact analysis (Analysis, LineResult) and what every analysis does with a
paytable's lines: tally the ways each set of lines is paid, each line's probability and return
per unit, the deals by their net, and the refusal of a line whose return is not a ratio.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.cards import EngineError
from engine.odds import Basis
from engine.rules import PaytableLine
from engine.sidewagers import NOT_DECIDED_BY_CARDS, PUSH


class NotAnalysable(EngineError):
    """The engine has no exact analysis for this wager or paytable."""


@dataclass(frozen=True)
class LineResult:
    outcome: str
    label: str
    pays: str
    probability: Fraction
    returns: Fraction
    """probability × what the line wins per unit staked."""
    combinations: int = 0
    """Deals (or rounds played) that pay the line: probability × the analysis' combinations."""


@dataclass(frozen=True)
class Analysis:
    wager: str
    decks: int
    column: str
    lines: tuple[LineResult, ...]
    lose_probability: Fraction
    push_probability: Fraction
    """The wager returned (Pocket Rockets' blackjack against a dealer blackjack)."""
    house_edge: Fraction
    card_removal: str
    combinations: int
    """Deals counted (exact), or rounds played (simulation)."""
    method: str = "exact"
    standard_error: float | None = None
    """Of the house edge, where it is estimated by simulation."""
    nets: tuple[tuple[Fraction, int], ...] = ()
    """Exact analyses: the deals counted by what they net per unit staked (-1 lost, 0 returned,
    the sum of the lines paid otherwise), for the variance; highest first."""


def tally(by_keys: Mapping[tuple[str, ...], int]) -> tuple[dict[str, int], int, int]:
    """From the ways of each set of lines paid (paid_from's answer; () lost, (PUSH,) returned):
    the ways each line is paid, the ways the wager loses and the ways it is pushed."""
    paid: dict[str, int] = {}
    lose = push = 0
    for keys, n in by_keys.items():
        if not keys:
            lose += n
        for key in keys:
            if key == PUSH:
                push += n
            else:
                paid[key] = paid.get(key, 0) + n
    return paid, lose, push


def line_results(
    lines: Sequence[PaytableLine], paid: Mapping[str, int], total: int
) -> tuple[LineResult, ...]:
    """Each line's probability (deals or rounds paying it, out of `total`) and return per unit."""
    results = []
    for line in lines:
        probability = Fraction(paid.get(line.outcome, 0), total)
        win = line_win(line)
        results.append(
            LineResult(
                line.outcome,
                line.label,
                str(line.pays),
                probability,
                probability * win,
                paid.get(line.outcome, 0),
            )
        )
    return tuple(results)


def line_win(line: PaytableLine) -> Fraction:
    """What the line wins per unit staked: a push line (30-2115¶3 TRI-05's Pair) wins nothing; a
    line printed as "Loss" (21+3 Progressive's Flush, 30-2107; Rocket Aces' "All other hands",
    30-899.29(2); MA 19(n)) loses the unit, as a round settles it."""
    if line.pays.basis is Basis.PUSH:
        return Fraction(0)
    if line.pays.basis is Basis.LOSS:
        return Fraction(-1)
    ratio = line.pays.ratio
    assert ratio is not None  # odds (to or for): refuse_unless_odds let nothing else through
    return ratio - (1 if line.pays.basis is Basis.FOR else 0)


def counted(
    wager: str,
    decks: int,
    lines: Sequence[PaytableLine],
    by_keys: Mapping[tuple[str, ...], int],
    total: int,
    card_removal: str,
) -> Analysis:
    """The analysis of a paytable from the ways each set of its lines is paid (`by_keys`, out of
    `total`): each line's probability and return, the loss, the push and the house edge."""
    paid, lose, push = tally(by_keys)
    results = line_results(lines, paid, total)
    return Analysis(
        wager,
        decks,
        lines[0].column if lines else "",
        results,
        Fraction(lose, total),
        Fraction(push, total),
        Fraction(lose, total) - sum((r.returns for r in results), Fraction(0)),
        card_removal,
        total,
        nets=net_counts(by_keys, lines),
    )


def net_counts(
    paid: Mapping[tuple[str, ...], int], lines: Sequence[PaytableLine]
) -> tuple[tuple[Fraction, int], ...]:
    """The deals counted by their net per unit staked, from the deals counted by the lines they
    pay: no line (and no push) loses the unit; a deal paying several lines wins their sum."""
    wins = {line.outcome: line_win(line) for line in lines}
    nets: dict[Fraction, int] = {}
    for keys, ways in paid.items():
        net = sum((wins.get(k, Fraction(0)) for k in keys), Fraction(0)) if keys else Fraction(-1)
        nets[net] = nets.get(net, 0) + ways
    return tuple(sorted(((n, c) for n, c in nets.items() if c), reverse=True))


PER_UNIT = (Basis.TO, Basis.FOR, Basis.PUSH, Basis.LOSS)
"""Pays whose return is a ratio of the stake: odds, the wager returned, the wager lost."""


def refuse_unless_odds(line: PaytableLine) -> None:
    """:raises NotAnalysable: the line pays a meter share (alone or with odds) or an amount."""
    if line.pays.basis is Basis.ODDS_AND_METER:
        raise NotAnalysable(
            f"{line.label or line.outcome} pays {line.pays}: odds plus a share of the progressive "
            f"meter; the share's return depends on the meter, so the paytable has no house edge "
            f"per unit staked (give the meter to settle a round)"
        )
    if line.pays.basis not in PER_UNIT:
        raise NotAnalysable(
            f"{line.label or line.outcome} pays {line.pays}: its return depends on the meter "
            f"or the stake, so the paytable has no house edge per unit staked"
        )


# Wagers the engine does not analyse, by why: the real gaps, and the ones not done yet.

NOT_ANALYSED_YET: dict[str, str] = {}
"""Wagers the cards (with the player's choices) do decide, that the engine does not analyse yet,
and what an analysis would need (none in the catalog now)."""


def refusal(wager: str) -> str:
    """Why the engine gives no exact analysis of `wager`: not decided by the cards (a real gap),
    or not analysed yet."""
    if wager in NOT_DECIDED_BY_CARDS:
        return f"{wager} is not decided by the cards: {NOT_DECIDED_BY_CARDS[wager]}"
    if wager in NOT_ANALYSED_YET:
        return f"{wager} is not analysed yet: {NOT_ANALYSED_YET[wager]}"
    return f"{wager} is not analysed yet: the engine has no exact analysis of {wager}"
