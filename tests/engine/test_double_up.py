"""Double Up Blackjack (30-899.10) played by the engine, both versions: the double up, the dealer
who stops on 16, Version 1's blackjacks and split-ace 21s paid at once, Version 2's 21 against a
dealer's 16; and the basic strategy's double up. No database: the rule sets as compliance.rulesets
builds them (tests/compliance/test_double_up.py plays them through the API, with citations)."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest

from engine.cards import parse_cards
from engine.hands import Hand, dealer_draws
from engine.round import RoundLog, SeatSpec, play_round
from engine.rules import RuleSet
from engine.shoe import Shoe
from engine.simulate import NotSimulable, check_simulable
from engine.strategy import (
    Action,
    BasicStrategy,
    IllegalAction,
    Scripted,
    _dealer_outcomes,
    allowed_actions,
)

V1 = RuleSet(
    double_up=True,
    dealer_stops_on_16=True,
    blackjack_paid_at_once=True,
    split_aces_21_pays=Fraction(2),
)
V2 = RuleSet(
    double_up=True, double_up_split_aces=True, dealer_stops_on_16=True, dealer_16_pays_21=True
)
BOTH = pytest.mark.parametrize("rules", [V1, V2], ids=["version-1", "version-2"])


def play(rules: RuleSet, cards: str, actions: list[str], *, main: str = "10") -> RoundLog:
    """One seat's scripted round; cards in dealing order (player, dealer up, player, hole, …)."""
    shoe = Shoe.scripted(parse_cards(cards.split()), rules.decks)
    return play_round(rules, shoe, [SeatSpec({"main": Decimal(main)}, Scripted(actions, 1))])


def settled(log: RoundLog) -> list[tuple[int | None, str, str, Decimal, str]]:
    """(hand, wager, result, net, rule key) of each settlement."""
    return [(s.hand, s.wager, s.result, s.net, s.rule_key) for s in log.settlements]


@BOTH
def test_the_dealers_16_by_two_cards_returns_the_main_and_double_up_wagers(
    rules: RuleSet,
) -> None:
    log = play(rules, "TH TC 9D 6S", ["double_up"])
    assert [str(c) for c in log.dealer.cards] == ["TC", "6S"]
    assert log.events[-1].action == "stops" and log.events[-1].total == 16
    assert settled(log) == [
        (1, "main", "push", 0, "dealer-16"),
        (1, "double-up", "push", 0, "dealer-16"),
    ]
    assert log.to_dict()["seats"][0]["hands"][0]["double_up"] == "10.00"


@BOTH
def test_the_dealers_16_by_a_draw_stops_the_dealer(rules: RuleSet) -> None:
    log = play(rules, "TH 5C 9D 8S 3H KD", ["stand"])
    assert [str(c) for c in log.dealer.cards] == ["5C", "8S", "3H"]  # no draw to 16's KD
    assert settled(log) == [(1, "main", "push", 0, "dealer-16")]


@BOTH
def test_a_soft_16_is_a_16(rules: RuleSet) -> None:
    """The reading of 30-899.10 Dealer Rules (2) (fixtures/annotations.yaml): A-5 stops."""
    log = play(rules, "TH AC 9D 5S 5D", ["stand"])
    assert [str(c) for c in log.dealer.cards] == ["AC", "5S"]
    assert settled(log) == [(1, "main", "push", 0, "dealer-16")]
    plain = play(RuleSet(), "TH AC 9D 5S 5D", ["stand"])  # the standard dealer draws: 21
    assert [str(c) for c in plain.dealer.cards] == ["AC", "5S", "5D"]
    assert dealer_draws(16, True, False, stops_on_16=True) is False
    assert dealer_draws(16, True, False) is True


@BOTH
def test_a_16_reached_from_a_soft_17_hit_stops_too(rules: RuleSet) -> None:
    hits = replace(rules, dealer_hits_soft_17=True)
    log = play(hits, "TH AC 9D 6S 9C", ["stand"])  # A-6 soft 17 hit: A-6-9 hard 16
    assert [str(c) for c in log.dealer.cards] == ["AC", "6S", "9C"]
    assert settled(log) == [(1, "main", "push", 0, "dealer-16")]


def test_a_21_against_the_dealers_16_pushes_in_version_1_and_wins_all_its_wagers_in_version_2() -> (
    None
):
    cards, actions = "5H TC 6D 6S TD", ["double"]  # 11 doubled to 21; the dealer's 10-6
    assert settled(play(V1, cards, actions)) == [(1, "main", "push", 0, "dealer-16")]
    assert settled(play(V2, cards, actions)) == [(1, "main", "win", 20, "dealer-16-21")]
    # Other totals push in Version 2 too (Version 2 (7)).
    assert settled(play(V2, "TH TC 9D 6S", ["stand"])) == [(1, "main", "push", 0, "dealer-16")]


