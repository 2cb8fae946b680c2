"""The exact analysis evaluates one deal of each family its wager cannot tell apart (issue #13,
speed): checked against every deal evaluated one by one, and each evaluator's declared view of
the cards (SUITS_READ, PAIR_ONLY) against the evaluator itself on relabelled deals. The dealer's
hands are counted by what they hold: checked against every order walked card by card."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import fields, replace

import pytest

from engine.analysis import DEALER_SUMMARY_READ
from engine.analysis.dealer import _dealer_summary, _natural
from engine.analysis.first_cards import _evaluated, _third_card_up, _with_third_card
from engine.cards import RANKS, Card, Suit, deck
from engine.dealer_hands import CLASSES, dealer_hands, hand_shapes
from engine.sidewagers import (
    EVALUATORS,
    ORDERED,
    PAIR_ONLY,
    RANKS_ONLY,
    SUITS_READ,
    WHOLE_HAND,
    Deal,
    NotDecidable,
)
from engine.sidewagers import dealer as dealer_wagers

SPADES = Suit("S")


def _every_deal_evaluated(evaluate, hole: bool) -> dict:  # type: ignore[no-untyped-def]
    """The analysis' deal classes, by evaluating every deal of one deck one at a time."""
    cards = deck()
    classes: dict = {}
    for i, a in enumerate(cards):
        for b in cards[i:]:
            for up in cards:
                need = "ten" if up.is_ace else "ace" if up.is_ten_value else ""
                holds = sum(c.is_ten_value if need == "ten" else c.is_ace for c in (a, b))
                base = (a == b, (a == up) + (b == up), need if hole else "")
                base = (*base, holds if hole and need else 0)
                for bj in (True, False) if hole and need else (False,):
                    made = tuple(evaluate(Deal((a, b), up, bj, specified_suit=SPADES)))
                    group = classes.setdefault((*base, bj), {})
                    group[made] = group.get(made, 0) + 1
    return classes


@pytest.mark.parametrize(
    ("wager", "hole"),
    [
        ("21-plus-3", False),  # suits alike or not
        ("kings-bounty", True),  # the spades by name, the player's pair only, the hole card
        ("in-between", False),  # ranks only
    ],
)
def test_evaluating_one_deal_per_family_counts_what_every_deal_evaluated_counts(
    wager: str, hole: bool
) -> None:
    evaluate = EVALUATORS[wager]
    _evaluated.cache_clear()
    assert _evaluated(evaluate, hole, False) == _every_deal_evaluated(evaluate, hole)


def _relabellings(read: str) -> list[dict[Suit, Suit]]:
    suits = list(Suit)
    out = []
    for image in itertools.permutations(suits):
        relabel = dict(zip(suits, image, strict=True))
        if read == RANKS_ONLY or (
            all(relabel[s] is s for s in suits if s.value in read.replace("colour", ""))
            and ("colour" not in read or all(s.red == t.red for s, t in relabel.items()))
        ):
            out.append(relabel)
    return out


def _outcome(evaluate, deal: Deal):  # type: ignore[no-untyped-def]
    try:
        return evaluate(deal)
    except NotDecidable:
        return "not decidable"


FIRST_CARDS = [
    *sorted(
        {e for e in SUITS_READ if e.__module__ != dealer_wagers.__name__},
        key=lambda e: e.__name__,
    ),
    # read with the player's third card where the up card is dealt
    _third_card_up(EVALUATORS["sevens"]),
    _third_card_up(EVALUATORS["blazing-7s"]),
    _third_card_up(EVALUATORS["3-card-21-n-done"]),
]


