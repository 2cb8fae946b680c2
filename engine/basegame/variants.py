"""The exact base-game analysis (engine.basegame) of two full variants' own play rules:

- Face Up Blackjack / MA 6(k)'s face-up dealing (RuleSet.dealer_face_up): the player sees both
  dealer cards, so every decision is the best for the hand's cards and both dealer cards. The
  expected value is the sum over the dealer's two cards of their chance times the best play's
  value given them, from the shoe less the dealer's two cards and the player's. A dealer
  blackjack shows at once and ends the round (the player's blackjack then wins, pushes or loses
  as blackjack_beats_dealer_blackjack and ties_lose say). Pushes lose where ties_lose.
- Blackjack Switch (RuleSet.switch, two hands a seat): the player may swap the hands' second
  cards; a switched blackjack counts 21, and pushes a dealer's 21 or 22 where
  switched_blackjack_pushes_22 (30-2105(8)(e)). Where dealer_22_pushes (the game's rule, as
  Colorado's 30-2105(8)(e) is read: engine/readings.py), every dealer 22 pushes a hand that is not
  a blackjack; without it, the 22 busts (the literal reading, set aside).

Both reuse engine.basegame's analysis, whose conventions hold (one player from a full shoe,
composition-dependent play, Farmer's split algorithm, insurance declined). The engine's basic
strategy (Play.BASIC, what the simulator plays) is valued exactly too: for face-up dealing its
decisions by the hand's total and the dealer's two-card total; for Switch its decisions, and its
choice to switch by its own infinite-shoe values.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import fields, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.analysis import NotAnalysable
from engine.basegame.assumptions import BaseGameValue, Play, beyond_limits, conventions, unplayed
from engine.basegame.contexts import Context
from engine.basegame.double_up import check_double_up, double_up_value, is_double_up
from engine.basegame.hands import (
    ACE,
    TEN,
    OddsStore,
    Vector,
    add_card,
    full_shoe,
    hand_table,
    hand_total,
    store_add,
    unpack_removed,
)
from engine.basegame.standard import Analysis
from engine.dealer_odds import BLACKJACK, OUTCOMES, RANKS, TWENTY_TWO, dealer_odds
from engine.rules import DoubleOn, RuleSet
from engine.strategy import BasicStrategy, DealerKey

_PLAYED = {
    "face up": ("dealer_face_up", "ties_lose", "blackjack_beats_dealer_blackjack"),
    "switch": ("switch", "spots_per_seat"),
}
"""Fields each variant's analysis plays, not refused there though NOT_ANALYSED lists them."""


def is_variant(rules: RuleSet) -> bool:
    """The rules deal the dealer's cards face up, let the player switch cards, or are Double Up
    Blackjack's (engine.basegame.double_up)."""
    return rules.dealer_face_up or rules.switch or is_double_up(rules)


def check_variant(rules: RuleSet) -> None:
    """:raises NotAnalysable: naming what the variants' analysis does not play."""
    if is_double_up(rules):
        check_double_up(rules)
        return
    played = {name for kind, names in _PLAYED.items() for name in names if _uses(rules, kind)}
    missing = unplayed(rules, played) + misplaced_variant_rules(rules)
    if rules.double_on is DoubleOn.ANY_TIME:
        missing.append("doubling on any number of cards")
    missing += beyond_limits(rules)
    if missing:
        raise NotAnalysable("the exact analysis does not play " + ", ".join(missing))


def misplaced_variant_rules(rules: RuleSet) -> list[str]:
    """The variants' play rules where the analysis does not play them, in words."""
    out = []
    if rules.dealer_face_up and rules.switch:
        out.append("face-up dealing and switching together")
    if rules.ties_lose and not rules.dealer_face_up:
        out.append("pushes that lose without face-up dealing")
    if rules.blackjack_beats_dealer_blackjack and rules.switch:
        out.append("a blackjack that beats the dealer's in Blackjack Switch")
    if rules.switch and rules.spots_per_seat != 2:
        out.append(f"switching between {rules.spots_per_seat} hands (2 are analysed)")
    if not rules.switch and rules.spots_per_seat != 1:
        out.append(f"{rules.spots_per_seat} hands a seat without switching")
    if rules.dealer_22_pushes and not rules.switch:
        out.append("a dealer's 22 that pushes without switching")
    return out


