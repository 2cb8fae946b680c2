"""One round of blackjack: wagers, the deal, insurance and even money, the dealer's check for
blackjack, the players' decisions, the dealer's play and the settlement of every wager, each
settlement naming the rule it applied and that rule's citation.

The order is the rules' order (30-820, MA 6(e)): a card to each box from the dealer's left, one to
the dealer, a second to each box, then the hole card, if the table deals one (MA 6(h) deals the
dealer's second card after the players). A split's first hand is played out before the second
gets its second card (30-814, MA 11(b)).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction
from typing import Any

from engine.cards import Card
from engine.hands import (
    DealerHand,
    Hand,
    bonus_21_kinds,
    dealer_draws,
    hand_total,
    is_two_card_21,
)
from engine.odds import Basis, Pays
from engine.rules import RuleRef, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.sidewagers import (
    EVALUATORS,
    NOT_FROM_CARDS,
    PUSH,
    SIDES,
    Deal,
    NotDecidable,
    Stage,
    paid_outcomes,
    side_lines,
    stage,
)
from engine.strategy import (
    AT_21,
    Action,
    IllegalAction,
    Insurance,
    Scripted,
    Strategy,
    allowed_actions,
    stands_unasked,
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
_ONE_CARD_ACES = frozenset({Action.SPLIT, Action.STAND, Action.DOUBLE_UP})
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


def _pays_text(pays: Pays | None) -> str:
    if pays is None:
        return ""
    return ONE_TO_ONE_TEXT if pays is ONE_TO_ONE else str(pays)


def money(amount: Decimal) -> str:
    """Dollars and cents ("10.00"), exact: a payout finer than a cent keeps its digits."""
    cents = amount.quantize(CENT)
    return str(cents if cents == amount else amount)


def _check_sides(seat: Seat) -> None:
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


def play_round(rules: RuleSet, shoe: Shoe, seats: Sequence[SeatSpec]) -> RoundLog:
    """Play one round and settle every wager.

    :raises engine.cards.EngineError: a script that does not fit (an action the rules do not allow,
        actions left over, a scripted shoe that runs out).
    """
    return _Round(rules, shoe, seats).play()


class _Round:
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
            _check_sides(seat)
        self.peeked = False
        # Double Up Blackjack's rules (30-899.10), read once: most rule sets have none of them.
        self.double_up = rules.double_up
        self.stops_on_16 = rules.dealer_stops_on_16
        self.pays_split_aces = rules.split_aces_21_pays is not None

    # --- steps -------------------------------------------------------------------------------

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
                    allowed = allowed & _ONE_CARD_ACES
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

    def _paid_split_aces(self, hand: Hand) -> bool:
        """A split ace given a ten: paid at once where the rules say so (pays_split_aces: 30-899.10
        Player Rules (6), Version 1), whatever the dealer's hand turns out to be."""
        return hand.split_aces and is_two_card_21(hand.cards)

    def _dealer_hand_wagered(self) -> bool:
        return any(stage(wager) is Stage.ROUND for seat in self.log.seats for wager in seat.wagers)

    def _reveal(self) -> None:
        dealer = self.log.dealer
        self._event("dealer", "reveal", card=dealer.cards[1].text, total=dealer.total)

    # --- settlement --------------------------------------------------------------------------

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

    def _in_spot(self, seat: Seat, hand: Hand) -> int:
        """The hands the hand's betting spot holds (a split adds one)."""
        if self.rules.spots_per_seat == 1:
            return len(seat.hands)
        return sum(1 for h in seat.hands if h.spot == hand.spot)

    def _split(self, seat: Seat, hand: Hand) -> bool:
        return self._in_spot(seat, hand) > 1

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

    @staticmethod
    def _win(stake: Decimal, pays: Pays) -> Decimal:
        won = pays.net_win(stake)
        assert won is not None
        return won

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
                _pays_text(pays),
                rule,
                rule_key,
                citation or self.rules.cite(rule_key),
                outcomes,
            )
        )

    # --- bookkeeping -------------------------------------------------------------------------

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
