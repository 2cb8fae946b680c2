"""The last paytables without an exact figure (issue #13): Super Match and Pai Jack Bonus, decided
by one hand of cards; Go Fish 21, by the player's blackjack and the Go Fish deck's card; and the
wagers no count of the cards settles, whose refusals say why."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from engine import hold_em
from engine.analysis import NotAnalysable, analyse
from engine.cards import Card, deck
from engine.dealer_hands import falling
from engine.odds import Pays
from engine.par_sheet import par_sheet
from engine.rules import PaytableLine
from engine.sidewagers import Deal
from engine.sidewagers.cards import pai_jack_bonus
from engine.sidewagers.poker import super_match


def _lines(pays: list[tuple[str, str]]) -> list[PaytableLine]:
    return [PaytableLine(key, Pays.parse(odds), key) for key, odds in pays]


# 30-2105(10), Super Match Pay Tables 1 (6 decks) and 2 (8 decks).
SUPER_MATCH_1 = [
    ("four-of-a-kind", "40 to 1"),
    ("two-pair", "8 to 1"),
    ("three-of-a-kind", "5 to 1"),
    ("pair", "1 to 1"),
]
SUPER_MATCH_2 = [
    ("four-of-a-kind", "50 to 1"),
    ("two-pair", "7 to 1"),
    ("three-of-a-kind", "5 to 1"),
    ("pair", "1 to 1"),
]


def test_super_match_counts_every_physical_four_card_hand_of_one_deck() -> None:
    """Brute force over the 270,725 hands of four of the 52 cards, evaluated by the wager's own
    evaluator: the same count of every line as the rank-pattern count."""
    cards = deck()
    made: Counter[str] = Counter()
    for a, b, c, d in itertools.combinations(cards, 4):
        keys = super_match(Deal((a, b), c, switch_cards=(c, d)))
        made[keys[0] if keys else "lose"] += 1
    result = analyse("super-match", _lines(SUPER_MATCH_1), 1)
    assert result.combinations == comb(52, 4) == sum(made.values())
    assert {line.outcome: line.combinations for line in result.lines} == {
        key: made[key] for key, _ in SUPER_MATCH_1
    }
    assert result.lose_probability == Fraction(made["lose"], comb(52, 4))


@pytest.mark.parametrize(("decks", "pays"), [(6, SUPER_MATCH_1), (8, SUPER_MATCH_2)])
def test_super_match_house_edge_is_the_closed_form_count(decks: int, pays: list) -> None:
    """Each hand of four from the shoe counted by rank pattern in closed form (4 N cards of each
    rank): the paytable's house edge exactly."""
    r, shoe = 4 * decks, 52 * decks
    four = 13 * comb(r, 4)
    two_pair = comb(13, 2) * comb(r, 2) ** 2
    three = 13 * comb(r, 3) * (shoe - r)
    pair = 13 * comb(r, 2) * (comb(shoe - r, 2) - 12 * comb(r, 2))
    total = comb(shoe, 4)
    wins = dict(
        zip(
            ("four-of-a-kind", "two-pair", "three-of-a-kind", "pair"),
            (four, two_pair, three, pair),
            strict=True,
        )
    )
    odds = {key: Pays.parse(p).ratio for key, p in pays}
    lose = total - sum(wins.values())
    edge = Fraction(lose - sum(wins[k] * odds[k] for k in wins), total)
    result = analyse("super-match", _lines(pays), decks)
    assert result.house_edge == edge
    assert {line.outcome: line.combinations for line in result.lines} == wins
    assert "initial four cards" in result.card_removal


def test_super_match_figures_at_the_approved_deck_counts() -> None:
    six = analyse("super-match", _lines(SUPER_MATCH_1), 6).house_edge
    eight = analyse("super-match", _lines(SUPER_MATCH_2), 8).house_edge
    assert f"{float(six):.6f}" == "0.025485"
    assert f"{float(eight):.6f}" == "0.026384"


def test_super_match_par_sheet_adds_up() -> None:
    result = analyse("super-match", _lines(SUPER_MATCH_1), 6)
    sheet = par_sheet(result)
    assert sheet.combinations == comb(312, 4)
    assert sheet.lines_exclusive
    assert sum(line.combinations for line in sheet.lines) == sheet.combinations
    assert sheet.house_edge == result.house_edge
    assert sheet.hit_frequency == 1 - result.lose_probability


# 30-2112(12), Pai Jack Bonus Pay Table 1.
PAI_JACK_1 = [
    ("super-pai-jack", "500 to 1"),
    ("royal-pai-jack", "15 to 1"),
    ("jack-pai-jack", "8 to 1"),
    ("pai-jack", "6 to 1"),
]


