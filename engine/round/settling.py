"""The settlement of every wager of a round: each hand against the dealer's (blackjacks, 21s,
Double Up, surrender, pushes), the Super Bonus, the side wagers and insurance, each naming the
rule it applied."""

from __future__ import annotations

from decimal import Decimal

from engine.cards import Card
from engine.hands import (
    Hand,
    bonus_21_kinds,
)
from engine.odds import Basis, Pays
from engine.rules import SideWagerRules
from engine.sidewagers import (
    EVALUATORS,
    NOT_FROM_CARDS,
    PUSH,
    SIDES,
    Deal,
    NotDecidable,
    paid_outcomes,
    side_lines,
)
from engine.strategy import (
    IllegalAction,
)

from .base import RoundBase
from .records import DOUBLE_UP, MAIN, ONE_TO_ONE, ZERO, Seat


class Settling(RoundBase):
    """The settlement of a round."""

    def _settle_all(self) -> None:
        dealer_blackjack = self.log.dealer.is_blackjack
        if self.rules.super_bonus:
            self._settle_super_bonus()
        for seat in self.log.seats:
            for wager, stake in seat.wagers.items():
                if wager != MAIN:
                    self._settle_side_wager(seat, wager, stake)
            if seat.insurance:
                self._settle_insurance(seat)
            if seat.settled:
                continue
            collected: set[int] = set()  # a dealer blackjack takes each spot's original wager once
            for i, hand in enumerate(seat.hands):
                if self.pays_split_aces and self._paid_split_aces(hand):
                    self._settle_split_aces_21(seat, i, hand)
                elif hand.surrendered:
                    self._settle_surrender(seat, i, hand)
                elif hand.rescued:
                    kept = hand.stake - hand.last_double
                    self._settle(seat, i, MAIN, hand.stake, "rescue", -kept, None,
                                 "Rescued: the doubled portion taken back, the rest forfeited",
                                 "rescue")  # fmt: skip
                elif hand.busted and not (dealer_blackjack and self.rules.original_bets_only):
                    self._settle(
                        seat,
                        i,
                        MAIN,
                        hand.stake,
                        "lose",
                        -hand.stake,
                        None,
                        "The player's total exceeds 21",
                        "lose",
                    )
                elif dealer_blackjack and not (
                    hand.is_blackjack and self.rules.blackjack_beats_dealer_blackjack
                ):
                    if hand.is_blackjack:
                        self._push(seat, i, hand, "Both have blackjack", "blackjack-push")
                    elif not self.rules.original_bets_only or hand.spot not in collected:
                        loss = seat.main if self.rules.original_bets_only else hand.stake
                        collected.add(hand.spot)
                        why = "The dealer has blackjack"
                        if hand.busted:  # 30-899.01(10), 30-899.03(9): its wagers were left
                            why += "; the player's hand broke"
                        elif hand.total == 21:
                            why += "; the player's 21 is not a blackjack"
                        if loss < hand.stake or self._split(seat, hand):
                            why += "; only the original wager is collected"
                        self._settle(
                            seat,
                            i,
                            MAIN,
                            hand.stake,
                            "lose",
                            -loss,
                            None,
                            why,
                            self._blackjack_rule(seat, hand),
                        )
                    else:
                        self._settle(
                            seat,
                            i,
                            MAIN,
                            hand.stake,
                            "returned",
                            Decimal(0),
                            None,
                            "The dealer has blackjack: the amount wagered in splitting pairs is "
                            "not collected",
                            "dealer-blackjack-after-split",
                        )
                else:
                    self._settle_hand(seat, i, hand)
                if self.double_up and hand.double_up:
                    self._settle_double_up(seat, i, hand)

    def _blackjack_rule(self, seat: Seat, hand: Hand) -> str:
        if self._split(seat, hand):
            return "dealer-blackjack-after-split"
        if hand.doubled:
            return "dealer-blackjack-after-double"
        return "dealer-blackjack" if hand.total == 21 else "lose"

    def _settle_hand(self, seat: Seat, i: int, hand: Hand) -> None:
        dealer, stake = self.log.dealer, hand.stake
        total, dealer_total = hand.total, dealer.total
        if hand.is_blackjack:
            designated = self.rules.designated_blackjack
            if designated and set(hand.cards) == set(designated):
                pays = Pays(Basis.TO, ratio=self.rules.designated_blackjack_pays)
                self._settle(seat, i, MAIN, stake, "blackjack", self._win(stake, pays), pays,
                             "The designated blackjack: " + " ".join(map(str, designated)),
                             "designated-blackjack")  # fmt: skip
                return
            pays = Pays(Basis.TO, ratio=self.rules.blackjack_pays)
            self._settle(
                seat,
                i,
                MAIN,
                stake,
                "blackjack",
                self._win(stake, pays),
                pays,
                "The player has blackjack and the dealer does not",
                "blackjack",
            )
        elif self.stops_on_16 and self._dealer_stopped_on_16():
            self._settle_dealer_16(seat, i, MAIN, hand.stake, hand)
        elif total == 21 and self.rules.player_21_wins:
            self._settle_21(seat, i, hand)
        elif (
            hand.switched
            and len(hand.cards) == 2
            and total == 21
            and dealer_total in (21, 22)
            and self.rules.switched_blackjack_pushes_22
        ):
            self._push(seat, i, hand, f"A switched blackjack against a dealer's {dealer_total}",
                       "switched-blackjack")  # fmt: skip
        elif dealer_total == 22 and self.rules.dealer_22_pushes:
            self._push(seat, i, hand, "The dealer's 22 does not bust: it pushes", "dealer-22")
        elif dealer_total > 21:
            self._settle_win(seat, i, hand, "The dealer's total exceeds 21")
        elif total > dealer_total:
            self._settle_win(seat, i, hand, "The player's total beats the dealer's")
        elif total < dealer_total:
            self._settle(
                seat,
                i,
                MAIN,
                stake,
                "lose",
                -stake,
                None,
                "The dealer's total beats the player's",
                "lose",
            )
        elif (
            total == 21
            and len(hand.cards) == 2
            and len(dealer.cards) > 2
            and self.rules.two_card_21_beats_dealer_21
        ):
            self._settle(
                seat,
                i,
                MAIN,
                stake,
                "win",
                stake,
                ONE_TO_ONE,
                "A 21 in two cards beats the dealer's 21 in more cards",
                "two-card-21",
            )
        else:
            self._push(seat, i, hand, "Equal totals", "push")

    def _dealer_stopped_on_16(self) -> bool:
        """The dealer's play stopped on 16 (30-899.10 Dealer Rules (2)): the dealer stands on no
        16 otherwise, and where nobody's hand was live the dealer's 16 settles nothing left."""
        return self.rules.dealer_stops_on_16 and self.log.dealer.total == 16

    def _settle_dealer_16(self, seat: Seat, i: int, wager: str, stake: Decimal, hand: Hand) -> None:
        """A wager of a hand still standing when the dealer's hand reaches 16: returned
        (30-899.10 Dealer Rules (2), Player Rules (7)), or won 1:1 where the hand is a 21 and the
        rules pay it (Version 2 (6), Dealer Rules (1)(a))."""
        if hand.total == 21 and self.rules.dealer_16_pays_21:
            self._settle(seat, i, wager, stake, "win", stake, ONE_TO_ONE,
                         "The dealer's hand reaches 16: a player's 21 is paid 1:1",
                         "dealer-16-21")  # fmt: skip
            return
        why = "The dealer's hand reaches 16: the wager is returned"
        self._settle(seat, i, wager, stake, "push", ZERO, None, why, "dealer-16")

    def _settle_split_aces_21(self, seat: Seat, i: int, hand: Hand) -> None:
        pays = Pays(Basis.TO, ratio=self.rules.split_aces_21_pays)
        self._settle(seat, i, MAIN, hand.stake, "win", self._win(hand.stake, pays), pays,
                     "A split ace and a ten: 21 paid at once", "split-aces-21")  # fmt: skip

    def _settle_double_up(self, seat: Seat, i: int, hand: Hand) -> None:
        """The double up wager (30-899.10): it wins 1:1 where the main wager wins (Player Rules
        (4)), loses where the hand ties the dealer's (Player Rules (5), Dealer Rules (3)(c)) or
        loses, and is returned, or paid with a 21, where the dealer's hand reaches 16. A dealer
        blackjack (seen only after the players where nobody peeks) outranks the hand: it takes
        the double up, a wager of its own and no double down (30-813 keeps doubles only)."""
        stake, total, dealer = hand.double_up, hand.total, self.log.dealer
        if self._dealer_stopped_on_16():
            self._settle_dealer_16(seat, i, DOUBLE_UP, stake, hand)
        elif dealer.is_blackjack:
            self._settle(seat, i, DOUBLE_UP, stake, "lose", -stake, None,
                         "The dealer has blackjack", "lose")  # fmt: skip
        elif dealer.busted or total > dealer.total:
            why = "The dealer's total exceeds 21"
            if not dealer.busted:
                why = "The player's total beats the dealer's"
            self._settle(seat, i, DOUBLE_UP, stake, "win", stake, ONE_TO_ONE, why, "double-up-win")
        elif total == dealer.total:
            self._settle(seat, i, DOUBLE_UP, stake, "lose", -stake, None,
                         "Equal totals: the double up wager loses", "double-up-tie")  # fmt: skip
        else:
            self._settle(seat, i, DOUBLE_UP, stake, "lose", -stake, None,
                         "The dealer's total beats the player's", "lose")  # fmt: skip

    def _settle_21(self, seat: Seat, i: int, hand: Hand) -> None:
        """30-899.16(4): a 21 always wins (at its Bonus 21 odds, 30-899.16(11))."""
        self._settle_win(seat, i, hand, "A player's 21 always wins", "twenty-one")

    def _settle_win(self, seat: Seat, i: int, hand: Hand, why: str, rule_key: str = "win") -> None:
        """A winning hand: 1 to 1, or the best bonus odds its 21 makes where the rules pay one
        (Spanish 21's Bonus 21, not on doubled hands; MA 3(e) and 16's optional payouts)."""
        bonus_21 = self.rules.bonus_21
        if bonus_21 and not (hand.doubled and not self.rules.bonus_on_doubled):
            kinds = bonus_21_kinds(hand.cards)
            for kind, odds in bonus_21:
                if kind in kinds:
                    pays = Pays(Basis.TO, ratio=odds)
                    self._settle(seat, i, MAIN, hand.stake, "win", self._win(hand.stake, pays),
                                 pays, f"{why}; a {kind} 21 pays {pays}", "bonus-21")  # fmt: skip
                    return
        self._settle(seat, i, MAIN, hand.stake, "win", hand.stake, ONE_TO_ONE, why, rule_key)

    def _push(self, seat: Seat, i: int, hand: Hand, why: str, rule_key: str) -> None:
        """A push is void (30-808), or loses where the game says so (30-899.02(3))."""
        if self.rules.ties_lose:
            loss = -hand.stake
            self._settle(seat, i, MAIN, hand.stake, "lose", loss, None,
                         f"{why}: a push loses the wager", rule_key)  # fmt: skip
        else:
            self._settle(seat, i, MAIN, hand.stake, "push", Decimal(0), None,
                         f"{why}: the wager is void", rule_key)  # fmt: skip

    def _settle_surrender(self, seat: Seat, i: int, hand: Hand) -> None:
        dealer = self.log.dealer
        if dealer.is_blackjack and not self.peeked and not self.rules.early_surrender:
            self._settle(
                seat,
                i,
                MAIN,
                hand.stake,
                "lose",
                -hand.stake,
                None,
                "Surrendered against a dealer blackjack: the whole wager is collected",
                "surrender",
            )
            return
        half = hand.stake / 2
        self._settle(
            seat,
            i,
            MAIN,
            hand.stake,
            "surrender",
            -half,
            None,
            "Surrendered: half the wager is forfeited",
            "surrender",
        )

    def _settle_super_bonus(self) -> None:
        """30-899.16(10): a player's first three cards suited 7s (7H 7C 7D in the 2-deck game)
        against a dealer's 7 (the 7S) win a fixed Super Bonus by the size of the main wager, and
        every other betting player an Envy Bonus for each; splitting or doubling voids it
        (¶4(4)(c))."""
        up = self.log.dealer.up
        winners = [seat for seat in self.log.seats if self._super_bonus_hand(seat, up)]
        for seat in winners:
            amount = next(
                (pay for least, pay in reversed(self.rules.super_bonus) if seat.main >= least),
                None,
            )
            if amount is None:
                why = f"The rule names no Super Bonus for a {seat.main} wager"
                self._settle(seat, None, "super-bonus", Decimal(0), "not_settled", Decimal(0), None,
                             why, "super-bonus")  # fmt: skip
                continue
            self._settle(seat, None, "super-bonus", Decimal(0), "win", amount, None,
                         f"Super Bonus on a {seat.main} wager", "super-bonus")  # fmt: skip
            for other in self.log.seats:
                if other is not seat:
                    why = f"Envy Bonus: seat {seat.number}'s Super Bonus"
                    self._settle(other, None, "envy-bonus", Decimal(0), "win",
                                 self.rules.envy_bonus, None, why, "super-bonus")  # fmt: skip

    def _super_bonus_hand(self, seat: Seat, up: Card) -> bool:
        hand = seat.hands[0]
        if len(seat.hands) > 1 or hand.doubled or len(hand.cards) < 3 or up.rank != "7":
            return False
        three = hand.cards[:3]
        if self.rules.decks == 2:
            return up.suit.value == "S" and {c.text for c in three} == {"7H", "7C", "7D"}
        return all(c.rank == "7" for c in three) and len({c.suit for c in three}) == 1

    def _settle_side_wager(self, seat: Seat, wager: str, stake: Decimal) -> None:
        """The wager's highest ranking outcome in the first pay column of its paytable that pays
        odds (a "Dealer Envy" column of dollar tips is the dealer's, not the player's)."""
        side = self._side_rules(seat, wager)
        if wager not in EVALUATORS:
            self._settle(
                seat,
                None,
                wager,
                stake,
                "not_settled",
                Decimal(0),
                None,
                NOT_FROM_CARDS.get(wager, f"The engine cannot settle {wager} from the cards yet"),
                "",
                side.citation,
            )
            return
        offered = side.lines
        if wager in SIDES:  # the seat's side, a bet of its own: only its line pays it
            offered = tuple(side_lines(wager, seat.sides[wager], offered))
        columns = [line.column for line in offered if line.pays.basis in (Basis.TO, Basis.FOR)]
        columns = columns or [line.column for line in offered]  # meter shares and amounts only
        lines = {line.outcome: line for line in offered if columns and line.column == columns[0]}
        dealer = self.log.dealer
        deal = Deal(
            (seat.initial[0], seat.initial[1]),
            dealer.up,
            dealer.is_blackjack,
            tuple(dealer.cards),
            tuple(seat.hands[0].cards),
            player_split=len(seat.hands) > 1,
            specified_suit=side.specified_suit,
        )
        jurisdiction = self.rules.jurisdiction or None
        try:
            won = paid_outcomes(wager, deal, set(lines), jurisdiction)
        except NotDecidable as exc:
            self._settle(seat, None, wager, stake, "not_settled", Decimal(0), None, str(exc), "",
                         side.citation)  # fmt: skip
            return
        if not won:
            self._settle(
                seat, None, wager, stake, "lose", -stake, None, "No paying hand", "", side.citation
            )
            return
        if won == [PUSH]:
            why = "A tie: the wager is returned"
            self._settle(seat, None, wager, stake, "push", Decimal(0), None, why, "", side.citation)
            return
        total = Decimal(0)
        for key in won:
            line = lines[key]
            net = line.pays.settle(stake, side.meter)
            if net is None:  # a share of a progressive meter, alone or on top of odds
                why = f"{line.label or key} pays a share of the meter: give the meter"
                self._settle(seat, None, wager, stake, "not_settled", Decimal(0), line.pays,
                             why, "", side.citation)  # fmt: skip
                return
            if line.pays.basis is Basis.AMOUNT and side.base_wager:
                net = net * stake / side.base_wager  # "multiplied accordingly" (30-2107)
            total += net
        first = lines[won[0]]
        column = f" ({first.column})" if first.column else ""
        labels = " + ".join(lines[key].label or key for key in won)
        pushed = all(lines[key].pays.basis is Basis.PUSH for key in won)  # 30-2115¶3 TRI-05
        self._settle(
            seat,
            None,
            wager,
            stake,
            # a line that pays "Loss" (MA 19(n)); one that pays "Push" returns the wager
            "push" if pushed else "lose" if total < 0 else "win",
            total,
            first.pays,
            f"{side.paytable}{column}: {labels}",
            "",
            side.citation,
            outcomes=tuple(won),
        )

    def _side_rules(self, seat: Seat, wager: str) -> SideWagerRules:
        for side in self.rules.side_wagers:
            if side.wager == wager:
                return side
        offered = ", ".join(side.wager for side in self.rules.side_wagers) or "none"
        raise IllegalAction(
            f"seat {seat.number}: {wager} is not offered at this table (side wagers: {offered})"
        )

    def _settle_insurance(self, seat: Seat) -> None:
        pays = Pays(Basis.TO, ratio=self.rules.insurance_pays)
        if self.log.dealer.is_blackjack:
            self._settle(
                seat,
                None,
                "insurance",
                seat.insurance,
                "win",
                self._win(seat.insurance, pays),
                pays,
                "Insurance wins: the dealer's hole card is a ten-value card",
                "insurance",
            )
        else:
            self._settle(
                seat,
                None,
                "insurance",
                seat.insurance,
                "lose",
                -seat.insurance,
                None,
                "Insurance loses: the dealer has no blackjack",
                "insurance",
            )
