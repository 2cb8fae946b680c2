"""How players decide: scripted actions (a seat's actions in order of play), or a basic strategy
computed for the rule set.

The basic strategy is total-dependent and computed for an infinite shoe of the rule set's deck
kind (standard or Spanish), for a dealer who takes only original wagers on a blackjack (every rule
set here): each decision maximises the expected value over the dealer's outcomes given no dealer
blackjack. Splits are valued without resplitting. It is a decision rule, not a figure a regulator
checks, so it uses floating point; house edges are computed elsewhere.

Double Up Blackjack (30-899.10): where the dealer stops on 16, the dealer's final-total chances
by up card count 16 as a final total (_dealer_outcomes), which returns the player's wagers (or,
in Version 2, pays a 21): hit, stand, double and split are ranked against those chances, so the
rule changes them only where the values change. A double up stands with a second wager equal to
the main wager, worth stand - P(tie) (a tie loses it; a dealer's 16 is no tie): it is chosen
where 2·stand - P(tie) beats every other action, and only where allowed_actions allows it. A
split's value counts no double up on the split hands (it is a little low where one would pay).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import StrEnum
from functools import cache, lru_cache
from typing import NamedTuple, Protocol

from engine.cards import Card, EngineError
from engine.hands import Hand, dealer_draws, hand_total
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender


class IllegalAction(EngineError):
    """An action the rules do not allow at that point, or a script that does not fit the round."""


class Action(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    RESCUE = "rescue"
    DOUBLE_UP = "double_up"
    """Stand with a second wager of up to the main wager, lost on a tie (30-899.10)."""


class Insurance(StrEnum):
    DECLINE = "no_insurance"
    INSURE = "insurance"
    EVEN_MONEY = "even_money"


class Strategy(Protocol):
    def decide(
        self, hand: Hand, up: Card, allowed: frozenset[Action], hole: Card | None = None
    ) -> Action:
        """`hole`: the dealer's second card, where it is dealt face up."""

    def insure(self, hand: Hand, up: Card, even_money_offered: bool) -> Insurance: ...

    def surrender_early(self, hand: Hand, up: Card) -> bool: ...

    def switch(self, hands: list[Hand], up: Card) -> bool:
        """Blackjack Switch: whether to swap the second cards of the two hands."""


class Scripted:
    """A seat's actions in order of play ("split", "hit", "stand", …); an insurance choice
    ("insurance", "even_money", "no_insurance") comes first where insurance is offered."""

    def __init__(self, actions: Iterable[str], seat: int) -> None:
        self.actions = [str(action).strip().lower() for action in actions]
        self.seat = seat
        self.next = 0

    def _peek(self) -> str | None:
        return self.actions[self.next] if self.next < len(self.actions) else None

    def decide(
        self, hand: Hand, up: Card, allowed: frozenset[Action], hole: Card | None = None
    ) -> Action:
        text = self._peek()
        if stands_unasked(hand, allowed) and text not in allowed - _STAND:
            return Action.STAND  # a 21 stands unless the script doubles (up) it here
        where = f"seat {self.seat}, hand {hand.describe()} against {up}"
        if text is None:
            raise IllegalAction(
                f"{where}: the actions ran out; give one of {', '.join(sorted(allowed))}"
            )
        try:
            action = Action(text)
        except ValueError:
            raise IllegalAction(
                f"{where}: {text!r} is no action here; actions: {', '.join(sorted(allowed))}"
            ) from None
        if action not in allowed:
            raise IllegalAction(
                f"{where}: {action} is not allowed at this point; allowed: "
                f"{', '.join(sorted(allowed))}"
            )
        self.next += 1
        return action

    def insure(self, hand: Hand, up: Card, even_money_offered: bool) -> Insurance:
        text = self._peek()
        if text not in {choice.value for choice in Insurance}:
            return Insurance.DECLINE
        choice = Insurance(text)
        if choice is Insurance.EVEN_MONEY and not even_money_offered:
            raise IllegalAction(
                f"seat {self.seat}: even money is offered only to a blackjack against a dealer's "
                f"ace where the table offers it"
            )
        self.next += 1
        return choice

    def surrender_early(self, hand: Hand, up: Card) -> bool:
        if self._peek() == Action.SURRENDER:
            self.next += 1
            return True
        return False

    def switch(self, hands: list[Hand], up: Card) -> bool:
        choice = self._peek()
        if choice in ("switch", "no_switch"):
            self.next += 1
            return choice == "switch"
        return False

    def unused(self) -> list[str]:
        return self.actions[self.next :]


