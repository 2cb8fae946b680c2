"""The state of a round in play and the steps every phase takes: deal a card to a hand, log an
event, settle a wager and what it wins, and which hand of a seat's spot a hand is."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from engine.cards import Card
from engine.hands import (
    DealerHand,
    Hand,
    hand_total,
    is_two_card_21,
)
from engine.odds import Pays
from engine.rules import RuleRef, RuleSet
from engine.shoe import Shoe
from engine.strategy import (
    IllegalAction,
)

from .records import MAIN, ZERO, Event, RoundLog, Seat, SeatSpec, Settlement, check_sides, pays_text


class RoundBase:
    """A round in play: the rules, the shoe, the log it writes."""

    def __init__(self, rules: RuleSet, shoe: Shoe, seats: Sequence[SeatSpec]) -> None:
        if not seats:
            raise IllegalAction("a round needs at least one seat with a wager")
        self.rules = rules
        self.shoe = shoe
        self.log = RoundLog(
            rules,
            [
                Seat(
                    n + 1,
                    {k: Decimal(v) for k, v in spec.wagers.items()},
                    spec.strategy,
                    dict(spec.sides),
                )
                for n, spec in enumerate(seats)
            ],
            DealerHand(),
        )
        for seat in self.log.seats:
            if seat.wagers.get(MAIN, ZERO) <= 0:
                raise IllegalAction(f"seat {seat.number}: a main wager above 0 is required")
            check_sides(seat)
        self.peeked = False
        # Double Up Blackjack's rules (30-899.10), read once: most rule sets have none of them.
        self.double_up = rules.double_up
        self.stops_on_16 = rules.dealer_stops_on_16
        self.pays_split_aces = rules.split_aces_21_pays is not None

    def _paid_split_aces(self, hand: Hand) -> bool:
        """A split ace given a ten: paid at once where the rules say so (pays_split_aces: 30-899.10
        Player Rules (6), Version 1), whatever the dealer's hand turns out to be."""
        return hand.split_aces and is_two_card_21(hand.cards)

    def _in_spot(self, seat: Seat, hand: Hand) -> int:
        """The hands the hand's betting spot holds (a split adds one)."""
        if self.rules.spots_per_seat == 1:
            return len(seat.hands)
        return sum(1 for h in seat.hands if h.spot == hand.spot)

    def _split(self, seat: Seat, hand: Hand) -> bool:
        return self._in_spot(seat, hand) > 1

    def _settle(
        self,
        seat: Seat,
        hand: int | None,
        wager: str,
        stake: Decimal,
        result: str,
        net: Decimal,
        pays: Pays | None,
        rule: str,
        rule_key: str,
        citation: RuleRef | None = None,
        outcomes: tuple[str, ...] = (),
    ) -> None:
        self.log.settlements.append(
            Settlement(
                seat.number,
                None if hand is None else hand + 1,
                wager,
                stake,
                result,
                net,
                pays_text(pays),
                rule,
                rule_key,
                citation or self.rules.cite(rule_key),
                outcomes,
            )
        )

    def _card(self, actor: str) -> Card:
        """The next card, logged without a total (a hand's first card)."""
        card = self.shoe.draw()
        events = self.log.events
        events.append(Event(len(events) + 1, actor, "card", card.text))
        return card

    def _deal_to(self, actor: str, hand: Hand | DealerHand) -> tuple[int, bool]:
        """The next card to `hand`, logged with the hand's new total; the new (total, soft)."""
        card = self.shoe.draw()
        cards = hand.cards
        cards.append(card)
        count = hand_total(cards)
        events = self.log.events
        events.append(Event(len(events) + 1, actor, "card", card.text, count[0]))
        return count

    def _event(
        self, actor: str, action: str, card: str = "", total: int | None = None, note: str = ""
    ) -> None:
        events = self.log.events
        events.append(Event(len(events) + 1, actor, action, card, total, note))

    def _finish(self) -> RoundLog:
        return self.log

    @staticmethod
    def _win(stake: Decimal, pays: Pays) -> Decimal:
        won = pays.net_win(stake)
        assert won is not None
        return won