def _uses(rules: RuleSet, kind: str) -> bool:
    return rules.dealer_face_up if kind == "face up" else rules.switch


def variant_value(rules: RuleSet, play: Play = Play.COMPOSITION) -> BaseGameValue:
    """The exact expected value of a face-up, Switch or Double Up round, played as `play` says.

    :raises NotAnalysable: other rules the analysis does not play.
    """
    if is_double_up(rules):
        return double_up_value(rules, play)
    check_variant(rules)
    if rules.dealer_face_up:
        return face_up_value(rules, play)
    return switch_value(rules, play=play)


def variant_conventions(rules: RuleSet, play: Play = Play.COMPOSITION) -> list[str]:
    """What the analysis of a variant assumes, in words (engine.basegame.conventions, adapted)."""
    out = conventions(rules, play)
    if rules.dealer_face_up:
        out[1] = (
            "composition-dependent play given both dealer cards: each decision maximises the "
            "expected value for the hand's cards and the dealer's two cards (a hand after a split "
            "is played as the same cards unsplit)"
            if play is Play.COMPOSITION
            else "the engine's basic strategy for face-up dealing: each decision by the hand's "
            "total and the dealer's two-card total, computed for an infinite shoe (the strategy "
            "the simulator plays), valued exactly over the finite shoe"
        )
        out[4] = "both dealer cards face up: a dealer blackjack shows and ends the round"
        tie = "loses" if rules.ties_lose else "pushes"
        natural = (
            "wins"
            if rules.blackjack_beats_dealer_blackjack
            else ("loses" if rules.ties_lose else "pushes")
        )
        out.insert(5, f"a tie {tie}; a blackjack against the dealer's blackjack {natural}")
    if rules.switch:
        switched = (
            "where the two hands' values summed are worth more"
            if play is Play.COMPOSITION
            else "where the engine's basic strategy switches them (by its own infinite-shoe "
            "values of two-card hands)"
        )
        out.insert(
            2,
            f"Switch: each pair of hands is switched {switched} (a switched blackjack counts 21); "
            "each hand's value is its play against "
            "the up card from the shoe less its own two cards and the up card (an approximation: "
            "the other hand's two cards are not removed), the switch decided after any peek; "
            "the chance of each deal of four cards is exact",
        )
        pushes = (
            "every dealer 22 pushes a hand that is not a blackjack"
            if rules.dealer_22_pushes
            else "a dealer 22 is a bust"
            + (
                ", except that it pushes a switched blackjack"
                if rules.switched_blackjack_pushes_22
                else ""
            )
        )
        out.insert(3, pushes + "; values are per hand (per initial wager: the round's / 2)")
    return out


# --- face up ------------------------------------------------------------------------------------


Holding = tuple[int, int]
"""The dealer's two cards face up: the up card's rank, the hole card's."""

_SHARED: ContextVar[dict[tuple[Any, ...], dict[tuple[Holding, ...], OddsStore]] | None] = (
    ContextVar("face_up_odds", default=None)
)
"""Within shared_dealer_odds(): (full shoe, hits soft 17) → [holdings]: the dealer's odds given
both cards computed so far, shared by the face-up analyses of rule sets alike in those (one such
key at a time)."""
_Contexts = dict[tuple[tuple[Holding, ...], int, int, bool], Context]
_KEPT: ContextVar[dict[str, _Contexts] | None] = ContextVar("face_up_hands", default=None)
"""Within shared_dealer_odds(): _hands_key → [(holdings, pair, extra, one card to split aces)]:
the hands' values computed so far (_FaceUp._context), shared by the face-up analyses of rule
sets alike in the rules they read (two such keys at a time: the best play's and the engine's
basic strategy's, asked together)."""


