"""Every line of every catalog paytable the engine settles is hit by a scripted deal
(tests/engine/data/paytable_lines.yaml), and every catalog wager is either settled from the cards
or said not to be (engine.sidewagers.NOT_FROM_CARDS). Reads the catalog YAML directly, no DB."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.cards import Card, Suit, parse_cards
from engine.hands import hand_total
from engine.sidewagers import EVALUATORS, NOT_FROM_CARDS, PUSH, Deal, outcome, paid_outcomes

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = [
    ROOT / "fixtures" / "catalog" / f"{name}.yaml" for name in ("us-co", "us-co-rule-21", "us-ma")
]
DEALS: dict[str, dict[str, dict[str, Any]]] = yaml.load(
    (Path(__file__).parent / "data" / "paytable_lines.yaml").read_text(), Loader=yaml.CSafeLoader
)
WAGER_KINDS = {"side_wager", "progressive"}
NO_PAY = {None, "", "N/A", "NA", "n/a"}  # as variants.catalog.NO_PAY: no line in that column


def _catalogs() -> list[dict[str, Any]]:
    return [yaml.load(path.read_text(), Loader=yaml.CSafeLoader) for path in CATALOGS]


def _lines() -> list[tuple[str, str, str, frozenset[str], str]]:
    """(jurisdiction, paytable id, wager, the paytable's outcomes, one outcome) for every line of
    every catalog paytable whose wager has an evaluator."""
    lines = []
    for catalog in _catalogs():
        for table in catalog.get("paytables", []):
            # a split table's column may be another wager's (30-2113 "Pay Table B: 21+3 Xtreme"),
            # and with `cell_outcomes` its own outcomes (30-899.09's off-suit column for 1-2 decks)
            parts: dict[tuple[str, tuple[str, ...]], str] = {}
            for index, spec in enumerate(table.get("split", [table])):
                wager = spec.get("wager", table["wager"])
                keys = tuple(_outcomes_of(table, index, spec))
                parts.setdefault(
                    (wager, keys), spec["id"] if "cell_outcomes" in table else table["id"]
                )
            for (wager, keys), paytable in parts.items():
                if wager not in EVALUATORS:
                    continue
                for key in keys:
                    lines.append((catalog["jurisdiction"], paytable, wager, frozenset(keys), key))
    return lines


def _outcomes_of(table: dict[str, Any], index: int, spec: dict[str, Any]) -> list[str]:
    """The outcomes of one paytable of a printed table: its rows', or with `cell_outcomes` its
    cells' (those of the pay columns a split part picks, a cell printing no pay left out: 30-2115¶6
    Table 1's "N/A" suited 888)."""
    if "cell_outcomes" not in table:
        return list(table["outcomes"])
    every = list(range(len(table["columns"])))
    picks = spec.get("pay_columns", [index]) if "split" in table else every
    return [
        keys[i]
        for keys, row in zip(table["cell_outcomes"], table["rows"], strict=True)
        for i in picks
        if row[1 + i] not in NO_PAY
    ]


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text.split()))


def deal(spec: dict[str, Any]) -> Deal:
    player = _cards(spec["player"])
    dealer = _cards(spec.get("dealer", ""))
    up = dealer[0] if dealer else _cards(spec["up"])[0]
    dbj = spec.get("dbj", len(dealer) == 2 and hand_total(dealer)[0] == 21)
    return Deal(
        (player[0], player[1]),
        up,
        dbj,
        dealer,
        _cards(spec.get("hand", spec["player"])),
        player_split=spec.get("split", False),
        specified_suit=Suit(spec["suit"]) if "suit" in spec else None,
        switch_cards=_cards(spec.get("switch", "")),
    )


LINES = _lines()


def test_the_catalog_has_paytables_the_engine_settles() -> None:
    assert len(LINES) > 150
    assert {wager for _, _, wager, _, _ in LINES} >= {"royal-match-21", "raise-the-roof", "sevens"}


def test_every_catalog_paytable_line_has_a_scripted_deal() -> None:
    missing = [
        f"{table}: {key}" for _, table, wager, _, key in LINES if key not in DEALS.get(wager, {})
    ]
    assert not missing, "lines without a scripted deal in data/paytable_lines.yaml: " + ", ".join(
        missing
    )