def allowed_actions(hand: Hand, hands_in_spot: int, rules: RuleSet) -> frozenset[Action]:
    """What a player may do with this hand now (30-813, 30-814, 30-826(1), 30-829; MA 8, 10-12;
    the double up of 30-899.10 Player Rules (1), Version 2 (2)-(3));
    `hands_in_spot`: the hands its betting spot holds (splits count against the limit)."""
    total, soft = hand_total(hand.cards)
    if hand.doubled:  # one card only; then, where the rules allow, rescue, stand or double again
        again = {Action.DOUBLE} if hand.doubles < rules.max_doubles and total < 21 else set()
        return (
            frozenset({Action.STAND, Action.RESCUE} | again)
            if rules.rescue and total <= 21
            else frozenset()
        )
    up = rules.double_up and may_double_up(hand, rules)
    if total == 21 and soft and not (hand.finished or hand.is_blackjack):
        # A soft 21 that is no blackjack (A-5-5, a split ten and an ace) stands unless the player
        # doubles it where doubling is allowed there (30-899.16(7): "on two or more cards"), or
        # doubles up a two-card one (30-899.10).
        at_21 = AT_21 if _may_double(hand, total, soft, rules) else _NO_ACTIONS
        return _UP_AT_21[at_21] if up else at_21
    if total >= 21 or hand.finished:
        return _NO_ACTIONS
    two = len(hand.cards) == 2
    may_split = (
        two
        and hand.cards[0].value == hand.cards[1].value
        and hands_in_spot < rules.max_split_hands
        and not (hand.split_aces and not rules.resplit_aces)
    )
    may_surrender = rules.late_surrender and two and not hand.from_split and hands_in_spot == 1
    playing = _PLAYING[(_may_double(hand, total, soft, rules), may_split, may_surrender)]
    return playing | _DOUBLE_UP if up else playing


def may_double_up(hand: Hand, rules: RuleSet) -> bool:
    """30-899.10 Player Rules (1): a double up on any two cards except a blackjack or a two-card
    hand from splitting aces; Version 2 (2)-(3) allows the split aces (double_up_split_aces).
    Other split hands may double up: the rule excepts split aces only."""
    return (
        len(hand.cards) == 2
        and not hand.double_up
        and not hand.is_blackjack
        and (rules.double_up_split_aces or not hand.split_aces)
    )


def stands_unasked(hand: Hand, allowed: frozenset[Action]) -> bool:
    """A 21 the player may only double or double up: it stands unless the player asks for one
    of them (no "stand" is asked for a 21)."""
    return allowed is AT_21 or (_DOUBLE_UP_ACTION in allowed and hand.total == 21)


_NO_ACTIONS: frozenset[Action] = frozenset()
_STAND = frozenset({Action.STAND})
_DOUBLE_UP = frozenset({Action.DOUBLE_UP})
_DOUBLE_UP_ACTION = Action.DOUBLE_UP
AT_21: frozenset[Action] = frozenset({Action.STAND, Action.DOUBLE})
"""A soft 21 that may be doubled: it stands unless the player doubles (no hit is asked for)."""
_UP_AT_21 = {AT_21: AT_21 | _DOUBLE_UP, _NO_ACTIONS: _STAND | _DOUBLE_UP}
"""A two-card soft 21 that may be doubled up (a split ace and a ten in Version 2): it stands
unless the player doubles (up)."""
_PLAYING = {
    (double, split, surrender): frozenset(
        {Action.HIT, Action.STAND}
        | ({Action.DOUBLE} if double else set())
        | ({Action.SPLIT} if split else set())
        | ({Action.SURRENDER} if surrender else set())
    )
    for double in (False, True)
    for split in (False, True)
    for surrender in (False, True)
}
"""(may double, may split, may surrender) → what a hand still being played may do."""


def _may_double(hand: Hand, total: int, soft: bool, rules: RuleSet) -> bool:
    if hand.from_split and not rules.double_after_split:
        return False
    if rules.doubles_any_time:
        return True
    return len(hand.cards) == 2 and doubles_on(rules.double_on, total, soft)


def doubles_on(double_on: DoubleOn, total: int, soft: bool) -> bool:
    """Whether the doubling rule allows a double on this total (30-813; MA 6(k)(4))."""
    hard_totals = _DOUBLE_HARD_TOTALS[double_on]
    return hard_totals is None or (not soft and total in hard_totals)


