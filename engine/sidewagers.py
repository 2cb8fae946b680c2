"""Side wagers settled from the round's cards: which outcomes of its paytable a hand makes.

Each evaluator reads the player's first two cards, the dealer's up card and whether the dealer has
blackjack, and returns the outcome keys the hand qualifies for, highest ranking first (the order
the rules rank them: MA 28(b) for the 21+3 hands). A wager pays its highest ranking outcome that
its paytable has a line for. Wagers without an evaluator here are reported as not settled, never
guessed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from engine.cards import Card
from engine.hands import hand_total


@dataclass(frozen=True)
class Deal:
    """The cards a side wager is decided on."""

    player: tuple[Card, Card]
    """The player's first two cards."""
    up: Card
    dealer_blackjack: bool = False
    dealer_cards: tuple[Card, ...] = ()
    """The dealer's whole hand once played (up card first), for wagers on the dealer's hand."""
    player_cards: tuple[Card, ...] = ()
    """The cards of the seat's first hand as played, the first two included (hits follow)."""


class Stage(Enum):
    """What a wager's outcome needs, which decides when it settles and how it is analysed."""

    INITIAL = "the player's first two cards and the dealer's up card"
    HOLE = "the first cards and whether the dealer has blackjack"
    ROUND = "cards dealt later in the round (the dealer's final hand, the player's hits)"


Evaluator = Callable[[Deal], list[str]]


def three_card_poker(deal: Deal) -> list[str]:
    """21+3 (30-2107(2), MA 28(b)): the player's two cards and the dealer's up card as a poker
    hand; an ace is high, or low in A-2-3."""
    cards = (*deal.player, deal.up)
    ranks = sorted(14 if c.is_ace else c.number for c in cards)
    flush = len({c.suit for c in cards}) == 1
    trips = ranks[0] == ranks[2]
    straight = (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1) or ranks == [2, 3, 14]
    out = []
    if straight and flush:
        out.append("straight-flush")
    if trips:
        out.append("three-of-a-kind")
    if straight:
        out.append("straight")
    if flush:
        out.append("flush")
    return out


def kings_bounty(deal: Deal) -> list[str]:
    """King's Bounty (30-899.20, MA 29): the player's first two cards, the top line with a dealer
    blackjack."""
    a, b = deal.player
    suited = a.suit == b.suit
    total = hand_total(deal.player)[0]
    out = []
    if a.rank == b.rank == "K" and suited and a.suit.value == "S":
        if deal.dealer_blackjack:
            out.append("two-kings-of-spades-dealer-blackjack")
        out.append("two-kings-of-spades")
    if a.rank == b.rank == "K" and suited:
        out.append("suited-kings")
    if a.rank == b.rank and a.rank in "QJT" and suited:
        out.append("suited-queens-jacks-tens")
    if total == 20 and suited:
        out.append("suited-20")
    if a.rank == b.rank == "K":
        out.append("two-kings")
    if total == 20 and not suited:
        out.append("unsuited-20")
    return out


def lucky_lucky(deal: Deal) -> list[str]:
    """Lucky Lucky (30-899.18): the player's two cards and the dealer's up card, totalled as a
    blackjack hand."""
    cards = (*deal.player, deal.up)
    suited = len({c.suit for c in cards}) == 1
    ranks = sorted(c.rank for c in cards)
    total = hand_total(cards)[0]
    out = []
    if ranks == ["7", "7", "7"]:
        out += ["suited-777"] if suited else []
    if ranks == ["6", "7", "8"]:
        out += ["suited-678"] if suited else []
    if ranks == ["7", "7", "7"]:
        out.append("777")
    if ranks == ["6", "7", "8"]:
        out.append("678")
    if total == 21 and suited:
        out.append("suited-21")
    if total in (19, 20, 21):
        out.append(f"total-{total}")
    return out


EVALUATORS: dict[str, Evaluator] = {
    "21-plus-3": three_card_poker,
    "21-plus-3-xtreme": three_card_poker,
    "kings-bounty": kings_bounty,
    "lucky-lucky": lucky_lucky,
}
"""Catalog slug → evaluator."""


STAGES: dict[str, Stage] = {"kings-bounty": Stage.HOLE}
"""Wagers needing more than the first cards; the others are Stage.INITIAL."""


def stage(slug: str) -> Stage:
    return STAGES.get(slug, Stage.INITIAL)


def outcome(slug: str, deal: Deal, outcomes: set[str]) -> str | None:
    """The outcome the wager pays: the highest ranking one the paytable has; None: it loses."""
    for key in EVALUATORS[slug](deal):
        if key in outcomes:
            return key
    return None
