"""Exact analysis of the wagers decided by how the round is played (Stage.ROUND wagers that are
neither the dealer's hand alone nor the player's third card): the play tree of one seat's first
hand enumerated card by card under the basic strategy the engine plays (engine/strategy.py),
then the dealer's whole hand from what is left, as combinatorial blackjack analysers do.

Card removal: the player's first two cards, the dealer's up card and every card of the seat's
first hand (hits, doubles, the card dealt to the first hand of a split, a split-off card) are
drawn from the full shoe; where the dealer peeks (an ace or ten-value card up) the hole card
makes a blackjack or not as the shoe then holds. The cards dealt after the first hand is played
(the seat's later split hands, other seats) are unseen by the wager: in a shuffled shoe the cards
after a stopping time are exchangeable with the rest (optional skipping), so the dealer's hole
card and draws are distributed as the shoe less the cards seen, and nothing else is removed.
Push Your Luck and 21 Magic read the first hand and the dealer's total together: the dealer's
hand is counted from the shoe each way the first hand ends leaves, exactly, by sums over the
dealer's hands taken once a shoe (`_Enumeration._ties`). Raise the Roof reads the
dealer's hand alone, which the first hand's later cards change by nothing (they end at a
stopping time): it is counted from the shoe less the first three cards, the same fractions.

Suits: a wager's evaluator reads suits only for a few hands (aces of one suit, a suited 4-5-6-7
bust, …: `_SUITS_READ`); given the ranks drawn, the suits of the cards of one rank are a draw
without replacement from that rank's cards and independent across ranks, so those hands are
expanded over every suit assignment with its exact weight. Every probability is exact: an integer
numerator over one denominator while the rounds are enumerated (`_Enumeration`), a Fraction after.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property, lru_cache

from engine.analysis import (
    Analysis,
    LineResult,
    NotAnalysable,
    line_results,
    line_win,
    net_counts,
    refuse_unless_odds,
    tally,
)
from engine.cards import Card, Suit
from engine.dealer_hands import CLASSES, falling, hand_shapes
from engine.hands import Hand, hand_total
from engine.odds import Basis
from engine.rules import PaytableLine, RuleSet
from engine.sidewagers import Deal, evaluator, paid_from
from engine.sidewagers.base import consecutive
from engine.strategy import AT_21, Action, BasicStrategy, allowed_actions

PLAY_TREE = {
    "progressive-blackjack",
    "straight-jack",
    "straight-jack-progressive",
    "raise-the-roof",
    "buffalo-blackjack-bonus",
    "super-4-progressive",
    "push-your-luck",
}
"""Wagers analysed exactly by enumerating the play tree (this module)."""

_RANKS13 = "A23456789TJQK"
_RANKS10 = "".join(CLASSES)


@dataclass(frozen=True)
class _Reads:
    """What of the round a wager's evaluator reads, so the enumeration walks no more."""

    plays: bool
    """The seat's first hand as played (else only its first two cards)."""
    dealer: bool
    """The dealer's final hand (else only whether the dealer has blackjack)."""
    ranks: str
    """The rank classes told apart: A-K (straights, poker hands) or A-9 and T (point values)."""


_READS: dict[str, _Reads] = {
    "progressive-blackjack": _Reads(True, False, _RANKS10),
    "straight-jack": _Reads(True, False, _RANKS13),
    "straight-jack-progressive": _Reads(True, False, _RANKS13),
    # Raise the Roof reads the dealer's hand alone: see `_DEALER_REMOVAL`
    "raise-the-roof": _Reads(False, True, _RANKS10),
    "buffalo-blackjack-bonus": _Reads(True, True, _RANKS10),
    "push-your-luck": _Reads(True, True, _RANKS10),
    "super-4-progressive": _Reads(False, False, _RANKS13),
}