@pytest.mark.parametrize(
    ("jurisdiction", "table", "wager", "outcomes", "key"),
    [line for line in LINES if line[4] in DEALS.get(line[2], {})],
    ids=[f"{line[1]}:{line[4]}" for line in LINES if line[4] in DEALS.get(line[2], {})],
)
def test_the_scripted_deal_pays_exactly_its_line(
    jurisdiction: str, table: str, wager: str, outcomes: frozenset[str], key: str
) -> None:
    assert outcome(wager, deal(DEALS[wager][key]), set(outcomes), jurisdiction) == key


def test_every_catalog_wager_is_settled_from_the_cards_or_says_why_not() -> None:
    unaccounted = []
    for catalog in _catalogs():
        for wager in catalog["wagers"]:
            slug = wager["slug"]
            settled = slug in EVALUATORS or slug in NOT_FROM_CARDS
            if wager["outcomes"] and not settled:
                unaccounted.append(f"{catalog['jurisdiction']} {slug}")
            if not wager["outcomes"] and wager["kind"] in WAGER_KINDS and not settled:
                unaccounted.append(f"{catalog['jurisdiction']} {slug} (no outcomes)")
    assert not unaccounted, "neither an evaluator nor a NOT_FROM_CARDS entry: " + ", ".join(
        unaccounted
    )


def test_evaluators_return_only_keys_of_their_wagers_catalog_outcomes() -> None:
    """Every key a scripted deal produces is an outcome some catalog lists for that wager."""
    known: dict[str, set[str]] = {}
    for catalog in _catalogs():
        for wager in catalog["wagers"]:
            known.setdefault(wager["slug"], set()).update(o["key"] for o in wager["outcomes"])
    for wager, deals in DEALS.items():
        for spec in deals.values():
            keys = set(EVALUATORS[wager](deal(spec))) - {PUSH}
            assert keys <= known[wager], (wager, keys - known[wager])


