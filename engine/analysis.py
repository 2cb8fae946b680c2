"""Exact analysis of a side wager's paytable: the probability and return of every line, and the
house edge as an exact fraction, for a shoe of N decks.

Card removal: the cards the wager is decided on (the player's first two cards and the dealer's up
card, and for wagers paying on a dealer blackjack the dealer's hole card) are drawn from a full
shoe; no other card is removed (no burn card, no other players' cards). This is the convention of
the published analyses of these wagers (e.g. the Wizard of Odds' 21+3 and King's Bounty pages).
Every count is an integer and every ratio a Fraction.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache, wraps

import numpy as np

from engine.cards import RANKS, Card, EngineError, Suit, deck
from engine.hold_em import HOLD_EM
from engine.odds import Basis
from engine.round import MAIN, SeatSpec, play_round
from engine.rules import PaytableLine, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.sidewagers import (
    DOWN_CARD_OF,
    EVALUATORS,
    NOT_DECIDED_BY_CARDS,
    ORDERED,
    PAIR_ONLY,
    PUSH,
    RANKS_ONLY,
    SIDES,
    SPANISH_DECKS,
    SUITS_READ,
    WHOLE_HAND,
    Deal,
    Evaluator,
    NotDecidable,
    Stage,
    evaluator,
    paid_from,
    stage,
)
from engine.sidewagers import dealer as dealer_wagers
from engine.sidewagers.cards import pai_jack_bonus
from engine.sidewagers.poker import super_match
from engine.strategy import BasicStrategy

REMOVAL = {
    False: "the player's first two cards and the dealer's up card are drawn from a full shoe; no "
    "other cards are removed",
    True: "the player's first two cards and the dealer's two cards are drawn from a full shoe; no "
    "other cards are removed",
}

HOLE_CARD_REMOVAL = (
    "the player's first two cards and the dealer's up card are drawn from a full shoe, and where "
    "a line waits for the dealer's hole card, the hole card from the shoe less those three; no "
    "other cards are removed"
)

DOWN_CARD_REMOVAL = (
    "the player's first two cards and the dealer's two cards are drawn from a full shoe; no other "
    "cards are removed. The up card is unseen by the wager, so the down card is distributed as the "
    "up card is, and the counts are those of the player's two cards and one dealer card"
)


THIRD_CARD = {
    "sevens": "MA 17(a)(3), (b)(4), (e)(3): one seven is the player's first card a seven (\"One "
    'seven (initial card)", as the published analyses read it: engine/readings.py); a player '
    "dealt two sevens takes a third card on that hand (draws or doubles) for the three-sevens "
    "lines. The rules let the player stand, surrender or split instead (17(e); 12(f): splitting "
    "forfeits the three-sevens pay), which only lowers the wager's return: the figure is the "
    "return to a player who always draws",
    "blazing-7s": "30-899.21(7)-(9): the player's first two cards and the third card dealt to "
    "that player (to the first hand of a split pair of 7's, (8); a bust card does not count, "
    "(9)); a player dealt two 7's receives a third card by drawing, doubling or splitting. "
    "Standing or surrendering on the two 7's forfeits the three-7's lines, which only lowers the "
    "wager's return: the figure is the return to a player who takes a third card",
    "3-card-21-n-done": "30-2111(3), (4): each player receives three cards to start the game, "
    "the third after the dealer's second card, whatever the play; the Three Card Bonus is "
    "decided on them",
}
"""Wagers decided by the player's third card where the play or the deal fixes it (in the form of the
jurisdiction that decides them so: Colorado's Blazing 7's, not Massachusetts' on the up card),
analysed exactly: the third card, unseen cards dealt before it or not, is distributed as the shoe
less the player's two cards (a shuffled shoe's cards are exchangeable), so it is counted as the
up card is. The value: the play assumed, and the rule."""


def third_card(wager: str, jurisdiction: str | None = None) -> bool:
    """Whether the wager is decided by the player's third card with the play fixed (THIRD_CARD)
    where `jurisdiction` defines it."""
    return wager in THIRD_CARD and stage(wager, jurisdiction) is Stage.ROUND


THIRD_CARD_REMOVAL = (
    "the player's first two cards and the player's third card drawn from a full shoe; the "
    "dealer's and other players' cards, unseen by the wager, leave the third card distributed as "
    "the rest of the shoe, so none is removed"
)


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


def analyse(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: int,
    jurisdiction: str | None = None,
    reading: str | None = None,
) -> Analysis:
    """The exact analysis of a paytable column (its lines) for a shoe of `decks` decks, with the
    wager as `jurisdiction` defines it where definitions differ (Blazing 7's); with `reading`, as
    a reading the engine sets aside reads it (engine/readings.py: MA 17(e)(3)'s one seven in
    either of the first two cards), to show that reading's figure.

    A deal may pay several lines (Royal Match's Crown Treasure on top, Match the Dealer per
    matching card): each line's probability counts the deals that pay it, and the return adds them.

    A wager decided by one hand of several cards (`HANDS`: Super Match, Pai Jack Bonus), Go Fish
    21 (`analyse_go_fish`) and 21-Hold 'em (`analyse_21_hold_em`) are counted their own way; a
    wager no count of the cards settles is refused saying why (`refusal`).

    :raises NotAnalysable: no evaluator for the wager (`refusal`: not decided by the cards, or
        not analysed yet); a wager decided by later cards, or by more
        cards than the player's two and the dealer's up card; a line paying a meter share or a
        dollar amount (its return depends on the meter or the stake).
    """
    if wager in HANDS:
        return analyse_hand(wager, lines, decks)
    if wager == GO_FISH:
        return analyse_go_fish(lines, decks)
    if wager == HOLD_EM:
        return analyse_21_hold_em(lines, decks)
    if wager not in EVALUATORS or wager in NOT_DECIDED_BY_CARDS:
        raise NotAnalysable(refusal(wager))
    for line in lines:
        refuse_unless_odds(line)
    if stage(wager, jurisdiction) is Stage.ROUND and not third_card(wager, jurisdiction):
        raise NotAnalysable(
            f"{wager} depends on {Stage.ROUND.value}, which depend on how the hand is played: "
            f"it needs a simulation with a stated strategy"
        )
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    by_outcome = {line.outcome: line for line in lines}
    hole = stage(wager, jurisdiction) is Stage.HOLE
    spanish = wager in SPANISH_DECKS
    try:
        counts = _outcome_counts(
            wager, frozenset(by_outcome), decks, hole, jurisdiction, spanish, reading
        )
    except NotDecidable as exc:
        raise NotAnalysable(f"{wager}: {exc}") from exc
    total = sum(counts.values())
    paid: dict[str, int] = {}
    for keys, ways in counts.items():
        for key in keys:
            paid[key] = paid.get(key, 0) + ways
    results = line_results(lines, paid, total)
    nets = net_counts(counts, lines)
    lose = Fraction(counts.get((), 0), total)
    edge = lose - sum((line.returns for line in results), Fraction(0))
    # a line that pays "Push" returns the wager (30-2115¶3 TRI-05's Pair)
    pushed = sum(
        (
            r.probability
            for r, line in zip(results, lines, strict=True)
            if line.pays.basis is Basis.PUSH
        ),
        Fraction(0),
    )
    return Analysis(
        wager,
        decks,
        lines[0].column if lines else "",
        results,
        lose,
        Fraction(counts.get((PUSH,), 0), total) + pushed,
        edge,
        (
            THIRD_CARD_REMOVAL
            if third_card(wager, jurisdiction)
            else DOWN_CARD_REMOVAL
            if wager in DOWN_CARD_OF
            else REMOVAL[hole]
            if hole or not _waits_for_hole_card(wager, jurisdiction, spanish)
            else HOLE_CARD_REMOVAL
        )
        + ("; Spanish decks (48 cards, the 10s removed)" if spanish else ""),
        total,
        nets=nets,
    )


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


def _counted(
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


def _outcome_counts(
    wager: str,
    outcomes: frozenset[str],
    decks: int,
    hole: bool,
    jurisdiction: str | None,
    spanish: bool = False,
    reading: str | None = None,
) -> dict[tuple[str, ...], int]:
    """Deals (the player's pair unordered, the up card, and the hole card where it matters)
    counted per outcome: each class of deals weighted by how many ways `decks` decks deal it."""
    n = decks
    tens, size = (12, 48) if spanish else (16, 52)
    counts: dict[tuple[str, ...], int] = {}
    classes = _deal_classes(wager, outcomes, hole, jurisdiction, spanish, reading)
    # a wager that reads the hole card only where a line waits for it: every deal dealt one
    waits = not hole and any(c[2] == HOLE_CARD for c in classes)
    for (same, up_matches, need, needed_in_pair, bj), keys in classes.items():
        pair_ways = n * (n - 1) // 2 if same else n * n
        left_up = n - up_matches
        if pair_ways <= 0 or left_up <= 0:
            continue
        ways = pair_ways * left_up
        if need == HOLE_CARD:
            ways *= max(n - needed_in_pair, 0)
        elif waits:
            ways *= size * n - 3
        elif hole:
            blackjack_holes = tens * n if need == "ten" else 4 * n if need == "ace" else 0
            blackjack_holes = max(blackjack_holes - needed_in_pair, 0) if need else 0
            ways *= blackjack_holes if bj else size * n - 3 - blackjack_holes
        for key, dealt in keys.items():
            counts[key] = counts.get(key, 0) + ways * dealt
    return counts


DealClass = tuple[bool, int, str, int, bool]
"""(pair of one card, up card's matches in the pair, card a blackjack needs in the hole,
how many of those the pair holds, dealer blackjack); or, where a line waits for the hole card
(`HOLE_CARD`), (…, HOLE_CARD, copies of the hole card among the three cards dealt, dealer
blackjack)."""


@lru_cache(maxsize=512)
def _deal_classes(
    wager: str,
    outcomes: frozenset[str],
    hole: bool,
    jurisdiction: str | None,
    spanish: bool,
    reading: str | None = None,
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    """The deals of each class by the lines of this paytable they pay."""
    classes: dict[DealClass, dict[tuple[str, ...], int]] = {}
    for deal_class, made in _evaluations(wager, hole, jurisdiction, spanish, reading).items():
        group = classes.setdefault(deal_class, {})
        for keys, count in made.items():
            paid = tuple(paid_from(wager, keys, outcomes))
            group[paid] = group.get(paid, 0) + count
    return classes


def _waits_for_hole_card(wager: str, jurisdiction: str | None, spanish: bool) -> bool:
    """Whether a line of the wager waits for the dealer's hole card (HOLE_CARD classes)."""
    return any(c[2] == HOLE_CARD for c in _evaluations(wager, False, jurisdiction, spanish))


@lru_cache(maxsize=128)
def _evaluations(
    wager: str, hole: bool, jurisdiction: str | None, spanish: bool, reading: str | None = None
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    evaluate = evaluator(DOWN_CARD_OF.get(wager, wager), jurisdiction, reading)
    if third_card(wager, jurisdiction):
        evaluate = _third_card_up(evaluate)
    return _evaluated(evaluate, hole, spanish, wager in ORDERED)


@cache
def _third_card_up(evaluate: Evaluator) -> Evaluator:
    """`evaluate` reading the player's third card from where the analysis deals the up card:
    both are one card drawn from the shoe less the player's two, weighed alike (THIRD_CARD)."""

    @wraps(evaluate)  # sees the suits as `evaluate` does (SUITS_READ)
    def on_third_card(deal: Deal) -> list[str]:
        return evaluate(_with_third_card(deal))

    return on_third_card


def _with_third_card(deal: Deal) -> Deal:
    """`replace(deal, player_cards=(*deal.player, deal.up))`, every field passed in order:
    twice as fast as `replace`, for the thousands of deals a third-card wager is evaluated on
    (tests/engine/test_analysis_families.py holds it to `replace` and to Deal's fields)."""
    return Deal(
        deal.player,
        deal.up,
        deal.dealer_blackjack,
        deal.dealer_cards,
        (*deal.player, deal.up),
        deal.player_split,
        deal.specified_suit,
        deal.switch_cards,
    )


@lru_cache(maxsize=128)
def _evaluated(
    evaluate: Evaluator, hole: bool, spanish: bool, ordered: bool = False
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    """Every deal evaluated once per evaluator (21+3 and 21+3 Xtreme share one), grouped by
    class: what its weight depends on.

    Deals that differ only by suits the evaluator cannot tell apart (`SUITS_READ`: 21+3 sees
    whether suits are alike, not which; King's Bounty sees spades, the other three alike) make
    the same outcomes: one deal of each such family is evaluated, and counted for all of them;
    so are deals that differ only by the up card, for a wager that does not see it (`PAIR_ONLY`).

    A deal's pair is unordered; for a wager decided on which card came first (`ordered`), the
    pair is evaluated in both orders, each counted once (a pair of one kind twice): every count is
    then doubled alike, and each order weighs what it should."""
    cards = deck(spanish)
    seen = getattr(evaluate, "__wrapped__", evaluate)  # a third-card reading sees as its wager
    read = SUITS_READ.get(seen, "")
    families = _families(hole, spanish, read, evaluate in PAIR_ONLY, seen in WHOLE_HAND)
    outcomes: dict[tuple[str, ...], int] = {}  # what a deal makes, numbered
    made = []  # of each family's deal: for each order it is evaluated in
    waiting: dict[int, dict[tuple[int, bool, int], int]] = {}  # families waiting for the hole card
    for f, (i, j, u, bj) in enumerate(families.first):
        deal = Deal((cards[i], cards[j]), cards[u], bj, specified_suit=_SPADES)
        orders = [deal, replace(deal, player=(cards[j], cards[i]))] if ordered else [deal]
        try:
            made.append([outcomes.setdefault(tuple(evaluate(d)), len(outcomes)) for d in orders])
        except NotDecidable:
            # a line waits for the hole card: only where every deal of the family is the
            # family's deal with its suits relabelled (so is each hole card with them)
            if ordered or evaluate in PAIR_ONLY or seen in WHOLE_HAND or read == RANKS_ONLY:
                raise
            waiting[f] = _hole_cards(evaluate, cards, (i, j, u), bj if hole else None, outcomes)
            made.append([-1])
    # every deal of a family counted by its class, for each order its family's deal makes
    deals = _deals(hole, spanish)
    counted = np.zeros((len(outcomes), len(deals.classes)), dtype=np.int64)
    decided = ~np.isin(families.of_deal, list(waiting))
    for order in range(len(made[0])):
        made_by = np.array([m[order] for m in made])[families.of_deal]
        np.add.at(counted, (made_by[decided], deals.klass[decided]), 1)
    keys = list(outcomes)
    classes: dict[DealClass, dict[tuple[str, ...], int]] = {}
    for k, c in zip(*np.nonzero(counted), strict=True):
        classes.setdefault(deals.classes[c], {})[keys[k]] = int(counted[k, c])
    # a waiting family's deals, each with every hole card its class leaves (HOLE_CARD classes)
    if waiting:
        code = families.of_deal[~decided] * len(deals.classes) + deals.klass[~decided]
        for family_class, n in zip(*np.unique(code, return_counts=True), strict=True):
            f, c = divmod(int(family_class), len(deals.classes))
            same, matches = deals.classes[c][:2]
            for (copies, bj, k), holes in waiting[f].items():
                by_keys = classes.setdefault((same, matches, HOLE_CARD, copies, bj), {})
                by_keys[keys[k]] = by_keys.get(keys[k], 0) + int(n) * holes
    return classes


HOLE_CARD = "hole card"
"""A DealClass's `need` where the deal's hole card is one card of the deck, held `needed_in_pair`
times by the player's pair and the up card: the shoe deals it in (decks − that) ways."""


def _hole_cards(
    evaluate: Evaluator,
    cards: Sequence[Card],
    dealt: tuple[int, int, int],
    blackjack: bool | None,
    outcomes: dict[tuple[str, ...], int],
) -> dict[tuple[int, bool, int], int]:
    """A deal whose lines wait for the dealer's hole card (30-899.11(6), 30-899.13(17), 30-2115
    ¶10, 30-899.29(2)), evaluated with each card of one deck as the hole card (one with a
    dealer blackjack as `blackjack` says, where the wager's class says which): the hole cards by
    how many copies of them the three cards dealt hold, whether they make a dealer blackjack, and
    what the deal then makes (numbered in `outcomes`)."""
    i, j, u = dealt
    up = cards[u]
    out: dict[tuple[int, bool, int], int] = {}
    for h, card in enumerate(cards):
        natural = (up.is_ace and card.is_ten_value) or (up.is_ten_value and card.is_ace)
        if blackjack is not None and natural != blackjack:
            continue
        deal = Deal((cards[i], cards[j]), up, natural, (up, card), specified_suit=_SPADES)
        k = outcomes.setdefault(tuple(evaluate(deal)), len(outcomes))
        key = ((h == i) + (h == j) + (h == u), natural, k)
        out[key] = out.get(key, 0) + 1
    return out


@dataclass(frozen=True)
class _Families:
    first: list[tuple[int, int, int, bool]]
    """One deal of each family: the pair's cards and the up card (indices into the deck), and
    whether the dealer has blackjack."""
    of_deal: np.ndarray
    """Each deal's family (an index into `first`), in the order of `_deals`."""


@lru_cache(maxsize=32)
def _families(
    hole: bool, spanish: bool, read: str, pair_only: bool = False, whole_hand: bool = False
) -> _Families:
    """The deals (`_deals`) by family for an evaluator that reads `read` of the suits
    (`_suit_families`), only the player's pair of the cards where `pair_only`, and the three
    cards as one hand, in no order, where `whole_hand` (`WHOLE_HAND`): one deal of each family,
    and each deal's family."""
    deals = _deals(hole, spanish)
    if whole_hand:
        family = _whole_hand(deals, spanish, read) * 2 + deals.bj
    else:
        apart, alike = (np.array(table) for table in _suit_families(read, pair_only))
        suits = np.where(deals.one_rank, alike[deals.suits], apart[deals.suits])
        ranks = deals.ranks // 16 if pair_only else deals.ranks
        family = (ranks * 64 + suits) * 2 + deals.bj
    _, first, of_deal = np.unique(family, return_index=True, return_inverse=True)
    firsts = zip(
        deals.i[first].tolist(),
        deals.j[first].tolist(),
        deals.u[first].tolist(),
        (deals.bj[first] == 1).tolist(),
        strict=True,
    )
    return _Families(list(firsts), of_deal)


def _whole_hand(deals: _Deals, spanish: bool, read: str) -> np.ndarray:
    """Each deal's three cards as one hand: the least, over the relabellings of the suits the
    evaluator cannot see (`_relabellings`), of its cards (rank and suit) in order; the same for
    two deals exactly when relabelling and reordering the three cards turns one into the other."""
    cards = deck(spanish)
    rank = np.array([c.number for c in cards])
    suit = np.array([list(Suit).index(c.suit) for c in cards])
    ranks = [rank[x] * 4 for x in (deals.i, deals.j, deals.u)]
    suits = [suit[x] for x in (deals.i, deals.j, deals.u)]
    least = np.full(len(deals.i), 64**3)
    for relabel in _relabellings(read):
        image = np.array(relabel)
        a, b, c = (r + image[s] for r, s in zip(ranks, suits, strict=True))
        # the three codes in order: a sorting network of three
        a, b = np.minimum(a, b), np.maximum(a, b)
        b, c = np.minimum(b, c), np.maximum(b, c)
        a, b = np.minimum(a, b), np.maximum(a, b)
        least = np.minimum(least, (a * 64 + b) * 64 + c)
    return least


_SPADES = Suit("S")


@dataclass(frozen=True)
class _Deals:
    """Every deal of distinct cards of one deck, as arrays of one entry a deal: the player's pair
    unordered (`i` ≤ `j`, indices into `deck(spanish)`), the up card `u`, the dealer-blackjack flag
    `bj`; its class (`klass`, an index into `classes`); and for `_suit_families`, its ranks (the
    pair's lower rank first, then the up card's, base 16) and suits (in that order, base 4) and
    whether the pair is of one rank."""

    i: np.ndarray
    j: np.ndarray
    u: np.ndarray
    bj: np.ndarray
    klass: np.ndarray
    classes: tuple[DealClass, ...]
    ranks: np.ndarray
    suits: np.ndarray
    one_rank: np.ndarray


@cache
def _deals(hole: bool, spanish: bool = False) -> _Deals:
    """Every deal of distinct cards of one deck (the player's pair unordered, the up card, and
    where the hole card matters, with and without a dealer blackjack), with its class."""
    cards = deck(spanish)
    size = len(cards)
    rank = np.array([c.number for c in cards])
    suit = np.array([list(Suit).index(c.suit) for c in cards])
    need = np.array([1 if c.is_ace else 2 if c.is_ten_value else 0 for c in cards])  # ten, ace
    ten = np.array([c.is_ten_value for c in cards], dtype=int)
    ace = np.array([c.is_ace for c in cards], dtype=int)
    first, second = np.triu_indices(size)
    i = np.repeat(first, size)
    j = np.repeat(second, size)
    u = np.tile(np.arange(size), len(first))
    same = (i == j).astype(int)
    matches = (i == u).astype(int) + (j == u)
    needs = need[u] if hole else np.zeros_like(u)
    holds = np.where(needs == 1, ten[i] + ten[j], np.where(needs == 2, ace[i] + ace[j], 0))
    bj = np.zeros_like(u)
    if hole:  # a deal whose up card could make a blackjack: once with it, once without
        twice = needs > 0
        i, j, u, same, matches, needs, holds = (
            np.concatenate([a, a[twice]]) for a in (i, j, u, same, matches, needs, holds)
        )
        bj = np.concatenate([np.zeros(len(twice), dtype=int), np.ones(int(twice.sum()), dtype=int)])
    klass = (((same * 3 + matches) * 3 + needs) * 3 + holds) * 2 + bj
    classes = tuple(
        (bool(a), b, ("", "ten", "ace")[c], d, bool(e))
        for a in (0, 1)
        for b in range(3)
        for c in range(3)
        for d in range(3)
        for e in (0, 1)
    )
    lo = np.where(rank[i] <= rank[j], i, j)
    hi = np.where(rank[i] <= rank[j], j, i)
    return _Deals(
        i,
        j,
        u,
        bj,
        klass,
        classes,
        (rank[lo] * 16 + rank[hi]) * 16 + rank[u],
        (suit[lo] * 4 + suit[hi]) * 4 + suit[u],
        rank[i] == rank[j],
    )


@cache
def _relabellings(read: str) -> list[list[int]]:
    """The relabellings of the suits (as indices into `Suit`) that an evaluator reading `read`
    (`SUITS_READ`) cannot tell from none; RANKS_ONLY: every suit to one."""
    suits = list(Suit)
    if not read:
        return [[0, 1, 2, 3]]
    if read == RANKS_ONLY:
        return [[0, 0, 0, 0]]
    named = {s for s in suits if s.value in read.replace("colour", "")}
    return [
        [suits.index(image[n]) for n in range(4)]
        for image in itertools.permutations(suits)
        if all(image[suits.index(s)] is s for s in named)
        and ("colour" not in read or all(s.red == t.red for s, t in zip(suits, image, strict=True)))
    ]


@cache
def _suit_families(read: str, pair_only: bool = False) -> tuple[list[int], list[int]]:
    """What a deal's suits (a code of `_deals`: the pair's lower rank's suit, the other's, the up
    card's) count as for an evaluator that reads `read` (`SUITS_READ`): the same number for two
    deals of the same ranks exactly when a relabelling of the suits the evaluator cannot see turns
    one into the other. Two tables: for a pair of two ranks, and of one rank (whose cards may
    then trade places).

    "": every suit seen (no relabelling); RANKS_ONLY: no suit seen; otherwise the suits named
    ("S") keep their place, the others may be exchanged (within a colour where "colour" is read).
    `pair_only`: the up card's suit is not seen either (`PAIR_ONLY`).
    """
    relabellings = _relabellings(read)
    codes = [(a, b, u) for a in range(4) for b in range(4) for u in range(4)]
    if read == RANKS_ONLY:
        return [0] * len(codes), [0] * len(codes)

    def code(a: int, b: int, u: int) -> int:
        return (a * 4 + b) * 4 + (0 if pair_only else u)

    apart = [min(code(r[a], r[b], r[u]) for r in relabellings) for a, b, u in codes]
    alike = [
        min(code(min(r[a], r[b]), max(r[a], r[b]), r[u]) for r in relabellings) for a, b, u in codes
    ]
    return apart, alike


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


DEALER_HAND = {
    "buster-blackjack",
    "hit-and-run",
    "optional-bonus",
    "buffalo-bust-bonus",
    "buffalo-blackjack-bonus-2",
    "buffalo-blackjack-bonus-3",
    "trilux-bust-bonanza",
    "ace-buster",
}
"""Wagers decided by the dealer's hand (and, for Hit and Run and Buster's Free Bonus, the
player's blackjack): analysed exactly by enumerating the dealer's whole hand
(engine/dealer_hands)."""

_SETTLED_AT = {"optional-bonus": 3}
"""Wagers settled before the dealer's hand is complete: MA 25(e), on the third card."""
_NEEDS_BLACKJACK = ("hit-and-run",)
_SUIT_BLIND = {"buster-blackjack", "hit-and-run", "ace-buster"}
"""Dealer-hand wagers that read no suits: each hand is evaluated once, whatever its suits."""
_BLACKJACK_LINES = ("free-bonus-",)

REMOVAL_NONE, REMOVAL_PLAYER_CARDS = "none", "player-cards"
DEALER_HAND_REMOVALS = (REMOVAL_NONE, REMOVAL_PLAYER_CARDS)
"""The card-removal conventions a dealer-hand wager is analysed under (`removal`): none, the
default (the dealer's whole hand from a full shoe, as the published analyses give it), or
player-cards (the player's first hand played out first, the dealer's hand from what is left).

They give the same fractions. The player's first hand is a stopping time of the shuffled shoe:
its cards are drawn card by card until the basic strategy, which reads the player's cards and the
up card but never the hole card, stops. Cards drawn without replacement are exchangeable, and a
stopping time does not change that: averaged over the ways the first hand can end, the dealer's
hole card and draws are distributed as from the shoe less the player's first two cards and the
up card, and averaged over those two cards as well, as from the shoe less the up card alone (each
way taken alone does change the dealer's hand; only their average does not). Where the dealer
peeks, the blackjacks it finds end the round before the player draws, and the rest is as before.
tests/engine/test_dealer_hand_removal.py checks it hand by hand (splits, doubles, soft hands):
the dealer's hand from the shoe less each way the first hand ends, weighted by its probability,
gives the dealer's hand from the shoe less the first two cards exactly."""

_PLAYER_CARDS_REMOVAL = (
    "the player's first hand removed: its first two cards and every card it draws (hits, a "
    "double's card, splits), played with the basic strategy after seeing the up card (the dealer "
    "peeking under an ace or ten-value card), then the dealer's whole hand from the rest of the "
    "shoe (removal=player-cards). The first hand stops at a stopping time of the shuffled shoe, "
    "so the dealer's cards after it are distributed as a full shoe's: every fraction is the same "
    "as with no player's cards removed (removal=none, the default)"
)


def analyse_dealer_hand(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: int,
    *,
    hits_soft_17: bool,
    jurisdiction: str | None = None,
    removal: str = REMOVAL_NONE,
) -> Analysis:
    """The exact analysis of a wager decided by the dealer's hand: every final dealer hand from a
    full shoe of `decks` decks (no player's cards removed), by its suit pattern where the wager
    reads suits; for lines that need the player's blackjack (Hit and Run, Buster's Free Bonus),
    the player's ace and ten-value card are drawn first and the dealer's hand from what is left.

    `removal` (`DEALER_HAND_REMOVALS`): "none", the default; "player-cards", the player's first
    hand played out before the dealer draws: the same fractions (see `DEALER_HAND_REMOVALS`),
    with `card_removal` saying which convention was asked for.

    :raises NotAnalysable: a line paying a meter share or an amount; a paytable mixing lines that
        need the player's blackjack with lines that do not; an unknown `removal`.
    """
    from engine.dealer_hands import falling

    if removal not in DEALER_HAND_REMOVALS:
        raise NotAnalysable(
            f"no card-removal convention {removal!r}: one of {', '.join(DEALER_HAND_REMOVALS)}"
        )
    for line in lines:
        refuse_unless_odds(line)
    outcomes = frozenset(line.outcome for line in lines)
    needs_blackjack = [
        wager in _NEEDS_BLACKJACK or line.outcome.startswith(_BLACKJACK_LINES) for line in lines
    ]
    if any(needs_blackjack) and not all(needs_blackjack):
        raise NotAnalysable(
            f"{wager}: a paytable mixing lines paid on the player's blackjack with lines that are "
            f"not has no exact analysis here; analyse them as separate paytables"
        )
    blackjack = all(needs_blackjack)
    made_counts, shoe, longest = _dealer_outcomes(
        evaluator(wager, jurisdiction),
        decks,
        hits_soft_17,
        blackjack,
        _SETTLED_AT.get(wager),
        wager in _SUIT_BLIND or blackjack,
    )
    by_keys: dict[tuple[str, ...], int] = {}
    for made, n in made_counts.items():
        keys = tuple(paid_from(wager, made, outcomes))
        by_keys[keys] = by_keys.get(keys, 0) + n
    total = falling(shoe, longest)
    if blackjack:
        # P(player blackjack) = 2·aces·tens / falling(52N, 2); the dealer's hands above are of the
        # shoe less those two cards. Every other player hand loses the wager.
        pair_ways = 2 * (4 * decks) * (16 * decks)
        pairs = falling(52 * decks, 2)
        by_keys = {k: v * pair_ways for k, v in by_keys.items()}
        by_keys[()] = by_keys.get((), 0) + (pairs - pair_ways) * total
        total *= pairs
    rule = "hitting" if hits_soft_17 else "standing on"
    if blackjack:  # the player's cards are read: removed under either convention
        convention = (
            "the player's blackjack (an ace and a ten-value card) drawn first, then the dealer's "
            "whole hand from the rest of the shoe (a blackjack draws no more cards: "
            f"removal={removal}{', the default' if removal == REMOVAL_NONE else ''}, the same "
            "as the other convention)"
        )
    elif removal == REMOVAL_PLAYER_CARDS:
        convention = _PLAYER_CARDS_REMOVAL
    else:
        convention = (
            "the dealer's whole hand drawn from a full shoe; no player's cards removed "
            "(removal=none, the default; removal=player-cards gives the same fractions)"
        )
    settled = f", settled on the dealer's card {_SETTLED_AT[wager]}" if wager in _SETTLED_AT else ""
    removal_text = f"{convention}; the dealer {rule} soft 17{settled}"
    return _counted(wager, decks, lines, by_keys, total, removal_text)


@lru_cache(maxsize=256)
def _dealer_outcomes(
    evaluate: Evaluator,
    decks: int,
    hits_soft_17: bool,
    blackjack: bool,
    max_cards: int | None,
    suit_blind: bool,
) -> tuple[dict[tuple[str, ...], int], int, int]:
    """What the evaluator makes of every final dealer hand, as numerators over falling(shoe,
    longest): computed once per evaluator, shoe and rule, shared by every paytable of the wager.
    The hands making an outcome are counted by holding (`_dealer_made`): their orders added up,
    times the numerator of one order of the holding's cards, which is each hand's numerator
    over its orders (engine/dealer_hands.holdings)."""
    from engine.dealer_hands import holding_numerators

    shoe = holding_numerators(
        decks,
        hits_soft_17,
        removed=("A", "T") if blackjack else (),
        max_cards=max_cards,
        suits=not suit_blind,
    )
    counts: dict[tuple[str, ...], int] = {}
    for pattern, made in _dealer_made(
        evaluate, hits_soft_17, blackjack, max_cards, suit_blind
    ).items():
        numerators = getattr(shoe, pattern)
        for keys, held in made.items():
            n = sum(orders * numerators[h] for h, orders in held.items())
            if n:
                counts[keys] = counts.get(keys, 0) + n
    return counts, shoe.cards, shoe.longest


@lru_cache(maxsize=64)
def _dealer_made(
    evaluate: Evaluator,
    hits_soft_17: bool,
    blackjack: bool,
    max_cards: int | None,
    suit_blind: bool,
) -> dict[str, dict[tuple[str, ...], dict[int, int]]]:
    """What the evaluator makes of each final dealer hand (engine/dealer_hands.hand_shapes) in
    each suit pattern ("ways", all patterns as one, where the wager reads no suits): for each
    pattern and outcome, the holdings of the hands making it (engine/dealer_hands.holdings) and
    how many orders of each holding's cards those hands are dealt in, added up. The same whatever
    the shoe, so counted once for every deck count; one hand is evaluated for each group of
    hands the evaluator reads alike (`_dealer_groups`)."""
    player = (_card("A", "C"), _card("K", "C")) if blackjack else (_card("2", "C"), _card("3", "C"))
    # A wager that sees whether suits are alike, not which, cannot tell one colour's two suits
    # (hearts then diamonds) from two colours (hearts then spades).
    alike = SUITS_READ.get(evaluate) == "alike"
    dealt_as = ("mixed",) if suit_blind else ("suited", "mixed" if alike else "colour", "mixed")
    patterns = ("ways",) if suit_blind else ("suited", "colour", "mixed")
    made_by: dict[str, dict[tuple[str, ...], dict[int, int]]] = {p: {} for p in patterns}
    for ranks, held in _dealer_groups(hits_soft_17, max_cards, evaluate in DEALER_SUMMARY_READ):
        natural = _natural(ranks)
        made: dict[str, tuple[str, ...]] = {}
        for pattern in dealt_as:
            if pattern not in made:
                dealt = _dealer_cards(ranks, pattern)
                made[pattern] = tuple(evaluate(Deal(player, dealt[0], natural, dealt)))
        for pattern, dealt_pattern in zip(patterns, dealt_as, strict=True):
            by_holding = made_by[pattern].setdefault(made[dealt_pattern], {})
            for h, orders in held.items():
                by_holding[h] = by_holding.get(h, 0) + orders
    return made_by


DEALER_SUMMARY_READ = frozenset(
    {
        dealer_wagers.buster,
        dealer_wagers.hit_and_run,
        dealer_wagers.bust_bonus,
        dealer_wagers.bust_bonanza,
        dealer_wagers.ace_buster,
    }
)
"""Dealer-hand evaluators that read no more of the dealer's hand than its summary
(`_dealer_summary`: its up card, number of cards, whether it busts, is a blackjack, how many aces,
whether three 8s) and its suits as a pattern: every hand of one summary makes the same outcomes,
so one hand is evaluated for all (tests/engine/test_analysis_families.py evaluates every hand)."""


@lru_cache(maxsize=16)
def _dealer_groups(
    hits_soft_17: bool, max_cards: int | None, by_summary: bool
) -> list[tuple[tuple[str, ...], dict[int, int]]]:
    """The final dealer hands (engine/dealer_hands.hand_shapes) in groups an evaluator reads
    alike: by summary (`_dealer_summary`) for one reading no more (`DEALER_SUMMARY_READ`), else
    each hand alone. For each group, in the order of its first hand: that hand, and the holdings
    of the group's hands (engine/dealer_hands.holdings) with how many orders of each holding's
    cards they are dealt in, added up."""
    from engine.dealer_hands import hand_shapes, holdings

    groups: dict[tuple, tuple[tuple[str, ...], dict[int, int]]] = {}
    shapes = hand_shapes(hits_soft_17, max_cards)
    for (ranks, orders, _), h in zip(shapes, holdings(hits_soft_17, max_cards)[1], strict=True):
        key = _dealer_summary(ranks) if by_summary else ranks
        if key not in groups:
            groups[key] = (ranks, {})
        held = groups[key][1]
        held[h] = held.get(h, 0) + orders
    return list(groups.values())


_POINTS = {rank: min(n, 10) for n, rank in enumerate(RANKS, 1)}
"""A rank's (or rank class's) points, an ace 1."""


def _dealer_summary(ranks: tuple[str, ...]) -> tuple[str, int, bool, bool, int, bool]:
    """A dealer's hand's up card (its class), number of cards, whether it busts (over 21 with
    every ace counted 1), whether it is a blackjack, how many aces it holds, and whether it is
    three 8s."""
    bust = sum(_POINTS[r] for r in ranks) > 21
    return (ranks[0], len(ranks), bust, _natural(ranks), ranks.count("A"), ranks == ("8",) * 3)


@cache
def _card(rank: str, suit: str) -> Card:
    return Card(rank, Suit(suit))


@cache
def _cards_of(suit: str) -> dict[str, Card]:
    """Each rank's card of this suit."""
    return {r: _card(r, suit) for r in RANKS}


_DEALT_SUIT = {"suited": "H", "colour": "D", "mixed": "S"}


@cache
def _dealer_cards(ranks: tuple[str, ...], pattern: str) -> tuple[Card, ...]:
    """A hand of these rank classes with the suit pattern: all hearts; hearts then diamonds (one
    colour, two suits); hearts then spades (two colours). A ten-value class is dealt as a ten."""
    rest = _cards_of(_DEALT_SUIT[pattern])
    return (_cards_of("H")[ranks[0]], *map(rest.__getitem__, ranks[1:]))


def _natural(ranks: tuple[str, ...]) -> bool:
    return len(ranks) == 2 and "A" in ranks and "T" in ranks


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


# Wagers decided by one hand of several cards from the shoe, whatever the play.


@dataclass(frozen=True)
class CardClass:
    """Cards a hand evaluator cannot tell apart: `per_deck` of them in each deck, and cards to
    stand for them (a hand holding k of the class is evaluated with the first k)."""

    per_deck: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class HandWager:
    size: int
    evaluate: Callable[[tuple[Card, ...]], list[str]]
    classes: Callable[[], tuple[CardClass, ...]]
    card_removal: str


def _rank_classes() -> tuple[CardClass, ...]:
    """The 13 ranks, suits unseen (Super Match: pairs and kinds of a rank)."""
    suits = list(Suit)
    return tuple(CardClass(4, tuple(_card(r, suits[i % 4].value) for i in range(5))) for r in RANKS)


def _pai_jack_classes() -> tuple[CardClass, ...]:
    """What Pai Jack Bonus sees: each ace, king and queen by its suit (a suited A-K-Q), the jacks,
    the tens, and the other cards (2-9) alike."""
    suits = [s.value for s in Suit]
    one_each = tuple(CardClass(1, (_card(r, s),)) for r in "AKQ" for s in suits)
    jacks = CardClass(4, tuple(_card("J", suits[i % 4]) for i in range(5)))
    tens = CardClass(4, tuple(_card("T", suits[i % 4]) for i in range(5)))
    low = CardClass(32, tuple(_card(r, "C") for r in "23456"))
    return (*one_each, jacks, tens, low)


def _super_match(cards: tuple[Card, ...]) -> list[str]:
    return super_match(Deal((cards[0], cards[1]), cards[2], switch_cards=(cards[2], cards[3])))


def _pai_jack(cards: tuple[Card, ...]) -> list[str]:
    return pai_jack_bonus(Deal((cards[0], cards[1]), cards[2], player_cards=cards))


HANDS: dict[str, HandWager] = {
    "super-match": HandWager(
        4,
        _super_match,
        _rank_classes,
        "the player's initial four cards (the first two cards of both Blackjack Switch hands, "
        "30-2105(6)) drawn from a full shoe; the dealer's and other players' cards, unseen by the "
        "wager, are not removed (a shuffled shoe's cards are exchangeable)",
    ),
    "pai-jack-bonus": HandWager(
        5,
        _pai_jack,
        _pai_jack_classes,
        "the player's five-card packet (30-2112(3), (5)) drawn from the deck; the dealer's and "
        "other players' packets, unseen by the wager, are not removed",
    ),
}
"""Wagers decided by one hand of `size` cards dealt from the shoe whatever anyone plays: every
hand counted exactly by how many of each class of cards it holds (`analyse_hand`)."""


def analyse_hand(wager: str, lines: Sequence[PaytableLine], decks: int) -> Analysis:
    """The exact analysis of a wager decided by one hand of cards (`HANDS`): every multiset of
    card classes the hand can hold, evaluated once, weighted by the ways `decks` decks deal it
    (the product over classes of C(cards of the class in the shoe, cards of it held)); the
    weights add up to C(cards in the shoe, hand size), every unordered hand once.

    :raises NotAnalysable: a line paying a meter share or an amount; fewer than one deck.
    """
    for line in lines:
        refuse_unless_odds(line)
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    hand = HANDS[wager]
    outcomes = frozenset(line.outcome for line in lines)
    by_keys: dict[tuple[str, ...], int] = {}
    for made, ways in _hand_outcomes(wager, decks).items():
        keys = tuple(paid_from(wager, made, outcomes))
        by_keys[keys] = by_keys.get(keys, 0) + ways
    total = math.comb(52 * decks, hand.size)
    return _counted(wager, decks, lines, by_keys, total, hand.card_removal)


@lru_cache(maxsize=32)
def _hand_outcomes(wager: str, decks: int) -> dict[tuple[str, ...], int]:
    """The hands of `HANDS[wager]` from `decks` decks, counted by what they make."""
    hand = HANDS[wager]
    made: dict[tuple[str, ...], int] = {}
    for cards, ways in _held_hands(hand.classes(), decks, hand.size):
        keys = tuple(hand.evaluate(cards))
        made[keys] = made.get(keys, 0) + ways
    return made


def _held_hands(
    classes: tuple[CardClass, ...], decks: int, size: int
) -> list[tuple[tuple[Card, ...], int]]:
    """Every way to hold `size` cards, as how many of each class (at most the shoe's cards of
    it), in order of those counts, the first class's first: the cards standing for it (a class
    held k times by its first k cards) and the ways the shoe deals it (the product over classes of
    C(cards of the class in the shoe, cards of it held))."""
    counts = [c.per_deck * decks for c in classes]
    combs = [[math.comb(n, k) for k in range(size + 1)] for n in counts]
    last = len(classes) - 1
    out: list[tuple[tuple[Card, ...], int]] = []

    def hold(i: int, left: int, cards: tuple[Card, ...], ways: int) -> None:
        if i == last:  # the last class takes the cards left, if it has them
            if left <= counts[i]:
                out.append(((*cards, *classes[i].cards[:left]), ways * combs[i][left]))
            return
        for k in range(min(counts[i], left) + 1):
            hold(i + 1, left - k, (*cards, *classes[i].cards[:k]), ways * combs[i][k])

    hold(0, size, (), 1)
    return out


# Go Fish 21: the player's blackjack, then a card of the Go Fish specialty deck.

GO_FISH = "go-fish-21"
_GO_FISH_CLASSES = {"ace": 1, "10-to-king": 4, "3-to-9": 7}
"""The 12 cards of the specialty deck's suit (3 through ace, 30-899.08(1)) by pay class."""
_GO_FISH_DRAWS = 14 * 13 * 12
GO_FISH_REMOVAL = (
    "the player's first two cards and the dealer's first two drawn from a full shoe, no other "
    "cards removed; then the Go Fish card from the shuffled 14-card specialty deck (12 cards of "
    "one suit, 3 through ace, and two Jokers, 30-899.08(1)), the card after a Joker (and after two "
    "Jokers) from the rest of it (7)(c): whatever spot the player picks, the card there and the "
    "ones after it are distributed as cards drawn from the shuffled 14 (a Joker at spot 14, "
    "which (7)(c) does not provide for, read as followed by the deck's top card). The player "
    "plays basic strategy, which takes neither insurance nor even money: a blackjack against a "
    "dealer blackjack pushes ((6)); a player who takes even money or insures is deemed to win "
    "instead, which only raises the return"
)


def analyse_go_fish(lines: Sequence[PaytableLine], decks: int) -> Analysis:
    """Go Fish 21 (30-899.08(2), (5)-(8)): won when the player is dealt a blackjack that beats the
    dealer (no dealer blackjack; both blackjacks push, (6)), then paid by the Go Fish card drawn:
    a card, a Joker and the next card, or two Jokers and the third. Counted exactly: ordered
    player's and dealer's first two cards from the shoe, times the ordered first three cards of the
    specialty deck.

    :raises NotAnalysable: a line paying a meter share or an amount; fewer than one deck.
    """
    from engine.dealer_hands import falling

    for line in lines:
        refuse_unless_odds(line)
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    n = decks
    blackjacks = 2 * (4 * n) * (16 * n)  # ordered: the ace first or the ten-value card first
    dealer = falling(52 * n - 2, 2)
    dealer_blackjacks = 2 * (4 * n - 1) * (16 * n - 1)
    won = blackjacks * (dealer - dealer_blackjacks)
    by_keys: dict[tuple[str, ...], int] = {
        (PUSH,): blackjacks * dealer_blackjacks * _GO_FISH_DRAWS,
        (): (falling(52 * n, 2) - blackjacks) * dealer * _GO_FISH_DRAWS,
    }
    outcomes = frozenset(line.outcome for line in lines)
    for card, cards in _GO_FISH_CLASSES.items():
        for jokers, draws in ((0, cards * 13 * 12), (1, 2 * cards * 12), (2, 2 * 1 * cards)):
            key = "joker-" * jokers + card
            paid = (key,) if key in outcomes else ()
            by_keys[paid] = by_keys.get(paid, 0) + won * draws
    total = falling(52 * n, 2) * dealer * _GO_FISH_DRAWS
    return _counted(GO_FISH, decks, lines, by_keys, total, GO_FISH_REMOVAL)


def analyse_21_hold_em(lines: Sequence[PaytableLine], decks: int) -> Analysis:
    """21-Hold 'em's poker wager (30-2104(5)-(13)), the player folding or going on as maximises
    the expected return (engine/hold_em.py): per unit of the "PK" wager; a hand played to the end
    is paid each line's odds on all three wagers, a fold loses the one or two wagers made.

    :raises NotAnalysable: a line not paying odds, a schedule missing a hand, not one deck.
    """
    from engine.hold_em import CARD_REMOVAL, analyse_hold_em

    try:
        paid, nets, total = analyse_hold_em(lines, decks)
    except ValueError as exc:
        raise NotAnalysable(str(exc)) from exc
    results = tuple(
        LineResult(
            line.outcome,
            line.label,
            str(line.pays),
            Fraction(paid.get(line.outcome, 0), total),
            Fraction(paid.get(line.outcome, 0), total) * 3 * line_win(line),
            paid.get(line.outcome, 0),
        )
        for line in lines
    )
    lost = sum(n for net, n in nets.items() if net < 0)
    mean = sum((net * n for net, n in nets.items()), Fraction(0)) / total
    return Analysis(
        HOLD_EM,
        decks,
        lines[0].column if lines else "",
        results,
        Fraction(lost, total),
        Fraction(0),
        -mean,
        CARD_REMOVAL,
        total,
        nets=tuple(sorted(nets.items(), reverse=True)),
    )