_DOUBLE_HARD_TOTALS: dict[DoubleOn, tuple[int, ...] | None] = {
    DoubleOn.ANY_TWO: None,
    DoubleOn.ANY_TIME: None,
    DoubleOn.NINE_TEN_ELEVEN: (9, 10, 11),
    DoubleOn.TEN_ELEVEN: (10, 11),
    DoubleOn.NONE: (),
}
"""The hard totals a doubling rule allows a double on; None: any total, soft or hard."""


# --- basic strategy ---------------------------------------------------------------------------

UP_CARDS = range(1, 11)
"""Dealer up-card values, ace as 1."""


class BasicStrategy:
    """The total-dependent basic strategy for a rule set (see the module's note)."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.double_up = rules.double_up
        self.table, self.values, self.stands = _strategy_table(
            rules.spanish_decks,
            rules.dealer_hits_soft_17,
            rules.double_on,
            rules.double_after_split,
            rules.surrender,
            rules.split_aces_one_card,
            rules.dealer_face_up,
            rules.ties_lose,
            rules.hole_card,
            rules.original_bets_only,
            _DoubleUp(rules.double_up, rules.dealer_stops_on_16, rules.dealer_16_pays_21),
            rules.dealer_22_pushes,
        )

    def decide(
        self, hand: Hand, up: Card, allowed: frozenset[Action], hole: Card | None = None
    ) -> Action:
        if allowed is AT_21:
            return Action.STAND
        if self.double_up and stands_unasked(hand, allowed):  # a 21 that may be doubled up:
            allowed = _UP_AT_21[_NO_ACTIONS]  # never doubled
        total, soft = hand_total(hand.cards)
        if Action.RESCUE in allowed:  # a doubled hand: double again, keep, or rescue
            best = self.table[(total, soft, 0, up.value, False)]
            if Action.DOUBLE in allowed and best[0] is Action.DOUBLE:
                return Action.DOUBLE
            return Action.RESCUE if self.stands[(total, up.value)] < -0.5 else Action.STAND
        seen: DealerKey = up.value
        if self.rules.dealer_face_up and hole is not None:
            seen = hand_total([up, hole])
        ranked = self.table[(total, soft, _pair_value(hand), seen, len(hand.cards) == 2)]
        for action in ranked:
            if action in allowed:
                return action
        return Action.STAND

    def insure(self, hand: Hand, up: Card, even_money_offered: bool) -> Insurance:
        return Insurance.DECLINE

    def surrender_early(self, hand: Hand, up: Card) -> bool:
        key = (hand.total, hand.soft, _pair_value(hand), up.value, True)
        return self.table[key][0] is Action.SURRENDER

    def switch(self, hands: list[Hand], up: Card) -> bool:
        """Swap where the two hands are worth more swapped (a switched blackjack is a 21)."""
        first, second = hands[0].cards, hands[1].cards
        kept = self._value(first, up, False) + self._value(second, up, False)
        swapped = [first[0], second[1]], [second[0], first[1]]
        return self._value(swapped[0], up, True) + self._value(swapped[1], up, True) > kept

    def _value(self, cards: list[Card], up: Card, switched: bool) -> float:
        total, soft = hand_total(cards)
        if total == 21 and not switched:
            return float(self.rules.blackjack_pays)
        pair = cards[0].value if cards[0].value == cards[1].value else 0
        return self.values[(total, soft, pair, up.value, True)]


def _pair_value(hand: Hand) -> int:
    cards = hand.cards
    return cards[0].value if len(cards) == 2 and cards[0].value == cards[1].value else 0


def _draw_probabilities(spanish: bool) -> dict[int, float]:
    tens = 3 if spanish else 4
    per_suit = 12 if spanish else 13
    return {v: (tens if v == 10 else 1) / per_suit for v in UP_CARDS}


def _add(total: int, soft: bool, value: int) -> tuple[int, bool]:
    """A hand's (total, soft) after drawing a card of `value`; once the hard total passes 11 no
    ace can count 11 again, so (total, soft) is the whole state."""
    hard = (total - 10 if soft else total) + value
    if (soft or value == 1) and hard <= 11:
        return hard + 10, True
    return hard, False


DealerKey = int | tuple[int, bool]
"""What the player sees of the dealer: the up card's value, or (total, soft) of both cards where
the dealer's cards are dealt face up."""
StrategyKey = tuple[int, bool, int, DealerKey, bool]


class _DoubleUp(NamedTuple):
    """Double Up Blackjack's rules the strategy reads (30-899.10)."""

    double_up: bool = False
    stops_on_16: bool = False
    pays_21: bool = False


_NO_DOUBLE_UP = _DoubleUp()


