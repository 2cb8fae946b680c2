"""What a round is made of and what it leaves: the seats' wagers (SeatSpec, Seat), each event and
settlement, the round's log, and the names of the rules a settlement may apply."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.hands import (
    DealerHand,
    Hand,
)
from engine.odds import Basis, Pays
from engine.rules import RuleRef, RuleSet
from engine.sidewagers import (
    SIDES,
)
from engine.strategy import (
    Action,
    IllegalAction,
    Strategy,
)

MAIN = "main"
DOUBLE_UP = "double-up"
"""The wager a double up places beside the hand's main wager (30-899.10)."""
CENT = Decimal("0.01")
ZERO = Decimal(0)
RULE_KEYS = frozenset(
    {
        "win", "lose", "push", "blackjack", "blackjack-push", "dealer-blackjack",
        "dealer-blackjack-after-double", "dealer-blackjack-after-split", "two-card-21",
        "insurance", "even-money", "surrender", "switched-blackjack", "rescue", "bonus-21",
        "twenty-one", "designated-blackjack", "super-bonus",
    }
)  # fmt: skip
"""The rules a settlement names; the knowledge base cites each per jurisdiction (two-card-21 only
where the rules have it)."""
DOUBLE_UP_RULE_KEYS = frozenset(
    {"double-up-win", "double-up-tie", "split-aces-21", "dealer-16", "dealer-16-21"}
)
"""The rules of Double Up Blackjack's own a settlement names too (30-899.10), cited where the
game's rules have them."""
SWITCH_RULE_KEYS = frozenset({"dealer-22"})
"""Blackjack Switch's own rule a settlement names: a dealer's 22 pushes (30-2105(8)(e), as
read: engine/readings.py)."""
ONE_CARD_ACES = frozenset({Action.SPLIT, Action.STAND, Action.DOUBLE_UP})
"""What a split ace given its one card may do: split again, stand, or double up (where the hand
allows each)."""
ONE_TO_ONE = Pays(Basis.TO, ratio=Fraction(1))
ONE_TO_ONE_TEXT = str(ONE_TO_ONE)


@dataclass(frozen=True)
class SeatSpec:
    """A box: its wagers (the main wager under "main", side wagers by slug) and who decides;
    `sides`: the side the seat bets of each wager placed on one side of several
    (engine.sidewagers.SIDES: "over-under-13" → "over" or "under")."""

    wagers: Mapping[str, Decimal]
    strategy: Strategy
    sides: Mapping[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Event:
    step: int
    actor: str
    """"dealer", or "seat 2 hand 1"."""
    action: str
    """card, hit, stand, double, split, surrender, insurance, even_money, peek, reveal, …"""
    card: str = ""
    total: int | None = None
    note: str = ""


@dataclass(slots=True)
class Settlement:
    seat: int
    hand: int | None
    """1-based hand of the seat; None for a seat's insurance or side wager."""
    wager: str
    stake: Decimal
    result: str
    """win, lose, push, blackjack, surrender, even_money, returned."""
    net: Decimal
    """What the player won (positive) or lost (negative), the stake not counted."""
    pays: str
    rule: str
    """The rule applied, in words."""
    rule_key: str
    citation: RuleRef | None
    outcomes: tuple[str, ...] = ()
    """A side wager's paytable lines paid."""


@dataclass
class Seat:
    number: int
    wagers: dict[str, Decimal]
    strategy: Strategy
    sides: Mapping[str, str] = field(default_factory=dict)
    """The side bet of each wager placed on one side of several (SeatSpec.sides)."""
    hands: list[Hand] = field(default_factory=list)
    insurance: Decimal = Decimal(0)
    initial: tuple[Card, ...] = ()
    """The first two cards dealt, which side wagers are decided on."""
    settled: bool = False
    """Settled before the players' turns (even money, a dealer blackjack seen on the peek)."""

    @property
    def main(self) -> Decimal:
        return self.wagers[MAIN]

    def actor(self, hand: int) -> str:
        return _ACTORS.get((self.number, hand)) or f"seat {self.number} hand {hand + 1}"


_ACTORS = {
    (seat, hand): f"seat {seat} hand {hand + 1}" for seat in range(1, 15) for hand in range(8)
}


@dataclass
class RoundLog:
    rules: RuleSet
    seats: list[Seat]
    dealer: DealerHand
    events: list[Event] = field(default_factory=list)
    settlements: list[Settlement] = field(default_factory=list)

    def net(self, seat: int) -> Decimal:
        return sum((s.net for s in self.settlements if s.seat == seat), Decimal(0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "dealer": {
                "cards": [str(c) for c in self.dealer.cards],
                "total": self.dealer.total,
                "blackjack": self.dealer.is_blackjack,
            },
            "seats": [
                {
                    "seat": seat.number,
                    "wagers": {k: money(v) for k, v in seat.wagers.items()},
                    **({"sides": dict(seat.sides)} if seat.sides else {}),
                    "hands": [_hand_dict(hand) for hand in seat.hands],
                    "net": money(self.net(seat.number)),
                }
                for seat in self.seats
            ],
            "events": [
                {k: v for k, v in asdict(e).items() if v not in ("", None)} for e in self.events
            ],
            "settlements": [
                {**asdict(s), "stake": money(s.stake), "net": money(s.net)}
                for s in self.settlements
            ],
        }


def _hand_dict(hand: Hand) -> dict[str, Any]:
    """A hand as the round log shows it; `double_up`, the double up wager, where one was placed."""
    shown: dict[str, Any] = {
        "cards": [str(c) for c in hand.cards],
        "total": hand.total,
        "stake": money(hand.stake),
        "doubled": hand.doubled,
        "from_split": hand.from_split,
        "surrendered": hand.surrendered,
    }
    if hand.double_up:
        shown["double_up"] = money(hand.double_up)
    return shown


def pays_text(pays: Pays | None) -> str:
    if pays is None:
        return ""
    return ONE_TO_ONE_TEXT if pays is ONE_TO_ONE else str(pays)


def money(amount: Decimal) -> str:
    """Dollars and cents ("10.00"), exact: a payout finer than a cent keeps its digits."""
    cents = amount.quantize(CENT)
    return str(cents if cents == amount else amount)


def check_sides(seat: Seat) -> None:
    """:raises IllegalAction: a wager placed on one side of several (SIDES) without a side the
    wager has, or a side named for a wager that has none."""
    for wager in seat.wagers:
        if wager in SIDES:
            names = [s.name for s in SIDES[wager]]
            if seat.sides.get(wager) not in names:
                raise IllegalAction(
                    f"seat {seat.number}: {wager} is a wager on one side: name it, "
                    f"{' or '.join(names)}"
                )
    for wager in seat.sides:
        if wager not in SIDES or wager not in seat.wagers:
            raise IllegalAction(
                f"seat {seat.number}: {wager} has no sides to name"
                if wager not in SIDES
                else f"seat {seat.number}: a side is named for {wager}, which the seat does not bet"
            )
