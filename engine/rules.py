"""The rules a table plays by, as the engine needs them: built from a validated configuration and
the jurisdiction's rules (compliance/rulesets.py), never read from a database here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cached_property

from engine.cards import Card, Suit
from engine.odds import Pays


class HoleCard(StrEnum):
    PEEK = "peek"
    """A hole card the dealer checks for blackjack under an ace or a ten-value card."""
    NO_PEEK = "no_peek"
    """A hole card, looked at only after the players are done."""
    NONE = "none"
    """No hole card until the players are done (MA 6(h))."""


class Surrender(StrEnum):
    NONE = "none"
    LATE = "late"
    """After the dealer checks for blackjack; where nobody checked, a dealer blackjack takes the
    whole wager (MA 8(a)(2))."""
    EARLY = "early"
    """Half the wager whatever the dealer holds."""


class DoubleOn(StrEnum):
    ANY_TWO = "any_two"
    NINE_TEN_ELEVEN = "9_10_11"
    TEN_ELEVEN = "10_11"
    ANY_TIME = "any_time"
    """At any point, one card only (30-813's alternative)."""
    NONE = "none"


@dataclass(frozen=True)
class RuleRef:
    """The rule a settlement applied, as the knowledge base cites it on the round's date."""

    jurisdiction: str
    citation: str
    effective_from: date | None = None

    def __str__(self) -> str:
        return f"{self.jurisdiction} {self.citation}"


@dataclass(frozen=True)
class PaytableLine:
    outcome: str
    pays: Pays
    label: str = ""
    column: str = ""


@dataclass(frozen=True)
class SideWagerRules:
    """A side wager at the table: its catalog slug, the paytable in use and its citation."""

    wager: str
    paytable: str
    """Catalog id, or "inline"."""
    lines: tuple[PaytableLine, ...]
    citation: RuleRef | None = None
    meter: Decimal | None = None
    base_wager: Decimal | None = None
    """The wager the paytable's dollar amounts are for; another stake scales them."""
    specified_suit: Suit | None = None
    """The suit a "suit specific" line names, where the table specifies one (21+3 Progressive)."""


@dataclass(frozen=True)
class RuleSet:
    """Everything a round needs to know. Defaults are the common Colorado shoe game."""

    jurisdiction: str = ""
    """Whose rules: where a wager is defined differently by jurisdiction (Blazing 7's)."""

    decks: int = 6
    spanish_decks: bool = False
    dealer_hits_soft_17: bool = False
    hole_card: HoleCard = HoleCard.PEEK
    blackjack_pays: Fraction = Fraction(3, 2)
    insurance: bool = True
    insurance_pays: Fraction = Fraction(2)
    even_money: bool = True
    double_on: DoubleOn = DoubleOn.ANY_TWO
    double_after_split: bool = True
    max_split_hands: int = 4
    resplit_aces: bool = False
    split_aces_one_card: bool = True
    surrender: Surrender = Surrender.NONE
    original_bets_only: bool = True
    """A dealer blackjack takes only the original wager, not doubles or splits (30-813, 30-814;
    MA 10(b), 11(d))."""
    two_card_21_beats_dealer_21: bool = False
    """A player's 21 in two cards beats the dealer's 21 in more (MA 3(a)(3)); elsewhere only a
    blackjack does and a split hand's two-card 21 pushes."""
    dealer_face_up: bool = False
    """Both dealer cards dealt face up (Face Up Blackjack, 30-899.02(1)); a dealer blackjack shows
    at once and ends the round."""
    ties_lose: bool = False
    """A push loses the player's wager (30-899.02(3))."""
    spots_per_seat: int = 1
    """Hands each player is dealt, with equal wagers (two in Blackjack Switch, 30-2105(2))."""
    switch: bool = False
    """The player may swap the hands' second cards (30-2105(8)(b)); a switched blackjack is a 21."""
    switched_blackjack_pushes_22: bool = False
    """A switched blackjack pushes against a dealer's 22 (30-2105(8)(e))."""
    dealer_22_pushes: bool = False
    """A dealer's 22 does not bust: it pushes every standing hand but a blackjack (Blackjack
    Switch's rule, as 30-2105(8)(e) is read: engine/readings.py SWITCH_DEALER_22)."""
    blackjack_beats_dealer_blackjack: bool = False
    """A player's blackjack beats the dealer's (Spanish 21, 30-899.16(3))."""
    player_21_wins: bool = False
    """A player's 21 beats the dealer's 21 (Spanish 21, 30-899.16(4))."""
    bonus_21: tuple[tuple[str, Fraction], ...] = ()
    """Bonus odds of winning 21s, best first ("678-spades", 3 to 1), … (30-899.16(11); MA 3(e),
    16): kinds 5-card, 6-card, 7-card, 678, 678-suited, 678-spades, 777, 777-suited, 777-spades."""
    bonus_on_doubled: bool = False
    """Bonus odds paid on a doubled hand too (MA 3(e) does not exclude it; Spanish 21 does)."""
    designated_blackjack: tuple[Card, ...] = ()
    """The ace and face card of MA 3(e)(3)'s designated blackjack, paid
    designated_blackjack_pays.."""
    designated_blackjack_pays: Fraction = Fraction(2)
    super_bonus: tuple[tuple[Decimal, Decimal], ...] = ()
    """Spanish 21's Super Bonus (30-899.16(10)): (smallest main wager, amount), highest last."""
    envy_bonus: Decimal = Decimal(0)
    """Paid to each other betting player for each Super Bonus."""
    max_doubles: int = 1
    """Doubles a hand may take: Spanish 21's double-double down allows three (30-899.16(8))."""
    rescue: bool = False
    """After a double the player may take back the doubled portion and forfeit the rest
    (30-899.16(7))."""
    double_up: bool = False
    """The player may "double up" a two-card hand that is not a blackjack (Double Up Blackjack,
    30-899.10): stand, with a second wager of up to the main wager that wins 1:1 where the main
    wager wins and loses where it pushes (a tie)."""
    double_up_split_aces: bool = False
    """A two-card hand from split aces may be doubled up too (30-899.10 Version 2 (3))."""
    dealer_stops_on_16: bool = False
    """The dealer's play stops when the dealer's hand reaches a total of 16 (30-899.10 Dealer
    Rules (2)): every active wager is returned, except as dealer_16_pays_21 says."""
    dealer_16_pays_21: bool = False
    """Where the dealer stops on 16, a player's hand of 21 is paid 1:1 with all its wagers
    (30-899.10 Version 2 (6))."""
    blackjack_paid_at_once: bool = False
    """A player's blackjack is paid after the deal, whatever the dealer holds (30-899.10(3),
    Version 1)."""
    split_aces_21_pays: Fraction | None = None
    """A ten on a split ace is paid at these odds at once (2:1, 30-899.10 Player Rules (6),
    Version 1)."""
    chip_unit: Decimal = Decimal(1)
    citations: Mapping[str, RuleRef] = field(default_factory=dict)
    """Rule key ("win", "push", "double", …) → the rule's citation."""
    side_wagers: tuple[SideWagerRules, ...] = ()

    def cite(self, rule: str) -> RuleRef | None:
        return self.citations.get(rule)

    @property
    def blackjack_odds(self) -> str:
        return f"{self.blackjack_pays.numerator} to {self.blackjack_pays.denominator}"

    # What the engine asks of the rules in every round, worked out once per rule set (on Python
    # 3.11 each look-up of an enum member on its class, HoleCard.PEEK, takes a slow path).

    @cached_property
    def peeks(self) -> bool:
        """The dealer checks the hole card for blackjack under an ace or a ten-value card."""
        return self.hole_card is HoleCard.PEEK

    @cached_property
    def no_hole_card(self) -> bool:
        """The dealer's second card comes after the players are done (MA 6(h))."""
        return self.hole_card is HoleCard.NONE

    @cached_property
    def early_surrender(self) -> bool:
        return self.surrender is Surrender.EARLY

    @cached_property
    def late_surrender(self) -> bool:
        return self.surrender is Surrender.LATE

    @cached_property
    def doubles_any_time(self) -> bool:
        return self.double_on is DoubleOn.ANY_TIME
