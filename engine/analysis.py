"""Exact analysis of a side wager's paytable: the probability and return of every line, and the
house edge as an exact fraction, for a shoe of N decks.

Card removal: the cards the wager is decided on (the player's first two cards and the dealer's up
card, and for wagers paying on a dealer blackjack the dealer's hole card) are drawn from a full
shoe; no other card is removed (no burn card, no other players' cards). This is the convention of
the published analyses of these wagers (e.g. the Wizard of Odds' 21+3 and King's Bounty pages).
Every count is an integer and every ratio a Fraction.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache

from engine.cards import Card, EngineError, Suit, deck
from engine.odds import Basis
from engine.round import MAIN, SeatSpec, play_round
from engine.rules import PaytableLine, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.sidewagers import (
    DOWN_CARD_OF,
    EVALUATORS,
    ORDERED,
    PUSH,
    SPANISH_DECKS,
    Deal,
    Evaluator,
    NotDecidable,
    Stage,
    evaluator,
    paid_from,
    stage,
)
from engine.strategy import BasicStrategy

REMOVAL = {
    False: "the player's first two cards and the dealer's up card are drawn from a full shoe; no "
    "other cards are removed",
    True: "the player's first two cards and the dealer's two cards are drawn from a full shoe; no "
    "other cards are removed",
}

DOWN_CARD_REMOVAL = (
    "the player's first two cards and the dealer's two cards are drawn from a full shoe; no other "
    "cards are removed. The up card is unseen by the wager, so the down card is distributed as the "
    "up card is, and the counts are those of the player's two cards and one dealer card"
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
    wager: str, lines: Sequence[PaytableLine], decks: int, jurisdiction: str | None = None
) -> Analysis:
    """The exact analysis of a paytable column (its lines) for a shoe of `decks` decks, with the
    wager as `jurisdiction` defines it where definitions differ (Blazing 7's).

    A deal may pay several lines (Royal Match's Crown Treasure on top, Match the Dealer per
    matching card): each line's probability counts the deals that pay it, and the return adds them.

    :raises NotAnalysable: no evaluator for the wager; a wager decided by later cards, or by more
        cards than the player's two and the dealer's up card; a line paying a meter share or a
        dollar amount (its return depends on the meter or the stake).
    """
    if wager not in EVALUATORS:
        raise NotAnalysable(f"the engine has no exact analysis of {wager} yet")
    for line in lines:
        _refuse_unless_odds(line)
    if stage(wager, jurisdiction) is Stage.ROUND:
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
        counts = _outcome_counts(wager, frozenset(by_outcome), decks, hole, jurisdiction, spanish)
    except NotDecidable as exc:
        raise NotAnalysable(f"{wager}: {exc}") from exc
    total = sum(counts.values())
    paid: dict[str, int] = {}
    for keys, ways in counts.items():
        for key in keys:
            paid[key] = paid.get(key, 0) + ways
    results = _line_results(lines, paid, total)
    nets = _nets(counts, lines)
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
        (DOWN_CARD_REMOVAL if wager in DOWN_CARD_OF else REMOVAL[hole])
        + ("; Spanish decks (48 cards, the 10s removed)" if spanish else ""),
        total,
        nets=nets,
    )


def _line_results(
    lines: Sequence[PaytableLine], paid: Mapping[str, int], total: int
) -> tuple[LineResult, ...]:
    """Each line's probability (deals or rounds paying it, out of `total`) and return per unit."""
    results = []
    for line in lines:
        probability = Fraction(paid.get(line.outcome, 0), total)
        win = _win(line)
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


def _win(line: PaytableLine) -> Fraction:
    """What the line wins per unit staked: a push line (30-2115¶3 TRI-05's Pair) wins nothing."""
    if line.pays.basis is Basis.PUSH:
        return Fraction(0)
    return line.pays.ratio - (1 if line.pays.basis is Basis.FOR else 0)  # type: ignore[operator]


def _nets(
    paid: Mapping[tuple[str, ...], int], lines: Sequence[PaytableLine]
) -> tuple[tuple[Fraction, int], ...]:
    """The deals counted by their net per unit staked, from the deals counted by the lines they
    pay: no line (and no push) loses the unit; a deal paying several lines wins their sum."""
    wins = {line.outcome: _win(line) for line in lines}
    nets: dict[Fraction, int] = {}
    for keys, ways in paid.items():
        net = sum((wins.get(k, Fraction(0)) for k in keys), Fraction(0)) if keys else Fraction(-1)
        nets[net] = nets.get(net, 0) + ways
    return tuple(sorted(((n, c) for n, c in nets.items() if c), reverse=True))


def _refuse_unless_odds(line: PaytableLine) -> None:
    """:raises NotAnalysable: the line pays a meter share (alone or with odds) or an amount."""
    if line.pays.basis is Basis.ODDS_AND_METER:
        raise NotAnalysable(
            f"{line.label or line.outcome} pays {line.pays}: odds plus a share of the progressive "
            f"meter; the share's return depends on the meter, so the paytable has no house edge "
            f"per unit staked (give the meter to settle a round)"
        )
    if line.pays.basis not in (Basis.TO, Basis.FOR, Basis.PUSH):
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
) -> dict[tuple[str, ...], int]:
    """Deals (the player's pair unordered, the up card, and the hole card where it matters)
    counted per outcome: each class of deals weighted by how many ways `decks` decks deal it."""
    n = decks
    tens, size = (12, 48) if spanish else (16, 52)
    counts: dict[tuple[str, ...], int] = {}
    for (same, up_matches, need, needed_in_pair, bj), keys in _deal_classes(
        wager, outcomes, hole, jurisdiction, spanish
    ).items():
        pair_ways = n * (n - 1) // 2 if same else n * n
        left_up = n - up_matches
        if pair_ways <= 0 or left_up <= 0:
            continue
        ways = pair_ways * left_up
        if hole:
            blackjack_holes = tens * n if need == "ten" else 4 * n if need == "ace" else 0
            blackjack_holes = max(blackjack_holes - needed_in_pair, 0) if need else 0
            ways *= blackjack_holes if bj else size * n - 3 - blackjack_holes
        for key, classes in keys.items():
            counts[key] = counts.get(key, 0) + ways * classes
    return counts


