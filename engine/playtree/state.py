"""The state of an enumeration of rounds (EnumerationState): the shoe and rules it reads, the
basic strategy's decisions, the dealer's hands from a shoe, the counts it adds a round to, and
the evaluation of a reading.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property, lru_cache

from engine.cards import Card, Suit, card_of
from engine.dealer_hands import falling
from engine.hands import Hand, hand_total
from engine.rules import RuleSet
from engine.strategy import AT_21, Action, BasicStrategy, allowed_actions

from .dealer import dealer_finals, read_terms, total_moments
from .readings import (
    DEALER_DRAWN,
    MOST_DRAWN,
    ONE,
    ORDER_BLIND,
    RANKS10,
    RANKS13,
    SUIT_CLASS,
    SUITS_READ,
    Reads,
    TieSums,
    evaluation,
    suits_assigned,
)


def _decisions(ranks: str, rules: RuleSet) -> dict[tuple, Action]:
    """The strategy's decisions, by what it reads of a hand (`Enumeration._decide`), to be
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


class EnumerationState:
    """One enumeration of every round. Probabilities are integers over one denominator,
    falling(shoe, 3) · falling(shoe − 3, MOST_DRAWN) · the dealer's (where the wager reads the
    dealer's final hand: falling(shoe − 3, DEALER_DRAWN) if it reads no play, the dealer then
    drawing from the shoe less the first three cards; falling(shoe − 3, MOST_DRAWN +
    DEALER_DRAWN) for an `ORDER_BLIND` wager, the dealer drawing from what the first hand
    leaves; else 1): the first three cards, then the first hand's draws and the dealer's."""

    def __init__(self, wager: str, reads: Reads, rules: RuleSet) -> None:
        self.wager = wager
        self.reads = reads
        self.rules = rules
        self.suits_read = SUITS_READ.get(wager)
        ranks = reads.ranks
        self.ranks = ranks
        n = rules.decks
        self.per_suit = [4 * n if (r == "T" and ranks == RANKS10) else n for r in ranks]
        self.shoe = tuple(4 * k for k in self.per_suit)
        self.tens = tuple(i for i, r in enumerate(ranks) if r in "TJQK")
        self.ace = ranks.index("A")
        self.clubs = [card_of(r, Suit.CLUBS) for r in ranks]
        """Each rank's card, for what reads no suit."""
        self.values = [min(c + 1, 10) if ranks is RANKS13 else c + 1 for c in range(len(ranks))]
        self.decisions = _decisions(ranks, rules)
        self.points: dict[tuple[int, ...], tuple[int, bool]] = {}
        self.stops: dict[tuple, bool] = {}
        self.assignments: dict[tuple[tuple[int, ...], tuple[int, ...]], list] = {}
        self.dealer_hands: dict[tuple, list[tuple[tuple[int, ...], int]]] = {}
        left = sum(self.shoe) - 3
        self.play_scale = [falling(left - d, MOST_DRAWN - d) for d in range(MOST_DRAWN + 1)]
        """play_scale[d]: n over falling(left, d) is n · play_scale[d] over falling(left, most)."""
        self.dealer_denominator = falling(left, DEALER_DRAWN) if reads.dealer else 1
        if wager in ORDER_BLIND:  # the dealer's hand from what the first hand leaves
            self.dealer_denominator = falling(left, MOST_DRAWN + DEALER_DRAWN)
        self.dealer_scale = [
            falling(left, d) * falling(left - d - DEALER_DRAWN, MOST_DRAWN - d)
            for d in range(MOST_DRAWN + 1)
        ]
        """dealer_scale[d]: n over falling(left − d, DEALER_DRAWN) (the dealer's hand after d
        cards drawn) is n · dealer_scale[d] over falling(left, MOST_DRAWN + DEALER_DRAWN)."""
        self.moments: dict[int, tuple[tuple[int, ...], dict]] = {}
        """Up card → the shoe less it and its `total_moments`."""
        self.rests: dict[int, list[int]] = {}
        self.denominator = (
            falling(left + 3, 3) * falling(left, MOST_DRAWN) * self.dealer_denominator
        )
        self.hands: dict[tuple, tuple] = {}

    @cached_property
    def strategy(self) -> BasicStrategy:
        """The basic strategy of the rules, built when a hand is first played: a wager reading
        no play (Raise the Roof) never reads it, and building it for a rule not yet seen
        works its table out (engine/strategy.py `_strategy_table`)."""
        return BasicStrategy(self.rules)

    def _blackjack_holes(self, up: int) -> tuple[int, ...]:
        if not self.rules.peeks:
            return ()
        if up == self.ace:
            return self.tens
        return (self.ace,) if up in self.tens else ()

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
        return card_of(self.ranks[index], suit)

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
        (an `ORDER_BLIND` wager's rounds are read in `_round`)."""
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
        cards and the up card, one for each thing a wager reads of them (`dealer_reading`),
        with their numerators over falling(cards in that shoe, DEALER_DRAWN). Raise the Roof
        pays only a bust (30-899.23(10), (12)): the hands that stand are one reading."""
        key = (min(first), max(first), up)
        if key not in self.dealer_hands:
            shoe = list(self.shoe)
            shoe[up] -= 1
            hits_soft_17 = self.rules.dealer_hits_soft_17
            stands = self.wager == "raise-the-roof"
            read = dealer_finals(self.ranks, up, tuple(shoe), key[:2], hits_soft_17, stands)
            self.dealer_hands[key] = read
        return self.dealer_hands[key]

    def _rest(self, cards: int) -> list[int]:
        """falling(cards − k, DEALER_DRAWN − k) for each k: the draws of `DEALER_DRAWN` from
        `cards` after a dealer's hand of k cards after the up card."""
        rest = self.rests.get(cards)
        if rest is None:
            rest = [falling(cards - k, DEALER_DRAWN - k) for k in range(DEALER_DRAWN + 1)]
            self.rests[cards] = rest
        return rest

    def _ties(self, up: int, ended: list[tuple[tuple[int, ...], int]]) -> list[int]:
        """For each (left, total) of `ended`: the numerator, over falling(cards in `left`,
        DEALER_DRAWN), of the dealer's final hand totalling `total` (17 to 21, no blackjack)
        from `left`: the shoe less the up card (`shoe`) less r, the cards the first hand holds
        (its first two cards, its hits, a card split off it). A hand drawing m_i cards of class i
        has falling(shoe_i − r_i, m_i) ways to be drawn, which is Σ_j (−1)^j C(m_i, j)
        falling(r_i, j) falling(shoe_i − j, m_i − j) (j of its m_i draws among the r_i cards out,
        by inclusion and exclusion): so every hand of a total is summed once for the shoe
        (`total_moments`, by the cards j it shares with r), and each r reads those sums at the
        few j ≤ r (`_removal_terms`). The sums are weighted by what the k cards a hand draws
        leave (falling(cards left − k, DEALER_DRAWN − k)): once for each total and number of
        cards left, at the j some r of them reads."""
        moments = self.moments.get(up)
        if moments is None:
            shoe_left = list(self.shoe)
            shoe_left[up] -= 1
            hits_soft_17 = self.rules.dealer_hits_soft_17
            moments = (
                tuple(shoe_left),
                total_moments(self.ranks, up, tuple(shoe_left), hits_soft_17),
            )
            self.moments[up] = moments
        shoe, by_total = moments
        # the cards a hand of `total` draws after the up card hold at most total − the up card's
        # points (aces as one)
        value = min(up + 1, 10)
        sums: dict[tuple[int, int], TieSums] = {}
        out = []
        for left, total in ended:
            codes, weights = read_terms(tuple(map(operator.sub, shoe, left)), total - value)
            group = (total, sum(left))
            got = sums.get(group)
            if got is None:
                got = sums[group] = TieSums(by_total[total], self._rest(group[1]))
            out.append(sum(map(operator.mul, weights, map(got.__getitem__, codes))))
        return out

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
        evaluated once: the dealer's hand alone for Raise the Roof (`Reads`: the dealer's and not
        the play); the first hand as dealt alone for `_FIRST_HAND_ALONE`."""
        if self.wager in ORDER_BLIND:  # read: the first hand's total, cards, split or not
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
            return [(evaluation(self.wager, names, dealer_names, split, ()), ONE)]
        slots = [*order, *dealer]
        out: dict[tuple[str, ...], Fraction] = {}
        for suits, share in self._suit_assignments([slots[i] for i in read]):
            chosen = tuple(zip(read, suits, strict=True))
            keys = evaluation(self.wager, names, dealer_names, split, chosen)
            out[keys] = out.get(keys, Fraction(0)) + share
        return list(out.items())

    def _suit_assignments(self, ranks: list[int]) -> list[tuple[tuple[Suit, ...], Fraction]]:
        """Every assignment of suits to cards of these ranks, with its probability given the
        ranks: per rank, a draw without replacement from its cards of each suit. It depends only
        on which of the cards share a rank and how many cards of each suit their rank has."""
        if not ranks:
            return [((), ONE)]
        labels: dict[int, int] = {}
        pattern = tuple(labels.setdefault(r, len(labels)) for r in ranks)
        key = (pattern, tuple(self.per_suit[r] for r in labels))
        if key not in self.assignments:
            assigned = suits_assigned(*key)
            sees = SUIT_CLASS.get(self.wager)
            if sees:  # one assignment of each class the evaluator cannot tell apart
                classes: dict[tuple, tuple[tuple[Suit, ...], Fraction]] = {}
                for suits, share in assigned:
                    kept, total = classes.get(sees(suits), (suits, Fraction(0)))
                    classes[sees(suits)] = (kept, total + share)
                assigned = list(classes.values())
            self.assignments[key] = assigned
        return self.assignments[key]


_FIRST_HAND_ALONE = {"progressive-blackjack", "straight-jack", "straight-jack-progressive"}


"""Wagers whose evaluator reads the seat's first hand as dealt and nothing of the dealer's, not
even a blackjack (the aces of MA 19(c), (e); the straight of 30-2109, 30-2110): their rounds are
read without the dealer's cards (`Enumeration._add`), each first hand evaluated once whatever
the up card."""
