"""Payouts as printed, read as exact values: odds plus a meter share is one pay."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from engine.analysis import NotAnalysable, analyse, simulate
from engine.cards import parse_cards
from engine.odds import Basis, InvalidPays, Pays
from engine.round import SeatSpec, play_round
from engine.rules import PaytableLine, RuleSet, SideWagerRules
from engine.shoe import Shoe
from engine.strategy import Scripted


def test_odds_plus_a_meter_share_is_one_pay_in_either_order() -> None:
    """30-2110(14) "200 to 1 + 100%"; 30-899.11(17) "100% plus 250 to 1"."""
    sjp = Pays.parse("200 to 1 + 100%")
    assert sjp.basis is Basis.ODDS_AND_METER and str(sjp) == "200 to 1 + 100%"
    assert sjp.odds == Pays.parse("200 to 1") and sjp.share == 1
    royal = Pays.parse("10% plus 250 to 1")
    assert str(royal) == "10% plus 250 to 1" and royal.share == Decimal("0.1")
    assert Pays.parse("100% plus 200 to 1").same_payout(sjp)
    assert not sjp.same_payout(Pays.parse("200 to 1"))
    assert not sjp.same_payout(Pays.parse("200 to 1 + 10%"))


@pytest.mark.parametrize(
    ("text", "share", "meter"),
    [
        ("100% of Major Progressive Meter", 1, "Major"),  # 30-899.11(17) Pay table 3
        ("100% of Minor Progressive Meter", 1, "Minor"),
        ("100% of the progressive meter amount", 1, ""),  # MA 19(c)
        ("100% Star Progressive", 1, "Star"),  # MA 19(k)
        ("10% Progressive", Fraction(1, 10), ""),  # MA 19(n)
        ("100% Mega", 1, "Mega"),  # 30-899.21(13) B7P3
    ],
)
def test_a_meter_share_names_its_meter_where_the_table_has_several(
    text: str, share: Fraction, meter: str
) -> None:
    pays = Pays.parse(text)
    assert (pays.basis, pays.share, pays.meter) == (Basis.METER, share, meter)
    assert Pays.parse("100%").same_payout(Pays.parse("100% of the progressive meter amount"))
    assert not Pays.parse("100% Major").same_payout(Pays.parse("100% Minor"))


def test_the_odds_scale_with_the_stake_and_the_share_needs_the_meter() -> None:
    sjp = Pays.parse("200 to 1 + 10%")
    assert sjp.net_win(Decimal(5)) is None
    assert sjp.settle(Decimal(5), None) is None
    assert sjp.settle(Decimal(5), Decimal(20000)) == Decimal(1000) + Decimal(2000)
    assert sjp.settle(Decimal(1), Decimal(20000)) == Decimal(200) + Decimal(2000)
    assert Pays.parse("3 to 2").settle(Decimal(2), None) == Decimal(3)


@pytest.mark.parametrize("text", ["3 to 2 + 4 to 1", "100% + 10%", "200 to 1 +", "$5 + 10%"])
def test_a_compound_of_anything_but_odds_and_a_share_is_refused(text: str) -> None:
    with pytest.raises(InvalidPays):
        Pays.parse(text)


def test_the_exact_analysis_refuses_odds_plus_a_meter_share() -> None:
    """30-2110(4): "Odds Pays ... PLUS a possible progressive meter pay"."""
    sjp = [
        PaytableLine("straight-5-cards", Pays.parse("200 to 1 + 100%"), "5 Cards"),
        PaytableLine("straight-2-cards", Pays.parse("3 to 1"), "2 Cards"),
    ]
    with pytest.raises(NotAnalysable, match=r"5 Cards pays 200 to 1 \+ 100%: odds plus a share"):
        analyse("straight-jack-progressive", sjp, 6)
    with pytest.raises(NotAnalysable, match="odds plus a share of the progressive meter"):
        simulate("straight-jack-progressive", sjp, RuleSet(decks=6), 10, seed=1)
    flush = [PaytableLine("flush", Pays.parse("100% plus 250 to 1"), "Flush")]
    with pytest.raises(NotAnalysable, match="depends on the meter"):
        analyse("21-plus-3", flush, 6)


def test_a_round_pays_the_odds_on_the_stake_plus_the_meters_share() -> None:
    """SJP1 (30-2110(14)): a six-card straight with the ace of spades, 200 to 1 + 100%."""
    lines = tuple(
        PaytableLine(key, Pays.parse(pays), key)
        for key, pays in [
            ("straight-6-cards-ace-of-spades", "200 to 1 + 100%"),
            ("straight-2-cards", "3 to 1"),
        ]
    )
    deal = "AS 9C 2H 7D 3D 4C 5H 6D TC"  # player A 2 + 3 4 5 6: 21; dealer 9 7, then 10
    for meter, net, result in [
        (Decimal(50000), Decimal(1000) + 50000, "win"),
        (None, 0, "not_settled"),
    ]:
        side = SideWagerRules("straight-jack-progressive", "sjp1", lines, meter=meter)
        seat = SeatSpec(
            {"main": Decimal(10), side.wager: Decimal(5)},
            Scripted(["hit", "hit", "hit", "hit"], 1),
        )
        shoe = Shoe.scripted(parse_cards(deal.split()), 6)
        log = play_round(RuleSet(side_wagers=(side,)), shoe, [seat])
        settled = next(s for s in log.settlements if s.wager == side.wager)
        assert (settled.result, settled.net) == (result, net)


def test_odds_spelled_out_read_as_numbers() -> None:
    """The rules spell odds in words: MA 17(e)(1) "one to one", 30-810 "six to five"."""
    assert Pays.parse("one to one") == Pays.parse("1 to 1")
    assert Pays.parse("Six to five") == Pays.parse("6 to 5")
    with pytest.raises(InvalidPays):
        Pays.parse("one to")


def test_odds_printed_with_a_thousands_comma_and_a_push_read_as_printed() -> None:
    """30-2115¶5 SUP-02 "1,000 to 1"; ¶3 TRI-05's Pair line "Push": the wager is returned."""
    assert Pays.parse("1,000 to 1").same_payout(Pays.parse("1000 to 1"))
    assert Pays.parse("1,000 to 1").net_win(Decimal(5)) == Decimal(5000)
    with pytest.raises(InvalidPays):
        Pays.parse("1,00 to 1")
    push = Pays.parse("Push")
    assert push.basis is Basis.PUSH and str(push) == "Push"
    assert push.net_win(Decimal(5)) == 0 and push.settle(Decimal(5), None) == 0
    assert not push.same_payout(Pays.parse("Loss"))


