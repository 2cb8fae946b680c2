"""One enumeration of every round a play-tree wager reads (Enumeration): the first three cards,
the seat's first hand card by card under the basic strategy, and the dealer's hand from what is
left, as integers over one denominator.
"""

from __future__ import annotations

import itertools

from .dealer import standing
from .first_hand import FirstHand
from .readings import (
    ORDER_BLIND,
    Readings,
    with_card,
)


class Enumeration(FirstHand):
    """One enumeration of every round. Probabilities are integers over one denominator,
    falling(shoe, 3) · falling(shoe − 3, MOST_DRAWN) · the dealer's (where the wager reads the
    dealer's final hand: falling(shoe − 3, DEALER_DRAWN) if it reads no play, the dealer then
    drawing from the shoe less the first three cards; falling(shoe − 3, MOST_DRAWN +
    DEALER_DRAWN) for an `ORDER_BLIND` wager, the dealer drawing from what the first hand
    leaves; else 1): the first three cards, then the first hand's draws and the dealer's."""

    def run(self, only: tuple[int, int, int] | None = None) -> Readings:
        """Every round, or those of one state (`only`: the first two cards, in class order, and
        the up card)."""
        by_state: dict[tuple[str, str, str], dict[tuple, int]] = {}
        blackjack: dict[tuple, int] = {}
        shoe = list(self.shoe)
        k = len(shoe)
        if self.wager in ORDER_BLIND:  # every state of an up card walked at once
            for up in range(k) if only is None else (only[2],):
                made = by_state.setdefault(("", "", self.ranks[up]), {})
                self._blind_round(up, made, blackjack, None if only is None else only[:2])
            by_state = {s: m for s, m in by_state.items() if m}
            return Readings(by_state, blackjack, self.hands, self.denominator)
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
        return Readings(by_state, blackjack, self.hands, self.denominator)

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
        `ORDER_BLIND` wager, which reads the first hand's total and number of cards and whether
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
        stands, other = standing(self.ranks, up, self.rules.dealer_hits_soft_17)
        in_shoe = sum(shoe) - 2
        ended = self._blind_play(starts, tuple(shoe), up)
        # the dealer's hand totalling the first hand's 17 to 21, from the shoe it leaves
        ties = iter(self._ties(up, [(left, head[0]) for head, left in ended if len(left) > 2]))
        for (head, remaining), (cards, card, n) in ended.items():
            if len(remaining) == 2:  # a total no dealer's final hand has: no blackjack is read
                left_cards, blackjacks = remaining
                same = 0
            else:  # a total of 17 to 21
                left_cards = sum(remaining)
                blackjacks = sum(map(remaining.__getitem__, holes))
                same = next(ties)
            falls = self._rest(left_cards)
            rest = falls[0] - blackjacks * falls[1] - same
            n *= scale[in_shoe - left_cards]
            for tie, numerator in ((True, same), (False, rest)):
                if not numerator:
                    continue
                key = (*head, tie)
                made[key] = made.get(key, 0) + n * numerator
                if key not in hands:  # a round standing for the reading
                    if card is not None:
                        cards, card = with_card(cards, card, head[2]), None
                    first = (cards[0], cards[0]) if head[2] else cards[:2]
                    dealer = stands[head[0]] if tie else other
                    hands[key] = (first, cards, head[2], dealer)
