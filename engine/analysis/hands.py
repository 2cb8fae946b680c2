"""Wagers decided by one hand of several cards from the shoe, whatever the play (Super Match, Pai
Jack), Go Fish 21, and 21 Hold'em: their exact analyses.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from engine.cards import RANKS, Card, Suit, card_of
from engine.hold_em import HOLD_EM
from engine.rules import PaytableLine
from engine.sidewagers import PUSH, Deal, paid_from
from engine.sidewagers.cards import pai_jack_bonus
from engine.sidewagers.poker import super_match

from .lines import Analysis, LineResult, NotAnalysable, counted, line_win, refuse_unless_odds

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
    return tuple(
        CardClass(4, tuple(card_of(r, suits[i % 4].value) for i in range(5))) for r in RANKS
    )


def _pai_jack_classes() -> tuple[CardClass, ...]:
    """What Pai Jack Bonus sees: each ace, king and queen by its suit (a suited A-K-Q), the jacks,
    the tens, and the other cards (2-9) alike."""
    suits = [s.value for s in Suit]
    one_each = tuple(CardClass(1, (card_of(r, s),)) for r in "AKQ" for s in suits)
    jacks = CardClass(4, tuple(card_of("J", suits[i % 4]) for i in range(5)))
    tens = CardClass(4, tuple(card_of("T", suits[i % 4]) for i in range(5)))
    low = CardClass(32, tuple(card_of(r, "C") for r in "23456"))
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
    return counted(wager, decks, lines, by_keys, total, hand.card_removal)


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
    return counted(GO_FISH, decks, lines, by_keys, total, GO_FISH_REMOVAL)


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
