"""The engine on its own: cards, shoes, the basic strategy, seeded rounds. No database."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from engine.cards import Card, InvalidCard, parse_cards
from engine.hands import Hand
from engine.round import SeatSpec, play_round
from engine.rules import HoleCard, RuleSet, Surrender
from engine.shoe import Shoe, ShoeError
from engine.strategy import Action, BasicStrategy, IllegalAction, Scripted, allowed_actions


def test_cards_read_as_dealers_write_them() -> None:
    assert Card.parse("10C") == Card.parse("tc") == parse_cards(["TC"])[0]
    assert Card.parse("KD").value == 10 and Card.parse("AS").value == 1
    for bad in ("1H", "7X", "", "AHH"):
        with pytest.raises(InvalidCard):
            Card.parse(bad)
    with pytest.raises(InvalidCard, match="card 3"):
        parse_cards(["AS", "KD", "ZZ"])


def test_a_scripted_shoe_holds_only_what_its_decks_hold() -> None:
    Shoe.scripted(parse_cards(["AS", "AS"]), 2)
    with pytest.raises(ShoeError, match="3 × AS cannot come from a 2-deck shoe"):
        Shoe.scripted(parse_cards(["AS", "AS", "AS"]), 2)
    with pytest.raises(ShoeError, match="Spanish"):  # Spanish decks have no tens
        Shoe.scripted(parse_cards(["TH"]), 6, spanish=True)
    shoe = Shoe.scripted(parse_cards(["AS"]), 1)
    shoe.draw()
    with pytest.raises(ShoeError, match="ran out after 1 cards"):
        shoe.draw()


def test_the_same_seed_deals_the_same_cards() -> None:
    first, again, other = (Shoe.shuffled(6, seed) for seed in (42, 42, 43))
    assert [first.draw() for _ in range(312)] == [again.draw() for _ in range(312)]
    assert first.cards != other.cards
    assert len(Shoe.shuffled(6, 1, spanish=True).cards) == 6 * 48


def test_the_cut_card_reshuffles_after_its_round() -> None:
    shoe = Shoe.shuffled(1, 5)  # cut card at 39 of 52
    for _ in range(39):
        shoe.draw()
    assert shoe.end_round() and shoe.position == 0 and shoe.shuffles == 2
    csm = Shoe.shuffled(6, 5, continuous=True)
    csm.draw()
    assert csm.end_round()  # a continuous shuffler takes the cards back every round


def _hand(cards: str) -> Hand:
    return Hand(parse_cards(cards.split()), Decimal(10))


@pytest.mark.parametrize(
    ("cards", "up", "rules", "best"),
    [
        ("TH 6C", "TS", RuleSet(surrender=Surrender.LATE), Action.SURRENDER),
        ("TH 6C", "TS", RuleSet(), Action.HIT),
        ("TH 2C", "4S", RuleSet(), Action.STAND),
        ("5H 6C", "6S", RuleSet(), Action.DOUBLE),
        ("8H 8C", "TS", RuleSet(), Action.SPLIT),
        ("AH 7C", "9S", RuleSet(), Action.HIT),
        ("AH 7C", "2S", RuleSet(), Action.STAND),
        ("AH 8C", "6S", RuleSet(), Action.STAND),  # dealer stands on soft 17
        ("AH 8C", "6S", RuleSet(dealer_hits_soft_17=True), Action.DOUBLE),
        ("9H 9C", "7S", RuleSet(), Action.STAND),
        ("AH AC", "TS", RuleSet(), Action.SPLIT),
    ],
)
def test_basic_strategy_makes_the_textbook_plays(
    cards: str, up: str, rules: RuleSet, best: Action
) -> None:
    hand = _hand(cards)
    choice = BasicStrategy(rules).decide(hand, Card.parse(up), allowed_actions(hand, 1, rules))
    assert choice is best


def test_a_script_that_does_not_fit_the_round_is_refused() -> None:
    rules = RuleSet()
    cards = parse_cards("9H 6C 2D TS 5C".split())  # 11 against a 6
    with pytest.raises(IllegalAction, match="left over"):
        play_round(
            rules, Shoe.scripted(cards, 6), [SeatSpec({"main": 10}, Scripted(["stand", "hit"], 1))]
        )
    with pytest.raises(IllegalAction, match="the actions ran out"):
        play_round(rules, Shoe.scripted(cards, 6), [SeatSpec({"main": 10}, Scripted([], 1))])
    with pytest.raises(IllegalAction, match="split is not allowed"):
        play_round(rules, Shoe.scripted(cards, 6), [SeatSpec({"main": 10}, Scripted(["split"], 1))])


@pytest.mark.parametrize(
    ("cards", "actions", "original_only", "net"),
    [
        ("9H TS 5C TD AS", ["double"], True, -10),  # 14 doubled, broken by a ten
        ("9H TS 5C TD AS", ["double"], False, -20),
        ("8H TS 8C 6D TC 7D 9C AS", ["split", "hit", "hit"], True, -10),  # both hands broken
        ("8H TS 8C 6D TC 7D 9C AS", ["split", "hit", "hit"], False, -20),
    ],
)
def test_with_no_hole_card_a_dealer_blackjack_takes_the_original_wager_of_a_broken_hand(
    cards: str, actions: list[str], original_only: bool, net: int
) -> None:
    """30-899.03(9): "If the dealer's hand shows an ace or a ten-value card up and a player's hand
    breaks (exceeds 21), the player's hand will be turned face down on the layout. If the dealer
    draws a blackjack, only the player's original bet will be lost, even if the player has made
    several bets" (30-899.01(10) the same for split hands): the broken hand's wagers wait for the
    dealer's second card. Where a dealer blackjack takes every wager, so does a broken hand."""
    rules = RuleSet(hole_card=HoleCard.NONE, original_bets_only=original_only)
    seat = SeatSpec({"main": 10}, Scripted(actions, 1))
    log = play_round(rules, Shoe.scripted(parse_cards(cards.split()), 6), [seat])
    assert log.dealer.is_blackjack
    assert log.net(1) == net


