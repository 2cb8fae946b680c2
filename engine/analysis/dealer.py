"""Wagers decided by the dealer's hand (and for some the player's blackjack): analysed exactly by
enumerating the dealer's whole hand (engine/dealer_hands), under a stated card-removal convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from engine.cards import RANKS, Card, card_of
from engine.rules import PaytableLine
from engine.sidewagers import SUITS_READ, Deal, Evaluator, evaluator, paid_from
from engine.sidewagers import dealer as dealer_wagers

from .lines import Analysis, NotAnalysable, counted, refuse_unless_odds

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
    return counted(wager, decks, lines, by_keys, total, removal_text)


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
    player = (
        (card_of("A", "C"), card_of("K", "C"))
        if blackjack
        else (card_of("2", "C"), card_of("3", "C"))
    )
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
def _cards_of(suit: str) -> dict[str, Card]:
    """Each rank's card of this suit."""
    return {r: card_of(r, suit) for r in RANKS}


_DEALT_SUIT = {"suited": "H", "colour": "D", "mixed": "S"}


@cache
def _dealer_cards(ranks: tuple[str, ...], pattern: str) -> tuple[Card, ...]:
    """A hand of these rank classes with the suit pattern: all hearts; hearts then diamonds (one
    colour, two suits); hearts then spades (two colours). A ten-value class is dealt as a ten."""
    rest = _cards_of(_DEALT_SUIT[pattern])
    return (_cards_of("H")[ranks[0]], *map(rest.__getitem__, ranks[1:]))


def _natural(ranks: tuple[str, ...]) -> bool:
    return len(ranks) == 2 and "A" in ranks and "T" in ranks