def _hand(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


@pytest.mark.parametrize(
    ("hand", "paid"),
    [
        ("JC JD JH JS AC", "super-pai-jack"),
        ("AS KS QS 2C 3D", "royal-pai-jack"),
        ("AS KS QS JC JD", "royal-pai-jack"),
        ("JC JD AH 4C 5C", "jack-pai-jack"),
        ("AH KS QD 2C 3C", "pai-jack"),
        ("AH TS 9D 2C 3C", None),
        ("KH TS QD JC 3C", None),
    ],
)
def test_pai_jack_bonus_pays_the_highest_hand_of_the_packet(hand: str, paid: str | None) -> None:
    cards = _hand(hand)
    made = pai_jack_bonus(Deal((cards[0], cards[1]), cards[2], player_cards=cards))
    assert (made[0] if made else None) == paid


def test_pai_jack_bonus_counts_match_the_closed_forms() -> None:
    """Of the C(52, 5) packets of the one deck (30-2112(1)): a Pai Jack holds an ace and two
    ten-valued cards; the four jacks and an ace are 4 packets; a suited A-K-Q with any two of the
    other 49, 4 x C(49, 2); two or more jacks and an ace, less those two."""
    result = analyse("pai-jack-bonus", _lines(PAI_JACK_1), 1)
    counts = {line.outcome: line.combinations for line in result.lines}
    any_pai_jack = sum(
        comb(4, a) * comb(16, t) * comb(32, 5 - a - t)
        for a in range(1, 6)
        for t in range(2, 6)
        if a + t <= 5
    )
    jacks_and_ace = sum(
        comb(4, j) * comb(4, a) * comb(44, 5 - j - a)
        for j in range(2, 5)
        for a in range(1, 4)
        if j + a <= 5
    )
    assert result.combinations == comb(52, 5)
    assert counts["super-pai-jack"] == 4
    assert counts["royal-pai-jack"] == 4 * comb(49, 2)
    assert counts["jack-pai-jack"] == jacks_and_ace - 4 - 4 * comb(4, 2)
    assert sum(counts.values()) == any_pai_jack
    wins = {k: Pays.parse(p).ratio for k, p in PAI_JACK_1}
    assert result.house_edge == Fraction(
        comb(52, 5) - any_pai_jack - sum(counts[k] * wins[k] for k in counts), comb(52, 5)
    )


# 30-899.08(8), the Go Fish pay schedule.
GO_FISH = [
    ("joker-joker-ace", "125 to 1"),
    ("joker-joker-10-to-king", "75 to 1"),
    ("joker-joker-3-to-9", "50 to 1"),
    ("joker-ace", "60 to 1"),
    ("joker-10-to-king", "40 to 1"),
    ("joker-3-to-9", "20 to 1"),
    ("ace", "30 to 1"),
    ("10-to-king", "20 to 1"),
    ("3-to-9", "10 to 1"),
]


def _go_fish_card() -> dict[str, Fraction]:
    """The specialty deck (30-899.08(1)): 3 through ace of one suit and two Jokers, its first three
    cards in every order; a Joker shows the next card, two Jokers the third ((7)(c))."""
    specialty = [*"3456789TJQKA", "joker", "joker"]
    seen: Counter[str] = Counter()
    draws = list(itertools.permutations(range(14), 3))
    for order in draws:
        cards = [specialty[i] for i in order]
        jokers = 0 if cards[0] != "joker" else 1 if cards[1] != "joker" else 2
        card = cards[jokers]
        kind = "ace" if card == "A" else "10-to-king" if card in "TJQK" else "3-to-9"
        seen["joker-" * jokers + kind] += 1
    return {key: Fraction(n, len(draws)) for key, n in seen.items()}


@pytest.mark.parametrize("decks", [1, 6])
def test_go_fish_pays_a_winning_blackjack_by_the_specialty_deck_card(decks: int) -> None:
    n = decks
    blackjack = Fraction(2 * 4 * n * 16 * n, falling(52 * n, 2))
    dealer_blackjack = Fraction(2 * (4 * n - 1) * (16 * n - 1), falling(52 * n - 2, 2))
    won = blackjack * (1 - dealer_blackjack)
    result = analyse("go-fish-21", _lines(GO_FISH), decks)
    card = _go_fish_card()
    assert {line.outcome: line.probability for line in result.lines} == {
        key: won * card[key] for key, _ in GO_FISH
    }
    assert result.push_probability == blackjack * dealer_blackjack  # (6): both blackjacks push
    assert result.lose_probability == 1 - blackjack
    wins = {k: Pays.parse(p).ratio for k, p in GO_FISH}
    assert result.house_edge == (1 - blackjack) - sum(won * card[k] * wins[k] for k in card)
    assert "even money" in result.card_removal


@pytest.mark.parametrize(
    ("wager", "says"),
    [
        ("streak", "streak is not decided by the cards: it is won on consecutive winning hands"),
        ("streak", "30-899.07(2), (6)"),
        ("burnout-bonus", "burnout-bonus is not decided by the cards"),
        ("burnout-bonus", "30-899.25 Bonus Wager (1)-(3)"),
        ("dead-mans-hand", "dead-mans-hand is not decided by the cards: 30-899.15 does not define"),
    ],
)
def test_a_wager_without_exact_analysis_says_whether_the_cards_decide_it(
    wager: str, says: str
) -> None:
    with pytest.raises(NotAnalysable) as refused:
        analyse(wager, _lines([("pair", "1 to 1")]), 6)
    assert says in str(refused.value)
    assert "yet" not in str(refused.value)


# 30-2104(13)(b), the 21-Hold 'em pay schedule.
HOLD_EM = [
    ("royal-flush", "500 to 1"),
    ("straight-flush", "100 to 1"),
    ("four-of-a-kind", "50 to 1"),
    ("full-house", "20 to 1"),
    ("flush", "6 to 1"),
    ("straight", "4 to 1"),
    ("three-of-a-kind", "3 to 1"),
    ("two-pairs", "2 to 1"),
    ("pair-of-7s-or-better", "1 to 1"),
]
FIVE_CARD_HANDS = {  # of the C(52, 5) hands, the textbook counts; pairs of 7s to aces: 8 of 13
    "royal-flush": 4,
    "straight-flush": 36,
    "four-of-a-kind": 624,
    "full-house": 3744,
    "flush": 5108,
    "straight": 10200,
    "three-of-a-kind": 54912,
    "two-pairs": 123552,
    "pair-of-7s-or-better": 8 * 84480,
}


def test_hold_em_lines_count_every_five_card_hand_as_the_textbooks_do() -> None:
    """Every community pair (by suit pattern, weighted) with every three of the other 50: each
    five-card hand is met once per way to pick its two community cards, C(5, 2) = 10."""
    seen: Counter[int] = Counter()
    for community, weight in hold_em._communities():
        _, made = hold_em._hands(community)
        for index, n in Counter(made.tolist()).items():
            seen[index] += n * weight
    assert {hold_em.OUTCOMES[i]: n // 10 for i, n in seen.items() if i >= 0} == FIVE_CARD_HANDS
    assert sum(seen.values()) == comb(52, 2) * comb(50, 3)


def _poker(cards: list[int]) -> str | None:
    """Plain Python: the pay schedule's line of five cards (index % 13 the rank, // 13 the suit)."""
    ranks = sorted(c % 13 for c in cards)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c // 13 for c in cards}) == 1
    straight = counts[0] == 1 and (ranks[4] - ranks[0] == 4 or ranks == [0, 1, 2, 3, 12])
    if straight and flush:
        return "royal-flush" if ranks[0] == 8 else "straight-flush"
    if counts[0] == 4:
        return "four-of-a-kind"
    if counts[:2] == [3, 2]:
        return "full-house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three-of-a-kind"
    if counts[:2] == [2, 2]:
        return "two-pairs"
    pair = [r for r in ranks if ranks.count(r) == 2]
    return "pair-of-7s-or-better" if pair and pair[0] >= 5 else None


@pytest.mark.parametrize("community", [(0, 18), (12, 25), (8, 9)])  # 2♣ 7♦; A♣ A♦; T♣ J♣
def test_hold_em_best_folds_match_a_plain_backward_count(community: tuple[int, int]) -> None:
    """One community pair worked back in plain Python with Fractions: the third card's mean, the
    second decision (fold: -2, or go on), the first (fold: -1, or go on)."""
    odds = {k: Pays.parse(p).ratio for k, p in HOLD_EM}
    rest = [c for c in range(52) if c not in community]

    def end(cards: tuple[int, ...]) -> Fraction:
        line = _poker([*community, *cards])
        return Fraction(3 * odds[line]) if line else Fraction(-3)

    ends = {t: end(t) for t in itertools.combinations(rest, 3)}

    def third(a: int, b: int) -> Fraction:
        return sum(ends[tuple(sorted((a, b, c)))] for c in rest if c not in (a, b)) / 48

    second = {(a, b): max(Fraction(-2), third(a, b)) for a, b in itertools.combinations(rest, 2)}
    first = [
        max(Fraction(-1), sum(second[tuple(sorted((a, b)))] for b in rest if b != a) / 49)
        for a in rest
    ]
    expected = sum(first) / 50
    scale = 1
    wins = tuple(int(odds[k]) for k in hold_em.OUTCOMES)
    _, by_net = hold_em._community(community, wins, scale)
    assert sum(net * n for net, n in by_net.items()) / (50 * 49 * 48) == expected


def test_hold_em_catalog_schedule_is_analysed_exactly_per_pk_unit() -> None:
    result = analyse("21-hold-em", _lines(HOLD_EM), 1)
    assert result.combinations == comb(52, 2) * 50 * 49 * 48
    assert (
        result.house_edge
        == -sum((net * n for net, n in result.nets), Fraction(0)) / result.combinations
    )
    assert f"{float(result.house_edge):.6f}" == "0.206215"
    # every royal flush is played out: 4 suits x C(5, 2) community pairs x 3! orders
    assert {line.outcome: line.combinations for line in result.lines}["royal-flush"] == 240
    sheet = par_sheet(result)
    assert sheet.house_edge == result.house_edge
    assert sum(row.returns for row in sheet.lines) == -result.house_edge
    with pytest.raises(NotAnalysable, match="single deck"):
        analyse("21-hold-em", _lines(HOLD_EM), 6)