def test_seeded_rounds_with_basic_strategy_reproduce() -> None:
    def net(seed: int) -> list[Decimal]:
        rules, shoe = RuleSet(), Shoe.shuffled(6, seed)
        nets = []
        for _ in range(200):
            log = play_round(rules, shoe, [SeatSpec({"main": 10}, BasicStrategy(rules))] * 2)
            nets.append(log.net(1) + log.net(2))
            shoe.end_round()
        return nets

    assert net(9) == net(9)
    assert net(9) != net(10)


@pytest.mark.parametrize(
    ("cards", "dealer", "best"),
    [
        ("TH 6C", "9C 8S", Action.HIT),  # standing on 16 against a 17 in sight loses for sure
        ("TH 2C", "TC 6S", Action.STAND),  # the dealer must draw to 16
        ("TH 8C", "TD 8S", Action.HIT),  # a push loses, so 18 against 18 draws
    ],
)
def test_face_up_strategy_reads_both_dealer_cards(cards: str, dealer: str, best: Action) -> None:
    rules = RuleSet(dealer_face_up=True, ties_lose=True, blackjack_pays=Fraction(1))
    up, hole = parse_cards(dealer.split())
    hand = _hand(cards)
    assert BasicStrategy(rules).decide(hand, up, allowed_actions(hand, 1, rules), hole) is best


def test_switch_strategy_swaps_when_the_hands_are_worth_more() -> None:
    rules = RuleSet(spots_per_seat=2, switch=True, blackjack_pays=Fraction(1))
    ten = Card.parse("TS")
    assert BasicStrategy(rules).switch([_hand("TH 6C"), _hand("5D TC")], ten)  # 20 and 11
    assert not BasicStrategy(rules).switch([_hand("TH TC"), _hand("5D 6C")], ten)