def test_a_split_21_doubled_up_against_the_dealers_16_in_version_2() -> None:
    """Version 2 (3), (6): a split ace doubled up; its 21 wins the main and double up wagers
    1:1 against the dealer's 16, the other hand's wagers are returned."""
    log = play(V2, "AH TC AD 6S KC 5H", ["split", "double_up", "double_up"])
    assert settled(log) == [
        (1, "main", "win", 10, "dealer-16-21"),
        (1, "double-up", "win", 10, "dealer-16-21"),
        (2, "main", "push", 0, "dealer-16"),
        (2, "double-up", "push", 0, "dealer-16"),
    ]


@BOTH
def test_busted_hands_stay_lost_when_the_dealer_stops_on_16(rules: RuleSet) -> None:
    log = play(rules, "8H TC 8D 6S 7C TD TH", ["split", "hit", "stand"])
    assert settled(log) == [
        (1, "main", "lose", -10, "lose"),
        (2, "main", "push", 0, "dealer-16"),
    ]


@BOTH
def test_the_double_up_wins_with_the_main_wager_and_loses_on_a_tie(rules: RuleSet) -> None:
    assert settled(play(rules, "TH TC 9D 8S", ["double_up"])) == [
        (1, "main", "win", 10, "win"),
        (1, "double-up", "win", 10, "double-up-win"),
    ]
    assert settled(play(rules, "TH TC 9D 9S", ["double_up"])) == [
        (1, "main", "push", 0, "push"),
        (1, "double-up", "lose", -10, "double-up-tie"),
    ]
    assert settled(play(rules, "TH TC 8D 9S", ["double_up"])) == [
        (1, "main", "lose", -10, "lose"),
        (1, "double-up", "lose", -10, "lose"),
    ]
    assert settled(play(rules, "TH 6C 8D 9S 7H", ["double_up"])) == [  # the dealer busts
        (1, "main", "win", 10, "win"),
        (1, "double-up", "win", 10, "double-up-win"),
    ]
    # The full main wager, and no card after it.
    log = play(rules, "TH TC 2D 8S 9H", ["double_up"], main="25")
    assert [str(c) for c in log.seats[0].hands[0].cards] == ["TH", "2D"]
    assert log.seats[0].hands[0].double_up == Decimal(25)


def test_version_1_pays_a_blackjack_at_once_even_against_a_dealer_blackjack() -> None:
    log = play(V1, "AH AC KD KS", [])
    assert settled(log) == [(1, "main", "blackjack", 15, "blackjack")]
    assert log.events[4].action == "blackjack"  # after the deal, before the dealer's peek
    with pytest.raises(IllegalAction, match="even money"):  # nothing left to pay even money on
        play(V1, "AH AC KD KS", ["even_money"])
    # Version 2 plays the standard rule: the blackjacks push.
    assert settled(play(V2, "AH AC KD KS", [])) == [(1, "main", "push", 0, "blackjack-push")]
    assert settled(play(V2, "AH 9C KD 7S", [])) == [(1, "main", "blackjack", 15, "blackjack")]


def test_a_version_2_blackjack_is_paid_3_to_2_though_the_dealer_goes_on_to_16() -> None:
    """The reading of Version 2 (1) and (6) (fixtures/annotations.yaml): a blackjack is settled
    before the dealer plays; another seat keeps the dealer playing to 16."""
    shoe = Shoe.scripted(parse_cards("AH TC 5C KD 7S 9S 2H".split()), 6)
    seats = [SeatSpec({"main": Decimal(10)}, Scripted(a, n)) for n, a in ((1, []), (2, ["stand"]))]
    log = play_round(V2, shoe, seats)
    assert [str(c) for c in log.dealer.cards] == ["5C", "9S", "2H"]
    assert [(s.seat, s.result, s.net, s.rule_key) for s in log.settlements] == [
        (1, "blackjack", 15, "blackjack"),
        (2, "push", 0, "dealer-16"),
    ]


def test_split_aces_and_a_ten_pay_2_to_1_in_version_1_only() -> None:
    cards = "AH 7C AD TS KC 5H"  # each ace split; the first takes a king, the dealer 17
    assert settled(play(V1, cards, ["split"])) == [
        (1, "main", "win", 20, "split-aces-21"),
        (2, "main", "lose", -10, "lose"),
    ]
    # Version 2: a 21 of the standard rules; the split aces may be doubled up, so the second
    # hand is asked, the 21 stands unasked.
    assert settled(play(V2, cards, ["split", "stand"])) == [
        (1, "main", "win", 10, "win"),
        (2, "main", "lose", -10, "lose"),
    ]


def test_version_1_pays_split_aces_21_whatever_the_dealer_makes() -> None:
    """Paid at once (30-899.10 Player Rules (6)): not pushed by the dealer's 16, not beaten by a
    dealer's 21."""
    log = play(V1, "AH 6C AD TS KC QH", ["split"])  # the dealer's 16
    assert settled(log) == [
        (1, "main", "win", 20, "split-aces-21"),
        (2, "main", "win", 20, "split-aces-21"),
    ]
    assert [str(c) for c in log.dealer.cards] == ["6C", "TS"]  # nothing live: no draw


