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
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, lru_cache, wraps

import numpy as np

from engine.cards import Card, Suit, deck
from engine.hold_em import HOLD_EM
from engine.odds import Basis
from engine.rules import PaytableLine
from engine.sidewagers import (
    DOWN_CARD_OF,
    EVALUATORS,
    NOT_DECIDED_BY_CARDS,
    ORDERED,
    PAIR_ONLY,
    PUSH,
    RANKS_ONLY,
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

from .hands import GO_FISH, HANDS, analyse_21_hold_em, analyse_go_fish, analyse_hand
from .lines import Analysis, NotAnalysable, line_results, net_counts, refusal, refuse_unless_odds

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
