"""Cards with suits and ranks, and the decks they come in.

A card is written as the rules' tables and dealers' logs write it: rank then suit, "7H", "TC",
"10C", "AS", "KD". Ten is "T" or "10".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache


class EngineError(ValueError):
    """Input the engine cannot play: the message says what is wrong, for a person to fix."""


class InvalidCard(EngineError):
    """The text names no card."""


class Suit(Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)


RANKS = "A23456789TJQK"
"""Ranks in order, ace low; index + 1 is the rank number (J 11, Q 12, K 13)."""


@dataclass(frozen=True, order=True)
class Card:
    rank: str
    """One of RANKS."""
    suit: Suit
    value: int = field(init=False, compare=False, repr=False)
    """Point value, an ace counting 1."""
    is_ace: bool = field(init=False, compare=False, repr=False)
    text: str = field(init=False, compare=False, repr=False)
    """As dealers write it: "7H"."""

    def __post_init__(self) -> None:
        # Read on every count of every hand and every log line: kept as plain attributes.
        object.__setattr__(self, "value", min(RANKS.index(self.rank) + 1, 10))
        object.__setattr__(self, "is_ace", self.rank == "A")
        object.__setattr__(self, "text", f"{self.rank}{self.suit.value}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read "7H", "TC", "10C", "as" (any case).

        :raises InvalidCard: not a card ("1H", "7X", "").
        """
        clean = str(text).strip().upper()
        rank, suit = clean[:-1], clean[-1:]
        rank = "T" if rank == "10" else rank
        if len(rank) != 1 or rank not in RANKS or suit not in "CDHS" or not suit:
            raise InvalidCard(
                f"{text!r} is not a card; write rank then suit, e.g. 7H, TC, 10C, AS, KD "
                f"(ranks A 2-9 T J Q K, suits C D H S)"
            )
        return cls(rank, Suit(suit))

    @property
    def number(self) -> int:
        """Rank number, ace 1 … king 13, for straights and spreads."""
        return RANKS.index(self.rank) + 1

    @property
    def is_ten_value(self) -> bool:
        return self.value == 10

    @property
    def is_face(self) -> bool:
        return self.rank in "JQK"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


@cache
def card_of(rank: str, suit: Suit | str) -> Card:
    """The card of a rank and suit ("C" or Suit.CLUBS), one object each (the enumerations build
    millions of hands from them)."""
    return Card(rank, Suit(suit))


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Cards from their texts; the error names the position of a bad one."""
    cards = []
    for n, text in enumerate(texts):
        try:
            cards.append(Card.parse(text))
        except InvalidCard as exc:
            raise InvalidCard(f"card {n + 1}: {exc}") from None
    return cards


def deck(spanish: bool = False) -> list[Card]:
    """One deck in new-deck order: 52 cards, or the 48 of a Spanish deck (no tens; J Q K stay)."""
    return list(_DECKS[spanish])


_DECKS = {
    spanish: tuple(
        Card(rank, suit) for suit in Suit for rank in (RANKS.replace("T", "") if spanish else RANKS)
    )
    for spanish in (False, True)
}


def shoe_composition(decks: int, spanish: bool = False) -> Counter[Card]:
    """How many of each card a shoe of `decks` decks holds."""
    return Counter({card: decks for card in deck(spanish)})
