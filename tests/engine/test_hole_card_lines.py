"""Lines that wait for the dealer's hole card are counted exactly over the shoe (issue #23): each
line's probability against an independent count of the ordered deals (the player's two cards, the
up card, the hole card) that make it, every card drawn from the shoe less the cards before it."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction

import pytest

from engine.analysis import HOLE_CARD_REMOVAL, analyse
from engine.cards import Card, Suit, deck
from engine.dealer_hands import falling
from engine.odds import Pays
from engine.rules import PaytableLine
from engine.sidewagers import EVALUATORS, SUITS_READ, Deal
from tests.engine.test_analysis_families import _relabellings

Four = tuple[Card, Card, Card, Card]


def _lines(pays: list[tuple[str, str]]) -> list[PaytableLine]:
    return [PaytableLine(key, Pays.parse(odds), key) for key, odds in pays]


def _dealt(decks: int, pool: list[Card], made: Callable[[Four], bool]) -> Fraction:
    """The chance that the player's two cards, the up card and the hole card, dealt in that order
    from `decks` decks, are cards of `pool` making `made`: each order of the cards counted with
    the copies the shoe has left of each card when it is dealt."""
    ways = 0
    for cards in itertools.product(pool, repeat=4):
        seen: Counter[Card] = Counter()
        weight = 1
        for card in cards:
            weight *= decks - seen[card]
            seen[card] += 1
        if weight and made(cards):  # type: ignore[arg-type]
            ways += weight
    return Fraction(ways, falling(52 * decks, 4))


def _of(ranks: str, suits: str = "SHDC") -> list[Card]:
    return [c for c in deck() if c.rank in ranks and c.suit.value in suits]


def _probabilities(wager: str, pays: list[tuple[str, str]], decks: int) -> dict[str, Fraction]:
    result = analyse(wager, _lines(pays), decks, "US-CO")
    total = sum((line.probability for line in result.lines), result.lose_probability)
    assert total == 1  # each deal pays one line at most
    return {line.outcome: line.probability for line in result.lines}


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_trilux_progressive_ak_q_j_counts_the_jack_of_spades_in_the_hole(decks: int) -> None:
    """30-2115 Pay table 05, "Mini-Royal (Spades) - AK/Q/J": the player's A and K of spades, the
    Q of spades up, the J of spades the hole card (the reading annotated on 30-2115¶10)."""
    pays = [
        ("mini-royal-spades-ak-q-j", "1000 to 1"),
        ("mini-royal-spades-ak-q", "100 to 1"),
        ("dealer-blackjack", "1 for 1"),
    ]
    by = _probabilities("trilux-progressive", pays, decks)
    spades = _of("AKQJ", "S")

    def ak_q(c: Four) -> bool:
        return {c[0].rank, c[1].rank} == {"A", "K"} and c[2].rank == "Q"

    assert by["mini-royal-spades-ak-q-j"] == _dealt(
        decks, spades, lambda c: ak_q(c) and c[3].rank == "J"
    )
    # the AK/Q line keeps the deals whose hole card is not the J of spades
    assert by["mini-royal-spades-ak-q-j"] + by["mini-royal-spades-ak-q"] == Fraction(
        2 * decks * decks * decks, falling(52 * decks, 3)
    )


@pytest.mark.parametrize("decks", [1, 2, 6])
def test_royal_match_progressive_double_royal_match_reads_the_dealer_s_two_cards(
    decks: int,
) -> None:
    """30-899.11(6): the percentage pays consider the player's and the dealer's first two cards;
    a Double Royal Match is K-Q suited for both, "Suited" in the player's suit too."""
    pays = [
        ("double-royal-match-suited", "1000 to 1"),
        ("double-royal-match", "250 to 1"),
        ("royal-match", "40 to 1"),
    ]
    by = _probabilities("royal-match-21-progressive", pays, decks)
    kings_queens = _of("KQ")

    def double(c: Four) -> bool:
        return (
            {c[0].rank, c[1].rank} == {c[2].rank, c[3].rank} == {"K", "Q"}
            and c[0].suit is c[1].suit
            and c[2].suit is c[3].suit
        )

    suited = _dealt(decks, kings_queens, lambda c: double(c) and c[0].suit is c[2].suit)
    other = _dealt(decks, kings_queens, lambda c: double(c) and c[0].suit is not c[2].suit)
    assert (by["double-royal-match-suited"], by["double-royal-match"]) == (suited, other)
    royal = Fraction(4 * decks * decks, falling(52 * decks, 2) // 2)
    assert by["royal-match"] == royal - suited - other


@pytest.mark.parametrize("decks", [2, 6])
def test_bet_the_set_progressive_four_of_a_kind_waits_for_the_hole_card(decks: int) -> None:
    """30-899.13(17): the bottom two lines consider the player's and the dealer's first two cards:
    the player's pair and the dealer's two cards of its rank, all four of one colour for the top
    line (highest line only)."""
    pays = [("four-of-a-kind-same-color", "250 to 1"), ("four-of-a-kind", "100 to 1")]
    by = _probabilities("bet-the-set-21-progressive", pays, decks)
    same, four = Fraction(0), Fraction(0)
    for rank in "A23456789TJQK":
        cards = _of(rank)
        same += _dealt(decks, cards, lambda c: len({x.suit.red for x in c}) == 1)
        four += _dealt(decks, cards, lambda c: True)
    assert by["four-of-a-kind-same-color"] == same
    assert by["four-of-a-kind"] == four - same


@pytest.mark.parametrize("decks", [2, 6])
def test_rocket_aces_suited_blackjack_lines_read_the_hole_card_s_suit(decks: int) -> None:
    """30-899.29(2) as read (annotations.yaml): two aces with a dealer blackjack; "of Spades" both
    the aces and the blackjack's two cards spades, "Suited" each pair of one suit."""
    pays = [
        ("two-aces-of-spades-dealer-blackjack-of-spades", "1000 to 1"),
        ("two-aces-suited-dealer-blackjack-suited", "500 to 1"),
        ("two-aces-suited-dealer-blackjack", "100 to 1"),
        ("two-aces-dealer-blackjack", "50 for 1"),
        ("all-other-hands", "Loss"),
    ]
    by = _probabilities("rocket-aces", pays, decks)
    aces_tens = _of("ATJQK")

    def two_aces_blackjack(c: Four) -> bool:
        return c[0].is_ace and c[1].is_ace and {c[2].is_ace, c[3].is_ace} == {True, False}

    def suited(a: Card, b: Card) -> bool:
        return a.suit is b.suit

    spades = _dealt(
        decks,
        aces_tens,
        lambda c: two_aces_blackjack(c) and all(x.suit is Suit.SPADES for x in c),
    )
    both = _dealt(
        decks,
        aces_tens,
        lambda c: two_aces_blackjack(c) and suited(c[0], c[1]) and suited(c[2], c[3]),
    )
    aces = _dealt(decks, aces_tens, lambda c: two_aces_blackjack(c) and suited(c[0], c[1]))
    any_aces = _dealt(decks, aces_tens, two_aces_blackjack)
    assert by["two-aces-of-spades-dealer-blackjack-of-spades"] == spades
    assert by["two-aces-suited-dealer-blackjack-suited"] == both - spades
    assert by["two-aces-suited-dealer-blackjack"] == aces - both
    assert by["two-aces-dealer-blackjack"] == any_aces - aces
    # "All other hands - Lose": a line of its own, lost (its return is minus its probability)
    result = analyse("rocket-aces", _lines(pays), decks, "US-CO")
    [other] = [line for line in result.lines if line.outcome == "all-other-hands"]
    assert other.returns == -other.probability and result.lose_probability == 0


def test_a_wager_waiting_for_the_hole_card_says_how_it_is_drawn() -> None:
    """The card-removal convention states that the hole card is drawn where a line waits for it."""
    pays = [("double-royal-match", "250 to 1"), ("suited-hand", "3 to 2")]
    result = analyse("royal-match-21-progressive", _lines(pays), 6)
    assert result.card_removal == HOLE_CARD_REMOVAL
    assert "hole card" in result.card_removal


@pytest.mark.parametrize(
    "wager",
    [
        "trilux-progressive",
        "royal-match-21-progressive",
        "bet-the-set-21-progressive",
        "rocket-aces",
    ],
)
def test_a_hole_card_reading_sees_the_hole_card_s_suit_as_the_others(wager: str) -> None:
    """The analysis counts one deal of each family of deals the evaluator cannot tell apart and
    deals it every hole card: so each hole card must be seen as the other cards are, the same
    outcome with every suit relabelled as SUITS_READ allows (random deals from few ranks)."""
    evaluate = EVALUATORS[wager]
    relabellings = _relabellings(SUITS_READ[evaluate])
    rng = random.Random(23)
    for n in range(3000):
        pool = "AKQJT9"[: 2 + n % 5]
        a, b, up, hole = (Card(rng.choice(pool), rng.choice(list(Suit))) for _ in range(4))
        natural = (up.is_ace and hole.is_ten_value) or (up.is_ten_value and hole.is_ace)
        relabel = rng.choice(relabellings)
        moved = [Card(c.rank, relabel[c.suit]) for c in (a, b, up, hole)]
        deals = [
            Deal((a, b), up, natural, (up, hole)),
            Deal((moved[1], moved[0]), moved[2], natural, (moved[2], moved[3])),
        ]
        made = [evaluate(d) for d in deals]
        assert made[0] == made[1], deals
