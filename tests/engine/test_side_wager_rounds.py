"""Wagers on the played round, through whole rounds with a scripted shoe: the dealer plays out his
hand for them and the settlement pays the line the cards make. Deal order: seat, up card, seat,
hole card, the seat's hits, the dealer's draws."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import yaml

from engine.cards import parse_cards
from engine.odds import Pays
from engine.round import RoundLog, SeatSpec, play_round
from engine.rules import PaytableLine, RuleRef, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.strategy import Scripted

CATALOG = Path(__file__).resolve().parents[2] / "fixtures" / "catalog"


def _side(file: str, paytable: str, column: int = 0) -> SideWagerRules:
    """A catalog paytable's lines in one of its pay columns."""
    catalog = yaml.load((CATALOG / file).read_text(), Loader=yaml.CSafeLoader)
    table = next(t for t in catalog["paytables"] if t["id"] == paytable)
    suffix = f" {table['pays_suffix']}" if "pays_suffix" in table else ""  # "250" is "250 to 1"
    lines = tuple(
        PaytableLine(key, Pays.parse(row[1 + column] + suffix), row[0], table["columns"][column])
        for key, row in zip(table["outcomes"], table["rows"], strict=True)
        if row[1 + column] != "N/A"
    )
    ref = RuleRef(catalog["jurisdiction"], table["citation"])
    return SideWagerRules(table["wager"], paytable, lines, ref)


def _round(side: SideWagerRules, shoe: str, actions: list[str], **rules: object) -> RoundLog:
    ruleset = RuleSet(side_wagers=(side,), **rules)  # type: ignore[arg-type]
    seat = SeatSpec({"main": Decimal(10), side.wager: Decimal(5)}, Scripted(actions, 1))
    return play_round(ruleset, Shoe.scripted(parse_cards(shoe.split()), 6), [seat])


def _side_settlement(log: RoundLog, wager: str):  # type: ignore[no-untyped-def]
    return next(s for s in log.settlements if s.wager == wager)


def test_raise_the_roof_dealer_plays_out_after_a_player_blackjack() -> None:
    """30-899.23(9)(a): with a Raise The Roof wager active the dealer's hand is played out though
    no blackjack wager remains; (12): 4, 5, 6, 7 suited pays 200 to 1 in the raise column."""
    side = _side("us-co.yaml", "us-co/raise-the-roof/6d-s17-pay-table-1", column=1)
    log = _round(side, "AH 4H KC 5H 6H 7H", [])
    assert [str(c) for c in log.dealer.cards] == ["4H", "5H", "6H", "7H"]
    settled = _side_settlement(log, "raise-the-roof")
    assert settled.result == "win" and settled.net == Decimal(1000)
    assert "4, 5, 6, 7 Suited" in settled.rule
    assert settled.citation == RuleRef("US-CO", "30-899.23(12)")


def test_raise_the_roof_pays_the_bust_card_and_loses_when_the_dealer_stands() -> None:
    side = _side("us-co.yaml", "us-co/raise-the-roof/6d-s17-pay-table-1", column=1)
    busted = _round(side, "TC 6D 8C TS 8D", ["stand"])  # dealer 6 10 then an 8: bust card 8
    assert _side_settlement(busted, "raise-the-roof").net == Decimal(10)  # 2 to 1 on 5
    stands = _round(side, "TC 6D 8C TS 4D", ["stand"])  # dealer 20
    assert _side_settlement(stands, "raise-the-roof").net == Decimal(-5)


def test_buster_pays_by_the_number_of_cards_in_the_dealers_bust_hand() -> None:
    """30-2105(10) Pay Schedule 1: a five-card bust pays 4 to 1."""
    side = _side("us-co-rule-21.yaml", "us-co/buster-blackjack/pay-schedule-1")
    log = _round(side, "TC 2H 8C 3C 4D 5S TH", ["stand"])
    assert len(log.dealer.cards) == 5 and log.dealer.total == 24
    settled = _side_settlement(log, "buster-blackjack")
    assert settled.result == "win" and settled.net == Decimal(20)
    assert settled.rule.endswith(": 5")


def test_buster_dealer_completes_the_hand_after_the_player_busts() -> None:
    """MA 27(f)(2), (3); 30-826(3) would otherwise leave the dealer's hand as dealt."""
    side = _side("us-co-rule-21.yaml", "us-co/buster-blackjack/pay-schedule-1")
    log = _round(side, "TC 5H 6C TS KD 8D", ["hit"])  # player busts on 26; dealer 15 draws 8
    assert log.dealer.total == 23
    settled = _side_settlement(log, "buster-blackjack")
    assert settled.net == Decimal(10)  # 3 cards: 2 to 1


def test_hit_and_run_pays_a_blackjack_by_the_dealers_card_count() -> None:
    """30-899.14(2), (9): a blackjack, the dealer ending with 4 cards: 20 to 1."""
    side = _side("us-co.yaml", "us-co/hit-and-run/pays")
    log = _round(side, "AH 2C KC 3C 4D 9S", [])
    assert len(log.dealer.cards) == 4
    assert _side_settlement(log, "hit-and-run").net == Decimal(100)


def test_twenty_one_magic_ties_push() -> None:
    """30-899.09(3): a 21 that ties the dealer's 21 pushes."""
    side = _side("us-co.yaml", "us-co/buffalo-blackjack-bonus/6d-a-g")
    log = _round(side, "5H TH 6C 5C TD 6D", ["hit"])  # player 5 6 10; dealer 10 5 6
    assert log.dealer.total == 21
    settled = _side_settlement(log, "buffalo-blackjack-bonus")
    assert settled.result == "push" and settled.net == 0


def test_crown_treasure_is_paid_in_addition_to_the_royal_match() -> None:
    """30-899.11: Crown Treasure ($1,000) on top of the Royal Match (10 to 1 in pay table 1)."""
    side = _side("us-co.yaml", "us-co/royal-match-21/pay-table-1")
    log = _round(side, "KH KS QH QS", ["stand"])
    settled = _side_settlement(log, "royal-match-21")
    assert settled.net == Decimal(50) + Decimal(1000)
    assert "Royal Match" in settled.rule and "Crown Treasure" in settled.rule


def test_massachusetts_buster_pays_its_printed_numbers_to_1() -> None:
    """MA 27(g), "all pays "to 1"": Paytable F prints "1" for a three-card bust."""
    side = _side("us-ma.yaml", "us-ma/buster-blackjack/paytables-a-f", column=5)
    log = _round(side, "TC TH 8C 6C KD", ["stand"])  # dealer 10 6, then a king: 3 cards
    settled = _side_settlement(log, "buster-blackjack")
    assert settled.result == "win" and settled.net == Decimal(5)
    assert settled.rule.endswith("(Paytable F): 3")


def test_super_4_loses_by_its_loss_line_without_a_dealer_ace() -> None:
    """MA 19(n): "Dealer Does Not Have Face Up Ace" pays "Loss"; an ace up without a blackjack
    pays the $10 of "Dealer Ace Up (No BJ)"."""
    side = _side("us-ma.yaml", "us-ma/super-4-progressive/updated-pay-table")
    log = _round(side, "5H TD 9C 7S", ["stand"])
    settled = _side_settlement(log, "super-4-progressive")
    assert settled.result == "lose" and settled.net == Decimal(-5)
    assert "Dealer Does Not Have Face Up Ace" in settled.rule
    ace_up = _round(side, "5H AD 9C 7S", ["stand"])
    assert _side_settlement(ace_up, "super-4-progressive").net == Decimal(10)