def test_a_push_line_returns_the_wager_in_the_analysis_and_in_a_round() -> None:
    """30-2115¶3 TRI-05: a pair pushes; TRI-01 prints no pair line, so a pair loses there."""
    odds = [
        PaytableLine(key, Pays.parse("7 to 1"))
        for key in ("three-of-a-kind", "straight-flush", "straight", "flush")
    ]
    tri_05 = analyse("trilux-bonus", [*odds, PaytableLine("pair", Pays.parse("Push"))], 6)
    tri_01 = analyse("trilux-bonus", odds, 6)
    pair = next(line for line in tri_05.lines if line.outcome == "pair")
    assert pair.returns == 0 and pair.probability > 0
    assert tri_05.push_probability == pair.probability and tri_01.push_probability == 0
    assert tri_05.lose_probability == tri_01.lose_probability - pair.probability
    assert tri_05.house_edge == tri_01.house_edge - pair.probability
    side = SideWagerRules(
        "trilux-bonus", "tri-05", (*odds, PaytableLine("pair", Pays.parse("Push")))
    )
    seat = SeatSpec({"main": Decimal(10), "trilux-bonus": Decimal(5)}, Scripted(["stand"], 1))
    shoe = Shoe.scripted(parse_cards("9H 2D 9C 7S TD".split()), 6)  # 9-9 and the 2 up: a pair
    log = play_round(RuleSet(side_wagers=(side,)), shoe, [seat])
    settled = next(s for s in log.settlements if s.wager == "trilux-bonus")
    assert (settled.result, settled.net) == ("push", Decimal(0))