@pytest.mark.parametrize(
    ("wager", "spec", "outcomes", "expected"),
    [
        # 30-899.19(5): a tie with either card loses; a pair without the third card loses
        (
            "in-between",
            {"player": "4H 8C", "up": "8D"},
            {"one-card-spread", "all-other-spreads"},
            [],
        ),
        ("in-between", {"player": "8H 8C", "up": "9D"}, {"triple-match", "all-other-spreads"}, []),
        # MA 23(a)(2): both cards match, each is paid; a king does not match a ten
        (
            "match-the-dealer",
            {"player": "7H 7C", "up": "7H"},
            {"suited-match", "unsuited-match"},
            ["suited-match", "unsuited-match"],
        ),
        (
            "match-the-dealer",
            {"player": "KH 9C", "up": "TH"},
            {"suited-match", "unsuited-match"},
            [],
        ),
        # 30-899.11: Crown Treasure is paid in addition to the Royal Match
        (
            "royal-match-21",
            {"player": "KH QH", "dealer": "QS KS"},
            {"royal-match", "crown-treasure"},
            ["crown-treasure", "royal-match"],
        ),
        # 30-899.11(17): a Double Royal Match is paid its own line only, not the Royal Match too
        (
            "royal-match-21-progressive",
            {"player": "KH QH", "dealer": "KH QH"},
            {"double-royal-match-suited", "double-royal-match", "royal-match"},
            ["double-royal-match-suited"],
        ),
        (
            "royal-match-21-progressive",
            {"player": "KH QH", "dealer": "KS QS"},
            {"double-royal-match-suited", "royal-match"},
            ["royal-match"],
        ),
        # 30-899.13(9), (10): a Four of a Kind is paid its own line only, not the pair lines too;
        # the up card matching the pair without the hole card is a pair; mixed colours are not
        # the Same Color line
        (
            "bet-the-set-21-progressive",
            {"player": "9H 9H", "dealer": "9S 9C"},
            {"four-of-a-kind-same-color", "four-of-a-kind", "suited-pair", "pair"},
            ["four-of-a-kind"],
        ),
        (
            "bet-the-set-21-progressive",
            {"player": "9H 9C", "dealer": "9D 5S"},
            {"four-of-a-kind", "pair"},
            ["pair"],
        ),
        (
            "bet-the-set-21-progressive",
            {"player": "KH KC", "dealer": "KD QS"},
            {"four-of-a-kind", "pair"},
            ["pair"],
        ),
        (
            "bet-the-set-21-progressive",
            {"player": "9H 9D", "dealer": "9S 9H"},
            {"four-of-a-kind-same-color", "four-of-a-kind"},
            ["four-of-a-kind"],
        ),
        ("bet-the-set-21-progressive", {"player": "9H 8H", "dealer": "9S 9H"}, {"pair"}, []),
        # 30-2115¶6: "10/Face Card" is any 10-valued up card; Pay Table 1 prints no suited 888
        # ("N/A"), so three suited 8s are paid its 888 line; a dealer who stands loses the wager
        (
            "trilux-bust-bonanza",
            {"player": "TC 8C", "dealer": "QH 6C 8D"},
            {"10-bust", "10-suited-bust"},
            ["10-bust"],
        ),
        (
            "trilux-bust-bonanza",
            {"player": "TC 8C", "dealer": "8H 8H 8H"},
            {"888-bust", "8-bust", "8-suited-bust"},
            ["888-bust"],
        ),
        ("trilux-bust-bonanza", {"player": "TC 8C", "dealer": "TH 7C"}, {"10-bust"}, []),
        # 30-2115¶7: the spade AK/Q/J needs the J in the dealer's hole; a mini-royal dealt
        # otherwise than AK/Q is "Any Order", paid on 05 (no such line) as a straight flush; a
        # dealer blackjack is paid only when no higher line is made; Pay table 07 prints no
        # three of a kind, so a suited one is paid as a flush and an offsuit one loses
        (
            "trilux-progressive",
            {"player": "AS KS", "dealer": "QS JH"},
            {"mini-royal-spades-ak-q-j", "mini-royal-spades-ak-q"},
            ["mini-royal-spades-ak-q"],
        ),
        (
            "trilux-progressive",
            {"player": "AS QS", "dealer": "KS JS"},
            {"mini-royal-spades-ak-q-j", "mini-royal-spades-ak-q", "straight-flush"},
            ["straight-flush"],
        ),
        (
            "trilux-progressive",
            {"player": "AH KH", "dealer": "QH AS"},
            {"mini-royal-other-ak-q", "dealer-blackjack"},
            ["mini-royal-other-ak-q"],
        ),
        (
            "trilux-progressive",
            {"player": "9H 9H", "up": "9H"},
            {"mini-royal-any-order", "straight-flush", "straight", "flush"},
            ["flush"],
        ),
        (
            "trilux-progressive",
            {"player": "9H 9C", "up": "9D"},
            {"mini-royal-any-order", "straight-flush", "straight", "flush"},
            [],
        ),
        # 30-899.28(7): a blackjack pushes against a dealer blackjack
        (
            "pocket-rockets",
            {"player": "AH KC", "dealer": "AS KS"},
            {"blackjack", "one-ace"},
            [PUSH],
        ),
        # 30-899.09(3): a 21 that ties the dealer's 21 pushes; losing to a dealer blackjack loses
        (
            "buffalo-blackjack-bonus",
            {"player": "5H 6C", "hand": "5H 6C TD", "dealer": "TH 5C 6D"},
            {"3-card-21"},
            [PUSH],
        ),
        (
            "buffalo-blackjack-bonus",
            {"player": "5H 6C", "hand": "5H 6C TD", "dealer": "TH AC"},
            {"3-card-21"},
            [],
        ),
        # 30-2109(7)(d): 3-4 then 6 breaks the straight; 5 after it does not restore it
        (
            "straight-jack",
            {"player": "3H 4C", "hand": "3H 4C 6D 5S", "up": "5C"},
            {"straight-2-cards", "straight-3-cards", "straight-4-cards"},
            ["straight-2-cards"],
        ),
        # 30-2109(8)(a): 5-6-7 then an 8 that busts is a three-card straight
        (
            "straight-jack",
            {"player": "5H 6C", "hand": "5H 6C 7D 8S", "up": "5C"},
            {"straight-3-cards", "straight-4-cards"},
            ["straight-3-cards"],
        ),
        # 30-899.21(8): two 7s split, the third card dealt to that player counts
        (
            "blazing-7s",
            {"player": "7H 7C", "split": True, "hand": "7H 7D 9C", "up": "5C"},
            {"three-7s", "first-two-cards-7"},
            ["three-7s"],
        ),
        # MA 17(c): a total of 13 loses; an ace counts one (MA 2(b)(3)(ii))
        ("over-under-13", {"player": "6H 7C", "up": "5C"}, {"over-13", "under-13"}, []),
        ("over-under-13", {"player": "AH 9C", "up": "5C"}, {"over-13", "under-13"}, ["under-13"]),
        # MA 25(d): a dealer 17 in two cards loses; a third card that does not bust loses
        ("optional-bonus", {"player": "TC 8C", "dealer": "TH 7C"}, {"third-card-ten"}, []),
        ("optional-bonus", {"player": "TC 8C", "dealer": "TH 2C 9D"}, {"third-card-nine"}, []),
        # 30-899.17(5), (7): equal cards are no "higher value"; the ace counts 1, below a 2
        ("war-blackjack", {"player": "9H 2C", "up": "9D"}, {"higher-card"}, []),
        ("war-blackjack", {"player": "AH 2C", "up": "2D"}, {"higher-card"}, []),
        ("war-blackjack", {"player": "KH 2C", "up": "QD"}, {"higher-card"}, ["higher-card"]),
        # 30-899.22(8)(a), (b), (d): a blackjack ties only a blackjack, a bust never ties; after
        # a split the first hand carries the wager
        ("push-your-luck", {"player": "AH KC", "dealer": "9S 5D 7C"}, {"tie"}, []),
        ("push-your-luck", {"player": "AH KC", "dealer": "AS QD"}, {"tie"}, ["tie"]),
        (
            "push-your-luck",
            {"player": "TH 5C", "hand": "TH 5C 9D", "dealer": "TS 6D 8C"},
            {"tie"},
            [],
        ),
        (
            "push-your-luck",
            {"player": "8H 8C", "split": True, "hand": "8H 3D KS", "dealer": "TS 6D 5C"},
            {"tie"},
            ["tie"],
        ),
    ],
)
def test_rule_edge_cases(
    wager: str, spec: dict[str, Any], outcomes: set[str], expected: list[str]
) -> None:
    assert paid_outcomes(wager, deal(spec), outcomes) == expected


