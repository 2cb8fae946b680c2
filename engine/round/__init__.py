"""One round of blackjack: wagers, the deal, insurance and even money, the dealer's check for
blackjack, the players' decisions, the dealer's play and the settlement of every wager, each
settlement naming the rule it applied and that rule's citation.

The order is the rules' order (30-820, MA 6(e)): a card to each box from the dealer's left, one to
the dealer, a second to each box, then the hole card, if the table deals one (MA 6(h) deals the
dealer's second card after the players). A split's first hand is played out before the second
gets its second card (30-814, MA 11(b)).

By subject: records.py (seats, events, settlements, the log), base.py (a round's state and
steps), dealing.py (the play up to the settlement), settling.py (the settlement).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import RuleSet
from engine.shoe import Shoe

from .dealing import Dealing
from .records import (
    CENT,
    DOUBLE_UP,
    DOUBLE_UP_RULE_KEYS,
    MAIN,
    ONE_TO_ONE,
    ONE_TO_ONE_TEXT,
    RULE_KEYS,
    SWITCH_RULE_KEYS,
    ZERO,
    Event,
    RoundLog,
    Seat,
    SeatSpec,
    Settlement,
    money,
)
from .settling import Settling

__all__ = [
    "CENT",
    "DOUBLE_UP",
    "DOUBLE_UP_RULE_KEYS",
    "Event",
    "MAIN",
    "ONE_TO_ONE",
    "ONE_TO_ONE_TEXT",
    "RULE_KEYS",
    "RoundLog",
    "SWITCH_RULE_KEYS",
    "Seat",
    "SeatSpec",
    "Settlement",
    "ZERO",
    "money",
    "play_round",
]


def play_round(rules: RuleSet, shoe: Shoe, seats: Sequence[SeatSpec]) -> RoundLog:
    """Play one round and settle every wager.

    :raises engine.cards.EngineError: a script that does not fit (an action the rules do not allow,
        actions left over, a scripted shoe that runs out).
    """
    return _Round(rules, shoe, seats).play()


class _Round(Dealing, Settling):
    """One round, phase by phase (dealing.py, then settling.py)."""

    def play(self) -> RoundLog:
        self._deal()
        if self.rules.blackjack_paid_at_once:
            self._pay_blackjacks_at_once()
        up = self.log.dealer.up
        if up.is_ace and self.rules.insurance:
            self._offer_insurance()
        if self.rules.early_surrender:
            self._offer_early_surrender()
        if self.rules.dealer_face_up and self.log.dealer.is_blackjack:
            self.peeked = True  # in plain sight: the round ends before anyone plays
            self._settle_all()
            return self._finish()
        if self.rules.peeks and (up.is_ace or up.is_ten_value):
            self.peeked = True
            self._event("dealer", "peek", note="dealer checks the hole card for blackjack")
            if self.log.dealer.is_blackjack:
                self._reveal()
                self._settle_all()
                return self._finish()
        if self.rules.switch:
            self._offer_switch()
        for seat in self.log.seats:
            if not seat.settled:
                self._play_seat(seat)
        self._dealer_play()
        self._settle_all()
        return self._finish()