@lru_cache(maxsize=32)
def _dealer_outcomes(
    spanish: bool,
    hits_soft_17: bool,
    face_up: bool = False,
    stops_on_16: bool = False,
    twenty_two: bool = False,
) -> dict[DealerKey, dict[int, float]]:
    """Probabilities of the dealer's final total (22 = bust; with `twenty_two`, 22 a dealer's 22
    and 23 any other bust): for each up card given no blackjack, or, face up, for each two-card
    dealer hand that is not a blackjack. Where the dealer stops on 16 (30-899.10), 16 is a final
    total too (soft or hard, engine.hands.dealer_draws)."""
    p = _draw_probabilities(spanish)
    finals = range(16 if stops_on_16 else 17, 24 if twenty_two else 23)
    n = len(finals)
    bust = finals[-1]

    @cache
    def finish(total: int, soft: bool) -> tuple[float, ...]:
        if total > 21:
            final = 22 if twenty_two and total == 22 else bust
            return tuple(1.0 if t == final else 0.0 for t in finals)
        if not dealer_draws(total, soft, hits_soft_17, stops_on_16):
            return tuple(1.0 if t == total else 0.0 for t in finals)
        out = [0.0] * n
        for value, pv in p.items():
            for i, q in enumerate(finish(*_add(total, soft, value))):
                out[i] += pv * q
        return tuple(out)

    result: dict[DealerKey, dict[int, float]] = {}
    if face_up:
        for soft in (False, True):
            for total in range(12 if soft else 4, 21):
                result[(total, soft)] = dict(zip(finals, finish(total, soft), strict=True))
        return result
    for up in UP_CARDS:
        start = (11, True) if up == 1 else (up, False)
        banned = 10 if up == 1 else 1 if up == 10 else None
        norm = 1 - (p[banned] if banned else 0)
        dist = [0.0] * n
        for value, pv in p.items():
            if value == banned:
                continue
            for i, q in enumerate(finish(*_add(*start, value))):
                dist[i] += pv / norm * q
        result[up] = dict(zip(finals, dist, strict=True))
    return result