def test_massachusetts_blazing_7s_counts_the_up_card() -> None:
    """MA 31(i): two 7s and a 7 up are three 7s there; Colorado counts the player's third card."""
    spec = deal({"player": "7H 7C", "hand": "7H 7C 5D", "up": "7D"})
    keys = {"three-7s", "first-two-cards-7"}
    assert outcome("blazing-7s", spec, keys, "US-MA") == "three-7s"
    assert outcome("blazing-7s", spec, keys, "US-CO") == "first-two-cards-7"


def test_a_royal_match_progressive_hand_without_the_dealers_two_cards_is_not_decided() -> None:
    """30-899.11(6): the percentage pays consider the dealer's first two cards too."""
    from engine.sidewagers import NotDecidable

    with pytest.raises(NotDecidable, match="dealer's first two cards"):
        outcome(
            "royal-match-21-progressive", deal({"player": "KH QH", "up": "KS"}), {"royal-match"}
        )
    suited = deal({"player": "9H 5H", "up": "KS"})
    assert outcome("royal-match-21-progressive", suited, {"suited-hand"}) == "suited-hand"


def test_a_bet_the_set_progressive_pair_matched_by_the_up_card_waits_for_the_hole_card() -> None:
    """30-899.13(17): "If the player's first two cards are a pair, and the dealer's up card is a
    match, the dealer will wait to reconcile the player's progressive wager until the dealer's
    hole card is exposed"; an up card that does not match settles the pair at once."""
    from engine.sidewagers import NotDecidable

    with pytest.raises(NotDecidable, match="hole card"):
        outcome("bet-the-set-21-progressive", deal({"player": "9H 9C", "up": "9S"}), {"pair"})
    suited = deal({"player": "9H 9H", "up": "KS"})
    assert outcome("bet-the-set-21-progressive", suited, {"pair", "suited-pair"}) == "suited-pair"


def test_a_trilux_progressive_spade_ak_q_without_the_hole_card_is_not_decided() -> None:
    """30-2115¶7: Pay table 05's AK/Q/J is read with the J the dealer's hole card."""
    from engine.sidewagers import NotDecidable

    with pytest.raises(NotDecidable, match="hole card"):
        outcome("trilux-progressive", deal({"player": "AS KS", "up": "QS"}), {"flush"})
    hearts = deal({"player": "AH KH", "up": "QH"})
    assert (
        outcome("trilux-progressive", hearts, {"mini-royal-other-ak-q"}) == "mini-royal-other-ak-q"
    )