@contextmanager
def shared_dealer_odds() -> Iterator[None]:
    """Face-up analyses within share the dealer's odds given both cards (computed once for rule
    sets that differ in other rules: a rule's effects, the engine's basic strategy), the
    dealer's side of each analysis after the first; and the hands' values, where the rule sets
    differ only in what the first two cards do (doubling, splitting, surrender) or a natural
    pays (_hands_key): most of a rule's effects. The odds of one shoe and soft-17 rule are
    kept, only while within (about 70 MB from 6 decks), and the hands' values of two rule sets
    (about 10 MB each); a face-up analysis of another shoe or soft-17 rule drops the odds, of a
    third rule set the older hands' values. Within another shared_dealer_odds(), the outer one's
    are shared."""
    if _SHARED.get() is not None:
        yield
        return
    token, kept = _SHARED.set({}), _KEPT.set({})
    try:
        yield
    finally:
        _SHARED.reset(token)
        _KEPT.reset(kept)


_FIRST_TWO_ONLY = frozenset(
    {"surrender", "double_on", "double_after_split", "max_split_hands", "resplit_aces",
     "split_aces_one_card", "blackjack_pays", "blackjack_beats_dealer_blackjack"}
)  # fmt: skip
"""RuleSet fields the hands' values of a face-up analysis (its contexts) do not read: only the
first two cards' decisions read them, or a natural's value (set apart, _FaceUp._context), and
which contexts there are (a context is the same whichever of them asks for it; one card to split
aces changes the split aces' hands, a key of its own)."""


def _hands_key(rules: RuleSet, play: Play) -> str:
    """What the hands' values of a face-up analysis depend on, in words: the rules but
    _FIRST_TWO_ONLY, or, where a hand may double on any number of cards, also doubling's rules;
    and the play (the engine's basic strategy plays by every rule)."""
    ignored = _FIRST_TWO_ONLY if play is Play.COMPOSITION else frozenset()
    if rules.doubles_any_time:
        ignored -= {"double_on", "double_after_split"}
    read = [(f.name, getattr(rules, f.name)) for f in fields(rules) if f.name not in ignored]
    return repr((play.value, read))