def _progressive_aces(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """MA 19(c), (e): the suits of the aces among the first hand's first four cards dealt."""
    if player[:2] != ("A", "A"):
        return []
    return [i for i, r in enumerate(player[:4]) if r == "A"]


def _six_card_ace(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """30-2110: a six-card straight is paid by its ace's suit."""
    return [player.index("A")] if len(player) >= 6 and "A" in player[:6] else []


def _bust_4567(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """30-899.23(12): a 4-5-6-7 bust suited or not."""
    if sorted(dealer) == ["4", "5", "6", "7"]:
        return [len(player) + i for i in range(4)]
    return []


def _super_4_cards(player: tuple[str, ...], dealer: tuple[str, ...]) -> list[int]:
    """MA 19(k)-(l): the four cards' suits, with a dealer blackjack."""
    blackjack = len(dealer) == 2 and hand_total([_card(n, Suit.CLUBS) for n in dealer])[0] == 21
    return list(range(4)) if blackjack else []


def _super_4_sees(suits: tuple[Suit, ...]) -> tuple[bool, bool, bool]:
    """MA 19(k)-(l): Super 4 reads of the four cards' suits only whether they are one suit (and
    then whether it is the chosen suit, spades here) and whether they are one colour."""
    one = len(set(suits)) == 1
    return one, one and suits[0] is Suit.SPADES, len({s.red for s in suits}) == 1


def _one_suit(suits: tuple[Suit, ...]) -> tuple[bool]:
    """30-899.23(12): Raise the Roof reads of a 4-5-6-7 bust's suits only whether they are one."""
    return (len(set(suits)) == 1,)


_SUIT_CLASS: dict[str, Callable[[tuple[Suit, ...]], tuple[bool, ...]]] = {
    "super-4-progressive": _super_4_sees,
    "raise-the-roof": _one_suit,
}
"""Wager → what its evaluator can tell of the suits it reads (`_SUITS_READ`): the assignments
alike in it are evaluated once."""


_SUITS_READ: dict[str, Callable[[tuple[str, ...], tuple[str, ...]], list[int]]] = {
    "progressive-blackjack": _progressive_aces,
    "straight-jack-progressive": _six_card_ace,
    "raise-the-roof": _bust_4567,
    "super-4-progressive": _super_4_cards,
}
"""Wager → the cards (indices into the first hand's cards in the order dealt, then the dealer's)
whose suits its evaluator reads on that hand; the others' suits it does not read."""


@dataclass(frozen=True)
class _Readings:
    """What an enumeration reads of every round before a wager's evaluator sees it: a reading
    (a key telling apart the rounds the wager can tell apart) → numerator over `denominator`."""

    by_state: dict[tuple[str, str, str], dict[tuple, int]]
    """(the player's first two cards in rank order, the up card) with no dealer blackjack →
    reading → numerator of the probability (of the whole round)."""
    blackjack: dict[tuple, int]
    """The rounds the dealer's blackjack ends: reading → numerator."""
    hands: dict[tuple, tuple]
    """Reading → a round of it (first two cards, the first hand's cards, split, the dealer's
    cards), to evaluate."""
    denominator: int

    @cached_property
    def total(self) -> dict[tuple, int]:
        """Every round, whatever the state: reading → numerator."""
        out = dict(self.blackjack)
        for reading in self.by_state.values():
            for key, n in reading.items():
                out[key] = out.get(key, 0) + n
        return out


@dataclass(frozen=True)
class PlayTree:
    """What a wager's evaluator makes of every round: its readings (`_Readings`), each evaluated
    once into the outcomes it makes with their shares of the reading, as integers over `suits`
    (the shares' least common denominator: the suits read). A probability is an integer
    numerator over `denominator`."""

    readings: _Readings
    weights: dict[tuple, list[tuple[tuple[str, ...], int]]]
    """Reading → (outcomes made (an evaluator's keys), share × `suits`)."""
    suits: int

    @property
    def denominator(self) -> int:
        return self.readings.denominator * self.suits

    def _made(self, reading: dict[tuple, int]) -> dict[tuple[str, ...], int]:
        out: dict[tuple[str, ...], int] = {}
        for key, n in reading.items():
            for keys, w in self.weights[key]:
                out[keys] = out.get(keys, 0) + n * w
        return out

    @cached_property
    def by_state(self) -> dict[tuple[str, str, str], dict[tuple[str, ...], int]]:
        """As `_Readings.by_state`, by outcomes made: numerators over `denominator`."""
        return {state: self._made(reading) for state, reading in self.readings.by_state.items()}

    @cached_property
    def blackjack(self) -> dict[tuple[str, ...], int]:
        """The rounds the dealer's blackjack ends: outcomes made → numerator."""
        return self._made(self.readings.blackjack)

    def outcomes(self) -> dict[tuple[str, ...], Fraction]:
        """Every round: outcomes made → probability."""
        made = self._made(self.readings.total)
        return {keys: Fraction(n, self.denominator) for keys, n in made.items()}


@lru_cache(maxsize=64)
def play_tree(wager: str, decks: int, hits_soft_17: bool) -> PlayTree:
    """Every round of one seat at a table of `decks` decks (the dealer hitting soft 17 or not;
    otherwise the engine's default rules: peek, double any two, double after split, split to four
    hands, split aces one card, no surrender), the seat's first hand played with the basic
    strategy, evaluated by the wager's evaluator. Computed once per wager, shoe and rule; every
    paytable of the wager is priced from it."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    enumeration = _Enumeration(wager, _READS[wager], rules)
    if wager in _ORDER_BLIND:
        # the wagers reading the first hand's total and cards and the dealer's final hand share
        # one enumeration of what they read; each evaluates it
        readings = _readings(decks, hits_soft_17)
    else:
        readings = enumeration.run()
    return _evaluated_tree(wager, enumeration, readings)


def state_tree(
    wager: str, decks: int, hits_soft_17: bool, first: tuple[str, str], up: str
) -> PlayTree:
    """`play_tree` of the rounds of one state alone (the player's first two cards, named by
    rank class as in `_RANKS10` or `_RANKS13` as the wager reads them, and the up card), to
    check it card by card: its `by_state` holds that state's rounds (an `_ORDER_BLIND` wager's
    under the up card)."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    enumeration = _Enumeration(wager, _READS[wager], rules)
    index = enumeration.ranks.index
    a, b = sorted(map(index, first))
    return _evaluated_tree(wager, enumeration, enumeration.run((a, b, index(up))))


def _evaluated_tree(wager: str, enumeration: _Enumeration, readings: _Readings) -> PlayTree:
    """The readings of an enumeration, each evaluated once by the wager's evaluator."""
    shared = _made_whole(wager) if wager in _ORDER_BLIND or wager not in _SUITS_READ else {}
    whole: dict[tuple, tuple[str, ...]] = {}  # reading → the outcomes it makes, no suit share
    parts: dict[tuple, list[tuple[tuple[str, ...], Fraction]]] = {}  # by suit assignment
    for key, hand in readings.hands.items():
        if key in shared:
            whole[key] = shared[key]
            continue
        out = enumeration._evaluated(*hand)
        if out == [(out[0][0], _ONE)]:  # no suit share: the same at every deck count
            shared[key] = whole[key] = out[0][0]
        else:
            parts[key] = out
    suits = math.lcm(*(share.denominator for out in parts.values() for _, share in out))
    weights = {key: [(keys, suits)] for key, keys in whole.items()}
    for key, out in parts.items():
        weights[key] = [
            (keys, share.numerator * (suits // share.denominator)) for keys, share in out
        ]
    return PlayTree(readings, weights, suits)


@lru_cache(maxsize=32)
def _made_whole(wager: str) -> dict[tuple, tuple[str, ...]]:
    """The evaluation of each reading a wager makes whole (no suit read, no share), as the
    outcomes it makes, for a wager reading no suits (`_SUITS_READ`) or an `_ORDER_BLIND` one:
    it reads only what the reading holds (the ranks of the round's cards, or the first hand's
    total and cards and the dealer's tie), so it is the same at every deck count and rule,
    whichever round stood for the reading. Filled by `play_tree`. (A wager reading suits is
    evaluated at each deck count: which suit assignments a shoe can deal depends on its decks.)"""
    return {}


@lru_cache(maxsize=16)
def _readings(decks: int, hits_soft_17: bool) -> _Readings:
    """What the `_ORDER_BLIND` wagers read of every round (the first hand's total, its number of
    cards, split or not; whether the dealer's final total is the first hand's, the dealer drawing
    from what the first hand leaves), with its probability, by state; and a round of each
    reading, to evaluate."""
    rules = RuleSet(decks=decks, dealer_hits_soft_17=hits_soft_17)
    return _Enumeration("push-your-luck", _READS["push-your-luck"], rules).run()


def _decisions(ranks: str, rules: RuleSet) -> dict[tuple, Action]:
    """The strategy's decisions, by what it reads of a hand (`_Enumeration._decide`), to be
    filled as hands are played. Those under the engine's default rules (but the decks and soft
    17, as `play_tree` makes them) are shared at every deck count: neither the basic strategy
    (total-dependent, worked out for an unlimited shoe: engine/strategy.py) nor the actions a
    hand is allowed read the decks, and the five deck counts of a shoe asked the same ones."""
    if rules != RuleSet(decks=rules.decks, dealer_hits_soft_17=rules.dealer_hits_soft_17):
        return {}
    return _default_decisions(ranks, rules.dealer_hits_soft_17)


@lru_cache(maxsize=8)
def _default_decisions(ranks: str, hits_soft_17: bool) -> dict[tuple, Action]:
    """`_decisions` under the default rules, one dictionary a rank set and rule."""
    return {}


_ONE = Fraction(1)

_MOST_DRAWN = 21
"""More cards than the seat's first hand ever draws, plus the dealer's hole card where it is
read after them: a hand drawing holds at most 20 points, each card at least one."""
_DEALER_DRAWN = 12
"""More cards than the dealer ever draws after the up card."""


class _Enumeration:
    """One enumeration of every round. Probabilities are integers over one denominator,
    falling(shoe, 3) · falling(shoe − 3, _MOST_DRAWN) · the dealer's (where the wager reads the
    dealer's final hand: falling(shoe − 3, _DEALER_DRAWN) if it reads no play, the dealer then
    drawing from the shoe less the first three cards; falling(shoe − 3, _MOST_DRAWN +
    _DEALER_DRAWN) for an `_ORDER_BLIND` wager, the dealer drawing from what the first hand
    leaves; else 1): the first three cards, then the first hand's draws and the dealer's."""

    def __init__(self, wager: str, reads: _Reads, rules: RuleSet) -> None:
        self.wager = wager
        self.reads = reads
        self.rules = rules
        self.suits_read = _SUITS_READ.get(wager)
        ranks = reads.ranks
        self.ranks = ranks
        n = rules.decks
        self.per_suit = [4 * n if (r == "T" and ranks == _RANKS10) else n for r in ranks]
        self.shoe = tuple(4 * k for k in self.per_suit)
        self.tens = tuple(i for i, r in enumerate(ranks) if r in "TJQK")
        self.ace = ranks.index("A")
        self.clubs = [_card(r, Suit.CLUBS) for r in ranks]
        """Each rank's card, for what reads no suit."""
        self.values = [min(c + 1, 10) if ranks is _RANKS13 else c + 1 for c in range(len(ranks))]
        self.decisions = _decisions(ranks, rules)
        self.points: dict[tuple[int, ...], tuple[int, bool]] = {}
        self.stops: dict[tuple, bool] = {}
        self.assignments: dict[tuple[int, ...], list] = {}
        self.dealer_hands: dict[tuple, list[tuple[tuple[int, ...], int]]] = {}
        left = sum(self.shoe) - 3
        self.play_scale = [falling(left - d, _MOST_DRAWN - d) for d in range(_MOST_DRAWN + 1)]
        """play_scale[d]: n over falling(left, d) is n · play_scale[d] over falling(left, most)."""
        self.dealer_denominator = falling(left, _DEALER_DRAWN) if reads.dealer else 1
        if wager in _ORDER_BLIND:  # the dealer's hand from what the first hand leaves
            self.dealer_denominator = falling(left, _MOST_DRAWN + _DEALER_DRAWN)
        self.dealer_scale = [
            falling(left, d) * falling(left - d - _DEALER_DRAWN, _MOST_DRAWN - d)
            for d in range(_MOST_DRAWN + 1)
        ]
        """dealer_scale[d]: n over falling(left − d, _DEALER_DRAWN) (the dealer's hand after d
        cards drawn) is n · dealer_scale[d] over falling(left, _MOST_DRAWN + _DEALER_DRAWN)."""
        self.moments: dict[int, tuple[tuple[int, ...], dict]] = {}
        """Up card → the shoe less it and its `_total_moments`."""
        self.rests: dict[int, list[int]] = {}
        self.denominator = (
            falling(left + 3, 3) * falling(left, _MOST_DRAWN) * self.dealer_denominator
        )
        self.hands: dict[tuple, tuple] = {}

    @cached_property
    def strategy(self) -> BasicStrategy:
        """The basic strategy of the rules, built when a hand is first played: a wager reading
        no play (Raise the Roof) never reads it, and building it for a rule not yet seen
        works its table out (engine/strategy.py `_strategy_table`)."""
        return BasicStrategy(self.rules)

    def run(self, only: tuple[int, int, int] | None = None) -> _Readings:
        """Every round, or those of one state (`only`: the first two cards, in class order, and
        the up card)."""
        by_state: dict[tuple[str, str, str], dict[tuple, int]] = {}
        blackjack: dict[tuple, int] = {}
        shoe = list(self.shoe)
        k = len(shoe)
        if self.wager in _ORDER_BLIND:  # every state of an up card walked at once
            for up in range(k) if only is None else (only[2],):
                made = by_state.setdefault(("", "", self.ranks[up]), {})
                self._blind_round(up, made, blackjack, None if only is None else only[:2])
            by_state = {s: m for s, m in by_state.items() if m}
            return _Readings(by_state, blackjack, self.hands, self.denominator)
        # the first two cards in either order make the same round for every wager here (a pair,
        # a straight, a total read as a set): each unordered pair counted for both orders
        for p1, up, p2 in itertools.product(range(k), repeat=3):
            if p2 < p1 or (only is not None and (p1, p2, up) != only):
                continue
            ways = shoe[p1]
            shoe[p1] -= 1
            ways *= shoe[up]
            shoe[up] -= 1
            ways *= shoe[p2]
            shoe[p2] -= 1
            if ways:
                orders = 1 if p1 == p2 else 2
                state = (self.ranks[p1], self.ranks[p2], self.ranks[up])
                made = by_state.setdefault(state, {})
                self._round(p1, p2, up, tuple(shoe), orders * ways, made, blackjack)
            shoe[p1] += 1
            shoe[up] += 1
            shoe[p2] += 1
        by_state = {s: m for s, m in by_state.items() if m}
        return _Readings(by_state, blackjack, self.hands, self.denominator)

    # --- the deal ------------------------------------------------------------------------------

    def _round(
        self,
        p1: int,
        p2: int,
        up: int,
        shoe: tuple[int, ...],
        weight: int,
        made: dict[tuple, int],
        blackjack: dict[tuple, int],
    ) -> None:
        """The rounds of a state: `weight` the ordered ways of its first three cards, `shoe` what
        is left; each reading's numerator added to `made` (or `blackjack`)."""
        first = (p1, p2)
        holes = self._blackjack_holes(up)
        dealt = weight * self.play_scale[1] * self.dealer_denominator  # the hole: one card drawn
        for hole in holes:  # the dealer peeks: a blackjack ends the round before the player draws
            if shoe[hole]:
                self._add(blackjack, first, first, False, (up, hole), dealt * shoe[hole])
        if not self.reads.plays:
            self._dealer(first, first, False, up, shoe, weight, 0, made)
            return
        for cards, split, out, n, _ in self._play(first, shoe, up):
            rest = list(shoe)
            for c in out:
                rest[c] -= 1
            self._dealer(first, cards, split, up, tuple(rest), weight * n, len(out), made)

    def _blind_round(
        self,
        up: int,
        made: dict[tuple, int],
        blackjack: dict[tuple, int],
        only: tuple[int, int] | None = None,
    ) -> None:
        """The rounds of every state of up card `up` (or of the first two cards `only`) for an
        `_ORDER_BLIND` wager, which reads the first hand's total and number of cards and whether
        the dealer's total is the same: each way the first hand ends (the shoe it leaves),
        whatever its first two cards, with the dealer's hand from that shoe; each reading's
        numerator added to `made` (or `blackjack`), a round of each reading kept from the first
        hand that makes it."""
        shoe = list(self.shoe)
        if not shoe[up]:
            return
        ways_up = shoe[up]
        shoe[up] -= 1
        holes = self._blackjack_holes(up)
        starts: dict[tuple[int, int], int] = {}  # first two cards → the ways of the first three
        for p1, p2 in itertools.combinations_with_replacement(range(len(shoe)), 2):
            ways = shoe[p1] * (shoe[p2] - (p1 == p2)) * ways_up * (1 if p1 == p2 else 2)
            if not ways or (only is not None and (p1, p2) != only):
                continue
            starts[p1, p2] = ways
            first = (p1, p2)
            dealt = ways * self.play_scale[1] * self.dealer_denominator  # the hole: one card
            for hole in holes:  # the dealer peeks: a blackjack ends the round at once
                left = shoe[hole] - (hole == p1) - (hole == p2)
                if left:
                    self._add(blackjack, first, first, False, (up, hole), dealt * left)
        hands, scale = self.hands, self.dealer_scale
        stands, other = _standing(self.ranks, up, self.rules.dealer_hits_soft_17)
        in_shoe = sum(shoe) - 2
        ended = self._blind_play(starts, tuple(shoe), up)
        # the dealer's hand totalling the first hand's 17 to 21, from the shoe it leaves
        ties = iter(self._ties(up, [(left, head[0]) for head, left in ended if len(left) > 2]))
        for (head, left), (cards, card, n) in ended.items():
            if len(left) == 2:  # a total no dealer's final hand has: no blackjack is read
                left_cards, blackjacks = left
                same = 0
            else:  # a total of 17 to 21
                left_cards = sum(left)
                blackjacks = sum(map(left.__getitem__, holes))
                same = next(ties)
            rest = self._rest(left_cards)
            rest = rest[0] - blackjacks * rest[1] - same
            n *= scale[in_shoe - left_cards]
            for tie, numerator in ((True, same), (False, rest)):
                if not numerator:
                    continue
                key = (*head, tie)
                made[key] = made.get(key, 0) + n * numerator
                if key not in hands:  # a round standing for the reading
                    if card is not None:
                        cards, card = _with(cards, card, head[2]), None
                    first = (cards[0], cards[0]) if head[2] else cards[:2]
                    dealer = stands[head[0]] if tie else other
                    hands[key] = (first, cards, head[2], dealer)

    def _blackjack_holes(self, up: int) -> tuple[int, ...]:
        if not self.rules.peeks:
            return ()
        if up == self.ace:
            return self.tens
        return (self.ace,) if up in self.tens else ()

    # --- the player's first hand -------------------------------------------------------------

    def _play(
        self, first: tuple[int, int], shoe: tuple[int, ...], up: int
    ) -> Iterator[tuple[tuple[int, ...], bool, tuple[int, ...], int, int]]:
        """The first hand's cards as played (split or not), the cards it drew from `shoe` (its
        hits, a split hand's second card, a card split off it again), n: its probability given
        the first three cards is n over falling(cards in `shoe`, cards drawn), and its total. The
        engine's _play_seat for the seat's first hand, its later split hands unseen.

        Card by card, a level at a time: the hands still to act are kept by their cards, a hand is
        given out as soon as it is over: it stands, busts, reaches 21, has doubled, or no later
        card can change its outcome (`_DECIDED`). (An `_ORDER_BLIND` wager's: `_blind_play`.)"""
        decided = _DECIDED.get(self.wager)
        start = (first, False, False, 1, ())
        points = self._points(first)
        if self._over(first, start, up, decided, points):
            yield first, False, (), 1, points[0]
            return
        values, ace = self.values, self.ace
        # (cards, split, split aces, spot, cards split off again) → n over falling(shoe, drawn)
        acting: dict[tuple, int] = {start: 1}
        while acting:
            following: dict[tuple, int] = {}
            for hand, n in acting.items():
                cards, split, aces, spot, moved = hand
                out = (*moved, *cards[1:]) if split else cards[2:]
                rest = list(shoe)
                for c in out:
                    rest[c] -= 1
                hard, held_ace = sum(values[c] for c in cards), ace in cards
                action = self._decide(cards, split, aces, spot, up, _points(hard, held_ace))
                if action is Action.SPLIT:
                    # the second card moves to a new hand (it stays out of the shoe); the first
                    # hand gets a card; split aces get one card only
                    split_aces = self.ranks[cards[0]] == "A"
                    ends = split_aces and self.rules.split_aces_one_card
                    if split:  # split again: the second card was drawn from the shoe
                        moved = (*moved, cards[1])
                        out = moved
                    else:
                        out = ()
                    for card, q in enumerate(rest):
                        if q:
                            child = ((cards[0], card), True, split_aces, spot + 1, moved)
                            points = self._points(child[0])
                            if ends or self._over(first, child, up, decided, points):
                                yield child[0], True, (*out, card), n * q, points[0]
                            else:
                                following[child] = following.get(child, 0) + n * q
                    continue
                doubled = action is Action.DOUBLE  # one card, then the hand is over
                for card, q in enumerate(rest):  # a hit, or a double's one card
                    if not q:
                        continue
                    drawn = (*cards, card)
                    child = (drawn, split, aces, spot, moved)
                    points = _points(hard + values[card], held_ace or card == ace)
                    if doubled or points[0] >= 21:
                        yield drawn, split, (*out, card), n * q, points[0]
                    elif self._over(first, child, up, decided, points):
                        yield drawn, split, (*out, card), n * q, points[0]
                    else:
                        following[child] = following.get(child, 0) + n * q
            acting = following

    def _blind_play(
        self, starts: dict[tuple[int, int], int], shoe: tuple[int, ...], up: int
    ) -> dict[tuple[tuple[int, int, bool], tuple[int, ...]], list]:
        """`_play` for an `_ORDER_BLIND` wager, from every first two cards at once (`starts`:
        the first two cards, in class order → the ways of the first three cards; `shoe` the shoe
        less the up card), its hands merged by what the wager reads of them and what the
        dealer's hand is then read from: ((total, 22 for any bust; cards; split), the shoe left,
        or for a total no dealer's final hand has (a bust, under 17) only the cards left and
        those of them completing a blackjack under the up card) → [the first hand the walk gives
        out with it (its cards before its last card and that card, to be joined by `_with`
        where the hand stands for a reading; or its cards and None), the numerator of its
        probability over falling(cards in the full shoe, 3) ·
        falling(cards left after the first three, _MOST_DRAWN)]. The same walk, written out for
        speed: hands still to act holding the same cards are merged, whatever the first two
        cards dealt (the shoe left and every later decision are the same: the strategy reads a
        hand of three cards or more by its points; an unsplit hand's cards kept in class order,
        a split hand's hits), and each keeps beside it the shoe it leaves, its points and the
        strategy's action."""
        hands: dict[tuple[tuple[int, int, bool], tuple[int, ...]], list] = {}
        scale, values, ace = self.play_scale, self.values, self.ace
        decisions = self.decisions
        stops = (Action.STAND, Action.SURRENDER)
        holes = self._blackjack_holes(up)

        def give(
            cards: tuple[int, ...], split: bool, n: int, total: int, left: tuple[int, ...]
        ) -> None:
            if not 17 <= total <= 21 and len(left) > 2:
                left = (sum(left), sum(left[h] for h in holes))
            key = ((min(total, 22), len(cards), split), left)
            if key in hands:
                hands[key][2] += n
            else:
                hands[key] = [cards, None, n]

        def action(
            cards: tuple[int, ...], split: bool, aces: bool, spot: int, total: int, soft: bool
        ) -> Action:
            two = (values[cards[0]], values[cards[1]]) if len(cards) == 2 else True
            done = decisions.get((total, soft, two, split, aces, spot, up))
            return done or self._decide(cards, split, aces, spot, up, (total, soft))

        # (cards, split, split aces, spot, cards split off again) → n over falling(shoe, 3) ·
        # falling(cards after the first three, drawn); beside it: the shoe it leaves, its points
        # (aces as one), whether it holds an ace, the strategy's action and the cards drawn
        acting: dict[tuple, int] = {}
        kept: dict[tuple, tuple] = {}
        for first, ways in starts.items():
            after = list(shoe)
            after[first[0]] -= 1
            after[first[1]] -= 1
            total, soft = self._points(first)
            acted = action(first, False, False, 1, total, soft)
            if acted in stops:
                give(first, False, ways * scale[0], total, tuple(after))
                continue
            start = (first, False, False, 1, ())
            acting[start] = ways
            kept[start] = (tuple(after), sum(values[c] for c in first), ace in first, acted, 0)
        while acting:
            following: dict[tuple, int] = {}
            for hand, n in acting.items():
                cards, split, aces, spot, moved = hand
                rest, hard, held_ace, acted, drawn = kept[hand]
                if acted is Action.SPLIT:
                    # the second card moves to a new hand (it stays out of the shoe); the first
                    # hand gets a card; split aces get one card only
                    split_aces = self.ranks[cards[0]] == "A"
                    ends = split_aces and self.rules.split_aces_one_card
                    if split:  # split again: the second card was drawn from the shoe
                        moved = (*moved, cards[1])
                    for card, q in enumerate(rest):
                        if not q:
                            continue
                        child = ((cards[0], card), True, split_aces, spot + 1, moved)
                        total, soft = self._points(child[0])
                        acts = ends or action(child[0], True, split_aces, spot + 1, total, soft)
                        after = (*rest[:card], q - 1, *rest[card + 1 :])
                        if ends or acts in stops:
                            give(child[0], True, n * q * scale[drawn + 1], total, after)
                        elif child in following:
                            following[child] += n * q
                        else:
                            following[child] = n * q
                            h = values[cards[0]] + values[card]
                            kept[child] = (after, h, ace in child[0], acts, drawn + 1)
                    continue
                doubled = acted is Action.DOUBLE  # one card, then the hand is over
                held = len(cards) + 1
                given = n * scale[drawn + 1]  # a hand given out after this card, over its q
                cards_left = sum(rest) - 1  # after this card
                blackjacks = sum(map(rest.__getitem__, holes))
                # a hit, or a double's one card; from class `busting` on (the classes are in
                # order of points), a bust
                busting = bisect.bisect_right(values, 21 - hard)
                for card in range(busting, len(rest)):  # read alike whatever its cards' order
                    q = rest[card]
                    if not q:
                        continue
                    key = ((22, held, split), (cards_left, blackjacks - (card in holes)))
                    entry = hands.get(key)
                    if entry is not None:
                        entry[2] += q * given
                    else:
                        hands[key] = [cards, card, q * given]
                for card in range(busting):
                    q = rest[card]
                    if not q:
                        continue
                    h = hard + values[card]
                    a = held_ace or card == ace
                    soft = a and h <= 11
                    total = h + 10 if soft else h
                    if doubled or total >= 21:
                        acts = Action.STAND
                    else:  # a hand of three cards or more: the strategy reads its points
                        acts = decisions.get((total, soft, True, split, aces, spot, up))
                    after = None
                    if acts in stops:  # `give`, the hand's cards made only for a new reading
                        if 17 <= total <= 21:
                            after = (*rest[:card], q - 1, *rest[card + 1 :])
                            key = ((total, held, split), after)
                        else:
                            left = (cards_left, blackjacks - (card in holes))
                            key = ((total, held, split), left)
                        entry = hands.get(key)
                        if entry is not None:
                            entry[2] += q * given
                            continue
                    if acts in stops:  # its cards made only if it stands for a reading
                        hands[key] = [cards, card, q * given]
                        continue
                    child_cards = _with(cards, card, split)
                    if after is None:
                        after = (*rest[:card], q - 1, *rest[card + 1 :])
                    if acts is None:
                        acts = self._decide(child_cards, split, aces, spot, up, (total, soft))
                    if acts in stops:
                        give(child_cards, split, q * given, total, after)
                        continue
                    child = (child_cards, split, aces, spot, moved)
                    if child in following:
                        following[child] += n * q
                    else:
                        following[child] = n * q
                        kept[child] = (after, h, a, acts, drawn + 1)
            acting = following
        return hands

    def _over(
        self,
        first: tuple[int, int],
        hand: tuple,
        up: int,
        decided: Callable[[tuple[str, ...]], bool] | None,
        points: tuple[int, bool],
    ) -> bool:
        """Whether the hand (as `_play` keeps it; `points` its total and softness) acts no more:
        no later card can change the wager's outcome, or the strategy stands (or surrenders)."""
        cards, split, aces, spot, _ = hand
        if decided and self._stops(decided, first, cards, split):
            return True
        action = self._decide(cards, split, aces, spot, up, points)
        return action is Action.STAND or action is Action.SURRENDER

    def _stops(
        self,
        decided: Callable[[tuple[str, ...]], bool],
        first: tuple[int, int],
        cards: tuple[int, ...],
        split: bool,
    ) -> bool:
        """`decided` of the first hand's cards as dealt, once per hand."""
        key = (first, cards, split)
        if key not in self.stops:
            order = (*first, *cards[1:]) if split else cards
            self.stops[key] = decided(tuple(self.ranks[c] for c in order))
        return self.stops[key]

    @staticmethod
    def _draws(shoe: tuple[int, ...]) -> list[tuple[int, int, tuple[int, ...]]]:
        """Each card that can come next: its class, how many of it the shoe holds, the shoe
        after."""
        return [(i, n, (*shoe[:i], n - 1, *shoe[i + 1 :])) for i, n in enumerate(shoe) if n]

    def _total(self, cards: tuple[int, ...]) -> int:
        return self._points(cards)[0]

    def _points(self, cards: tuple[int, ...]) -> tuple[int, bool]:
        """The hand's total and whether it is soft (engine/hands.py hand_total), once a hand."""
        if cards not in self.points:
            self.points[cards] = hand_total([self.clubs[c] for c in cards])
        return self.points[cards]

    def _decide(
        self,
        cards: tuple[int, ...],
        split: bool,
        aces: bool,
        spot: int,
        up: int,
        points: tuple[int, bool],
    ) -> Action:
        """`_decided`, once for each thing the strategy reads of the hand (`points`: its total
        and softness)."""
        total, soft = points
        two = (self.values[cards[0]], self.values[cards[1]]) if len(cards) == 2 else True
        key = (total, soft, two, split, aces, spot, up)
        if key not in self.decisions:
            self.decisions[key] = self._decided(cards, split, aces, spot, up)
        return self.decisions[key]

    def _decided(
        self, cards: tuple[int, ...], split: bool, aces: bool, spot: int, up: int
    ) -> Action:
        """engine/round/dealing.py _play_seat's decision for the hand."""
        hand = Hand([self._card(c) for c in cards], self.rules.chip_unit, from_split=split)
        hand.split_aces = aces
        allowed = allowed_actions(hand, spot, self.rules)
        if aces and self.rules.split_aces_one_card:
            allowed = allowed & {Action.SPLIT, Action.STAND}
        if not allowed:
            return Action.STAND
        action = self.strategy.decide(hand, self._card(up), allowed)
        if allowed is AT_21 and action is Action.STAND:
            return Action.STAND
        return action

    def _card(self, index: int, suit: Suit = Suit.CLUBS) -> Card:
        return _card(self.ranks[index], suit)

    # --- the dealer's hand -------------------------------------------------------------------

    def _dealer(
        self,
        first: tuple[int, int],
        cards: tuple[int, ...],
        split: bool,
        up: int,
        shoe: tuple[int, ...],
        n: int,
        drawn: int,
        made: dict[tuple, int],
    ) -> None:
        """The dealer's hand from the shoe left, no blackjack (where it peeked, that ended the
        round): each final hand the wager reads, with its numerator. `n` over the first three
        cards' ways and falling(cards left after them, `drawn`) is the first hand's probability
        (an `_ORDER_BLIND` wager's rounds are read in `_round`)."""
        if not self.reads.dealer:  # only whether the hole card makes a blackjack
            holes = self._blackjack_holes(up)
            if holes:  # the hole card: one more card drawn
                n *= (sum(shoe) - sum(shoe[h] for h in holes)) * self.play_scale[drawn + 1]
            else:
                n *= self.play_scale[drawn]
            self._add(made, first, cards, split, (up, self.ranks.index("2")), n)
            return
        n *= self.play_scale[drawn]
        hands = self.hands
        if not self.reads.plays:  # the dealer's hand alone (Raise the Roof): read as the key
            for dealer, q in self._dealer_hands(first, up):
                if dealer not in hands:
                    hands[dealer] = (first, cards, split, dealer)
                made[dealer] = made.get(dealer, 0) + n * q
            return
        head = (first, cards, split)
        for dealer, q in self._dealer_hands(first, up):
            key = (*head, dealer)
            if key not in hands:
                hands[key] = (first, cards, split, dealer)
            made[key] = made.get(key, 0) + n * q

    def _dealer_hands(self, first: tuple[int, int], up: int) -> list[tuple[tuple[int, ...], int]]:
        """The dealer's final hands (no blackjack) from the shoe less the player's first two
        cards and the up card, one for each thing a wager reads of them (`_dealer_reading`),
        with their numerators over falling(cards in that shoe, _DEALER_DRAWN). Raise the Roof
        pays only a bust (30-899.23(10), (12)): the hands that stand are one reading."""
        key = (min(first), max(first), up)
        if key not in self.dealer_hands:
            shoe = list(self.shoe)
            shoe[up] -= 1
            hits_soft_17 = self.rules.dealer_hits_soft_17
            stands = self.wager == "raise-the-roof"
            read = _dealer_finals(self.ranks, up, tuple(shoe), key[:2], hits_soft_17, stands)
            self.dealer_hands[key] = read
        return self.dealer_hands[key]

    def _rest(self, cards: int) -> list[int]:
        """falling(cards − k, _DEALER_DRAWN − k) for each k: the draws of `_DEALER_DRAWN` from
        `cards` after a dealer's hand of k cards after the up card."""
        rest = self.rests.get(cards)
        if rest is None:
            rest = [falling(cards - k, _DEALER_DRAWN - k) for k in range(_DEALER_DRAWN + 1)]
            self.rests[cards] = rest
        return rest

    def _ties(self, up: int, ended: list[tuple[tuple[int, ...], int]]) -> list[int]:
        """For each (left, total) of `ended`: the numerator, over falling(cards in `left`,
        _DEALER_DRAWN), of the dealer's final hand totalling `total` (17 to 21, no blackjack)
        from `left`: the shoe less the up card (`shoe`) less r, the cards the first hand holds
        (its first two cards, its hits, a card split off it). A hand drawing m_i cards of class i
        has falling(shoe_i − r_i, m_i) ways to be drawn, which is Σ_j (−1)^j C(m_i, j)
        falling(r_i, j) falling(shoe_i − j, m_i − j) (j of its m_i draws among the r_i cards out,
        by inclusion and exclusion): so every hand of a total is summed once for the shoe
        (`_total_moments`, by the cards j it shares with r), and each r reads those sums at the
        few j ≤ r (`_removal_terms`). The sums are weighted by what the k cards a hand draws
        leave (falling(cards left − k, _DEALER_DRAWN − k)): once for each total and number of
        cards left, at the j some r of them reads."""
        moments = self.moments.get(up)
        if moments is None:
            shoe = list(self.shoe)
            shoe[up] -= 1
            hits_soft_17 = self.rules.dealer_hits_soft_17
            moments = (tuple(shoe), _total_moments(self.ranks, up, tuple(shoe), hits_soft_17))
            self.moments[up] = moments
        shoe, by_total = moments
        # the cards a hand of `total` draws after the up card hold at most total − the up card's
        # points (aces as one)
        value = min(up + 1, 10)
        sums: dict[tuple[int, int], _TieSums] = {}
        out = []
        for left, total in ended:
            codes, weights = _read_terms(tuple(map(operator.sub, shoe, left)), total - value)
            group = (total, sum(left))
            got = sums.get(group)
            if got is None:
                got = sums[group] = _TieSums(by_total[total], self._rest(group[1]))
            out.append(sum(map(operator.mul, weights, map(got.__getitem__, codes))))
        return out

    # --- evaluation --------------------------------------------------------------------------

    def _add(
        self,
        into: dict[tuple, int],
        first: tuple[int, int],
        cards: tuple[int, ...],
        split: bool,
        dealer: tuple[int, ...],
        n: int,
    ) -> None:
        """Add a round's numerator to its reading's, keeping a round of each reading. A reading
        holds what the wager's evaluator reads of the round, so that rounds alike to it are
        evaluated once: the dealer's hand alone for Raise the Roof (`_Reads`: the dealer's and not
        the play); the first hand as dealt alone for `_FIRST_HAND_ALONE`."""
        if self.wager in _ORDER_BLIND:  # read: the first hand's total, cards, split or not
            key: tuple = (min(self._total(cards), 22), len(cards), split, dealer)
        elif self.reads.dealer and not self.reads.plays:
            key = dealer
        elif self.wager in _FIRST_HAND_ALONE:
            key = (first, cards, split)
        else:
            key = (first, cards, split, dealer)
        if key not in self.hands:
            self.hands[key] = (first, cards, split, dealer)
        into[key] = into.get(key, 0) + n

    def _evaluated(
        self,
        first: tuple[int, int],
        cards: tuple[int, ...],
        split: bool,
        dealer: tuple[int, ...],
    ) -> list[tuple[tuple[str, ...], Fraction]]:
        """What the evaluator makes of the round, by suit assignment where it reads suits."""
        order = (*first, *cards[1:]) if split else cards  # the first hand's cards as dealt
        name = self.ranks.__getitem__
        names, dealer_names = tuple(map(name, order)), tuple(map(name, dealer))
        read = self.suits_read(names, dealer_names) if self.suits_read else []
        if not read:  # one round
            return [(_evaluation(self.wager, names, dealer_names, split, ()), _ONE)]
        slots = [*order, *dealer]
        out: dict[tuple[str, ...], Fraction] = {}
        for suits, share in self._suit_assignments([slots[i] for i in read]):
            chosen = tuple(zip(read, suits, strict=True))
            keys = _evaluation(self.wager, names, dealer_names, split, chosen)
            out[keys] = out.get(keys, Fraction(0)) + share
        return list(out.items())

    def _suit_assignments(self, ranks: list[int]) -> list[tuple[tuple[Suit, ...], Fraction]]:
        """Every assignment of suits to cards of these ranks, with its probability given the
        ranks: per rank, a draw without replacement from its cards of each suit. It depends only
        on which of the cards share a rank and how many cards of each suit their rank has."""
        if not ranks:
            return [((), _ONE)]
        labels: dict[int, int] = {}
        pattern = tuple(labels.setdefault(r, len(labels)) for r in ranks)
        key = (pattern, tuple(self.per_suit[r] for r in labels))
        if key not in self.assignments:
            assigned = _assigned(*key)
            sees = _SUIT_CLASS.get(self.wager)
            if sees:  # one assignment of each class the evaluator cannot tell apart
                classes: dict[tuple, tuple[tuple[Suit, ...], Fraction]] = {}
                for suits, share in assigned:
                    kept, total = classes.get(sees(suits), (suits, Fraction(0)))
                    classes[sees(suits)] = (kept, total + share)
                assigned = list(classes.values())
            self.assignments[key] = assigned
        return self.assignments[key]


class _TieSums(dict[int, int]):
    """For one total and number of cards left (`_Enumeration._ties`): the code of the cards j
    (`_removal_terms`) → the sum over the dealer's hands of that total (`_total_moments`' sums
    at j) weighted by what the k cards each draws leave (`rest`). Each is summed when first
    read (`__missing__`): the codes some hand of the group reads, and no others, without
    collecting them first; the read once summed is a plain dictionary's."""

    def __init__(self, by_j: dict[int, tuple[tuple[int, ...], tuple[int, ...]]], rest: list[int]):
        super().__init__()
        self.by_j = by_j
        self.rest = rest

    def __missing__(self, code: int) -> int:
        got = 0
        if code in self.by_j:
            ks, ns = self.by_j[code]
            got = sum(map(operator.mul, map(self.rest.__getitem__, ks), ns))
        self[code] = got
        return got


@lru_cache(maxsize=256)
def _assigned(
    pattern: tuple[int, ...], per_suit: tuple[int, ...]
) -> list[tuple[tuple[Suit, ...], Fraction]]:
    """`_Enumeration._suit_assignments` for cards whose ranks are labelled 0, 1, … in `pattern`
    (cards alike in label share a rank), rank label r having per_suit[r] cards of each suit.
    Memoised: one shoe's assignments serve both of its rules."""
    out = []
    for suits in itertools.product(list(Suit), repeat=len(pattern)):
        share = Fraction(1)
        for r in set(pattern):
            held = [s for c, s in zip(pattern, suits, strict=True) if c == r]
            ways = 1
            for s in set(held):
                ways *= falling(per_suit[r], held.count(s))
            share *= Fraction(ways, falling(4 * per_suit[r], len(held)))
        if share:
            out.append((suits, share))
    return out


def _with(cards: tuple[int, ...], card: int, split: bool) -> tuple[int, ...]:
    """An `_ORDER_BLIND` walk's hand `cards` with `card` drawn: an unsplit hand's cards in class
    order, a split hand's first two as dealt and its hits in class order (`_blind_play`)."""
    if card >= cards[-1] or (split and len(cards) < 3):
        return (*cards, card)
    if split:
        return (*cards[:2], *sorted((*cards[2:], card)))
    held = list(cards)
    bisect.insort(held, card)
    return tuple(held)


_MA = {"progressive-blackjack", "super-4-progressive"}

_ORDER_BLIND = {"buffalo-blackjack-bonus", "push-your-luck"}
"""Wagers that read the first hand's total and number of cards, not the order of its hits, and
of the dealer's final hand only whether its total is the first hand's (`_Enumeration._round`)."""


def _progressive_decided(names: tuple[str, ...]) -> bool:
    """MA 19(c): past two cards that are not two aces, or a third that is no ace, or four."""
    return names[:2] != ("A", "A") or len(names) >= 4 or (len(names) == 3 and names[2] != "A")


def _straight_decided(names: tuple[str, ...]) -> bool:
    """30-2109(7), (8): a card that breaks the run ends the straight."""
    return not consecutive([_card(n, Suit.CLUBS) for n in names])


_DECIDED: dict[str, Callable[[tuple[str, ...]], bool]] = {
    "progressive-blackjack": _progressive_decided,
    "straight-jack": _straight_decided,
    "straight-jack-progressive": _straight_decided,
}
"""Wager → whether no later card of the first hand can change its outcome (the hand as dealt)."""


_VALUES = {r: min(i + 1, 10) for i, r in enumerate(_RANKS13)}


def _total_of(names: tuple[str, ...]) -> int:
    """engine/hands.py hand_total's total of cards named by rank."""
    hard = sum(_VALUES[n] for n in names)
    return hard + 10 if "A" in names and hard <= 11 else hard


def _dealer_reading(hand: tuple[str, ...]) -> tuple[int, str, bool]:
    """What a wager here reads of the dealer's final hand: its total (22: bust), the card it
    busted on, whether it is 4-5-6-7 (Raise the Roof); hands alike in these are alike to it."""
    total = _total_of(hand)
    bust = total > 21
    return (22 if bust else total, hand[-1] if bust else "", sorted(hand) == ["4", "5", "6", "7"])


def _points(hard: int, ace: bool) -> tuple[int, bool]:
    """A hand's (total, soft) from its points with aces counting one and whether it holds an ace:
    engine/hands.py hand_total."""
    if ace and hard <= 11:
        return hard + 10, True
    return hard, False


@cache
def _card(rank: str, suit: Suit) -> Card:
    return Card(rank, suit)


_CLUBS = {rank: Card(rank, Suit.CLUBS) for rank in _RANKS13}


@lru_cache(maxsize=1 << 18)
def _evaluation(
    wager: str,
    names: tuple[str, ...],
    dealer_names: tuple[str, ...],
    split: bool,
    suits: tuple[tuple[int, Suit], ...],
) -> tuple[str, ...]:
    """The outcomes the wager's evaluator makes of a round: the first hand's cards as dealt
    (`names`, the first two then the rest, a split's second card included), the dealer's, and the
    suits read (index into the cards in that order, suit; every other card a club). Memoised:
    rounds alike recur across deck counts and rules."""
    dealt = [_CLUBS[n] for n in (*names, *dealer_names)]
    for i, suit in suits:
        dealt[i] = _card(dealt[i].rank, suit)
    hand = dealt[: len(names)]
    player_cards = (hand[0], *hand[2:]) if split else tuple(hand)
    dealer_cards = tuple(dealt[len(names) :])
    deal = Deal(
        (hand[0], hand[1]),
        dealer_cards[0],
        len(dealer_cards) == 2 and hand_total(dealer_cards)[0] == 21,
        dealer_cards if len(dealer_cards) > 1 else (),
        player_cards,
        player_split=split,
        specified_suit=Suit.SPADES,
    )
    return tuple(evaluator(wager, "US-MA" if wager in _MA else "US-CO")(deal))


@cache
def _shapes(ranks: str, hits_soft_17: bool) -> dict[int, list[tuple[tuple[int, ...], list]]]:
    """The dealer's final hands (engine/dealer_hands.hand_shapes) by up card, blackjacks left
    out, grouped by what a wager reads of them (`_dealer_reading`): for each, one hand of the
    group (as indices into `ranks`) and the group's hands as (orders of the middle cards, the
    cards drawn after the up card by class (index, count), how many). A ten-value card is read
    as T: the wagers reading the dealer's hand read point values."""
    out: dict[int, dict[tuple, tuple[tuple[int, ...], list]]] = {}
    index = {r: i for i, r in enumerate(ranks)}
    classes = [index[c] for c in CLASSES]
    for names, orders, held in hand_shapes(hits_soft_17):
        if len(names) == 2 and _total_of(names) == 21:
            continue
        up = index[names[0]]
        first = CLASSES.index(names[0])
        drawn = ((i, k - (i == first)) for i, k in held)
        after = tuple((classes[i], k) for i, k in drawn if k)
        groups, reading = out.setdefault(up, {}), _dealer_reading(names)
        if reading not in groups:  # the group's first hand stands for it
            groups[reading] = (tuple(index[n] for n in names), [])
        groups[reading][1].append((orders, after, len(names) - 1))
    return {up: list(groups.values()) for up, groups in out.items()}


@lru_cache(maxsize=256)
def _dealer_moments(
    ranks: str, up: int, shoe: tuple[int, ...], hits_soft_17: bool, busts: bool = False
) -> list[tuple[tuple[int, ...], int, list[int], list[int]]]:
    """For `_dealer_finals`: each group of the dealer's final hands (`_shapes`) from `shoe` (the
    up card already out of it, two cards still to come out) as one hand of the group and the sums
    over its hands of w, w·m_i and w·m_i·m_j (i ≤ j, at i × classes + j), where m_i is how many
    cards of class i the hand draws after the up card and w its ordered ways from `shoe` times
    falling(cards in `shoe` − 2 − k, _DEALER_DRAWN − k), k the cards it draws. With `busts`, the
    groups of bust hands alone."""
    left = sum(shoe) - 2
    rest = [falling(left - k, _DEALER_DRAWN - k) for k in range(_DEALER_DRAWN + 1)]
    draws = [[falling(n, m) for m in range(_DEALER_DRAWN + 1)] for n in shoe]
    out = []
    classes = len(shoe)
    for hand, group in _shapes(ranks, hits_soft_17)[up]:
        if busts and _total_of(tuple(ranks[c] for c in hand)) <= 21:
            continue
        total, by_class, by_pair = 0, [0] * classes, [0] * classes * classes
        for orders, after, k in group:
            w = orders * rest[k]
            for i, m in after:
                w *= draws[i][m]
            if not w:
                continue
            total += w
            for x, (i, m) in enumerate(after):
                wm = w * m
                by_class[i] += wm
                for j, n in after[x:]:  # after is in class order: i ≤ j
                    by_pair[i * classes + j] += wm * n
        out.append((hand, total, by_class, by_pair))
    return out


@lru_cache(maxsize=4096)
def _dealer_finals(
    ranks: str,
    up: int,
    shoe: tuple[int, ...],
    first: tuple[int, int],
    hits_soft_17: bool,
    stands: bool = False,
) -> list[tuple[tuple[int, ...], int]]:
    """The dealer's final hands (no blackjack) from `shoe` (the up card out of it) less the
    player's first two cards (classes `first`, a ≤ b), one for each thing a wager reads of them,
    with the probability of its group as a numerator over falling(cards left, _DEALER_DRAWN).
    With `stands`, the hands that stand are one group (the first of them standing for it).

    Taking a card of class a out of the shoe turns a hand's falling(N_a, m_a) ways of drawing
    its m_a cards of that class into falling(N_a − 1, m_a) = falling(N_a, m_a)·(N_a − m_a)/N_a;
    two cards out, a group's ways are a quadratic in its hands' m_a and m_b, summed exactly from
    the group's moments (`_dealer_moments`, shared by every pair of cards taken out).

    The hands that stand are then counted as what the others leave: every ordered draw of
    _DEALER_DRAWN cards from what is left begins with one final hand (a blackjack, a bust, or
    one that stands), so they are falling(cards left, _DEALER_DRAWN) less the blackjacks'
    (a hole card completing 21, then falling(cards left − 1, _DEALER_DRAWN − 1)) and the
    busts'."""
    a, b = first
    na, nb = shoe[a], shoe[b]
    pair = a * len(shoe) + b
    out = []
    for hand, total, by_class, by_pair in _dealer_moments(ranks, up, shoe, hits_soft_17, stands):
        if a == b:  # falling(N_a − 2, m) = falling(N_a, m)(N_a − m)(N_a − m − 1)/(N_a(N_a − 1))
            ways = na * (na - 1) * total - (2 * na - 1) * by_class[a] + by_pair[pair]
            over = na * (na - 1)
        else:
            ways = na * nb * total - na * by_class[b] - nb * by_class[a] + by_pair[pair]
            over = na * nb
        if ways:
            out.append((hand, ways // over))  # exact: each hand's term is a multiple of over
    if stands:
        left = [n - (i == a) - (i == b) for i, n in enumerate(shoe)]
        cards = sum(left)
        pair = [(_VALUES[ranks[up]], _VALUES[r]) for r in ranks]  # aces as one
        holes = sum(n for n, v in zip(left, pair, strict=True) if v in ((1, 10), (10, 1)))
        ways = falling(cards, _DEALER_DRAWN) - holes * falling(cards - 1, _DEALER_DRAWN - 1)
        ways -= sum(n for _, n in out)
        if ways:
            names = ranks.__getitem__
            groups = _shapes(ranks, hits_soft_17)[up]
            out.append(next((h, ways) for h, _ in groups if _total_of(tuple(map(names, h))) <= 21))
    return out


@lru_cache(maxsize=1 << 16)
def _read_terms(removed: tuple[int, ...], points: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """`_removal_terms` of `removed` holding at most `points` points (aces as one): the codes and
    their weights."""
    codes, weights, held = _removal_terms(removed)
    read = bisect.bisect_right(held, points)
    return codes[:read], weights[:read]


@lru_cache(maxsize=1 << 15)
def _removal_terms(
    removed: tuple[int, ...],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For the cards r out of the shoe (a count by class of `CLASSES`): each multiset j ≤ r, as
    an integer (5 bits a class), with its weight Π_i (−1)^j_i falling(r_i, j_i) in
    `_Enumeration._ties`; those of more than 20 points (aces as one) left out: the
    dealer's cards after any up card (an ace's one point at least) hold no more in a hand that
    does not bust. As three tuples read in step, in order of points: the codes, their weights and
    their points (a hand reads only those of at most its total less the up card's points: one
    list for every up card and total, `_Enumeration._ties`)."""
    most = 20
    out = [(0, 1, 0)]  # j, weight, points
    for i, r in enumerate(removed):
        if not r:
            continue
        value, row, weight = min(i + 1, 10), [], 1
        for j in range(min(r, most // value) + 1):  # j_i of class i: code, weight, points
            row.append((j << 5 * i, weight, j * value))
            weight *= j - r  # (−1)^(j+1) falling(r, j + 1)
        out = [
            (code + c, weight * w, points + p)
            for code, weight, points in out
            for c, w, p in row
            if points + p <= most
        ]
    out.sort(key=operator.itemgetter(2))
    codes, weights, points = zip(*out, strict=True)
    return codes, weights, points


@lru_cache(maxsize=64)
def _total_moments(
    ranks: str, up: int, shoe: tuple[int, ...], hits_soft_17: bool
) -> dict[int, dict[int, tuple[tuple[int, ...], tuple[int, ...]]]]:
    """The dealer's final hands of each total 17 to 21 (no blackjack) under up card `up` from
    `shoe` (the up card out of it), summed by the cards j ≤ m they draw (m_i of class i after
    the up card; j as in `_removal_terms`): total → j → (each number k of cards the hands draw,
    Σ orders · Π_i C(m_i, j_i) falling(shoe_i − j_i, m_i − j_i) over those hands at each k), as
    two tuples read in step."""
    factors: dict[tuple[int, int], list[tuple[int, int]]] = {}
    out: dict[int, dict[int, dict[int, int]]] = {t: {} for t in range(17, 22)}
    for hand, group in _shapes(ranks, hits_soft_17)[up]:
        total = _total_of(tuple(ranks[c] for c in hand))
        if total > 21:
            continue
        by_j = out[total]
        for orders, after, k in group:
            terms = [(0, orders)]
            for i, m in after:
                row = factors.get((i, m))
                if row is None:
                    row = factors[i, m] = [
                        (j << 5 * i, math.comb(m, j) * falling(shoe[i] - j, m - j))
                        for j in range(m + 1)
                    ]
                terms = [(code + c, ways * f) for code, ways in terms for c, f in row if f]
            for code, ways in terms:
                by_k = by_j.get(code)
                if by_k is None:
                    by_j[code] = {k: ways}
                else:
                    by_k[k] = by_k.get(k, 0) + ways
    return {
        t: {j: (tuple(ks), tuple(ks.values())) for j, ks in by_j.items()} for t, by_j in out.items()
    }


@cache
def _standing(
    ranks: str, up: int, hits_soft_17: bool
) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """A dealer's final hand under up card `up` of each total 17 to 21 (no blackjack), and a bust
    one: rounds standing for the dealer's hands an `_ORDER_BLIND` wager reads alike."""
    totals: dict[int, tuple[int, ...]] = {}
    for hand, _ in _shapes(ranks, hits_soft_17)[up]:
        totals.setdefault(min(_total_of(tuple(ranks[c] for c in hand)), 22), hand)
    bust = totals.pop(22)
    return totals, bust


PLAY_TREE_REMOVAL = (
    "the player's first two cards and the dealer's up card drawn from a full shoe, the dealer "
    "peeking for blackjack under an ace or ten-value card; the seat's first hand played with the "
    "basic strategy card by card from the rest (a split's first hand carrying the wager); "
    "{dealer}. The cards dealt later to other hands are unseen by the wager: a shuffled shoe's "
    "cards after a stopping time are exchangeable with the rest, so none is removed for them"
)
_DEALER_REMOVAL = {
    False: "whether the dealer holds blackjack is read from the shoe less the first hand's cards",
    True: "the dealer's hole card and draws from the shoe less the up card and every card the "
    "first hand holds when it ends (its first two cards, hits, a double's card, a card split off "
    "it), exactly",
}
"""Whether the wager reads the dealer's final hand → how the dealer's cards are drawn."""
_DEALER_ALONE = (
    "the dealer's hole card and draws from the shoe less the player's first two cards and the up "
    "card: the wager reads the dealer's hand alone, and the first hand's later cards, drawn up "
    "to a stopping time of the shuffled shoe, change its distribution by nothing (removing them "
    "gives the same fractions)"
)
"""A wager reading the dealer's final hand and not the play (Raise the Roof)."""


RAISE_COLUMN = "raise"
"""A Raise the Roof column whose name holds this is paid on the Ante and the Raise once raised
(30-899.23(8), (10), (12): "Ante+ Raise The Roof")."""


def analyse_play_tree(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: int,
    *,
    hits_soft_17: bool,
    jurisdiction: str | None = None,
    ante_lines: Sequence[PaytableLine] = (),
) -> Analysis:
    """The exact analysis of a paytable column of a wager decided by how the round is played
    (`PLAY_TREE`), from its play tree (`play_tree`).

    Raise the Roof's "Ante+ Raise The Roof" column (`RAISE_COLUMN`): the player, with no dealer
    blackjack and seeing the up card and own two cards, raises 0 to 5 times the Ante, whichever
    returns most; raised, the Ante and the Raise are paid by this column, else the Ante by
    `ante_lines` (the "Ante Only" column). The house edge is then per unit staked (Ante and
    Raise together).

    :raises NotAnalysable: a line paying a meter share or an amount; a wager not analysed here.
    """
    if wager not in PLAY_TREE:
        raise NotAnalysable(f"{wager} is not analysed by its play tree")
    for line in (*lines, *ante_lines):
        refuse_unless_odds(line)
    if decks < 1:
        raise NotAnalysable(f"a shoe needs at least one deck, not {decks}")
    tree = play_tree(wager, decks, hits_soft_17)
    rule = "hitting" if hits_soft_17 else "standing on"
    reads = _READS[wager]
    dealer = _DEALER_ALONE if reads.dealer and not reads.plays else _DEALER_REMOVAL[reads.dealer]
    removal = PLAY_TREE_REMOVAL.format(dealer=dealer)
    removal += f"; the dealer {rule} soft 17"
    column = lines[0].column if lines else ""
    if wager == "raise-the-roof" and RAISE_COLUMN in column.lower() and ante_lines:
        return _raised(tree, lines, ante_lines, decks, column, removal)
    outcomes = frozenset(line.outcome for line in lines)
    by_keys: dict[tuple[str, ...], Fraction] = {}
    for made, p in tree.outcomes().items():
        keys = tuple(paid_from(wager, made, outcomes))
        by_keys[keys] = by_keys.get(keys, Fraction(0)) + p
    total = math.lcm(*(p.denominator for p in by_keys.values()))
    counts = {k: int(p * total) for k, p in by_keys.items()}
    paid, lose, push = tally(counts)
    results = line_results(lines, paid, total)
    pushed = sum(
        (r.probability for r, line in zip(results, lines, strict=True)
         if line.pays.basis is Basis.PUSH),
        Fraction(0),
    )  # fmt: skip
    edge = Fraction(lose, total) - sum((r.returns for r in results), Fraction(0))
    return Analysis(
        wager,
        decks,
        column,
        results,
        Fraction(lose, total),
        Fraction(push, total) + pushed,
        edge,
        removal,
        total,
        method="exact",
        nets=net_counts(counts, lines),
    )


def _raised(
    tree: PlayTree,
    lines: Sequence[PaytableLine],
    ante_lines: Sequence[PaytableLine],
    decks: int,
    column: str,
    removal: str,
) -> Analysis:
    """Raise the Roof with the raise the player's best (see analyse_play_tree). Summed as
    integers: probabilities over the tree's denominator D, returns over D × the lines' wins'
    common denominator."""
    wager = "raise-the-roof"
    wins = {line.outcome: line_win(line) for line in lines}
    ante_wins = {line.outcome: line_win(line) for line in ante_lines}
    unit = math.lcm(*(w.denominator for w in (*wins.values(), *ante_wins.values())))
    win_units = {k: int(w * unit) for k, w in wins.items()}
    ante_units = {k: int(w * unit) for k, w in ante_wins.items()}
    outcomes, ante_outcomes = frozenset(wins), frozenset(ante_wins)

    @cache
    def paid(made: tuple[str, ...], raised: bool) -> list[str]:
        """The lines the round pays, raised (this column) or not (the Ante Only column)."""
        return paid_from(wager, made, outcomes if raised else ante_outcomes)

    @cache
    def value(made: tuple[str, ...], raised: bool) -> int:
        """What the round returns per unit staked, in `unit`ths."""
        table, keys = (win_units if raised else ante_units), paid(made, raised)
        return sum(table[k] for k in keys if k in table) if keys else -unit

    net = 0
    staked = 0
    line_p: dict[str, int] = {}
    line_return: dict[str, int] = {}
    lose = 0
    for p in tree.blackjack.values():  # 30-899.23(7): the Ante loses; no raise
        net -= p * unit
        staked += p
        lose += p
    # the states' outcomes summed by the raise taken, to be paid once for each raise
    by_times: dict[int, dict[tuple[str, ...], int]] = {}
    for state_made in tree.by_state.values():
        chance = sum(state_made.values())
        if not chance:
            continue
        raised = sum(p * value(m, True) for m, p in state_made.items())
        kept = sum(p * value(m, False) for m, p in state_made.items())
        best, times = max((kept, 0), *(((1 + r) * raised, r) for r in range(1, 6)))
        net += best
        staked += chance * (1 + times)
        summed = by_times.setdefault(times, {})
        for made, p in state_made.items():
            summed[made] = summed.get(made, 0) + p
    for times, summed in by_times.items():
        for made, p in summed.items():
            keys = paid(made, times > 0)
            if not keys:
                lose += p
            for key in keys if times else ():
                line_p[key] = line_p.get(key, 0) + p
                line_return[key] = line_return.get(key, 0) + p * (1 + times) * win_units[key]
    d = tree.denominator
    staked_p = Fraction(staked, d)
    results = tuple(
        LineResult(
            line.outcome,
            line.label,
            str(line.pays),
            Fraction(line_p.get(line.outcome, 0), d),
            Fraction(line_return.get(line.outcome, 0), d * unit) / staked_p,
        )
        for line in lines
    )
    return Analysis(
        wager,
        decks,
        column,
        results,
        Fraction(lose, d),
        Fraction(0),
        -Fraction(net, d * unit) / staked_p,
        removal + "; the player raises 1 to 5 times the Ante after seeing the up card and own "
        "two cards (no dealer blackjack) whenever, and by as much as, raising returns more than "
        "the Ante alone (paid by the Ante Only column); the house edge is per unit staked, Ante "
        "and Raise together",
        0,
        method="exact",
    )


_FIRST_HAND_ALONE = {"progressive-blackjack", "straight-jack", "straight-jack-progressive"}
"""Wagers whose evaluator reads the seat's first hand as dealt and nothing of the dealer's, not
even a blackjack (the aces of MA 19(c), (e); the straight of 30-2109, 30-2110): their rounds are
read without the dealer's cards (`_Enumeration._add`), each first hand evaluated once whatever
the up card."""