DealClass = tuple[bool, int, str, int, bool]
"""(pair of one card, up card's matches in the pair, card a blackjack needs in the hole,
how many of those the pair holds, dealer blackjack)."""


@lru_cache(maxsize=512)
def _deal_classes(
    wager: str, outcomes: frozenset[str], hole: bool, jurisdiction: str | None, spanish: bool
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    """The deals of each class by the lines of this paytable they pay."""
    classes: dict[DealClass, dict[tuple[str, ...], int]] = {}
    for deal_class, made in _evaluations(wager, hole, jurisdiction, spanish).items():
        group = classes.setdefault(deal_class, {})
        for keys, count in made.items():
            paid = tuple(paid_from(wager, keys, outcomes))
            group[paid] = group.get(paid, 0) + count
    return classes


@lru_cache(maxsize=128)
def _evaluations(
    wager: str, hole: bool, jurisdiction: str | None, spanish: bool
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    evaluate = evaluator(DOWN_CARD_OF.get(wager, wager), jurisdiction)
    return _evaluated(evaluate, hole, spanish, wager in ORDERED)


@lru_cache(maxsize=128)
def _evaluated(
    evaluate: Evaluator, hole: bool, spanish: bool, ordered: bool = False
) -> dict[DealClass, dict[tuple[str, ...], int]]:
    """Every deal evaluated once per evaluator (21+3 and 21+3 Xtreme share one), grouped by
    class: what its weight depends on.

    A deal's pair is unordered; for a wager decided on which card came first (`ordered`), the
    pair is evaluated in both orders, each counted once (a pair of one kind twice): every count is
    then doubled alike, and each order weighs what it should."""
    classes: dict[DealClass, dict[tuple[str, ...], int]] = {}
    for deal_class, deal in _deals(hole, spanish):
        group = classes.setdefault(deal_class, {})
        first, second = deal.player
        orders = [deal, replace(deal, player=(second, first))] if ordered else [deal]
        for dealt in orders if first != second else [deal] * len(orders):
            made = tuple(evaluate(dealt))
            group[made] = group.get(made, 0) + 1
    return classes


_SPADES = Suit("S")


@cache
def _deals(hole: bool, spanish: bool = False) -> list[tuple[DealClass, Deal]]:
    """Every deal of distinct card kinds (the player's pair unordered, the up card, and where the
    hole card matters, with and without a dealer blackjack), with its class; from Spanish decks
    where `spanish`."""
    cards = deck(spanish)
    deals = []
    for i, a in enumerate(cards):
        for b in cards[i:]:
            for up in cards:
                need = "ten" if up.is_ace else "ace" if up.is_ten_value else ""
                in_pair = (
                    sum(1 for c in (a, b) if (c.is_ten_value if need == "ten" else c.is_ace))
                    if need
                    else 0
                )
                base = (a == b, (a == up) + (b == up), need if hole else "", in_pair if hole else 0)
                for bj in (True, False) if hole else (False,):
                    if bj and not need:
                        continue
                    # A suit-specific line names the table's suit: by symmetry, spades.
                    deals.append(((*base, bj), Deal((a, b), up, bj, specified_suit=_SPADES)))
    return deals


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
        _refuse_unless_odds(line)
    side = SideWagerRules(wager, "analysed", tuple(lines))
    rules = replace(rules, side_wagers=(side,), jurisdiction=jurisdiction or rules.jurisdiction)
    shoe = Shoe.shuffled(rules.decks, seed, spanish=rules.spanish_decks)
    seats = [SeatSpec({MAIN: Decimal(1), wager: Decimal(1)}, BasicStrategy(rules))]
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
        _line_results(lines, hits, rounds),
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


def analyse_dealer_hand(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: int,
    *,
    hits_soft_17: bool,
    jurisdiction: str | None = None,
) -> Analysis:
    """The exact analysis of a wager decided by the dealer's hand: every final dealer hand from a
    full shoe of `decks` decks (no player's cards removed), by its suit pattern where the wager
    reads suits; for lines that need the player's blackjack (Hit and Run, Buster's Free Bonus),
    the player's ace and ten-value card are drawn first and the dealer's hand from what is left.

    :raises NotAnalysable: a line paying a meter share or an amount; a paytable mixing lines that
        need the player's blackjack with lines that do not.
    """
    from engine.dealer_hands import falling

    for line in lines:
        _refuse_unless_odds(line)
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
    results = _line_results(lines, paid, total)
    edge = Fraction(lose, total) - sum((r.returns for r in results), Fraction(0))
    rule = "hitting" if hits_soft_17 else "standing on"
    removal = (
        "the player's blackjack (an ace and a ten-value card) drawn first, then the dealer's whole "
        "hand from the rest of the shoe"
        if blackjack
        else "the dealer's whole hand drawn from a full shoe; no player's cards removed"
    )
    settled = f", settled on the dealer's card {_SETTLED_AT[wager]}" if wager in _SETTLED_AT else ""
    return Analysis(
        wager,
        decks,
        lines[0].column if lines else "",
        results,
        Fraction(lose, total),
        Fraction(push, total),
        edge,
        f"{removal}; the dealer {rule} soft 17{settled}",
        total,
        nets=_nets(by_keys, lines),
    )


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
    longest): computed once per evaluator, shoe and rule, shared by every paytable of the wager."""
    from engine.dealer_hands import dealer_hands, numerator

    player = (_card("A", "C"), _card("K", "C")) if blackjack else (_card("2", "C"), _card("3", "C"))
    hands, shoe, longest = dealer_hands(
        decks, hits_soft_17, removed=("A", "T") if blackjack else (), max_cards=max_cards
    )
    counts: dict[tuple[str, ...], int] = {}
    for hand in hands:
        factor = numerator(hand, shoe, longest) // hand.ways
        patterns = (
            (("mixed", hand.ways),)
            if suit_blind
            else (("suited", hand.suited), ("colour", hand.colour), ("mixed", hand.mixed))
        )
        for pattern, ways in patterns:
            if ways:
                dealt = _dealer_cards(hand.ranks, pattern)
                made = tuple(evaluate(Deal(player, dealt[0], _natural(hand.ranks), dealt)))
                counts[made] = counts.get(made, 0) + factor * ways
    return counts, shoe, longest


@cache
def _card(rank: str, suit: str) -> Card:
    return Card(rank, Suit(suit))


@cache
def _dealer_cards(ranks: tuple[str, ...], pattern: str) -> tuple[Card, ...]:
    """A hand of these rank classes with the suit pattern: all hearts; hearts then diamonds (one
    colour, two suits); hearts then spades (two colours). A ten-value class is dealt as a ten."""
    rest = {"suited": "H", "colour": "D", "mixed": "S"}[pattern]
    return tuple(_card(r, "H" if i == 0 else rest) for i, r in enumerate(ranks))


def _natural(ranks: tuple[str, ...]) -> bool:
    return len(ranks) == 2 and "A" in ranks and "T" in ranks