class _FaceUp(Analysis):
    """engine.basegame's analysis with a column for each of the dealer's holdings (two cards face
    up) where its vectors have one for each up card. The shoe lacks the cards every holding has
    (the up card, where the holdings are one up card's), and the dealer's odds are given both
    cards."""

    def __init__(
        self, rules: RuleSet, holdings: tuple[Holding, ...], play: Play = Play.COMPOSITION
    ) -> None:
        self.holdings = holdings
        dealer = np.zeros((len(self.holdings), RANKS), dtype=np.int64)
        for column, (up, hole) in enumerate(self.holdings):
            dealer[column, up] += 1
            dealer[column, hole] += 1
        self.common = dealer.min(axis=0)
        self.holding_cards = dealer - self.common
        self.blackjacks = [
            column for column, cards in enumerate(self.holdings) if set(cards) == {ACE, TEN}
        ]
        full = tuple(int(n) for n in np.array(full_shoe(rules)) - self.common)
        self.two_cards = int(np.searchsorted(hand_table(full).size, 3))
        """The hands of two cards or fewer: the hand table's first rows."""
        kept = _KEPT.get()
        key = _hands_key(rules, play)
        if kept is not None and key not in kept and len(kept) >= 2:
            kept.pop(next(iter(kept)))  # two rule sets' hands at a time, the older dropped
        self.kept = None if kept is None else kept.setdefault(key, {})
        super().__init__(rules, play, full)

    def _context(
        self, pair: int, extra: int, members: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
    ) -> Context:
        """The hands' values of a context, or shared_dealer_odds()'s as an analysis alike
        computed them (_hands_key), its naturals valued anew. A split's values are kept for its
        hands of two cards only: all that _second_card reads of them."""
        key = (self.holdings, pair, extra, extra > 0 and self._one_card(pair))
        context = None if self.kept is None else self.kept.get(key)
        if context is None:
            context = super()._context(pair, extra, members, rows)
            if extra:
                context = _first_rows(context, self.two_cards)
            if self.kept is not None:
                self.kept[key] = context
        elif not extra:  # a natural's value by these rules (its play is never read: it stands)
            stand = context.stand.copy()
            naturals = context.hands[self.natural[context.hands]]
            stand[naturals] = self._natural_stand(self.blackjack_chance(self.counts[naturals]))
            context = replace(context, stand=stand)
        return context

    def _dealer_cards(self) -> npt.NDArray[np.int64]:
        return self.holding_cards

    def _dealer_key(self, up: int) -> DealerKey:
        """The engine's face-up strategy knows the dealer's two-card total (total, soft); here
        `up` indexes a column. A blackjack has no key (face_up_value values it apart)."""
        first, second = self.holdings[up]
        total = first + second + 2
        if ACE in (first, second) and total <= 11:
            total, soft = total + 10, True
        else:
            soft = False
        return (20, False) if total == 21 else (total, soft)

    def _odds_store(self, wanted: npt.NDArray[np.int64]) -> OddsStore:
        """The odds given both cards for this analysis alone (the standard game's _ODDS would
        keep ten up cards' in turn, each pushing out another), or shared_dealer_odds()'s."""
        shared = _SHARED.get()
        key = (full_shoe(self.rules), self.rules.dealer_hits_soft_17)  # the ten up cards'
        if shared is not None and key not in shared:
            shared.clear()  # another shoe or soft-17 rule: one set of odds at a time
        stores = {} if shared is None else shared.setdefault(key, {})
        empty = np.zeros(0, dtype=np.int64)
        store = stores.get(
            self.holdings, (empty, empty, np.zeros((0, self.columns, len(OUTCOMES))))
        )
        new = np.setdiff1d(wanted, store[0], assume_unique=True)
        if len(new):
            shoes = self.full_array[None, :] + self.common - unpack_removed(new)  # the whole shoe's
            eye = np.eye(RANKS, dtype=np.int64)
            ups = np.array([up for up, _ in self.holdings])
            odds = np.zeros((len(new), self.columns, len(OUTCOMES)))
            for up in np.unique(ups):  # [shoe, hole, outcome] given the up card
                holes = [hole for first, hole in self.holdings if first == up]
                given = dealer_odds(shoes - eye[up], self.rules.dealer_hits_soft_17, up=up)
                odds[:, ups == up] = given[:, holes]
            store = stores[self.holdings] = store_add(store, new, odds)
        return store

    def _stand(self, members: npt.NDArray[np.int64], odds: npt.NDArray[np.float64]) -> Vector:
        sign = self._signs(members)
        if self.rules.ties_lose:
            sign = np.where(sign == 0, -1, sign)
        return (
            (1.0 - odds.sum(axis=2))
            - odds[:, :, BLACKJACK]
            + np.einsum("hj,huj->hu", sign, odds[:, :, :5])
        )

    def blackjack_chance(self, removed: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """[hand, column]: 1 where the dealer's two cards make a blackjack (the round ends then,
        and face_up_value values those cells itself)."""
        chance = np.zeros((len(removed), self.columns))
        chance[:, self.blackjacks] = 1.0
        return chance

    def _split_blackjack_refund(self, pair: int, hands: int) -> Vector:
        return np.zeros(self.columns)  # a dealer blackjack ends the round before any split


_BLACKJACK_HOLE = {ACE: TEN, TEN: ACE}


def _first_rows(context: Context, rows: int) -> Context:
    """The context's values of its first `rows` hands only."""
    return replace(
        context,
        stand=context.stand[:rows].copy(),
        hit=context.hit[:rows].copy(),
        double=context.double[:rows].copy(),
        play=context.play[:rows].copy(),
        doubled=[doubled[:rows].copy() for doubled in context.doubled],
    )


def _holding_groups(rules: RuleSet) -> list[tuple[Holding, ...]]:
    """The dealer's holdings analysed together (one analysis, a column each). With 8 cards of
    every rank or more, every up card's analysis splits to the same limits, so all are analysed
    at once, each pair of cards once (an up card and a hole card switched leave the same shoe and
    the same dealer's odds); from one deck, one up card at a time."""
    if min(full_shoe(rules)) >= 8:
        return [tuple((a, b) for a in range(RANKS) for b in range(a, RANKS))]
    return [tuple((up, hole) for hole in range(RANKS)) for up in range(RANKS)]


def face_up_value(rules: RuleSet, play: Play = Play.COMPOSITION) -> BaseGameValue:
    """The exact expected value of a round with both dealer cards face up, played as `play`
    says (the best play, or the engine's basic strategy)."""
    full = np.array(full_shoe(rules), dtype=np.float64)
    cards = full.sum()
    values: dict[Holding, float] = {}
    for holdings in _holding_groups(rules):
        by_column = _FaceUp(rules, holdings, play).by_column()
        values.update(zip(holdings, by_column, strict=True))
    for (up, hole), of_holding in list(values.items()):
        values.setdefault((hole, up), of_holding)  # the same cards the other way round
    by_up = np.zeros(RANKS)
    for up in range(RANKS):
        by_hole = np.array([values[up, hole] for hole in range(RANKS)])
        shoe = full - np.eye(RANKS)[up]
        blackjack_hole = _BLACKJACK_HOLE.get(up)
        if blackjack_hole is not None:
            by_hole[blackjack_hole] = _against_blackjack(
                rules, shoe - np.eye(RANKS)[blackjack_hole]
            )
        by_up[up] = shoe @ by_hole / (cards - 1)
    value = float(full @ by_up / cards)
    stated = tuple(variant_conventions(rules, play=play))
    return BaseGameValue(rules, value, tuple(float(v) for v in by_up), play, stated)


def _against_blackjack(rules: RuleSet, shoe: Vector) -> float:
    """The value of two cards from `shoe` against a dealer blackjack in plain sight."""
    n = shoe.sum()
    natural = 2 * shoe[ACE] * shoe[TEN] / (n * (n - 1))
    if rules.blackjack_beats_dealer_blackjack:
        pays = float(rules.blackjack_pays)
    else:
        pays = -1.0 if rules.ties_lose else 0.0
    return float(natural * pays - (1 - natural))


# --- Blackjack Switch ---------------------------------------------------------------------------


class _Switch(Analysis):
    """engine.basegame's analysis with the dealer's 22 counted apart (it pushes where
    dealer_22_pushes)."""

    def __init__(self, rules: RuleSet, play: Play) -> None:
        self.dealer_22_pushes = rules.dealer_22_pushes
        super().__init__(rules, play)

    def _odds_key(self) -> tuple[Any, ...]:
        return (*super()._odds_key(), "22")

    def _odds_of(self, shoes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        return dealer_odds(shoes, self.rules.dealer_hits_soft_17, twenty_two=True)

    def _stand(self, members: npt.NDArray[np.int64], odds: npt.NDArray[np.float64]) -> Vector:
        value = super()._stand(members, odds)  # a 22 left out of the bust: not won
        if not self.dealer_22_pushes:
            value += odds[:, :, TWENTY_TWO]
        return value

    def switched_21(self) -> Vector:
        """Against each up card: an ace and a ten-value card switched together, a 21 that is no
        blackjack (30-2105(8)(b)), stood on (unconditional, a dealer blackjack included)."""
        hand = add_card(add_card((0,) * RANKS, ACE), TEN)
        odds = dealer_odds(
            (self.full_array - np.array(hand))[None, :],
            self.rules.dealer_hits_soft_17,
            twenty_two=True,
        )[0]
        pushes_22 = self.dealer_22_pushes or self.rules.switched_blackjack_pushes_22
        bust = 1.0 - odds.sum(axis=1) + (0.0 if pushes_22 else odds[:, TWENTY_TWO])
        return bust + odds[:, :4].sum(axis=1) - odds[:, BLACKJACK]


def switch_value(
    rules: RuleSet, switching: bool = True, play: Play = Play.COMPOSITION
) -> BaseGameValue:
    """The expected value per hand of a Blackjack Switch round (two hands, equal wagers), the
    better arrangement of the hands chosen (variant_conventions(rules) states how); a dealer's 22
    pushing every hand but a blackjack where rules.dealer_22_pushes.

    switching: False values the same two hands never switched (for comparison).
    play: Play.BASIC plays and switches as the engine's basic strategy does.
    """
    analysis = _Switch(rules, play)
    full = np.array(full_shoe(rules), dtype=np.float64)
    cards = float(full.sum())
    # values[a, b, up]: the two-card hand a, b played best; switched: a blackjack counts 21.
    values = np.zeros((RANKS, RANKS, RANKS))
    for a in range(RANKS):
        for b in range(a, RANKS):
            values[a, b] = values[b, a] = analysis.first_two(add_card(add_card((0,) * RANKS, a), b))
    switched = values.copy()
    switched[ACE, TEN] = switched[TEN, ACE] = analysis.switched_21()
    naturals = np.zeros((RANKS, RANKS))
    naturals[ACE, TEN] = naturals[TEN, ACE] = 1.0
    engine = _engine_switch_values(rules) if play is Play.BASIC else None

    by_up = np.zeros(RANKS)
    grid = np.indices((RANKS,) * 4).reshape(4, -1)  # first cards a1, b1, second cards a2, b2
    a1, b1, a2, b2 = grid
    for up in range(RANKS):
        # The deal's chance: the first cards, the up card, then the second cards.
        chance = np.ones(grid.shape[1])
        taken = np.zeros((grid.shape[1], RANKS))
        for i, rank in enumerate((a1, b1, np.full_like(a1, up), a2, b2)):
            chance *= np.clip(full[rank] - taken[np.arange(len(rank)), rank], 0, None)
            chance /= cards - i
            taken[np.arange(len(rank)), rank] += 1
        kept = values[a1, a2, up] + values[b1, b2, up]
        swapped = switched[a1, b2, up] + switched[b1, a2, up]
        if rules.peeks and up in _BLACKJACK_HOLE:
            # A dealer blackjack ends the round before any switch: a blackjack dealt pushes
            # it whichever arrangement the player would have chosen.
            shoe = full[None, :] - taken
            blackjack = shoe[:, _BLACKJACK_HOLE[up]] / (cards - 5)
            swapped = swapped + blackjack * (naturals[a1, a2] + naturals[b1, b2])
        if not switching:
            best = kept
        elif play is Play.BASIC:
            assert engine is not None  # computed for basic strategy's play
            switches = engine[a1, b2, up, 1] + engine[b1, a2, up, 1] > (
                engine[a1, a2, up, 0] + engine[b1, b2, up, 0]
            )
            best = np.where(switches, swapped, kept)
        else:
            best = np.maximum(kept, swapped)
        by_up[up] = np.sum(chance * best) / 2 / (full[up] / cards)
    value = float(by_up @ full / cards)
    stated = tuple(variant_conventions(rules, play))
    if not switching:
        stated += ("the hands never switched",)
    return BaseGameValue(rules, value, tuple(float(v) for v in by_up), play, stated)


def _engine_switch_values(rules: RuleSet) -> Vector:
    """[a, b, up, switched]: the value the engine's basic strategy gives two cards against an up
    card when it decides whether to switch (BasicStrategy.switch): its infinite-shoe value, a
    blackjack's pay unless switched."""
    strategy = BasicStrategy(rules)
    out = np.zeros((RANKS, RANKS, RANKS, 2))
    for a in range(RANKS):
        for b in range(RANKS):
            total, soft = hand_total(add_card(add_card((0,) * RANKS, a), b))
            pair = a + 1 if a == b else 0
            for up in range(RANKS):
                for switched in (0, 1):
                    if total == 21 and not switched:
                        out[a, b, up, switched] = float(rules.blackjack_pays)
                    else:
                        key = (total, soft, pair, up + 1, True)
                        out[a, b, up, switched] = strategy.values[key]
    return out
