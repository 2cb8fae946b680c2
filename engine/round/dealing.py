"""The round's play up to the settlement: the deal, blackjacks paid at once, insurance and even
money, early surrender, the switch, each seat's decisions, and the dealer's play (30-820, MA 6)."""

from __future__ import annotations

from decimal import ROUND_CEILING, Decimal

from engine.cards import Card
from engine.hands import (
    Hand,
    dealer_draws,
    hand_total,
)
from engine.odds import Basis, Pays
from engine.sidewagers import (
    Stage,
    stage,
)
from engine.strategy import (
    AT_21,
    Action,
    IllegalAction,
    Insurance,
    Scripted,
    allowed_actions,
    stands_unasked,
)

from .base import RoundBase
from .records import MAIN, ONE_CARD_ACES, ONE_TO_ONE, Seat


class Dealing(RoundBase):
    """The phases of a round before its settlement."""

    def _deal(self) -> None:
        seats, dealer = self.log.seats, self.log.dealer
        for seat in seats:
            for spot in range(self.rules.spots_per_seat):
                seat.hands.append(Hand([self._card(seat.actor(spot))], seat.main, spot=spot))
        dealer.cards.append(self._card("dealer"))
        for seat in seats:
            initial: list[Card] = []
            for spot, hand in enumerate(seat.hands):
                self._deal_to(seat.actor(spot), hand)
                initial += hand.cards
            seat.initial = tuple(initial)
        if self.rules.dealer_face_up:
            self._deal_to("dealer", dealer)
        elif not self.rules.no_hole_card:
            dealer.cards.append(self.shoe.draw())
            self._event("dealer", "hole card", note="dealt face down")

    def _pay_blackjacks_at_once(self) -> None:
        """30-899.10 Game Play (3), Version 1: after the first two cards the dealer pays every
        player blackjack at 3:2 (the table's blackjack odds), whatever the dealer holds."""
        pays = Pays(Basis.TO, ratio=self.rules.blackjack_pays)
        for seat in self.log.seats:
            hand = seat.hands[0]
            if len(seat.hands) == 1 and hand.is_blackjack:
                self._event(seat.actor(0), "blackjack", note=f"paid {pays} at once")
                self._settle(seat, 0, MAIN, hand.stake, "blackjack", self._win(hand.stake, pays),
                             pays, "A player blackjack is paid after the deal, whatever the "
                             "dealer holds", "blackjack")  # fmt: skip
                seat.settled = hand.finished = True

    def _offer_insurance(self) -> None:
        for seat in self.log.seats:
            hand = seat.hands[0]
            # A blackjack paid already (30-899.10 Game Play (3)) has no even money to take.
            offered = self.rules.even_money and hand.is_blackjack and not seat.settled
            choice = seat.strategy.insure(hand, self.log.dealer.up, offered)
            if choice is Insurance.EVEN_MONEY:
                self._event(seat.actor(0), "even_money", note="blackjack paid 1 to 1 now")
                self._settle(
                    seat,
                    0,
                    MAIN,
                    seat.main,
                    "even_money",
                    seat.main,
                    ONE_TO_ONE,
                    "Even money: the blackjack is paid 1 to 1 against the dealer's ace",
                    "even-money",
                )
                seat.settled = hand.finished = True
            elif choice is Insurance.INSURE:
                seat.insurance = self._insurance_stake(seat.main)
                self._event(seat.actor(0), "insurance", note=f"insurance {seat.insurance}")

    def _insurance_stake(self, main: Decimal) -> Decimal:
        """Half the main wager, or the next chip above where chips cannot make half
        (30-812(1), MA 9(b))."""
        unit = self.rules.chip_unit
        half = main / 2
        if unit <= 0 or half % unit == 0:
            return half
        return (half / unit).to_integral_value(rounding=ROUND_CEILING) * unit

    def _offer_early_surrender(self) -> None:
        for seat in self.log.seats:
            hand = seat.hands[0]
            if seat.settled or hand.is_blackjack:
                continue
            if seat.strategy.surrender_early(hand, self.log.dealer.up):
                hand.surrendered = hand.finished = True
                self._event(seat.actor(0), "surrender", note="early surrender")

    def _offer_switch(self) -> None:
        """30-2105(8)(b): the second cards of the two hands may be swapped."""
        for seat in self.log.seats:
            first, second = seat.hands[0], seat.hands[1]
            if seat.settled or not seat.strategy.switch(seat.hands, self.log.dealer.up):
                continue
            first.cards[1], second.cards[1] = second.cards[1], first.cards[1]
            first.switched = second.switched = True
            self._event(seat.actor(0), "switch", note=f"{first.describe()} / {second.describe()}")

    def _play_seat(self, seat: Seat) -> None:
        rules, strategy = self.rules, seat.strategy
        up = self.log.dealer.up
        hole = self.log.dealer.cards[1] if rules.dealer_face_up else None
        i = 0
        while i < len(seat.hands):
            hand, actor = seat.hands[i], seat.actor(i)
            if len(hand.cards) == 1:  # the second hand of a split gets its card now
                self._deal_to(actor, hand)
                if hand.split_aces and rules.split_aces_one_card:
                    hand.finished = not self._split_ace_plays_on(seat, hand)
            while not hand.finished:
                allowed = allowed_actions(hand, self._in_spot(seat, hand), rules)
                if hand.split_aces and rules.split_aces_one_card:
                    allowed = allowed & ONE_CARD_ACES
                if not allowed:
                    break
                action = strategy.decide(hand, up, allowed, hole)
                if action is Action.STAND and (
                    allowed is AT_21 or self.double_up and stands_unasked(hand, allowed)
                ):
                    break  # a 21 the player does not double (up) stands, as any 21 does
                self._event(actor, str(action))  # the value: Action is a StrEnum
                self._act(seat, i, actor, hand, action)
            hand.finished = True
            i += 1
        if isinstance(seat.strategy, Scripted) and seat.strategy.unused():
            raise IllegalAction(
                f"seat {seat.number}: actions left over after the seat's hands were played: "
                f"{', '.join(seat.strategy.unused())}"
            )

    def _split_ace_plays_on(self, seat: Seat, hand: Hand) -> bool:
        """A split ace given its one card may still be split again, or doubled up where the
        rules allow it (30-899.10 Version 2 (3)); else it stands."""
        return self._may_resplit_aces(seat, hand) or self.rules.double_up_split_aces

    def _may_resplit_aces(self, seat: Seat, hand: Hand) -> bool:
        return (
            self.rules.resplit_aces
            and hand.cards[1].is_ace
            and self._in_spot(seat, hand) < self.rules.max_split_hands
        )

    def _act(self, seat: Seat, i: int, actor: str, hand: Hand, action: Action) -> None:
        if action is Action.STAND:
            hand.finished = True
        elif action is Action.HIT:
            self._deal_to(actor, hand)
        elif action is Action.DOUBLE:
            # The original wager; a double-double down doubles the whole wager (30-899.16(8)).
            hand.last_double = hand.stake if hand.doubled else seat.main
            hand.stake += hand.last_double
            hand.doubles += 1
            hand.doubled = True
            self._deal_to(actor, hand)
            # One card only (30-813, MA 10(a)); Spanish 21 may then rescue (30-899.16(7)).
            hand.finished = not (self.rules.rescue and not hand.busted)
        elif action is Action.DOUBLE_UP:
            # A second wager beside the main one, and no more cards (30-899.10 Player Rules (2),
            # (3)): the full initial wager, as a scripted action carries no amount.
            hand.double_up = seat.main
            hand.finished = True
        elif action is Action.RESCUE:
            hand.rescued = hand.finished = True
        elif action is Action.SURRENDER:
            hand.surrendered = hand.finished = True
        elif action is Action.SPLIT:
            moved = hand.cards.pop()
            aces = moved.is_ace
            hand.from_split = True
            hand.split_aces = aces
            seat.hands.insert(
                i + 1,
                Hand([moved], seat.main, from_split=True, split_aces=aces, spot=hand.spot),
            )
            self._deal_to(actor, hand)
            if aces and self.rules.split_aces_one_card and not self._split_ace_plays_on(seat, hand):
                hand.finished = True

    def _dealer_play(self) -> None:
        dealer = self.log.dealer
        if self.rules.no_hole_card and not self.rules.dealer_face_up:
            self._deal_to("dealer", dealer)
        elif not self.rules.dealer_face_up:
            self._reveal()
        if dealer.is_blackjack or not (self._any_live_hand() or self._dealer_hand_wagered()):
            # 30-826(3), MA 12(c): no card that cannot change the outcome (a wager on the
            # dealer's hand, MA 25(d), is an outcome it changes).
            return
        hits_soft_17, stops_on_16 = self.rules.dealer_hits_soft_17, self.rules.dealer_stops_on_16
        total, soft = hand_total(dealer.cards)
        while dealer_draws(total, soft, hits_soft_17, stops_on_16):
            total, soft = self._deal_to("dealer", dealer)
        if stops_on_16 and total == 16:
            self._event("dealer", "stops", total=total, note="the dealer's hand reaches 16")
            return
        self._event("dealer", "stands" if total <= 21 else "busts", total=total)

    def _any_live_hand(self) -> bool:
        for seat in self.log.seats:
            if not seat.settled:
                for hand in seat.hands:
                    if self._live(hand):
                        return True
        return False

    def _live(self, hand: Hand) -> bool:
        """Whether the dealer's cards can change what the hand gets: not busted, surrendered,
        rescued, a blackjack, or a 21 that wins whatever the dealer makes."""
        if (
            hand.surrendered
            or hand.rescued
            or (self.pays_split_aces and self._paid_split_aces(hand))
        ):
            return False
        total = hand.total
        if total == 21:
            return not (self.rules.player_21_wins or hand.is_blackjack)
        return total < 21

    def _dealer_hand_wagered(self) -> bool:
        return any(stage(wager) is Stage.ROUND for seat in self.log.seats for wager in seat.wagers)

    def _reveal(self) -> None:
        dealer = self.log.dealer
        self._event("dealer", "reveal", card=dealer.cards[1].text, total=dealer.total)
