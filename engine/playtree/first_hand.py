"""The seat's first hand, card by card under the basic strategy (FirstHand): every way it can
be played from the first three cards, for a wager that reads the play and for one that reads only
how the hand ends.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from engine.strategy import Action

from .readings import (
    DECIDED,
    points_of,
    with_card,
)
from .state import EnumerationState


class FirstHand(EnumerationState):
    """The first hand's play, on an enumeration's state."""

    def _play(
        self, first: tuple[int, int], shoe: tuple[int, ...], up: int
    ) -> Iterator[tuple[tuple[int, ...], bool, tuple[int, ...], int, int]]:
        """The first hand's cards as played (split or not), the cards it drew from `shoe` (its
        hits, a split hand's second card, a card split off it again), n: its probability given
        the first three cards is n over falling(cards in `shoe`, cards drawn), and its total. The
        engine's _play_seat for the seat's first hand, its later split hands unseen.

        Card by card, a level at a time: the hands still to act are kept by their cards, a hand is
        given out as soon as it is over: it stands, busts, reaches 21, has doubled, or no later
        card can change its outcome (`DECIDED`). (An `ORDER_BLIND` wager's: `_blind_play`.)"""
        decided = DECIDED.get(self.wager)
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
                action = self._decide(cards, split, aces, spot, up, points_of(hard, held_ace))
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
                    points = points_of(hard + values[card], held_ace or card == ace)
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
        """`_play` for an `ORDER_BLIND` wager, from every first two cards at once (`starts`:
        the first two cards, in class order → the ways of the first three cards; `shoe` the shoe
        less the up card), its hands merged by what the wager reads of them and what the
        dealer's hand is then read from: ((total, 22 for any bust; cards; split), the shoe left,
        or for a total no dealer's final hand has (a bust, under 17) only the cards left and
        those of them completing a blackjack under the up card) → [the first hand the walk gives
        out with it (its cards before its last card and that card, to be joined by `with_card`
        where the hand stands for a reading; or its cards and None), the numerator of its
        probability over falling(cards in the full shoe, 3) ·
        falling(cards left after the first three, MOST_DRAWN)]. The same walk, written out for
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
            shoe_left = list(shoe)
            shoe_left[first[0]] -= 1
            shoe_left[first[1]] -= 1
            total, soft = self._points(first)
            acted = action(first, False, False, 1, total, soft)
            if acted in stops:
                give(first, False, ways * scale[0], total, tuple(shoe_left))
                continue
            start = (first, False, False, 1, ())
            acting[start] = ways
            kept[start] = (tuple(shoe_left), sum(values[c] for c in first), ace in first, acted, 0)
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
                        child: tuple[tuple[int, ...], bool, bool, int, tuple[int, ...]]
                        child = ((cards[0], card), True, split_aces, spot + 1, moved)
                        total, soft = self._points(child[0])
                        acts: Action | bool | None
                        acts = ends or action(child[0], True, split_aces, spot + 1, total, soft)
                        after: tuple[int, ...] | None
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
                    key: tuple[tuple[int, int, bool], tuple[int, ...]]
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
                    child_cards = with_card(cards, card, split)
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
