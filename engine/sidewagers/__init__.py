"""Side wagers settled from the round's cards: which outcomes of its paytable a hand makes.

Each evaluator reads a `Deal` and returns the outcome keys the hand qualifies for, highest ranking
first (the order the rules rank them: MA 28(b) for the 21+3 hands). A wager pays its highest
ranking outcome that its paytable has a line for (`outcome`); a few pay more than one line
(`paid_outcomes`). Keys are the catalog's (fixtures/catalog/*.yaml); a slug used in two
jurisdictions returns keys valid in each, or, where the definitions differ (Blazing 7's), has an
evaluator per jurisdiction. Wagers the cards do not decide are listed in `NOT_FROM_CARDS`, never
guessed.

Families: `poker` (poker hands), `cards` (the player's first cards), `dealer` (the played round).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from engine.rules import PaytableLine
from engine.sidewagers import cards, dealer, poker
from engine.sidewagers.base import PUSH, Deal, Evaluator, NotDecidable, Stage

__all__ = [
    "DOWN_CARD_OF",
    "EVALUATORS",
    "IN_ADDITION",
    "ORDERED",
    "JURISDICTION_EVALUATORS",
    "NOT_DECIDED_BY_CARDS",
    "NOT_FROM_CARDS",
    "PAIR_ONLY",
    "READING_EVALUATORS",
    "PUSH",
    "RANKS_ONLY",
    "SPANISH_DECKS",
    "SUITS_READ",
    "WHOLE_HAND",
    "STAGES",
    "SIDES",
    "Deal",
    "Side",
    "Evaluator",
    "NotDecidable",
    "Stage",
    "evaluator",
    "outcome",
    "paid_from",
    "paid_outcomes",
    "side_lines",
    "sided",
    "stage",
]

three_card_poker = poker.three_card_poker
kings_bounty = cards.kings_bounty
lucky_lucky = cards.lucky_lucky

EVALUATORS: dict[str, Evaluator] = {
    # poker hands
    "21-plus-3": poker.three_card_poker,
    "21-plus-3-xtreme": poker.three_card_poker,
    "21-plus-3-progressive": poker.progressive_21_plus_3,
    "top-3": poker.top_3,
    "trilux-super-3": poker.top_3,
    "trilux-bonus": poker.trilux_bonus,
    "trilux-progressive": poker.trilux_progressive,
    "3-card-21-n-done": poker.three_card_bonus,
    "golden-21-poker": poker.golden_21,
    "straight-jack": poker.straight_jack,
    "straight-jack-progressive": poker.straight_jack_progressive,
    "ante-up-21-poker-bonus": poker.ante_up_poker_bonus,
    "super-match": poker.super_match,
    "royal-match-21": poker.royal_match,
    "royal-match-21-progressive": poker.royal_match_progressive,
    # the player's first cards
    "kings-bounty": cards.kings_bounty,
    "lucky-lucky": cards.lucky_lucky,
    "twenty-point-bonus": cards.twenty_point_bonus,
    "in-between": cards.in_between,
    "bet-the-set-21": cards.bet_the_set,
    "bet-the-set-21-progressive": cards.bet_the_set_progressive,
    "pocket-rockets": cards.pocket_rockets,
    "rocket-aces": cards.rocket_aces,
    "same-suit": cards.same_suit,
    "over-under-13": cards.over_under_13,
    "match-the-dealer": cards.match_the_dealer,
    "spanish-21-match-the-dealer": cards.match_each_card,
    "match-the-dealer-down-card": cards.on_the_down_card(cards.match_combination),
    "war-blackjack": cards.war,
    "spanish-21-match-the-dealer-down-card": cards.on_the_down_card(cards.match_each_card),
    "lucky-ladies": cards.twenty_point_bonus,
    "blackjack-bonus": cards.blackjack_bonus,
    "blazing-7s": cards.blazing_7s,
    "sevens": cards.sevens,
    "progressive-blackjack": cards.progressive_blackjack,
    # the played round
    "raise-the-roof": dealer.raise_the_roof,
    "buster-blackjack": dealer.buster,
    "hit-and-run": dealer.hit_and_run,
    "optional-bonus": dealer.optional_bonus,
    "buffalo-blackjack-bonus": dealer.magic_21,
    "buffalo-bust-bonus": dealer.bust_bonus,
    "buffalo-blackjack-bonus-2": dealer.bust_bonus,
    "buffalo-blackjack-bonus-3": dealer.bust_bonus,
    "trilux-bust-bonanza": dealer.bust_bonanza,
    "super-4-progressive": dealer.super_4,
    "ace-buster": dealer.ace_buster,
    "push-your-luck": dealer.push_your_luck,
}
"""Catalog slug → evaluator (Colorado's form where a slug means different things)."""

JURISDICTION_EVALUATORS: dict[tuple[str, str], tuple[Evaluator, Stage]] = {
    # MA 31(c), (i): the three 7s are the player's two and the dealer's up card; Colorado's
    # 30-899.21(8) counts the third card dealt to the player instead.
    ("US-MA", "blazing-7s"): (cards.blazing_7s_up_card, Stage.INITIAL),
}
"""(jurisdiction, slug) → evaluator and stage where a jurisdiction defines the wager otherwise."""

READING_EVALUATORS: dict[tuple[str, str, str], Evaluator] = {
    # MA 17(e)(3)'s "One seven (initial card)" as a seven in either of the first two cards
    ("US-MA", "sevens", "either-first-two-cards"): cards.sevens_either_card,
}
"""(jurisdiction, slug, reading) → the evaluator of a reading the engine sets aside
(engine/readings.py), to give its figure beside the one the engine plays. The stage is the
wager's."""

_ROUND = Stage.ROUND
STAGES: dict[str, Stage] = {
    "kings-bounty": Stage.HOLE,
    "twenty-point-bonus": Stage.HOLE,
    "lucky-ladies": Stage.HOLE,
    "pocket-rockets": Stage.HOLE,
    "rocket-aces": Stage.HOLE,
    "trilux-progressive": Stage.HOLE,
    "blazing-7s": _ROUND,
    "sevens": _ROUND,
    "progressive-blackjack": _ROUND,
    "straight-jack": _ROUND,
    "straight-jack-progressive": _ROUND,
    "3-card-21-n-done": _ROUND,
    "raise-the-roof": _ROUND,
    "buster-blackjack": _ROUND,
    "hit-and-run": _ROUND,
    "optional-bonus": _ROUND,
    "buffalo-blackjack-bonus": _ROUND,
    "buffalo-bust-bonus": _ROUND,
    "buffalo-blackjack-bonus-2": _ROUND,
    "buffalo-blackjack-bonus-3": _ROUND,
    "trilux-bust-bonanza": _ROUND,
    "super-4-progressive": _ROUND,
    "ace-buster": _ROUND,
    "push-your-luck": _ROUND,
    "match-the-dealer-down-card": Stage.DOWN_CARD,
    "spanish-21-match-the-dealer-down-card": Stage.DOWN_CARD,
}
"""Wagers needing more than the first cards; the others are Stage.INITIAL. Royal Match 21 is
INITIAL: its Crown Treasure line also needs the dealer's hole card, which only a played round
gives (its pay is an optional dollar amount, left out of every analysis). Royal Match 21
Progressive's Double Royal Match lines, and Bet the Set 21 Progressive's Four of a Kind lines,
need the dealer's first two cards the same way, TriLux Progressive's spade AK/Q the dealer's hole
card (Pay table 05's AK/Q/J), and Rocket Aces' two aces with a dealer blackjack its suits: their
evaluators say so (NotDecidable) where a deal lacks them, and the exact analysis then deals each
hole card the shoe leaves (engine/analysis/first_cards.py HOLE_CARD)."""

IN_ADDITION: dict[str, str] = {
    "crown-treasure": "royal-match",  # 30-899.11: "in addition to the Royal Match pay out"
    "free-bonus-8-plus-cards": "bust-8-plus-cards",  # MA 27(h): "In addition to ... (g)"
    "free-bonus-7-cards": "bust-7-cards",
}
"""An outcome paid on top of another line of the same paytable, where the paytable has both."""

DOWN_CARD_OF = {
    "match-the-dealer-down-card": "match-the-dealer",
    "spanish-21-match-the-dealer-down-card": "spanish-21-match-the-dealer",
}
"""Stage.DOWN_CARD wagers → the wager they mirror on the up card (same pay table: 30-899.24(5),
(6); 30-899.16(12)). Dealt from one shoe, the unseen down card is distributed as the up card is,
so the exact analysis of the one is that of the other."""

PAID_FOR_EACH = {
    "match-the-dealer",
    "spanish-21-match-the-dealer",
    "match-the-dealer-down-card",
    "spanish-21-match-the-dealer-down-card",
}
"""Wagers paid once for every key the evaluator returns (MA 23(a)(2), 30-899.16(12)(b): "paid for
each card"); a paytable printing the combinations (30-899.24(6)) has only the combination's key."""


@dataclass(frozen=True)
class Side:
    """One side of a wager placed on one of several: what a seat names, the one line that pays it,
    and the pay column its analysis is shown as."""

    name: str
    outcome: str
    column: str


SIDES: dict[str, tuple[Side, ...]] = {
    # MA 17(b)(1), (2): the player wagers that the initial two cards' total exceeds 13, or that
    # it is less than 13 ("either greater than or less than", (a)(1)); each pays one to one,
    # (e)(1), and a total of 13 loses, (c)
    "over-under-13": (Side("over", "over-13", "Over 13"), Side("under", "under-13", "Under 13")),
}
"""Wagers the player places on one side of several: each side a bet of its own, paid only by its
own line, never a stake paid on every line (`sided`: the analysis values each side as a pay
column of its own; a round settles the side the seat names, `side_lines`)."""


def sided(wager: str, lines: Sequence[PaytableLine]) -> list[PaytableLine]:
    """The paytable's lines, each line of a wager with sides (SIDES) in its side's pay column (the
    column the paytable gives, if any, before it), so that each side is analysed as a bet of its
    own; a line of no side is left out. Other wagers' lines unchanged."""
    if wager not in SIDES:
        return list(lines)
    by_outcome = {side.outcome: side for side in SIDES[wager]}
    return [
        replace(line, column=", ".join(filter(None, (line.column, side.column))))
        for line in lines
        if (side := by_outcome.get(line.outcome)) is not None
    ]


def side_lines(wager: str, side: str, lines: Sequence[PaytableLine]) -> list[PaytableLine]:
    """The lines that pay `side` of a wager with sides, in that side's column (`sided`).

    :raises KeyError: the wager has no such side."""
    [chosen] = [s for s in SIDES[wager] if s.name == side]
    return [line for line in sided(wager, lines) if line.outcome == chosen.outcome]


ORDERED = {"war-blackjack", "sevens"}
"""Wagers decided on the order the player's cards came: War Blackjack's first card
(30-899.17(5)), the sevens wager's "One seven (initial card)" (MA 17(e)(3))."""

SPANISH_DECKS = {"spanish-21-match-the-dealer", "spanish-21-match-the-dealer-down-card"}
"""Wagers offered only at Spanish 21, dealt from Spanish decks (30-899.16(2): 48 cards, the 10s
removed): the exact analysis deals them from those decks."""

RANKS_ONLY = "ranks only"

SUITS_READ: dict[Evaluator, str] = {
    # ranks and points only
    cards.in_between: RANKS_ONLY,
    cards.over_under_13: RANKS_ONLY,
    cards.war: RANKS_ONLY,
    cards.blackjack_bonus: RANKS_ONLY,
    # whether suits are alike (a flush, a suited pair, a suited match), no suit by name
    poker.three_card_poker: "alike",
    poker.top_3: "alike",
    poker.trilux_bonus: "alike",
    poker.golden_21: "alike",
    poker.royal_match: "alike",
    poker.royal_match_progressive: "alike",
    cards.lucky_lucky: "alike",
    cards.bet_the_set: "alike",
    cards.pocket_rockets: "alike",
    cards.same_suit: "alike",
    cards.match_each_card: "alike",
    cards.match_the_dealer: "alike",
    cards.match_combination: "alike",
    cards.sevens: "alike",  # three 7s of one suit, two of one suit
    cards.sevens_either_card: "alike",
    # a suit by name: the others alike
    cards.kings_bounty: "S",  # the kings of spades
    poker.ante_up_poker_bonus: "S",  # three aces of spades
    poker.trilux_progressive: "S",  # the spade AK/Q
    poker.progressive_21_plus_3: "S",  # the suit-specific lines: the analysis specifies spades
    cards.twenty_point_bonus: "H",  # the queen of hearts pair
    cards.blazing_7s_up_card: "D colour",  # three 7s of diamonds, of one colour
    cards.blazing_7s: "D colour",
    poker.three_card_bonus: "D",  # the Diamond Royal
    cards.bet_the_set_progressive: "colour",  # four of a kind of one colour
    cards.rocket_aces: "S",  # aces and a dealer blackjack of spades
    # the dealer's hand
    dealer.buster: RANKS_ONLY,
    dealer.hit_and_run: RANKS_ONLY,
    dealer.ace_buster: RANKS_ONLY,
    dealer.bust_bonus: "alike",  # a suited bust
    dealer.bust_bonanza: "alike",
    dealer.raise_the_roof: "alike",
    dealer.optional_bonus: "colour",  # three 8s of one suit, of one colour
}
"""What an evaluator can tell of the cards' suits, for the exact analysis to evaluate one deal
of each family of deals it cannot tell apart (engine/analysis/first_cards.py): RANKS_ONLY,
no suit; "alike", whether suits are the same, not which; suit letters ("S"), those suits by name
and the others alike; "colour", which cards share a colour too. An evaluator not listed is taken
to see every suit. tests/engine/test_analysis.py checks each against relabelled deals."""

PAIR_ONLY: set[Evaluator] = {
    cards.kings_bounty,
    cards.twenty_point_bonus,
    cards.bet_the_set,
    cards.pocket_rockets,
    cards.same_suit,
    cards.over_under_13,
    cards.blackjack_bonus,
    poker.golden_21,
    poker.royal_match,  # the dealer's cards only in a played round (Crown Treasure)
}
"""Evaluators that read, of the first cards, only the player's two (and whether the dealer has
blackjack), never the up card: the exact analysis evaluates one deal for every up card."""

WHOLE_HAND: set[Evaluator] = {
    poker.three_card_poker,
    poker.progressive_21_plus_3,
    poker.top_3,
    poker.trilux_bonus,
    poker.three_card_bonus,  # the player's three cards
    cards.lucky_lucky,
}
"""Evaluators that read the player's two cards and the dealer's up card (or the player's three
cards) as one hand, in no order: the exact analysis evaluates one deal for every order."""

_NO_OUTCOMES = "the catalog lists no outcomes for it, so no paytable line can be settled"
NOT_DECIDED_BY_CARDS: dict[str, str] = {
    "streak": "it is won on consecutive winning hands of the main game over two to five rounds "
    "(30-899.07(2), (6); MA 22), pushes and split hands counted by (7) and (8): no one round's "
    "cards decide it, and the rounds of one shoe are not independent, so no count of one deal "
    "gives its return",
    "burnout-bonus": "it is won on consecutive winning hands of the main game over two to four "
    "rounds (30-899.25 Bonus Wager (1)-(3)), pushes and split hands counted by (2): no one "
    "round's cards decide it, and the rounds of one shoe are not independent, so no count of one "
    "deal gives its return",
    "dead-mans-hand": "30-899.15 does not define its pay table's lines: what a \"Set of A-8's\" "
    'is, nor which split hands count ((7)(d): "paid for the number of Aces and/or eights"), '
    'and "A-A or 8-8 with only A-8 after split" pays more than the set it holds '
    "(fixtures/annotations.yaml, 30-899.15(9)): the cards cannot be matched to a line",
    "wheel-of-madness": "it is decided by a wheel, not by the cards (30-899.06); " + _NO_OUTCOMES,
}
"""Wagers no count of the cards can settle: decided across rounds, by a wheel, or by lines the
rule text leaves undefined. Neither a round nor the exact analysis settles them."""

NOT_FROM_CARDS: dict[str, str] = NOT_DECIDED_BY_CARDS | {
    "go-fish-21": "its pay is decided by a card drawn from the separate 14-card Go Fish deck "
    "(30-899.08(7), (8)), not by the round's cards",
    "21-hold-em": "its poker hand uses three cards dealt after the blackjack round from a "
    "reshuffled deck, with fold decisions between them (30-2104(5)-(13))",
    "pai-jack-bonus": "Pai Jack deals each player a five-card packet, not a blackjack hand "
    "(30-2112(3), (5)); the engine does not play Pai Jack",
}
"""Catalog slug → why the engine's round does not settle it from the round's cards: the wagers
not decided by the cards, and three the exact analysis counts on cards of their own (the Go Fish
deck, 21-Hold 'em's community cards, a Pai Jack packet) that a blackjack round does not deal."""


def evaluator(slug: str, jurisdiction: str | None = None, reading: str | None = None) -> Evaluator:
    """The wager's evaluator in a jurisdiction (Colorado's form where none is given); with
    `reading`, the evaluator of that reading set aside (READING_EVALUATORS).

    :raises KeyError: no evaluator for the wager (or the reading).
    """
    if reading is not None:
        return READING_EVALUATORS[(jurisdiction or "", slug, reading)]
    if jurisdiction and (jurisdiction, slug) in JURISDICTION_EVALUATORS:
        return JURISDICTION_EVALUATORS[(jurisdiction, slug)][0]
    return EVALUATORS[slug]


def stage(slug: str, jurisdiction: str | None = None) -> Stage:
    if jurisdiction and (jurisdiction, slug) in JURISDICTION_EVALUATORS:
        return JURISDICTION_EVALUATORS[(jurisdiction, slug)][1]
    return STAGES.get(slug, Stage.INITIAL)


def outcome(
    slug: str, deal: Deal, outcomes: set[str], jurisdiction: str | None = None
) -> str | None:
    """The outcome the wager pays: the highest ranking one the paytable has; PUSH: the wager is
    returned; None: it loses."""
    return _first_paid(evaluator(slug, jurisdiction)(deal), outcomes)


def paid_outcomes(
    slug: str, deal: Deal, outcomes: set[str], jurisdiction: str | None = None
) -> list[str]:
    """Every line the wager pays, in order: the outcome, a line paid in addition to it
    (`IN_ADDITION`), or one line per matching card (`PAID_FOR_EACH`). [PUSH]: returned; []: lost."""
    return paid_from(slug, evaluator(slug, jurisdiction)(deal), outcomes)


def paid_from(slug: str, made: Sequence[str], outcomes: Collection[str]) -> list[str]:
    """The lines paid, from the outcomes a deal makes (an evaluator's answer, best first)."""
    if slug in PAID_FOR_EACH:
        return [key for key in made if key in outcomes]
    won = _first_paid(made, outcomes)
    if won is None:
        return []
    also = IN_ADDITION.get(won)
    return [won, also] if also is not None and also in outcomes else [won]


def _first_paid(made: Sequence[str], outcomes: Collection[str]) -> str | None:
    for key in made:
        if key == PUSH or key in outcomes:
            return key
    return None
