"""Point counts of hands (30-825, MA 2(b)): aces count 11 unless that busts the hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from engine.cards import Card


def hand_total(cards: Sequence[Card]) -> tuple[int, bool]:
    """(total, soft): soft when an ace counts 11."""
    total, ace = 0, False
    for card in cards:
        total += card.value
        ace = ace or card.is_ace
    if ace and total <= 11:
        return total + 10, True
    return total, False


def is_two_card_21(cards: Sequence[Card]) -> bool:
    """Two cards that count 21: an ace and a ten-value card."""
    if len(cards) != 2:
        return False
    first, second = cards
    return first.value + second.value == 11 and (first.is_ace or second.is_ace)


def is_pair(cards: Sequence[Card]) -> bool:
    """Two cards identical in value (a king and a ten split, 30-814, MA 11(a))."""
    return len(cards) == 2 and cards[0].value == cards[1].value


@dataclass
class Hand:
    """One player hand and the amount riding on it."""

    cards: list[Card]
    stake: Decimal
    """The wager on this hand, doubled when doubled."""
    from_split: bool = False
    doubled: bool = False
    surrendered: bool = False
    split_aces: bool = False
    finished: bool = False
    rescued: bool = False
    double_up: Decimal = Decimal(0)
    """The double up wager beside the hand's main wager (30-899.10 Player Rules (2)); 0: none."""
    doubles: int = 0
    last_double: Decimal = Decimal(0)
    """The amount the last double added (what a rescue takes back, 30-899.16(7))."""
    spot: int = 0
    """Which of the seat's betting spots the hand plays for (Blackjack Switch deals two)."""
    switched: bool = False

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return hand_total(self.cards)[1]

    @property
    def busted(self) -> bool:
        return hand_total(self.cards)[0] > 21

    @property
    def is_blackjack(self) -> bool:
        """An ace and a ten-value card as the first two cards dealt, not after a split
        (30-802(1), MA 1) nor after a switch (30-2105(8)(b))."""
        return not self.from_split and not self.switched and is_two_card_21(self.cards)

    def describe(self) -> str:
        cards = " ".join(str(card) for card in self.cards)
        kind = "soft " if self.soft and self.total < 21 else ""
        return f"{cards} ({kind}{self.total})"


@dataclass
class DealerHand:
    cards: list[Card] = field(default_factory=list)

    @property
    def up(self) -> Card:
        return self.cards[0]

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return hand_total(self.cards)[1]

    @property
    def busted(self) -> bool:
        return hand_total(self.cards)[0] > 21

    @property
    def is_blackjack(self) -> bool:
        return is_two_card_21(self.cards)

    def must_draw(self, hits_soft_17: bool) -> bool:
        total, soft = hand_total(self.cards)
        return dealer_draws(total, soft, hits_soft_17)


def dealer_draws(total: int, soft: bool, hits_soft_17: bool, stops_on_16: bool = False) -> bool:
    """30-826(2), MA 12(b): draw below 17, and on soft 17 where the dealer hits it; where the
    dealer stops on 16 (Double Up Blackjack, 30-899.10 Dealer Rules (2)), not on a total of 16,
    soft or hard: a soft 16 (A-5) is read as a total of 16 too (30-802(11) calls it a "soft
    total"; fixtures/annotations.yaml, 30-899.10 ¶10(2))."""
    if stops_on_16 and total == 16:
        return False
    return total < 17 or (total == 17 and soft and hits_soft_17)


def bonus_21_kinds(cards: Sequence[Card]) -> set[str]:
    """The Bonus 21 hands a 21 makes (30-899.16(11)): 5-, 6- and 7-card 21s and the 6-7-8 and
    7-7-7 hands, mixed, suited or in spades."""
    kinds: set[str] = set()
    if hand_total(cards)[0] != 21:
        return kinds
    if len(cards) in (5, 6, 7):  # as printed: "5 card", "6 card", "7 card" 21
        kinds.add(f"{len(cards)}-card")
    ranks = sorted(card.rank for card in cards)
    for triple, name in ((["6", "7", "8"], "678"), (["7", "7", "7"], "777")):
        if ranks == triple:
            suits = {card.suit.value for card in cards}
            kinds.add(name)
            if len(suits) == 1:
                kinds.add(f"{name}-suited")
                if suits == {"S"}:
                    kinds.add(f"{name}-spades")
    return kinds
