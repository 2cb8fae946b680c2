"""The play tree of a wager and its analysis: the tree of outcomes by reading for a deck count and
soft-17 rule (play_tree, state_tree), and analyse_play_tree, a paytable's exact lines and house
edge from it (Raise the Roof's raise included), with the card removal each states.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache

from engine.analysis import (
    Analysis,
    LineResult,
    NotAnalysable,
    line_results,
    line_win,
    net_counts,
    refuse_unless_odds,
    tally,
)
from engine.odds import Basis
from engine.rules import PaytableLine, RuleSet
from engine.sidewagers import paid_from

from .enumeration import Enumeration
from .readings import ONE, ORDER_BLIND, PLAY_TREE, READS, SUITS_READ, Readings


@dataclass(frozen=True)
class PlayTree:
    """What a wager's evaluator makes of every round: its readings (`Readings`), each evaluated
    once into the outcomes it makes with their shares of the reading, as integers over `suits`
    (the shares' least common denominator: the suits read). A probability is an integer
    numerator over `denominator`."""

    readings: Readings
    weights: dict[tuple, list[tuple[tuple[str, ...], int]]]
    """Reading → (outcomes made (an evaluator's keys), share × `suits`)."""
    suits: int

    @property
    def denominator(self) -> int:
        return self.readings.denominator * self.suits

    def _made(self, reading: dict[tuple, int]) -> dict[tuple[str, ...], int]:
        out: dict[tuple[str, ...], int] = {}
        for key, n in reading.items():
            for keys, w in self.weights[key]:
                out[keys] = out.get(keys, 0) + n * w
        return out

    @cached_property
    def by_state(self) -> dict[tuple[str, str, str], dict[tuple[str, ...], int]]:
        """As `Readings.by_state`, by outcomes made: numerators over `denominator`."""
        return {state: self._made(reading) for state, reading in self.readings.by_state.items()}

    @cached_property
    def blackjack(self) -> dict[tuple[str, ...], int]:
        """The rounds the dealer's blackjack ends: outcomes made → numerator."""
        return self._made(self.readings.blackjack)

    def outcomes(self) -> dict[tuple[str, ...], Fraction]:
        """Every round: outcomes made → probability."""
        made = self._made(self.readings.total)
        return {keys: Fraction(n, self.denominator) for keys, n in made.items()}


@lru_cache(maxsize=64)
def play_tree(wager: str, decks: int, hits_soft_17: bool) -> PlayTree:
    """Every round of one seat at a table of `decks` decks (the dealer hitting soft 17 or not;
    otherwise the engine's default rules: peek, double any two, double after split, split to four
    hands, split aces one card, no surrender), the seat's first hand played with the basic
    strategy, evaluated by the wager's evaluator. Computed once per wager, shoe and rule; every
    paytable of the wager is priced from it."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    enumeration = Enumeration(wager, READS[wager], rules)
    if wager in ORDER_BLIND:
        # the wagers reading the first hand's total and cards and the dealer's final hand share
        # one enumeration of what they read; each evaluates it
        readings = _readings(decks, hits_soft_17)
    else:
        readings = enumeration.run()
    return _evaluated_tree(wager, enumeration, readings)


def state_tree(
    wager: str, decks: int, hits_soft_17: bool, first: tuple[str, str], up: str
) -> PlayTree:
    """`play_tree` of the rounds of one state alone (the player's first two cards, named by
    rank class as in `RANKS10` or `RANKS13` as the wager reads them, and the up card), to
    check it card by card: its `by_state` holds that state's rounds (an `ORDER_BLIND` wager's
    under the up card)."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    enumeration = Enumeration(wager, READS[wager], rules)
    index = enumeration.ranks.index
    a, b = sorted(map(index, first))
    return _evaluated_tree(wager, enumeration, enumeration.run((a, b, index(up))))


def _evaluated_tree(wager: str, enumeration: Enumeration, readings: Readings) -> PlayTree:
    """The readings of an enumeration, each evaluated once by the wager's evaluator."""
    shared = _made_whole(wager) if wager in ORDER_BLIND or wager not in SUITS_READ else {}
    whole: dict[tuple, tuple[str, ...]] = {}  # reading → the outcomes it makes, no suit share
    parts: dict[tuple, list[tuple[tuple[str, ...], Fraction]]] = {}  # by suit assignment
    for key, hand in readings.hands.items():
        if key in shared:
            whole[key] = shared[key]
            continue
        out = enumeration._evaluated(*hand)
        if out == [(out[0][0], ONE)]:  # no suit share: the same at every deck count
            shared[key] = whole[key] = out[0][0]
        else:
            parts[key] = out
    suits = math.lcm(*(share.denominator for out in parts.values() for _, share in out))
    weights = {key: [(keys, suits)] for key, keys in whole.items()}
    for key, out in parts.items():
        weights[key] = [
            (keys, share.numerator * (suits // share.denominator)) for keys, share in out
        ]
    return PlayTree(readings, weights, suits)


@lru_cache(maxsize=32)
def _made_whole(wager: str) -> dict[tuple, tuple[str, ...]]:
    """The evaluation of each reading a wager makes whole (no suit read, no share), as the
    outcomes it makes, for a wager reading no suits (`SUITS_READ`) or an `ORDER_BLIND` one:
    it reads only what the reading holds (the ranks of the round's cards, or the first hand's
    total and cards and the dealer's tie), so it is the same at every deck count and rule,
    whichever round stood for the reading. Filled by `play_tree`. (A wager reading suits is
    evaluated at each deck count: which suit assignments a shoe can deal depends on its decks.)"""
    return {}


@lru_cache(maxsize=16)
def _readings(decks: int, hits_soft_17: bool) -> Readings:
    """What the `ORDER_BLIND` wagers read of every round (the first hand's total, its number of
    cards, split or not; whether the dealer's final total is the first hand's, the dealer drawing
    from what the first hand leaves), with its probability, by state; and a round of each
    reading, to evaluate."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    return Enumeration("push-your-luck", READS["push-your-luck"], rules).run()


PLAY_TREE_REMOVAL = (
    "the player's first two cards and the dealer's up card drawn from a full shoe, the dealer "
    "peeking for blackjack under an ace or ten-value card; the seat's first hand played with the "
    "basic strategy card by card from the rest (a split's first hand carrying the wager); "
    "{dealer}. The cards dealt later to other hands are unseen by the wager: a shuffled shoe's "
    "cards after a stopping time are exchangeable with the rest, so none is removed for them"
)


_DEALER_REMOVAL = {
    False: "whether the dealer holds blackjack is read from the shoe less the first hand's cards",
    True: "the dealer's hole card and draws from the shoe less the up card and every card the "
    "first hand holds when it ends (its first two cards, hits, a double's card, a card split off "
    "it), exactly",
}


"""Whether the wager reads the dealer's final hand → how the dealer's cards are drawn."""


_DEALER_ALONE = (
    "the dealer's hole card and draws from the shoe less the player's first two cards and the up "
    "card: the wager reads the dealer's hand alone, and the first hand's later cards, drawn up "
    "to a stopping time of the shuffled shoe, change its distribution by nothing (removing them "
    "gives the same fractions)"
)


"""A wager reading the dealer's final hand and not the play (Raise the Roof)."""


RAISE_COLUMN = "raise"


"""A Raise the Roof column whose name holds this is paid on the Ante and the Raise once raised
(30-899.23(8), (10), (12): "Ante+ Raise The Roof")."""


def analyse_play_tree(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: int,
    *,
    hits_soft_17: bool,
    jurisdiction: str | None = None,
    ante_lines: Sequence[PaytableLine] = (),
) -> Analysis:
    """The exact analysis of a paytable column of a wager decided by how the round is played
    (`PLAY_TREE`), from its play tree (`play_tree`).

    Raise the Roof's "Ante+ Raise The Roof" column (`RAISE_COLUMN`): the player, with no dealer
    blackjack and seeing the up card and own two cards, raises 0 to 5 times the Ante, whichever
    returns most; raised, the Ante and the Raise are paid by this column, else the Ante by
    `ante_lines` (the "Ante Only" column). The house edge is then per unit staked (Ante and
    Raise together).

    :raises NotAnalysable: a line paying a meter share or an amount; a wager not analysed here.
    """
    if wager not in PLAY_TREE:
        raise NotAnalysable(f"{wager} is not analysed by its play tree")
    for line in (*lines, *ante_lines):
        refuse_unless_odds(line)
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    tree = play_tree(wager, decks, hits_soft_17)
    rule = "hitting" if hits_soft_17 else "standing on"
    reads = READS[wager]
    dealer = _DEALER_ALONE if reads.dealer and not reads.plays else _DEALER_REMOVAL[reads.dealer]
    removal = PLAY_TREE_REMOVAL.format(dealer=dealer)
    removal += f"; the dealer {rule} soft 17"
    column = lines[0].column if lines else ""
    if wager == "raise-the-roof" and RAISE_COLUMN in column.lower() and ante_lines:
        return _raised(tree, lines, ante_lines, decks, column, removal)
    outcomes = frozenset(line.outcome for line in lines)
    by_keys: dict[tuple[str, ...], Fraction] = {}
    for made, p in tree.outcomes().items():
        keys = tuple(paid_from(wager, made, outcomes))
        by_keys[keys] = by_keys.get(keys, Fraction(0)) + p
    total = math.lcm(*(p.denominator for p in by_keys.values()))
    counts = {k: int(p * total) for k, p in by_keys.items()}
    paid, lose, push = tally(counts)
    results = line_results(lines, paid, total)
    pushed = sum(
        (r.probability for r, line in zip(results, lines, strict=True)
         if line.pays.basis is Basis.PUSH),
        Fraction(0),
    )  # fmt: skip
    edge = Fraction(lose, total) - sum((r.returns for r in results), Fraction(0))
    return Analysis(
        wager,
        decks,
        column,
        results,
        Fraction(lose, total),
        Fraction(push, total) + pushed,
        edge,
        removal,
        total,
        method="exact",
        nets=net_counts(counts, lines),
    )


def _raised(
    tree: PlayTree,
    lines: Sequence[PaytableLine],
    ante_lines: Sequence[PaytableLine],
    decks: int,
    column: str,
    removal: str,
) -> Analysis:
    """Raise the Roof with the raise the player's best (see analyse_play_tree). Summed as
    integers: probabilities over the tree's denominator D, returns over D × the lines' wins'
    common denominator."""
    wager = "raise-the-roof"
    wins = {line.outcome: line_win(line) for line in lines}
    ante_wins = {line.outcome: line_win(line) for line in ante_lines}
    unit = math.lcm(*(w.denominator for w in (*wins.values(), *ante_wins.values())))
    win_units = {k: int(w * unit) for k, w in wins.items()}
    ante_units = {k: int(w * unit) for k, w in ante_wins.items()}
    outcomes, ante_outcomes = frozenset(wins), frozenset(ante_wins)

    @cache
    def paid(made: tuple[str, ...], raised: bool) -> list[str]:
        """The lines the round pays, raised (this column) or not (the Ante Only column)."""
        return paid_from(wager, made, outcomes if raised else ante_outcomes)

    @cache
    def value(made: tuple[str, ...], raised: bool) -> int:
        """What the round returns per unit staked, in `unit`ths."""
        table, keys = (win_units if raised else ante_units), paid(made, raised)
        return sum(table[k] for k in keys if k in table) if keys else -unit

    net = 0
    staked = 0
    line_p: dict[str, int] = {}
    line_return: dict[str, int] = {}
    lose = 0
    for p in tree.blackjack.values():  # 30-899.23(7): the Ante loses; no raise
        net -= p * unit
        staked += p
        lose += p
    # the states' outcomes summed by the raise taken, to be paid once for each raise
    by_times: dict[int, dict[tuple[str, ...], int]] = {}
    for state_made in tree.by_state.values():
        chance = sum(state_made.values())
        if not chance:
            continue
        raised = sum(p * value(m, True) for m, p in state_made.items())
        kept = sum(p * value(m, False) for m, p in state_made.items())
        best, times = max((kept, 0), *(((1 + r) * raised, r) for r in range(1, 6)))
        net += best
        staked += chance * (1 + times)
        summed = by_times.setdefault(times, {})
        for made, p in state_made.items():
            summed[made] = summed.get(made, 0) + p
    for times, summed in by_times.items():
        for made, p in summed.items():
            keys = paid(made, times > 0)
            if not keys:
                lose += p
            for key in keys if times else ():
                line_p[key] = line_p.get(key, 0) + p
                line_return[key] = line_return.get(key, 0) + p * (1 + times) * win_units[key]
    d = tree.denominator
    staked_p = Fraction(staked, d)
    results = tuple(
        LineResult(
            line.outcome,
            line.label,
            str(line.pays),
            Fraction(line_p.get(line.outcome, 0), d),
            Fraction(line_return.get(line.outcome, 0), d * unit) / staked_p,
        )
        for line in lines
    )
    return Analysis(
        wager,
        decks,
        column,
        results,
        Fraction(lose, d),
        Fraction(0),
        -Fraction(net, d * unit) / staked_p,
        removal + "; the player raises 1 to 5 times the Ante after seeing the up card and own "
        "two cards (no dealer blackjack) whenever, and by as much as, raising returns more than "
        "the Ante alone (paid by the Ante Only column); the house edge is per unit staked, Ante "
        "and Raise together",
        0,
        method="exact",
    )
