"""Exact analysis of side-wager paytables against published figures and the engine's own rounds."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from engine.analysis import NotAnalysable, analyse, simulate
from engine.cards import deck, parse_cards
from engine.odds import Pays
from engine.rules import PaytableLine, RuleSet
from engine.sidewagers import Deal, kings_bounty, outcome, three_card_poker

NINE_TO_ONE = [
    PaytableLine(key, Pays.parse("9 to 1"), key)
    for key in ("straight-flush", "three-of-a-kind", "straight", "flush")
]


def _lines(pays: list[tuple[str, str]]) -> list[PaytableLine]:
    return [PaytableLine(key, Pays.parse(odds), key) for key, odds in pays]


KINGS_BOUNTY_6 = [
    ("two-kings-of-spades-dealer-blackjack", "1000 to 1"),
    ("two-kings-of-spades", "100 to 1"),
    ("suited-kings", "30 to 1"),
    ("suited-queens-jacks-tens", "20 to 1"),
    ("suited-20", "9 to 1"),
    ("two-kings", "6 to 1"),
    ("unsuited-20", "4 to 1"),
]


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_21_plus_3_counts_every_deal_once(decks: int) -> None:
    """Every deal of the pair (unordered) and the up card counted once; the published house
    edges (the Wizard of Odds' "21+3", 9 to 1 on every hand) are pinned in engine/published.yaml."""
    result = analyse("21-plus-3", NINE_TO_ONE, decks)
    assert result.combinations == 52 * decks * (52 * decks - 1) // 2 * (52 * decks - 2)
    assert sum(line.probability for line in result.lines) + result.lose_probability == 1


def test_one_deck_21_plus_3_counts_by_hand() -> None:
    """One deck: each hand's probability is its number of three-card sets over C(52,3) = 22,100,
    whichever card the dealer holds."""
    result = analyse("21-plus-3", NINE_TO_ONE, 1)
    by = {line.outcome: line.probability for line in result.lines}
    # 12 runs (A-2-3 … Q-K-A) × 4 suits = 48 straight-flush card sets out of C(52,3) = 22,100.
    assert by["straight-flush"] == Fraction(48, 22100)
    assert by["three-of-a-kind"] == Fraction(13 * 4, 22100)
    assert by["straight"] == Fraction(12 * 64 - 48, 22100)
    assert by["flush"] == Fraction(4 * 286 - 48, 22100)


def test_the_highest_ranking_hand_is_paid() -> None:
    deal = Deal(tuple(parse_cards(["7H", "8H"])), parse_cards(["9H"])[0])  # type: ignore[arg-type]
    assert three_card_poker(deal) == ["straight-flush", "straight", "flush"]
    assert outcome("21-plus-3", deal, {"straight", "flush"}) == "straight"
    kings = Deal(tuple(parse_cards(["KS", "KS"])), parse_cards(["AH"])[0], True)  # type: ignore[arg-type]
    assert kings_bounty(kings)[0] == "two-kings-of-spades-dealer-blackjack"


def test_exact_agrees_with_dealing_from_a_shoe() -> None:
    """King's Bounty (MA Table 1) at 6 decks: deals from seeded shoes land within four standard
    errors of the exact return."""
    lines = _lines(KINGS_BOUNTY_6)
    exact = analyse("kings-bounty", lines, 6)
    pays = {line.outcome: line.pays.ratio for line in lines}
    rng, n, total, squares = random.Random(3), 100_000, Fraction(0), Fraction(0)
    keys, shoe = set(pays), deck() * 6
    for _ in range(n):
        p1, up, p2, hole = rng.sample(shoe, 4)
        won = outcome(
            "kings-bounty",
            Deal((p1, p2), up, up.value + hole.value == 11 and (up.is_ace or hole.is_ace)),
            keys,
        )
        result = pays[won] if won else Fraction(-1)
        total += result
        squares += result * result
    mean = total / n
    error = ((squares / n - mean * mean) / n) ** 0.5
    assert abs(float(mean + exact.house_edge)) < 4 * float(error)


def test_what_cannot_be_analysed_says_why() -> None:
    with pytest.raises(NotAnalysable, match="wheel-of-madness is not decided by the cards: it is"):
        analyse("wheel-of-madness", [], 6)
    with pytest.raises(NotAnalysable, match="depends on the meter"):
        analyse("21-plus-3", [PaytableLine("flush", Pays.parse("10%"))], 6)


def test_a_deal_paying_two_lines_counts_both() -> None:
    """MA 23 Match the Dealer pays each of the player's cards matching the dealer's up card, so
    the lines' probabilities add up to more than the chance of winning at all."""
    lines = [
        PaytableLine("suited-match", Pays.parse("15 to 1"), "Suited match"),
        PaytableLine("unsuited-match", Pays.parse("4 to 1"), "Unsuited match"),
    ]
    result = analyse("match-the-dealer", lines, 6)
    assert sum(line.probability for line in result.lines) > 1 - result.lose_probability


def test_blazing_7s_is_analysed_as_its_jurisdiction_defines_it() -> None:
    """Massachusetts counts the dealer's up card (MA 31(c)); Colorado the third card dealt to
    the player (30-899.21(8)), who takes one to two 7's by drawing, doubling or splitting. Either
    is one card from the shoe less the player's two: the same chance of three 7's, but only
    Colorado's third card may bust the hand and then does not count (30-899.21(9))."""
    lines = [PaytableLine("three-7s", Pays.parse("100 to 1"), "Three 7s")]
    ma = analyse("blazing-7s", lines, 6, "US-MA")
    co = analyse("blazing-7s", lines, 6, "US-CO")
    assert ma.lines[0].probability == co.lines[0].probability > 0
    assert "up card" in ma.card_removal and "third card" in co.card_removal
    with pytest.raises(NotAnalysable, match="simulation"):
        analyse("straight-jack", [PaytableLine("straight-3-cards", Pays.parse("3 to 1"))], 6)


def test_exact_agrees_with_rounds_played_by_the_engine() -> None:
    """21+3 at 9 to 1 (6 decks): 30,000 seeded rounds through the logged engine land within four
    standard errors of the exact 3.2386%."""
    from engine.analysis import simulate
    from engine.rules import RuleSet

    exact = analyse("21-plus-3", NINE_TO_ONE, 6)
    played = simulate("21-plus-3", NINE_TO_ONE, RuleSet(decks=6), 30_000, seed=7)
    assert played.method == "simulation" and played.standard_error
    assert abs(float(played.house_edge - exact.house_edge)) < 4 * played.standard_error
    again = simulate("21-plus-3", NINE_TO_ONE, RuleSet(decks=6), 30_000, seed=7)
    assert again.house_edge == played.house_edge


def test_colorado_match_the_dealer_pays_the_sum_of_its_cards() -> None:
    """30-899.24(6) prints each combination as one pay ("2 card match", "1 unsuited and 1 suited
    match"); each is the sum of its cards' pays, so the paytable returns what paying each card
    (MA 23(a)(2), 30-899.16(12)(b)) at the 1-card pays returns."""
    combinations = [
        PaytableLine(key, Pays.parse(pays), key)
        for key, pays in [
            ("one-unsuited-match", "4 to 1"),
            ("two-unsuited-matches", "8 to 1"),
            ("one-suited-match", "12 to 1"),
            ("two-suited-matches", "24 to 1"),
            ("unsuited-and-suited-match", "16 to 1"),
        ]
    ]
    each_card = [
        PaytableLine("unsuited-match", Pays.parse("4 to 1"), "unsuited"),
        PaytableLine("suited-match", Pays.parse("12 to 1"), "suited"),
    ]
    by_combination = analyse("match-the-dealer", combinations, 4, "US-CO")
    assert by_combination.house_edge == analyse("match-the-dealer", each_card, 4).house_edge
    assert sum(line.probability for line in by_combination.lines) == 1 - (
        by_combination.lose_probability
    )


def test_spanish_21_match_the_dealer_is_dealt_from_spanish_decks() -> None:
    """30-899.16(2): 48-card decks without the 10s; a pair from 96 cards and an up card from the
    94 left, so a king matches more often than from standard decks."""
    lines = [
        PaytableLine("unsuited-match", Pays.parse("4:1"), "Unsuited Match Pay out"),
        PaytableLine("suited-match", Pays.parse("15:1"), "Suited Match Pay Out"),
    ]
    spanish = analyse("spanish-21-match-the-dealer", lines, 2)
    assert spanish.combinations == 96 * 95 // 2 * 94
    assert "Spanish decks" in spanish.card_removal
    standard = analyse("match-the-dealer", lines, 2)
    assert spanish.lose_probability < standard.lose_probability


def test_match_the_dealer_down_card_is_analysed_exactly_and_agrees_with_play() -> None:
    """30-899.24(5): the Down Card wager pays the Up Card wager's table on the dealer's down card.
    The unseen up card leaves the down card distributed as the up card is, so the exact figures are
    the Up Card wager's (the method says so); 40,000 rounds of the logged engine, settling it on
    the down card they deal, land within four standard errors."""
    from engine.analysis import simulate
    from engine.rules import RuleSet

    lines = _lines(
        [
            ("one-unsuited-match", "4 to 1"),
            ("two-unsuited-matches", "8 to 1"),
            ("one-suited-match", "11 to 1"),
            ("two-suited-matches", "22 to 1"),
            ("unsuited-and-suited-match", "15 to 1"),
        ]
    )
    down = analyse("match-the-dealer-down-card", lines, 6, "US-CO")
    up = analyse("match-the-dealer", lines, 6, "US-CO")
    assert (down.house_edge, down.lines) == (up.house_edge, up.lines)
    assert down.method == "exact" and "down card is distributed as the up card" in down.card_removal
    played = simulate("match-the-dealer-down-card", lines, RuleSet(decks=6), 40_000, seed=3)
    assert played.standard_error
    assert abs(float(played.house_edge - down.house_edge)) < 4 * played.standard_error


SEVENS = [
    ("three-7s-suited", "5000 to 1"),
    ("three-7s", "500 to 1"),
    ("two-7s-suited", "100 to 1"),
    ("two-7s", "50 to 1"),
    ("one-7", "3 to 1"),
]


@pytest.mark.parametrize("decks", [4, 6, 8])
@pytest.mark.parametrize("reading", [None, "either-first-two-cards"])
def test_the_sevens_wager_is_counted_exactly_with_the_third_card_to_two_sevens(
    decks: int, reading: str | None
) -> None:
    """MA 17(a)(3), (e)(3) with a player dealt two sevens taking a third card: counted here from
    the shoe's sevens alone (S of M cards, N of each suit), the third card drawn from the M - 2
    left whatever else is dealt, each hand paid its highest line. "One seven (initial card)" is
    the first card a seven, the second not (engine/readings.py); the reading set aside,
    a seven in either card, pays it on twice as many deals."""
    n, s, m = decks, 4 * decks, 52 * decks
    pairs = Fraction(1, m * (m - 1))
    one = s * (m - s) * pairs * (2 if reading else 1)
    two = s * (s - 1) * pairs
    two_suited = s * (n - 1) * pairs
    third = Fraction(s - 2, m - 2)
    three_suited = two_suited * Fraction(n - 2, m - 2)
    expected = {
        "three-7s-suited": three_suited,
        "three-7s": two * third - three_suited,
        "two-7s-suited": two_suited * (1 - third),
        "two-7s": (two - two_suited) * (1 - third),
        "one-7": one,
    }
    result = analyse("sevens", _lines(SEVENS), decks, "US-MA", reading)
    assert {line.outcome: line.probability for line in result.lines} == expected
    pays = {"three-7s-suited": 5000, "three-7s": 500, "two-7s-suited": 100, "two-7s": 50}
    lose = 1 - one - two
    assert result.house_edge == lose - sum(p * pays.get(k, 3) for k, p in expected.items())
    assert (result.house_edge > 0) == (reading is None)  # the reading set aside: the player's
    assert "third card" in result.card_removal


BLAZING_7S = [
    ("three-7s-suited", "1000 to 1"),  # 100 % of the meter, here as odds
    ("three-7s-same-color", "100 to 1"),
    ("three-7s", "200 for 1"),
    ("first-two-cards-7", "25 for 1"),
    ("either-first-two-cards-7", "2 for 1"),
]


def test_colorado_blazing_7s_counts_the_third_card_dealt_to_two_7s_exactly() -> None:
    """30-899.21(7)-(9): the player's first two cards and the third card dealt to that player,
    counted here from the shoe's 7's alone (S of M cards, N of each suit, 2N of each colour);
    a third card that busts two 7's does not count, leaving them "First Two Cards – 7"."""
    n, s, m = 6, 24, 312
    three = Fraction(1, m * (m - 1) * (m - 2))
    suited = s * (n - 1) * (n - 2) * three
    colour = s * (2 * n - 1) * (2 * n - 2) * three - suited
    trips = s * (s - 1) * (s - 2) * three
    two = Fraction(s * (s - 1), m * (m - 1))
    result = analyse("blazing-7s", _lines(BLAZING_7S), n, "US-CO")
    assert {line.outcome: line.probability for line in result.lines} == {
        "three-7s-suited": suited,
        "three-7s-same-color": colour,
        "three-7s": trips - suited - colour,
        "first-two-cards-7": two - trips,
        "either-first-two-cards-7": Fraction(2 * s * (m - s), m * (m - 1)),
    }
    assert result.method == "exact" and "third card" in result.card_removal


def test_colorado_blazing_7s_exact_agrees_with_rounds_played_by_the_engine() -> None:
    """The exact figure (the third card drawn from the shoe less the player's two, whatever is
    dealt before it) against 60,000 seeded rounds with the basic strategy, which hits or splits
    two 7's: within four standard errors."""
    exact = analyse("blazing-7s", _lines(BLAZING_7S), 6, "US-CO")
    played = simulate(
        "blazing-7s", _lines(BLAZING_7S), RuleSet(decks=6), 60_000, seed=21, jurisdiction="US-CO"
    )
    assert played.standard_error is not None
    assert abs(float(exact.house_edge - played.house_edge)) < 4 * played.standard_error


def test_3_card_21_n_done_counts_the_player_s_three_cards_as_dealt() -> None:
    """30-2111(3), (4): every player receives three cards whatever the play; the Three Card Bonus
    pays the best of them. One deck, every three-card set classified here (C(52,3) = 22,100)."""
    lines = _lines(
        [
            ("mini-royal", "50 to 1"),
            ("straight-flush", "15 to 1"),
            ("three-of-a-kind", "5 to 1"),
            ("straight", "2 to 1"),
            ("flush", "3 to 2"),
            ("pair", "1 to 1"),
            ("total-21", "1 to 1"),
        ]
    )
    counts: dict[str, int] = {}
    for cards in itertools.combinations(deck(), 3):
        ranks = sorted(c.number for c in cards)
        high = sorted(14 if r == 1 else r for r in ranks)
        run = any(b == a + 1 and c == b + 1 for a, b, c in (ranks, high))
        flush = len({c.suit for c in cards}) == 1
        points = sum(min(r, 10) for r in ranks)
        points += 10 if 1 in ranks and points <= 11 else 0
        hand = (
            "mini-royal"
            if flush and high == [12, 13, 14]
            else "straight-flush"
            if run and flush
            else "three-of-a-kind"
            if ranks[0] == ranks[2]
            else "straight"
            if run
            else "flush"
            if flush
            else "pair"
            if len(set(ranks)) == 2
            else "total-21"
            if points == 21
            else "lose"
        )
        counts[hand] = counts.get(hand, 0) + 1
    result = analyse("3-card-21-n-done", lines, 1, "US-CO")
    assert {line.outcome: line.probability for line in result.lines} == {
        line.outcome: Fraction(counts.get(line.outcome, 0), 22100) for line in lines
    }
    assert counts["mini-royal"] == 4 and counts["straight-flush"] == 44