def test_the_double_up_is_refused_where_the_rules_refuse_it() -> None:
    blackjack = Hand(parse_cards(["AH", "KD"]), Decimal(10))
    assert Action.DOUBLE_UP not in allowed_actions(blackjack, 1, V2)
    with pytest.raises(IllegalAction, match="left over"):  # a blackjack is not played on
        play(V2, "AH 9C KD 7S", ["double_up"])
    three = Hand(parse_cards(["5H", "4D", "9S"]), Decimal(10))
    assert Action.DOUBLE_UP not in allowed_actions(three, 1, V1)
    with pytest.raises(IllegalAction, match="double_up is not allowed"):
        play(V1, "5H TC 4D 7S 9S", ["hit", "double_up"])
    split_ace = Hand(parse_cards(["AH", "7D"]), Decimal(10), from_split=True, split_aces=True)
    assert Action.DOUBLE_UP not in allowed_actions(split_ace, 2, V1)
    assert Action.DOUBLE_UP in allowed_actions(split_ace, 2, V2)
    with pytest.raises(IllegalAction, match="left over"):  # Version 1: split aces stand
        play(V1, "AH 7C AD TS 7D 5H", ["split", "double_up"])
    split_eight = Hand(parse_cards(["8H", "3D"]), Decimal(10), from_split=True)
    assert Action.DOUBLE_UP in allowed_actions(split_eight, 2, V1)  # only aces are excepted
    assert Action.DOUBLE_UP not in allowed_actions(Hand(parse_cards(["TH", "9D"]), Decimal(10)),
                                                   1, RuleSet())  # fmt: skip


def _stand_and_tie(rules: RuleSet, total: int, up: int) -> tuple[float, float]:
    d = _dealer_outcomes(False, rules.dealer_hits_soft_17, False, rules.dealer_stops_on_16)[up]
    win = d[22] + sum(q for t, q in d.items() if 16 < t < total)
    lose = sum(q for t, q in d.items() if total < t < 22)
    if total == 21 and rules.dealer_16_pays_21:
        win += d[16]
    return win - lose, d.get(total, 0.0)


@BOTH
def test_basic_strategy_doubles_up_exactly_where_it_beats_every_other_play(
    rules: RuleSet,
) -> None:
    """The double up adds stand - P(tie) (the dealer's 16 no tie); the strategy takes it where
    that is worth more than 0 and more than hitting or doubling."""
    strategy = BasicStrategy(rules)
    ups = {v: parse_cards([f"{'A23456789T'[v - 1]}S"])[0] for v in range(1, 11)}
    playing = frozenset({Action.HIT, Action.STAND, Action.DOUBLE, Action.DOUBLE_UP})
    chosen = 0
    for total, cards in ((17, "TH 7D"), (18, "TH 8D"), (19, "TH 9D"), (20, "TH QD")):
        for up, card in ups.items():
            hand = Hand(parse_cards(cards.split()), Decimal(10))
            stand, tie = _stand_and_tie(rules, total, up)
            decided = strategy.decide(hand, card, playing)
            assert (decided is Action.DOUBLE_UP) == (stand - tie > 0), (total, up)
            chosen += decided is Action.DOUBLE_UP
            # Never where it is not allowed.
            assert strategy.decide(hand, card, playing - {Action.DOUBLE_UP}) is not (
                Action.DOUBLE_UP
            )
    assert chosen >= 20  # 20s against everything, 19s against most
    assert BasicStrategy(RuleSet()).decide(
        Hand(parse_cards(["TH", "QD"]), Decimal(10)), ups[6], playing
    ) is Action.STAND  # fmt: skip


def test_the_dealers_16_changes_a_play_where_it_matters() -> None:
    """A hard 16 against a ten: the standard game hits it; in Version 1 the dealer's ten makes
    16 often enough, and a 21 the hit might make only pushes it, that standing is worth more;
    in Version 2 that 21 wins, and hitting is worth more again."""
    hand, ten = Hand(parse_cards(["TH", "6D"]), Decimal(10)), parse_cards(["KS"])[0]
    allowed = frozenset({Action.HIT, Action.STAND})
    assert BasicStrategy(RuleSet()).decide(hand, ten, allowed) is Action.HIT
    assert BasicStrategy(V1).decide(hand, ten, allowed) is Action.STAND
    assert BasicStrategy(V2).decide(hand, ten, allowed) is Action.HIT


@BOTH
def test_seeded_rounds_with_basic_strategy_never_break_the_rules(rules: RuleSet) -> None:
    shoe = Shoe.shuffled(6, 7)
    doubled_up = stopped = 0
    for _ in range(400):
        log = play_round(rules, shoe, [SeatSpec({"main": Decimal(10)}, BasicStrategy(rules))])
        shoe.end_round()
        doubled_up += any(s.wager == "double-up" for s in log.settlements)
        stopped += any(s.rule_key == "dealer-16" for s in log.settlements)
    assert doubled_up > 40 and stopped > 20


@BOTH
def test_the_simulator_refuses_double_up_rules(rules: RuleSet) -> None:
    with pytest.raises(NotSimulable, match="double up"):
        check_simulable(rules)
