"""Shoes: N decks shuffled from a seed (the same seed deals the same cards), or scripted (cards in
a given order, for compliance tests and replays), with a cut card or a continuous shuffler."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from engine.cards import Card, EngineError, deck, shoe_composition


class ShoeError(EngineError):
    """A shoe that cannot exist (too many of a card) or that ran out."""


class Shoe:
    """Cards to deal, in order. `draw` deals the next; `end_round` reshuffles where the rules
    say (the cut card was reached, or a continuous shuffler takes the cards back every round)."""

    def __init__(
        self,
        cards: Sequence[Card],
        *,
        decks: int,
        spanish: bool = False,
        seed: int | None = None,
        cut_card: int | None = None,
        continuous: bool = False,
    ) -> None:
        self.decks = decks
        self.spanish = spanish
        self.cards = list(cards)
        self.position = 0
        self.cut_card = cut_card
        self.continuous = continuous
        self.shuffles = 0
        self._random = random.Random(seed) if seed is not None else None

    @classmethod
    def shuffled(
        cls,
        decks: int,
        seed: int,
        *,
        spanish: bool = False,
        penetration: Fraction = Fraction(3, 4),
        continuous: bool = False,
    ) -> Shoe:
        """A shoe of `decks` decks shuffled by `seed`; the cut card sits after `penetration` of
        the cards (a continuous shuffler has none: it takes the cards back after every round)."""
        if decks < 1:
            raise ShoeError(f"a shoe needs at least one deck, not {decks}")
        size = decks * len(deck(spanish))
        shoe = cls(
            [],
            decks=decks,
            spanish=spanish,
            seed=seed,
            cut_card=None if continuous else int(size * penetration),
            continuous=continuous,
        )
        shoe.shuffle()
        return shoe

    @classmethod
    def scripted(cls, cards: Sequence[Card], decks: int, *, spanish: bool = False) -> Shoe:
        """The cards in the order given, checked against what `decks` decks hold.

        :raises ShoeError: more of a card than the shoe holds (three AS in a 2-deck shoe).
        """
        available = shoe_composition(decks, spanish)
        for card, count in Counter(cards).items():
            if count > available[card]:
                kind = "Spanish " if spanish else ""
                raise ShoeError(
                    f"{count} × {card} cannot come from a {decks}-deck {kind}shoe: it holds "
                    f"{available[card]}"
                )
        return cls(cards, decks=decks, spanish=spanish)

    @property
    def is_scripted(self) -> bool:
        return self._random is None

    def shuffle(self) -> None:
        if self._random is None:
            raise ShoeError("a scripted shoe is dealt in its order and never shuffled")
        self.cards = [card for card in deck(self.spanish) for _ in range(self.decks)]
        self._random.shuffle(self.cards)
        self.position = 0
        self.shuffles += 1

    def draw(self) -> Card:
        """The next card.

        :raises ShoeError: a scripted shoe ran out (the script needs more cards).
        """
        if self.position >= len(self.cards):
            if self.is_scripted:
                raise ShoeError(
                    f"the scripted shoe ran out after {len(self.cards)} cards: the round needs "
                    f"more cards"
                )
            # 30-828(11), MA 15(g): the discards are shuffled and the round completed.
            self.shuffle()
        card = self.cards[self.position]
        self.position += 1
        return card

    @property
    def dealt(self) -> list[Card]:
        return self.cards[: self.position]

    @property
    def remaining(self) -> int:
        return len(self.cards) - self.position

    def end_round(self) -> bool:
        """Reshuffle if the cut card came out this round or the shoe shuffles continuously;
        whether it did."""
        if self.is_scripted:
            return False
        if self.continuous or (self.cut_card is not None and self.position >= self.cut_card):
            self.shuffle()
            return True
        return False