@pytest.mark.parametrize("evaluate", FIRST_CARDS, ids=lambda e: e.__name__)
def test_an_evaluator_cannot_tell_apart_the_deals_its_declaration_says_it_cannot(
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    """Random deals from few ranks (so pairs, trips, runs and suited hands come often), against
    the same deal with its suits relabelled as the declaration allows (any suits at all for
    RANKS_ONLY), its pair swapped (unless the order is the wager's: War), for PAIR_ONLY another
    up card, and for WHOLE_HAND the three cards in any order."""
    read = SUITS_READ[getattr(evaluate, "__wrapped__", evaluate)]
    seen = getattr(evaluate, "__wrapped__", evaluate)  # a third-card reading: its wager's
    ordered = any(EVALUATORS[wager] is seen for wager in ORDERED)
    relabellings = _relabellings(read)
    rng = random.Random(13)
    ranks = "AKQJT98765432"
    for n in range(3000):
        pool = ranks[: 3 + n % 11]
        a, b, up = (Card(rng.choice(pool), rng.choice(list(Suit))) for _ in range(3))
        bj = rng.random() < 0.3 and (up.is_ace or up.is_ten_value)
        deal = Deal((a, b), up, bj, specified_suit=SPADES)
        made = _outcome(evaluate, deal)
        if read == RANKS_ONLY:
            relabel = {s: rng.choice(list(Suit)) for s in Suit}  # suits need not even differ
        else:
            relabel = rng.choice(relabellings)
        pair = (Card(a.rank, relabel[a.suit]), Card(b.rank, relabel[b.suit]))
        other = Deal(
            pair if ordered else pair[::-1],
            Card(up.rank, relabel[up.suit]),
            bj,
            specified_suit=SPADES,
        )
        if evaluate in PAIR_ONLY:
            other = replace(other, up=Card(rng.choice(RANKS), rng.choice(list(Suit))))
        if getattr(evaluate, "__wrapped__", evaluate) in WHOLE_HAND:  # the three in any order
            first, second, third = rng.sample([*other.player, other.up], 3)
            other = replace(other, player=(first, second), up=third)
        assert _outcome(evaluate, other) == made, (deal, other)


def _walked(decks: int, hits_soft_17: bool) -> Counter:
    """Every order of every final dealer hand, drawn card by card from the shoe (no shortcut):
    its ways by up card, the cards between as a multiset, and the last card."""
    counts = {c: (16 if c == "T" else 4) * decks for c in CLASSES}
    value = {c: 1 if c == "A" else 10 if c == "T" else int(c) for c in CLASSES}
    out: Counter = Counter()

    def stands(hand: tuple[str, ...]) -> bool:
        hard = sum(value[c] for c in hand)
        if "A" in hand and hard + 10 <= 21:
            return hard + 10 > 17 or (hard + 10 == 17 and not hits_soft_17)
        return hard >= 17

    def walk(hand: tuple[str, ...], ways: int) -> None:
        if len(hand) >= 2 and stands(hand):
            out[(hand[0], tuple(sorted(hand[1:-1])), hand[-1])] += ways
            return
        for c in CLASSES:
            left = counts[c] - hand.count(c)
            if left > 0:
                walk((*hand, c), ways * left)

    walk((), 1)
    return out


@pytest.mark.parametrize(("decks", "hits"), [(1, False), (1, True), (2, False)])
def test_the_dealer_s_hands_counted_by_holding_are_every_order_walked(
    decks: int, hits: bool
) -> None:
    hands, _, _ = dealer_hands(decks, hits)
    counted = Counter(
        {(h.ranks[0], tuple(sorted(h.ranks[1:-1])), h.ranks[-1]): h.ways for h in hands}
    )
    assert len(counted) == len(hands)
    assert counted == _walked(decks, hits)


DEALER = sorted(
    {e for e in SUITS_READ if e.__module__ == dealer_wagers.__name__}, key=lambda e: e.__name__
)


@pytest.mark.parametrize("evaluate", DEALER, ids=lambda e: e.__name__)
def test_a_dealer_hand_wager_reads_no_order_of_the_cards_between_the_first_and_the_last(
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    """The dealer's hands are counted with the cards between the up card and the last card in
    one order: a wager on the hand must see the same hand in every order, and, reading suits
    only as alike or not, the same with one colour's two suits as with two colours."""
    read = SUITS_READ[evaluate]
    rng = random.Random(27)
    # MA 25's optional bonus is settled on the third card: its hands stop there
    settled_at = 3 if evaluate is dealer_wagers.optional_bonus else None
    hands, _, _ = dealer_hands(2, True, max_cards=settled_at)
    player = (Card("A", Suit("C")), Card("K", Suit("C")))
    for hand in rng.sample(hands, min(1500, len(hands))):
        middle = list(hand.ranks[1:-1])
        rng.shuffle(middle)
        suits = [rng.choice(list(Suit)) for _ in hand.ranks]
        for ranks in (hand.ranks, (hand.ranks[0], *middle, hand.ranks[-1])):
            cards = tuple(Card(r, s) for r, s in zip(ranks, suits, strict=True))
            made = evaluate(Deal(player, cards[0], False, cards))
            if ranks == hand.ranks:
                first = made
            assert made == first, (hand, ranks)
        if read in ("alike", RANKS_ONLY):
            relabel = dict(zip(Suit, rng.sample(list(Suit), 4), strict=True))
            cards = tuple(Card(r, relabel[s]) for r, s in zip(hand.ranks, suits, strict=True))
            assert evaluate(Deal(player, cards[0], False, cards)) == first


@pytest.mark.parametrize("evaluate", sorted(DEALER_SUMMARY_READ, key=lambda e: e.__name__))
def test_a_dealer_hand_wager_read_by_summary_makes_the_same_of_every_hand_of_one_summary(
    evaluate,  # type: ignore[no-untyped-def]
) -> None:
    """The exact analysis evaluates one dealer's hand of each summary (up card, cards, bust,
    blackjack, aces, three 8s) for the wagers declared to read no more (DEALER_SUMMARY_READ):
    every final hand of either rule, for either player's pair, in each suit pattern, makes what
    the first hand of its summary makes."""
    hands = {ranks: None for hits in (False, True) for ranks, _, _ in hand_shapes(hits)}
    cards_of = {s: {r: Card(r, Suit(s)) for r in RANKS} for s in "CHDS"}
    patterns = "S" if SUITS_READ[evaluate] == RANKS_ONLY else "HDS"  # one suit, colour, two
    first: dict[tuple, list[str]] = {}
    for ranks in hands:
        for player in (("A", "K"), ("2", "3")):
            pair = (cards_of["C"][player[0]], cards_of["C"][player[1]])
            for rest in patterns:
                cards = (cards_of["H"][ranks[0]], *(cards_of[rest][r] for r in ranks[1:]))
                made = evaluate(Deal(pair, cards[0], _natural(ranks), cards))
                key = (_dealer_summary(ranks), player, rest)
                assert first.setdefault(key, made) == made, (ranks, player, rest)


def test_the_third_card_deal_is_the_deal_replaced_field_by_field() -> None:
    """`_with_third_card` passes Deal's fields in order: a field added to Deal must be added
    there too, and every field it copies comes through unchanged."""
    assert [f.name for f in fields(Deal)] == [
        "player",
        "up",
        "dealer_blackjack",
        "dealer_cards",
        "player_cards",
        "player_split",
        "specified_suit",
        "switch_cards",
    ]
    ace, seven, king = Card("A", SPADES), Card("7", Suit("H")), Card("K", Suit("D"))
    deal = Deal((ace, seven), king, True, (king, ace), (ace,), True, SPADES, (seven, king))
    assert _with_third_card(deal) == replace(deal, player_cards=(ace, seven, king))
