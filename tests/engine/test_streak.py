"""The consecutive-wins wagers (STREAK, Blackjack Burnout's Bonus): each round's effect on a streak
as the logged engine settles its hands, the wagers counted as a player places them, and the
estimate with its standard error. No database."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest

from engine.analysis import NotAnalysable
from engine.odds import Pays
from engine.round import SeatSpec, play_round
from engine.rules import DoubleOn, HoleCard, PaytableLine, Surrender
from engine.shoe import Shoe
from engine.strategy import BasicStrategy
from engine.streak import (
    ADVANCE,
    END,
    PUSH,
    StreakCounts,
    rules_text,
    scripted_class,
    streak_analyses,
    streak_chunk,
    streak_rules,
    streak_simulate,
)
from tests.engine.test_simulate import RULE_SETS, STANDARD, _dealt

_WON, _LOST = {"win", "blackjack", "even_money"}, {"lose", "surrender", "rescue"}


def _logged_class(log) -> str:  # type: ignore[no-untyped-def]
    """30-899.07(7), (8): the hands won against the hands lost, a push neither."""
    main = [s for s in log.settlements if s.wager == "main"]
    score = sum(s.result in _WON for s in main) - sum(s.result in _LOST for s in main)
    return ADVANCE if score > 0 else END if score < 0 else PUSH


@pytest.mark.parametrize("name", RULE_SETS)
def test_each_rounds_effect_is_the_logged_rounds_hands_won_against_hands_lost(name: str) -> None:
    """The same cards: the kernel's class is what the logged engine's settlements say."""
    rules = RULE_SETS[name]
    rng = random.Random(f"streak {name}")
    strategy = BasicStrategy(rules)
    seen = set()
    for _ in range(1500):
        cards = _dealt(rules, rng)
        log = play_round(
            rules, Shoe.scripted(cards, rules.decks), [SeatSpec({"main": Decimal(10)}, strategy)]
        )
        expected = _logged_class(log)
        assert scripted_class(rules, cards) == expected, log.to_dict()
        seen.add(expected)
    assert seen == {ADVANCE, END, PUSH}


@pytest.mark.parametrize(
    ("cards", "effect"),
    [
        # 8-8 against a 6 split: 8-T stands on 18, 8-3 doubles to 21 (T); the dealer's 16 draws
        # a 3: 18 loses, the doubled 21 wins: one each, a push (30-899.07(8))
        ("8 6 8 T T 3 T 3", PUSH),
        # the dealer drawing a 2 to 18: 18 pushes, 21 wins: won more than lost, advanced
        ("8 6 8 T T 3 T 2", ADVANCE),
        # the same, the dealer drawing a 5 to 21: 18 loses, 21 pushes: a loss, the streak ends
        ("8 6 8 T T 3 T 5", END),
        # the dealer's 16 busts with a T: both split hands win
        ("8 6 8 T T 3 T T", ADVANCE),
        # a blackjack against the dealer's blackjack: a push
        ("A A T T", PUSH),
        # a blackjack against a ten up and no blackjack: won
        ("A T T 7", ADVANCE),
        # 16 against a ten with a 7 in the hole: hits, busts (T): lost
        ("T T 6 7 T", END),
    ],
)
def test_split_hands_advance_the_streak_by_majority(cards: str, effect: str) -> None:
    values = [10 if c == "T" else 1 if c == "A" else int(c) for c in cards.split()]
    assert scripted_class(STANDARD, values) == effect


def test_a_continuous_shufflers_spots_win_as_the_rounds_advance_independently() -> None:
    """Rounds from a continuous shuffler are independent: the k-win spot is won with probability
    q^k, q the rounds advancing of those that advance or end. The wagers counted agree, within
    four standard errors, for every spot."""
    counts = streak_chunk(streak_rules("streak", 6), (2, 3, 4, 5), 2_000_000, 11, 0, True)
    q = counts.advanced / (counts.advanced + counts.ended)
    assert counts.rounds >= 2_000_000
    assert counts.advanced + counts.ended + counts.pushed == counts.rounds
    for length, settled, won in zip(counts.lengths, counts.settled, counts.won, strict=True):
        p = q**length
        assert abs(won / settled - p) < 4 * math.sqrt(p * (1 - p) / settled), length


def test_every_wager_counted_is_settled_and_the_seed_repeats() -> None:
    rules = streak_rules("streak", 2)
    one = streak_chunk(rules, (2, 5), 20_000, 3, 0)
    assert one == streak_chunk(rules, (2, 5), 20_000, 3, 0)
    assert one != streak_chunk(rules, (2, 5), 20_000, 3, 1)
    # a 2-win spot is settled by each round that ends a streak, and by every second advance at
    # most: the rounds past 20,000 are those that settle the wagers still pending
    assert one.settled[0] >= one.ended and one.won[0] <= one.advanced // 2
    assert one.rounds >= 20_000
    both = streak_simulate(rules, (2, 5), 40_000, 3, chunk_rounds=20_000)
    assert both == one + streak_chunk(rules, (2, 5), 20_000, 3, 1)
    assert StreakCounts.from_json(both.as_json()) == both


def test_burnout_bonus_is_played_on_blackjack_burnouts_rules() -> None:
    """30-899.25(4)(b): any pair but aces split up to four times, aces once."""
    rules = streak_rules("burnout-bonus", 6, hits_soft_17=True)
    assert rules.max_split_hands == 5 and not rules.resplit_aces and rules.dealer_hits_soft_17
    # what the analysis says of the rules is what is played
    assert rules.hole_card is HoleCard.PEEK and rules.surrender is Surrender.NONE
    assert rules.double_on is DoubleOn.ANY_TWO and rules.double_after_split
    assert rules.split_aces_one_card and rules.blackjack_pays == Fraction(3, 2)
    assert "pairs split to 5 hands (aces once" in rules_text(rules)
    with pytest.raises(NotAnalysable):
        streak_rules("royal-match-21", 6)


def test_a_spots_return_is_a_decimal_estimate_with_its_standard_error() -> None:
    counts = StreakCounts((2, 5), 1000, 430, 480, 90, (600, 500), (150, 12))
    lines = [
        PaytableLine("two-wins", Pays.parse("3 to 1"), "2 consecutive wins", "Standard"),
        PaytableLine("five-wins", Pays.parse("37 to 1"), "5 consecutive wins", "Standard"),
    ]
    two, five = streak_analyses("streak", lines, counts, streak_rules("streak", 6), seed=9)
    assert two.method == five.method == "simulation"
    assert two.column == "Standard: 2 consecutive wins"
    assert two.house_edge == 1 - Fraction(150, 600) * 4  # 0: a quarter won at 3 to 1
    assert five.house_edge == 1 - Fraction(12, 500) * 38
    assert five.standard_error == pytest.approx(38 * math.sqrt(0.024 * 0.976 / 500))
    assert two.combinations == 600 and "seed 9" in two.card_removal
    with pytest.raises(NotAnalysable, match="spot"):
        streak_analyses(
            "streak",
            [PaytableLine("three-wins", Pays.parse("7 to 1"), "3", "")],
            counts,
            streak_rules("streak", 6),
            seed=9,
        )


def test_rounds_counted_by_their_net_match_the_wizard_of_odds_streak_simulation() -> None:
    """wizardofodds.com/games/blackjack/side-bets/streak/ ("Net Win in Blackjack"): 6 decks,
    dealer stands on soft 17, no surrender, split to four hands, double any two and after
    splits, no resplit aces, cut card; 1,866,725,627 rounds: the player nets a win in 43.3381 %
    of them (the rows 1 to 8 of his table), a loss in 47.8827 % and nothing in 8.7793 %. He counts
    a split round by its net money; the same simulator, counting so over 20 million rounds, gives
    the same to within 0.05 points (its basic strategy is ours, computed for the rules; his may
    differ in a play or two)."""
    counts = streak_chunk(streak_rules("streak", 6), (2,), 20_000_000, 17, 0, by_net=True)
    shares = [n / counts.rounds for n in (counts.advanced, counts.ended, counts.pushed)]
    for ours, his in zip(shares, (0.433381, 0.478827, 0.087793), strict=True):
        assert abs(ours - his) < 0.0005, (shares, ours, his)
    # counted by hands won and lost, as the rules say, the same cards advance fewer streaks: a
    # split hand won doubled against one lost is a push, not a win
    by_hands = streak_chunk(streak_rules("streak", 6), (2,), 20_000_000, 17, 0)
    assert by_hands.advanced < counts.advanced