@lru_cache(maxsize=32)
def _strategy_table(
    spanish: bool,
    hits_soft_17: bool,
    double_on: DoubleOn,
    double_after_split: bool,
    surrender: Surrender,
    split_aces_one_card: bool,
    face_up: bool = False,
    ties_lose: bool = False,
    hole_card: HoleCard = HoleCard.PEEK,
    original_bets_only: bool = True,
    double_up: _DoubleUp = _NO_DOUBLE_UP,
    dealer_22_pushes: bool = False,
) -> tuple[
    dict[StrategyKey, tuple[Action, ...]],
    dict[StrategyKey, float],
    dict[tuple[int, DealerKey], float],
]:
    """(total, soft, pair value, dealer key, two cards) → actions best first, and → the expected
    value of the best (per unit wagered, given no dealer blackjack); (total, dealer key) → the
    expected value of standing.

    The actions are ranked by their value against the dealer as the player faces it: after a
    peek, given no dealer blackjack; with no peek or no hole card, against a dealer who may hold
    one (_unchecked). Early surrender is decided before any peek: with early surrender, a two-card
    hand ranks surrender first exactly where surrendering beats playing on against an unchecked
    dealer, and last elsewhere (it is never offered later). Where `dealer_22_pushes` (Blackjack
    Switch, 30-2105(8)(e)), a dealer's 22 returns a standing hand's wager."""
    p = _draw_probabilities(spanish)
    dealer = _dealer_outcomes(
        spanish, hits_soft_17, face_up, double_up.stops_on_16, dealer_22_pushes
    )
    bust = 23 if dealer_22_pushes else 22

    def stand(total: int, up: DealerKey) -> float:
        if total > 21:
            return -1.0
        d = dealer[up]
        # A dealer's 16 (where the dealer stops on it) returns the wager, or pays a 21 1:1; a
        # dealer's 22 that pushes (bust 23) neither wins nor loses.
        win = d[bust] + sum(q for t, q in d.items() if t < total and t != 16)
        lose = sum(
            q
            for t, q in d.items()
            if (t >= total if ties_lose else t > total) and t not in (16, 22, 23)
        )
        if total == 21 and double_up.pays_21:
            win += d.get(16, 0.0)
        return win - lose

    def doubled_up(total: int, up: DealerKey) -> float:
        """Standing with a double up wager equal to the main wager (30-899.10 Player Rules (4),
        (5)): the second wager wins where the main one wins and loses where it loses or ties,
        so it is worth stand - P(tie), where a dealer's 16 is no tie (it returns both wagers,
        or pays a Version 2 21); doubling up gains exactly where stand > P(tie)."""
        d = dealer[up]
        tie = d.get(total, 0.0) if total != 16 else 0.0
        return 2 * stand(total, up) - tie

    hit_cache: dict[tuple[int, bool, DealerKey], float] = {}

    def best_no_double(total: int, soft: bool, up: DealerKey) -> float:
        return max(stand(total, up), hit(total, soft, up)) if total < 21 else stand(total, up)

    def hit(total: int, soft: bool, up: DealerKey) -> float:
        key = (total, soft, up)
        if key not in hit_cache:
            ev = 0.0
            for value, pv in p.items():
                t, s = _add(total, soft, value)
                ev += pv * (-1.0 if t > 21 else best_no_double(t, s, up))
            hit_cache[key] = ev
        return hit_cache[key]

    def double(total: int, soft: bool, up: DealerKey) -> float:
        return 2 * sum(pv * stand(_add(total, soft, v)[0], up) for v, pv in p.items())

    def after_split(card: int, up: DealerKey) -> float:
        ev = 0.0
        for value, pv in p.items():
            t, s = _add(*((11, True) if card == 1 else (card, False)), value)
            if card == 1 and split_aces_one_card:
                ev += pv * stand(t, up)
                continue
            options = [best_no_double(t, s, up)]
            if double_after_split and doubles_on(double_on, t, s) and t < 21:
                options.append(double(t, s, up))
            ev += pv * max(options)
        return 2 * ev

    # The chance of a dealer blackjack behind each up card, and what it takes of each action's
    # wagers where the player acts before it is known (the original wager unless listed).
    chances: dict[DealerKey, float] = {} if face_up else {1: p[10], 10: p[1]}
    peeked = hole_card is HoleCard.PEEK or face_up
    extra = -1.0 if original_bets_only or peeked else -2.0
    # A double up is its own wager, not a double down: a dealer blackjack takes it (the
    # dealer's hand outranks the player's, 30-899.10 Player Rules (4)).
    early_losses = {Action.DOUBLE: extra, Action.SPLIT: extra, Action.DOUBLE_UP: -2.0}
    losses = {**early_losses, Action.SURRENDER: -1.0}  # late surrender unchecked: MA 8(a)(2)
    table: dict[StrategyKey, tuple[Action, ...]] = {}
    values: dict[StrategyKey, float] = {}
    for up in dealer:
        for soft in (False, True):
            for total in range(12 if soft else 4, 22):
                for two in (True, False):
                    pairs = [0]
                    if two:
                        pairs += [v for v in UP_CARDS if _pair_total(v) == (total, soft)]
                    for pair in pairs:
                        evs: dict[Action, float] = {Action.STAND: stand(total, up)}
                        if total < 21:
                            evs[Action.HIT] = hit(total, soft, up)
                            evs[Action.DOUBLE] = double(total, soft, up)
                        if two:
                            evs[Action.SURRENDER] = -0.5
                            if double_up.double_up:
                                evs[Action.DOUBLE_UP] = doubled_up(total, up)
                        if pair:
                            evs[Action.SPLIT] = after_split(pair, up)
                        chance = chances.get(up, 0.0)
                        ranking = _unchecked(evs, 0.0 if peeked else chance, losses)
                        if two and surrender is Surrender.EARLY:
                            others: dict[Action, float] = {
                                a: v for a, v in evs.items() if a is not Action.SURRENDER
                            }
                            playing_on = _unchecked(others, chance, early_losses)
                            first = -0.5 > max(playing_on.values())
                            ranking[Action.SURRENDER] = math.inf if first else -math.inf
                        ranked = sorted(ranking, key=lambda a: -ranking[a])
                        table[(total, soft, pair, up, two)] = tuple(ranked)
                        values[(total, soft, pair, up, two)] = evs[ranked[0]]
    stands = {(total, up): stand(total, up) for up in dealer for total in range(4, 22)}
    return table, values, stands


def _unchecked(
    evs: dict[Action, float], blackjack: float, losses: dict[Action, float]
) -> dict[Action, float]:
    """Each action's value against a dealer who holds a blackjack with chance `blackjack`: its
    value given none, or what the blackjack takes (`losses`: the original wager unless listed)."""
    return {a: (1 - blackjack) * ev + blackjack * losses.get(a, -1.0) for a, ev in evs.items()}


def _pair_total(value: int) -> tuple[int, bool]:
    return (12, True) if value == 1 else (2 * value, False)
