"""POST /api/v1/rounds/ and rounds/replay/: scripted rounds settle as the rules say, each settlement
citing the rule it applied, by the label in force on the configuration's date."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from engine.round import RULE_KEYS
from variants.models import PlayRule

pytestmark = pytest.mark.django_db

URL = "/api/v1/rounds/"


def _config(jurisdiction: str = "US-CO", as_of: str = "2024-06-01", **table: Any) -> dict:
    """A one-table configuration; a table option given as None is left out."""
    config = {
        "jurisdiction": jurisdiction,
        "as_of": as_of,
        "tables": [
            {
                "name": "BJ-1",
                "game": "blackjack",
                "decks": 6,
                "dealer_soft_17": "stand",
                "hole_card": "peek",
                "blackjack_pays": "3 to 2",
                "chip_unit": "1",
                **table,
            }
        ],
    }
    config["tables"][0] = {k: v for k, v in config["tables"][0].items() if v is not None}
    return config


def play(
    client: APIClient,
    cards: str,
    *seats: tuple[str, list[str]],
    jurisdiction: str = "US-CO",
    as_of: str = "2024-06-01",
    **table: Any,
) -> dict[str, Any]:
    """One scripted round; each seat is (main wager, actions). Returns the round log."""
    response = client.post(
        URL,
        {
            "configuration": _config(jurisdiction, as_of, **table),
            "shoe": cards.split(),
            "seats": [{"wagers": {"main": main}, "actions": actions} for main, actions in seats],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 200, response.json()
    return response.json()["rounds"][0]


def settled(log: dict[str, Any], seat: int = 1) -> list[tuple[Any, ...]]:
    """(hand, wager, result, net, citation) of a seat's settlements."""
    return [
        (s["hand"], s["wager"], s["result"], s["net"], s["citation"]["citation"])
        for s in log["settlements"]
        if s["seat"] == seat
    ]


def test_dealer_stands_or_hits_soft_17_as_the_table_says(vendor_client: APIClient) -> None:
    """30-826(2)(b): soft 17 stands, or draws; the player's 18 wins or loses accordingly."""
    cards = "TH AC 8D 6S 4C"
    stands = play(vendor_client, cards, ("10", ["stand"]), dealer_soft_17="stand")
    assert stands["dealer"]["cards"] == ["AC", "6S"]
    assert settled(stands) == [(1, "main", "win", "10.00", "30-807(1)")]
    hits = play(vendor_client, cards, ("10", ["stand"]), dealer_soft_17="hit")
    assert hits["dealer"]["cards"] == ["AC", "6S", "4C"]  # soft 17 draws to 21
    assert settled(hits) == [(1, "main", "lose", "-10.00", "30-807(2)")]


def test_split_aces_get_one_card_each(vendor_client: APIClient) -> None:
    """30-814: at the licensee's discretion one card to each split ace; 21 so made is no
    blackjack."""
    log = play(vendor_client, "AH 9C AD 7S KC 5D TD", ("10", ["split"]))
    hands = log["seats"][0]["hands"]
    assert [h["cards"] for h in hands] == [["AH", "KC"], ["AD", "5D"]]
    assert log["dealer"]["cards"] == ["9C", "7S", "TD"]
    assert settled(log) == [
        (1, "main", "win", "10.00", "30-807(1)"),  # paid 1 to 1, not as a blackjack
        (2, "main", "win", "10.00", "30-807(1)"),
    ]


def test_no_hit_on_split_aces(vendor_client: APIClient) -> None:
    response = vendor_client.post(
        URL,
        {
            "configuration": _config(),
            "shoe": "AH 9C AD 8S 5C 5D TH".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["split", "hit"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400
    assert "actions left over" in response.json()["error"]["message"]


def test_resplits_stop_at_the_table_limit(vendor_client: APIClient) -> None:
    """30-814: not more than three splits (four hands); the table may allow fewer."""
    cards = "8H 9C 8D 7S 8C 8S 2H TC 3D TD 4C TH 5S"
    log = play(
        vendor_client,
        cards,
        ("10", ["split", "split", "split", "stand", "stand", "stand", "stand"]),
    )
    assert len(log["seats"][0]["hands"]) == 4
    response = vendor_client.post(
        URL,
        {
            "configuration": _config(split={"max_hands": 2}),
            "shoe": cards.split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["split", "split"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400
    assert "split is not allowed at this point" in response.json()["error"]["message"]


def test_late_surrender_forfeits_half(vendor_client: APIClient) -> None:
    """30-829: half the original wager."""
    log = play(vendor_client, "TH 9C 6D 8S", ("10", ["surrender"]), surrender="late")
    assert settled(log) == [(1, "main", "surrender", "-5.00", "30-829")]


def test_surrender_against_a_blackjack_without_a_hole_card_loses_all(
    vendor_client: APIClient,
) -> None:
    """MA 8(a)(2): the dealer's second card comes after the players; a blackjack takes it all."""
    log = play(
        vendor_client,
        "TH AC 6D KS",
        ("10", ["surrender"]),
        jurisdiction="US-MA",
        hole_card="none",
        surrender="late",
    )
    assert log["dealer"]["cards"] == ["AC", "KS"]
    assert settled(log) == [(1, "main", "lose", "-10.00", "8(a)")]


def test_insurance_is_half_the_wager_rounded_up_to_a_chip(vendor_client: APIClient) -> None:
    """30-812(1): half of 5 cannot be bet in $1 chips: 3 may be, paid 2 to 1."""
    log = play(vendor_client, "TH AC 7D KS", ("5", ["insurance"]), insurance_pays="2 to 1")
    assert settled(log) == [
        (None, "insurance", "win", "6.00", "30-812(1)"),
        (1, "main", "lose", "-5.00", "30-807(2)"),
    ]


def test_even_money_pays_a_blackjack_one_to_one(vendor_client: APIClient) -> None:
    """30-812(2): at the licensee's discretion, where the table offers it."""
    log = play(vendor_client, "AH AC KD 9S", ("10", ["even_money"]), even_money=True)
    assert settled(log) == [(1, "main", "even_money", "10.00", "30-812(2)")]


def test_dealer_blackjack_after_a_double_takes_the_original_wager(vendor_client: APIClient) -> None:
    """30-813; with no peek the double is made before the blackjack shows."""
    log = play(vendor_client, "5H TC 6D AS 9C", ("10", ["double"]), hole_card="no_peek")
    assert settled(log) == [(1, "main", "lose", "-10.00", "30-813")]


def test_dealer_blackjack_after_a_split_takes_the_original_wager(vendor_client: APIClient) -> None:
    """MA 11(d): the split wager is returned."""
    log = play(
        vendor_client,
        "8H AC 8D 3S 9S KD",
        ("10", ["split", "stand", "stand"]),
        jurisdiction="US-MA",
        hole_card="none",
    )
    assert log["dealer"]["cards"] == ["AC", "KD"]
    assert settled(log) == [
        (1, "main", "lose", "-10.00", "11(d)"),
        (2, "main", "returned", "0.00", "11(d)"),
    ]


def test_a_21_that_is_no_blackjack_loses_to_a_dealer_blackjack(vendor_client: APIClient) -> None:
    """30-808."""
    log = play(vendor_client, "7H TC 4D AS TD", ("10", ["hit"]), hole_card="no_peek")
    assert settled(log) == [(1, "main", "lose", "-10.00", "30-808")]


def test_a_split_two_card_21_against_a_dealers_three_card_21(vendor_client: APIClient) -> None:
    """Colorado pushes equal totals (30-808); Massachusetts pays a 21 in two cards against a 21
    in more (3(a)(3))."""
    cards = "AH 6C AD 5S TC 9D KH"  # aces split to A-T and A-9 (20); dealer 6-5-K = 21
    co = play(vendor_client, cards, ("10", ["split"]))
    assert settled(co) == [
        (1, "main", "push", "0.00", "30-808"),
        (2, "main", "lose", "-10.00", "30-807(2)"),
    ]
    ma = play(vendor_client, cards, ("10", ["split"]), jurisdiction="US-MA", hole_card="peek")
    assert settled(ma)[0] == (1, "main", "win", "10.00", "3(a)(3)")


def test_blackjack_pays_the_tables_odds(vendor_client: APIClient) -> None:
    """30-810: at least 6 to 5; blackjack against blackjack is void (30-808)."""
    log = play(vendor_client, "AH 9C KD 8S", ("10", []), blackjack_pays="6 to 5")
    assert settled(log) == [(1, "main", "blackjack", "12.00", "30-810")]
    both = play(vendor_client, "AH AC KD KS", ("10", []))
    assert settled(both) == [(1, "main", "push", "0.00", "30-808")]


def test_citations_use_the_label_of_the_date(vendor_client: APIClient) -> None:
    """The doubling rule was 30-810 until the 1998 renumbering made it 30-813."""
    cards, seat = "5H TC 6D AS 9C", ("10", ["double"])
    today = play(vendor_client, cards, seat, hole_card="no_peek")
    before = play(vendor_client, cards, seat, hole_card="no_peek", as_of="1998-06-01")
    assert today["settlements"][0]["citation"]["citation"] == "30-813"
    assert before["settlements"][0]["citation"]["citation"] == "30-810"


def test_seeded_rounds_with_basic_strategy(vendor_client: APIClient) -> None:
    body = {
        "configuration": _config(),
        "seed": 42,
        "rounds": 20,
        "seats": [{"wagers": {"main": "10"}}, {"wagers": {"main": "25"}}],
    }
    first = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost").json()
    again = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost").json()
    assert len(first["rounds"]) == 20 and first == again
    assert all(s["citation"] for r in first["rounds"] for s in r["settlements"])


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"shoe": ["1H", "TC"]}, None, "'1H' is not a card"),
        ({"shoe": ["AS"] * 7}, None, "7 × AS cannot come from a 6-deck shoe"),
        ({"shoe": None, "seed": None}, "shoe", "give either shoe"),
        ({"seats": [{"wagers": {"side": "5"}}]}, "seats[0].wagers", "a main wager is required"),
        ({"table": "BJ-9"}, "table", "one of BJ-1"),
    ],
)
def test_bad_rounds_are_400s_naming_the_problem(
    vendor_client: APIClient, change: dict[str, Any], field: str | None, message: str
) -> None:
    body: dict[str, Any] = {
        "configuration": _config(),
        "shoe": "TH 9C 6D 8S".split(),
        "seats": [{"wagers": {"main": "10"}, "actions": ["stand"]}],
    }
    body.update(change)
    body = {k: v for k, v in body.items() if v is not None}
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error["message"] + str(error.get("fields", ""))
    if field:
        assert field in error["message"] + str(error.get("fields", ""))


def test_a_variant_is_refused_not_played_as_blackjack(vendor_client: APIClient) -> None:
    config = _config(game="competition-21")
    response = vendor_client.post(
        URL,
        {"configuration": config, "seed": 1, "seats": [{"wagers": {"main": "10"}}]},
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "game_not_playable"


def test_replay_reports_a_wrong_payment_with_its_rule(vendor_client: APIClient) -> None:
    """A dealer took the doubled wager on a blackjack: 30-813 says only the original."""
    body = {
        "configuration": _config(hole_card="no_peek"),
        "cards": "5H TC 6D AS 9C".split(),
        "seats": [{"wagers": {"main": "10"}, "actions": ["double"], "paid": {"main": "-20"}}],
    }
    response = vendor_client.post(f"{URL}replay/", body, format="json", HTTP_HOST="localhost")
    result = response.json()
    assert response.status_code == 200 and not result["correct"]
    [finding] = result["findings"]
    assert finding["code"] == "payment-differs" and finding["path"] == "seats[0].paid.main"
    assert "paid -20.00, the approved rules pay -10.00" in finding["message"]
    assert finding["citations"][0]["citation"] == "30-813"
    body["seats"][0]["paid"] = {"main": "-10"}
    assert vendor_client.post(f"{URL}replay/", body, format="json", HTTP_HOST="localhost").json()[
        "correct"
    ]


def test_rounds_need_a_login(anon_client: APIClient) -> None:
    response = anon_client.post(URL, {}, format="json", HTTP_HOST="localhost")
    assert response.status_code in (401, 403)


@pytest.mark.parametrize("jurisdiction", ["US-CO", "US-MA"])
def test_every_rule_a_settlement_names_is_cited(jurisdiction: str) -> None:
    keys = set(
        PlayRule.objects.filter(
            jurisdiction__code=jurisdiction, wager__slug="blackjack"
        ).values_list("key", flat=True)
    )
    variant_only = {"switched-blackjack", "rescue", "bonus-21", "twenty-one", "super-bonus"}
    massachusetts = {"two-card-21", "designated-blackjack", "bonus-21"}  # 3(a)(3), 3(e)
    assert RULE_KEYS - variant_only - massachusetts <= keys
    assert (massachusetts <= keys) == (jurisdiction == "US-MA")


def test_side_wagers_settle_from_the_cards_with_the_configured_paytable(
    vendor_client: APIClient,
) -> None:
    """21+3 on the player's two cards and the dealer's up card (30-2107(2)); Xtreme pays its
    table's straight flush line, 30 to 1."""
    config = _config(
        side_wagers=[{"wager": "21-plus-3-xtreme", "paytable": "us-co/21-plus-3-xtreme/xtreme"}]
    )
    body = {
        "configuration": config,
        "shoe": "7H 9H 8H TS 2C".split(),
        "seats": [{"wagers": {"main": "10", "21-plus-3-xtreme": "5"}, "actions": ["stand"]}],
    }
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    [side] = [s for s in response.json()["rounds"][0]["settlements"] if s["wager"] != "main"]
    assert (side["result"], side["net"], side["pays"]) == ("win", "150.00", "30 to 1")
    assert side["citation"]["citation"] == "30-2107 ¶12"
    body["seats"][0]["wagers"] = {"main": "10", "lucky-lucky": "5"}
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 400
    assert "lucky-lucky is not offered at this table" in response.json()["error"]["message"]


def test_paytable_analysis_api(anon_client: APIClient) -> None:
    url = "/api/v1/paytables/us-ma/21-plus-3/table-a/analysis/?decks=6"
    body = anon_client.get(url, HTTP_HOST="localhost").json()
    [result] = body["analyses"]
    assert body["method"] == "exact" and "full shoe" in body["card_removal"]
    assert result["house_edge"].startswith("0.03238")
    p, q = map(int, result["house_edge_fraction"].split("/"))
    assert abs(p / q - float(result["house_edge"])) < 1e-12
    inline = anon_client.post(
        "/api/v1/analysis/",
        {
            "wager": "21-plus-3",
            "decks": 6,
            "paytable": [
                {"outcome": k, "pays": "9 to 1"}
                for k in ("flush", "straight", "three-of-a-kind", "straight-flush")
            ],
        },
        format="json",
        HTTP_HOST="localhost",
    ).json()
    assert inline["analyses"][0]["house_edge_fraction"] == result["house_edge_fraction"]
    kb = anon_client.get(
        "/api/v1/paytables/us-co/kings-bounty/kb03/analysis/?decks=2", HTTP_HOST="localhost"
    )
    assert kb.status_code == 400 and kb.json()["error"]["fields"] == {"decks": "one of 6, 8"}


def test_face_up_blackjack_plays_by_its_own_rules(vendor_client: APIClient) -> None:
    """30-899.02: the dealer's cards face up (1), blackjack paid at the table's odds, at least 1 to
    1 (2), a push loses (3), no insurance (4); otherwise the standard rules."""
    game = {"game": "face-up-blackjack", "blackjack_pays": None}
    tie = play(vendor_client, "TH 9C 8D 9S", ("10", ["stand"]), **game)
    assert tie["events"][3] == {
        "step": 4,
        "actor": "dealer",
        "action": "card",
        "card": "9S",
        "total": 18,
    }
    assert settled(tie) == [(1, "main", "lose", "-10.00", "30-899.02(3)")]
    blackjack = play(vendor_client, "AH 9C KD 8S", ("10", []), **game)
    assert settled(blackjack) == [(1, "main", "blackjack", "10.00", "30-899.02(2)")]
    # A dealer blackjack in plain sight ends the round; no insurance is offered under the ace.
    dealer_bj = play(vendor_client, "TH AC 8D KS", ("10", []), **game)
    assert settled(dealer_bj) == [(1, "main", "lose", "-10.00", "30-807(2)")]
    assert not any(e["action"] == "insurance" for e in dealer_bj["events"])
    won = play(vendor_client, "TH 9C 9D 8S", ("10", ["stand"]), **game)
    assert settled(won) == [(1, "main", "win", "10.00", "30-807(1)")]  # standard rules apply


def _switch_round(client: APIClient, cards: str, actions: list[str]) -> dict[str, Any]:
    return play(client, cards, ("10", actions), game="blackjack-switch", blackjack_pays=None)


def test_blackjack_switch_deals_two_hands_and_swaps_second_cards(vendor_client: APIClient) -> None:
    """30-2105(7), (8)(b): two hands each, second cards may be switched; a switched blackjack is a
    21 paid 1 to 1 like any winning hand."""
    log = _switch_round(vendor_client, "AH TD 9C 6S KC 8D", ["switch", "stand"])
    assert [h["cards"] for h in log["seats"][0]["hands"]] == [["AH", "KC"], ["TD", "6S"]]
    assert settled(log) == [
        (1, "main", "win", "10.00", "30-807(1)"),
        (2, "main", "lose", "-10.00", "30-807(2)"),
    ]


def test_a_dealer_22_pushes_every_standing_hand_at_switch(vendor_client: APIClient) -> None:
    """30-2105(8)(e) as read (engine/readings.py SWITCH_DEALER_22, annotated): a switched
    blackjack "pushes against a dealer 21 or 22", which makes sense only where a 22 does not
    bust, the game's rule: the other standing hand pushes the 22 too, and a busted hand loses."""
    log = _switch_round(vendor_client, "AH 9D 6C 5S KC 6D TH", ["switch", "stand"])
    assert log["dealer"]["total"] == 22
    assert settled(log) == [
        (1, "main", "push", "0.00", "30-2105(8)(e)"),
        (2, "main", "push", "0.00", "30-2105(8)(e)"),
    ]
    assert log["settlements"][1]["rule_key"] == "dealer-22"
    busted = _switch_round(vendor_client, "TH 9D 6C 5S 6H 6D 9S TH", ["no_switch", "hit", "stand"])
    assert busted["dealer"]["total"] == 22
    assert settled(busted) == [
        (1, "main", "lose", "-10.00", "30-807(2)"),
        (2, "main", "push", "0.00", "30-2105(8)(e)"),
    ]


def test_a_blackjack_wins_against_a_dealer_22_at_switch(vendor_client: APIClient) -> None:
    """30-2105(8)(e): "If the player has a blackjack, and the dealer does not have a blackjack,
    the player is paid at odds of 1 to 1", a dealer's 22 included."""
    log = _switch_round(vendor_client, "AH 9D 6C KS 5S 6D TH", ["no_switch", "stand"])
    assert log["dealer"]["total"] == 22
    assert settled(log) == [
        (1, "main", "blackjack", "10.00", "30-2105(8)(e)"),
        (2, "main", "push", "0.00", "30-2105(8)(e)"),
    ]


def test_a_blackjack_in_switch_pays_one_to_one(vendor_client: APIClient) -> None:
    log = _switch_round(vendor_client, "AH 9D 6C KS 9S TD 8C", ["no_switch", "stand"])
    assert settled(log) == [
        (1, "main", "blackjack", "10.00", "30-2105(8)(e)"),
        (2, "main", "win", "10.00", "30-807(1)"),
    ]


def _spanish(client: APIClient, cards: str, actions: list[str]) -> dict[str, Any]:
    return play(client, cards, ("10", actions), game="spanish-21", blackjack_pays=None)


def test_spanish_21_pays_its_own_rules(vendor_client: APIClient) -> None:
    """30-899.16: a blackjack beats the dealer's (3), a 21 beats the dealer's 21 (4), Bonus 21
    (11), rescue after a double (7), split aces hit (6)."""
    both = _spanish(vendor_client, "AH AC KD KS", [])
    assert settled(both) == [(1, "main", "blackjack", "15.00", "30-899.16(3)")]
    cards = "7H KD 9C 4D 8H 2S 5C 5D KH"  # seat 2 stands on 18, so the dealer draws to 21
    seats = (("10", ["hit", "hit"]), ("10", ["stand"]))
    twenty_ones = play(vendor_client, cards, *seats, game="spanish-21", blackjack_pays=None)
    assert twenty_ones["dealer"]["total"] == 21
    assert settled(twenty_ones) == [(1, "main", "win", "10.00", "30-899.16(4)")]
    spades = _spanish(vendor_client, "6S 9C 7S 8D 8S", ["hit"])
    assert settled(spades) == [(1, "main", "win", "30.00", "30-899.16(11)")]
    rescued = _spanish(vendor_client, "6H KC 5D 7S 2S", ["double", "rescue"])
    assert settled(rescued) == [(1, "main", "rescue", "-10.00", "30-899.16(7)")]
    aces = _spanish(vendor_client, "AH 6C AD KS 5C 4D 9H 8C", ["split", "hit", "stand", "stand"])
    assert [h["cards"] for h in aces["seats"][0]["hands"]] == [["AH", "5C", "4D"], ["AD", "9H"]]
    assert [s[2] for s in settled(aces)] == ["win", "win"]


def test_spanish_decks_have_no_tens(vendor_client: APIClient) -> None:
    response = vendor_client.post(
        URL,
        {
            "configuration": _config(game="spanish-21", blackjack_pays=None),
            "shoe": "TH 9C 7D 8S".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["stand"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400
    assert "TH cannot come from a 6-deck Spanish shoe" in response.json()["error"]["message"]


def test_a_side_wager_pays_the_configured_column(vendor_client: APIClient) -> None:
    """KB03 prints a "Pays" column and a "Dealer Envy" column of tips (30-899.20): the table may
    name the column; one the paytable does not have is a 400 naming the field."""
    side = {"wager": "kings-bounty", "paytable": "us-co/kings-bounty/kb03", "column": "Pays"}
    body = {
        "configuration": _config(side_wagers=[side]),
        "shoe": "KH 9C QH 8S".split(),  # a suited 20 for the player
        "seats": [{"wagers": {"main": "10", "kings-bounty": "5"}, "actions": ["stand"]}],
    }
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    [bounty] = [s for s in response.json()["rounds"][0]["settlements"] if s["wager"] != "main"]
    assert (bounty["net"], bounty["pays"]) == ("35.00", "7 to 1") and "(Pays)" in bounty["rule"]
    side["column"] = "Envy"
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {
        "configuration.tables[0].side_wagers[0].column": "one of 'Dealer Envy', 'Pays'"
    }


def test_massachusetts_optional_payouts(vendor_client: APIClient) -> None:
    """MA 3(e): a table may pay winning 6-7-8 of one suit 2 to 1, three 7s 3 to 2, five cards
    totaling 21 2 to 1 and a designated blackjack 2 to 1; 16(b): a five-card 21 against a dealer's
    21 in three or more cards is void."""
    ma = {"jurisdiction": "US-MA", "hole_card": "peek"}
    options = ["678-suited", "777", "5-card", "designated-blackjack"]
    table = {**ma, "optional_payouts": options, "designated_blackjack": ["AS", "JS"]}
    suited = play(vendor_client, "6H 9C 7H 8D 8H", ("10", ["hit"]), **table)
    assert settled(suited) == [(1, "main", "win", "20.00", "3(e)")]
    sevens = play(vendor_client, "7H 9C 7D 8D 7S", ("10", ["hit"]), **table)
    assert settled(sevens) == [(1, "main", "win", "15.00", "3(e)")]
    designated = play(vendor_client, "AS 9C JS 8D", ("10", []), **table)
    assert settled(designated) == [(1, "main", "blackjack", "20.00", "3(e)(3)")]
    five = play(vendor_client, "2H 9C 3D 8D 4S 5C 7H", ("10", ["hit", "hit", "hit"]), **table)
    assert settled(five) == [(1, "main", "win", "20.00", "3(e)")]
    void = play(vendor_client, "2H 6C 3D 5D 4S 5C 7H KD", ("10", ["hit", "hit", "hit"]), **table)
    assert void["dealer"]["total"] == 21
    assert settled(void) == [(1, "main", "push", "0.00", "3(b)")]
    plain = play(vendor_client, "6H 9C 7H 8D 8H", ("10", ["hit"]), **ma)  # not offered: 1 to 1
    assert settled(plain) == [(1, "main", "win", "10.00", "3(a)")]
    response = vendor_client.post(
        URL,
        {
            "configuration": _config(optional_payouts=["777"]),
            "shoe": "7H 9C 7D 8D 7S".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["hit"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400  # Colorado's rules fix no such odds
    assert response.json()["error"]["code"] == "option_not_authorised"


def test_a_wager_decided_by_play_is_analysed_exactly_from_its_play_tree(
    anon_client: APIClient,
) -> None:
    """Raise the Roof pays on the dealer's bust hand (30-899.23): the analysis enumerates the play
    tree under the basic strategy, exactly; no simulation answers for a catalog paytable."""
    url = "/api/v1/paytables/us-co/raise-the-roof/6d-s17-pay-table-1/analysis/?rounds=3000&seed=4"
    body = anon_client.get(url, HTTP_HOST="localhost").json()
    assert body["method"].startswith("exact: the play tree enumerated under the basic strategy")
    result = body["analyses"][0]
    assert result["method"] == "exact" and result["standard_error"] is None
    assert result["house_edge_fraction"]
    assert body == anon_client.get(url, HTTP_HOST="localhost").json()


def test_progressive_dollar_pays_scale_with_the_wager(vendor_client: APIClient) -> None:
    """30-2107: the 21+3 Progressive tables are based on a $1 wager and multiply accordingly."""
    side = {
        "wager": "21-plus-3-progressive",
        "paytable": "us-co/21-plus-3-progressive/pt-bjs-213-01",
    }
    body = {
        "configuration": _config(side_wagers=[side]),
        "shoe": "7H 9C 8D TS".split(),  # 7-8-9: a straight, $7 on a $1 wager
        "seats": [{"wagers": {"main": "10", "21-plus-3-progressive": "5"}, "actions": ["stand"]}],
    }
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    [progressive] = [s for s in response.json()["rounds"][0]["settlements"] if s["wager"] != "main"]
    assert (progressive["net"], progressive["pays"]) == ("35.00", "$7")


def test_spanish_21_double_double_down_and_rescue(vendor_client: APIClient) -> None:
    """30-899.16(8): where the dealer hits soft 17 a table may allow doubling the total wager up to
    three times; a rescue then takes back the last doubled portion (7)."""
    game = {"game": "spanish-21", "blackjack_pays": None, "dealer_soft_17": "hit"}
    table = game | {"double": {"on": "any_time", "max_doubles": 3}}
    # 2+3 = 5, doubled (2: 7), doubled again (2: 9): $40 riding, then rescued: $20 forfeited.
    log = play(vendor_client, "2H KC 3D 9S 2C 2D", ("10", ["double", "double", "rescue"]), **table)
    assert log["seats"][0]["hands"][0]["stake"] == "40.00"
    assert settled(log) == [(1, "main", "rescue", "-20.00", "30-899.16(7)")]
    response = vendor_client.post(
        URL,
        {
            "configuration": _config(**game),
            "shoe": "2H KC 3D 9S 2C 2D".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["double", "double"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400  # one double unless the table allows more
    assert "double is not allowed at this point" in response.json()["error"]["message"]


def test_spanish_21_super_bonus_and_envy_bonus(vendor_client: APIClient) -> None:
    """30-899.16(10): suited 7-7-7 against a dealer's 7 wins $1,000 on a $5-$24 bet ($5,000 from
    $25), every other betting player $50; the 7-7-7 hand itself pays its Bonus 21 (11)."""
    cards = "7S 9D 7C 7S KD 6H 7S 2C KC"  # seat 1: 7S 7S, hit 7S; seat 2: 9D KD; dealer 7C 6H
    log = play(
        vendor_client,
        cards,
        ("10", ["hit"]),
        ("25", ["stand"]),
        game="spanish-21",
        blackjack_pays=None,
    )
    assert settled(log, 1) == [
        (None, "super-bonus", "win", "1000.00", "30-899.16(10)"),
        (1, "main", "win", "30.00", "30-899.16(11)"),
    ]
    assert settled(log, 2)[0] == (None, "envy-bonus", "win", "50.00", "30-899.16(10)")


def test_a_table_printed_in_parts_is_one_paytable(vendor_client: APIClient) -> None:
    """30-899.28 prints Ace Buster's pay table in two parts by the dealer's up card: a table
    offering it names one paytable and is paid from the part of the dealer's up card."""
    side = {"wager": "ace-buster", "paytable": "us-co/ace-buster/pay-table"}
    body = {
        "configuration": _config(side_wagers=[side]),
        "shoe": "TH 8C 9D 6S 8H".split(),  # dealer 8-6 draws 8: a bust with no aces, up card 8
        "seats": [{"wagers": {"main": "10", "ace-buster": "5"}, "actions": ["stand"]}],
    }
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    [buster] = [s for s in response.json()["rounds"][0]["settlements"] if s["wager"] != "main"]
    assert (buster["net"], buster["pays"]) == ("10.00", "2 to 1")


def test_match_the_dealer_down_card_settles_on_the_dealers_down_card(
    vendor_client: APIClient,
) -> None:
    """30-899.24(5): the Down Card wager is settled on the dealer's down card, from the posted pay
    table (6 decks: a 1 card unsuited match 4 to 1); the Up Card wager loses on a 5."""
    sides = [
        {"wager": "match-the-dealer", "paytable": "us-co/match-the-dealer/6-deck"},
        {
            "wager": "match-the-dealer-down-card",
            "paytable": "us-co/match-the-dealer-down-card/6-deck",
        },
    ]
    body = {
        "configuration": _config(side_wagers=sides),
        "shoe": "7H 5S 9C 7D TS".split(),  # player 7H 9C; dealer 5S up, 7D down, draws TS
        "seats": [
            {
                "wagers": {
                    "main": "10",
                    "match-the-dealer": "5",
                    "match-the-dealer-down-card": "5",
                },
                "actions": ["stand"],
            }
        ],
    }
    response = vendor_client.post(URL, body, format="json", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    sides_settled = {
        s["wager"]: (s["result"], s["net"], s["pays"], s["citation"]["citation"])
        for s in response.json()["rounds"][0]["settlements"]
        if s["wager"] != "main"
    }
    assert sides_settled == {
        "match-the-dealer": ("lose", "-5.00", "", "30-899.24(6)"),
        "match-the-dealer-down-card": ("win", "20.00", "4 to 1", "30-899.24(6)"),
    }


def test_massachusetts_face_up_dealing_plays_by_6k(vendor_client: APIClient) -> None:
    """MA 6(k): the hole card face up before the players act; a tie loses, but a blackjack against
    a dealer blackjack wins (1), blackjack pays 1 to 1 (2), no insurance or surrender (3), doubles
    on 9, 10 or 11 only (4), no resplits (5). Colorado has no such procedure: a 400 naming it."""
    ma = {"jurisdiction": "US-MA", "hole_card": "face_up", "blackjack_pays": None}
    tie = play(vendor_client, "TH 9C 8D 9S", ("10", ["stand"]), **ma)
    assert settled(tie) == [(1, "main", "lose", "-10.00", "6(k)(1)")]
    assert (tie["events"][3]["actor"], tie["events"][3]["card"]) == ("dealer", "9S")  # face up
    both = play(vendor_client, "AH AC KD KS", ("10", []), **ma)
    assert settled(both) == [(1, "main", "blackjack", "10.00", "6(k)(2)")]  # wins, at 1 to 1
    blackjack = play(vendor_client, "AH 9C KD 8S", ("10", []), **ma)
    assert settled(blackjack) == [(1, "main", "blackjack", "10.00", "6(k)(2)")]
    assert not any(e["action"] == "insurance" for e in both["events"])
    response = vendor_client.post(
        URL,
        {
            "configuration": _config("US-MA", hole_card="face_up", blackjack_pays=None),
            "shoe": "6H 9C 2D 8S 5C".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["double"]}],
        },
        format="json",
        HTTP_HOST="localhost",
    )
    assert response.status_code == 400 and "double" in response.json()["error"]["message"]
    colorado = vendor_client.post(
        URL,
        {"configuration": _config(hole_card="face_up"), "shoe": "TH 9C 8D 9S".split(),
         "seats": [{"wagers": {"main": "10"}, "actions": ["stand"]}]},
        format="json",
        HTTP_HOST="localhost",
    )  # fmt: skip
    assert colorado.status_code == 400
    assert colorado.json()["error"]["fields"] == {
        "configuration.tables[0].hole_card": "not a dealing procedure of these rules"
    }


def test_spanish_21_may_double_a_soft_21_which_otherwise_stands(vendor_client: APIClient) -> None:
    """30-899.16(7): "Players can double down on two or more cards": A-5-5, a soft 21, may be
    doubled (here to a hard 19 that still beats the dealer's 17); a 21 not doubled stands and, a
    21 always winning (4), is paid 1 to 1 without another action."""
    game = {"game": "spanish-21", "blackjack_pays": None}
    doubled = play(vendor_client, "AH 9S 5D 8C 5C 8H", ("10", ["hit", "double", "stand"]), **game)
    assert doubled["seats"][0]["hands"][0]["cards"] == ["AH", "5D", "5C", "8H"]
    assert settled(doubled) == [(1, "main", "win", "20.00", "30-807(1)")]
    stood = play(vendor_client, "AH 9S 5D 8C 5C", ("10", ["hit"]), **game)
    assert settled(stood) == [(1, "main", "win", "10.00", "30-899.16(4)")]
    assert [e["action"] for e in stood["events"] if e["actor"].startswith("seat")] == [
        "card", "card", "hit", "card"
    ]  # fmt: skip


def test_face_up_blackjack_may_say_its_hole_card_is_face_up(vendor_client: APIClient) -> None:
    """30-899.02(1) deals the dealer's cards face up: a Face Up table may say so (hole_card
    face_up) without a dealing procedure of its own."""
    game = {"game": "face-up-blackjack", "blackjack_pays": None, "hole_card": "face_up"}
    tie = play(vendor_client, "TH 9C 8D 9S", ("10", ["stand"]), **game)
    assert settled(tie) == [(1, "main", "lose", "-10.00", "30-899.02(3)")]


def _ma_side_round(client: APIClient, wager: str, paytable: str, shoe: str,
                   seats: list[dict[str, Any]]) -> Any:  # fmt: skip
    side = {"wager": wager, "paytable": paytable, "limits": {"min": "1", "max": "1"}}
    config = _config("US-MA", hole_card="peek", side_wagers=[side], layouts=[wager])
    body = {"configuration": config, "shoe": shoe.split(), "seats": seats}
    return client.post(URL, body, format="json", HTTP_HOST="localhost")


def test_over_and_under_13_are_settled_as_the_side_each_seat_bets(
    vendor_client: APIClient,
) -> None:
    """MA 17(b)(1)-(2) (fixtures/sources/text/ma-205-cmr-blackjack.md lines 282-283): a player
    wagers over or under 13, each one to one ((e)(1), line 290), an ace counting one (2(b)(3)(ii),
    line 30): 9-5 wins over; A-K is 11, under, though a blackjack for the main wager. A seat
    names its side: {"stake": "1", "side": "over"}."""
    seats = [
        {"wagers": {"main": "10", "over-under-13": {"stake": "1", "side": "over"}},
         "actions": ["stand"]},
        {"wagers": {"main": "10", "over-under-13": {"stake": "1", "side": "under"}},
         "actions": []},
        {"wagers": {"main": "10", "over-under-13": {"stake": "1", "side": "under"}},
         "actions": ["stand"]},
    ]  # fmt: skip
    response = _ma_side_round(vendor_client, "over-under-13", "us-ma/over-under-13/pays",
                              "9H AH 6S 5C 5D KD 7S TS 7C", seats)  # fmt: skip
    assert response.status_code == 200, response.json()
    log = response.json()["rounds"][0]
    bets = [(s["seat"], s["result"], s["net"], s["outcomes"], s["rule"])
            for s in log["settlements"] if s["wager"] == "over-under-13"]  # fmt: skip
    assert bets == [
        (1, "win", "1.00", ["over-13"], "us-ma/over-under-13/pays (Over 13): Over 13"),
        (2, "win", "1.00", ["under-13"], "us-ma/over-under-13/pays (Under 13): Under 13"),
        (3, "lose", "-1.00", [], "No paying hand"),  # 6-7: a total of 13 loses, 17(c)
    ]
    assert log["seats"][0]["sides"] == {"over-under-13": "over"}


@pytest.mark.parametrize(
    ("wager", "field"),
    [
        ("1", "seats[0].wagers.over-under-13.side"),
        ({"stake": "1", "side": "high"}, "seats[0].wagers.over-under-13.side"),
        ({"stake": "1"}, "seats[0].wagers.over-under-13.side"),
        ({"side": "over"}, "seats[0].wagers.over-under-13.stake"),
    ],
)
def test_an_over_under_13_wager_without_its_side_is_a_400_naming_it(
    vendor_client: APIClient, wager: Any, field: str
) -> None:
    seats = [{"wagers": {"main": "10", "over-under-13": wager}, "actions": ["stand"]}]
    response = _ma_side_round(vendor_client, "over-under-13", "us-ma/over-under-13/pays",
                              "9H 5C 5D TS 7C", seats)  # fmt: skip
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(field)


def test_a_side_named_for_a_wager_without_sides_is_a_400(vendor_client: APIClient) -> None:
    seats = [{"wagers": {"main": "10", "sevens": {"stake": "1", "side": "over"}},
              "actions": ["stand"]}]  # fmt: skip
    response = _ma_side_round(vendor_client, "sevens", "us-ma/sevens/highest-winning-payout",
                              "9H 5C 5D TS 7C", seats)  # fmt: skip
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("seats[0].wagers.sevens.side")


def test_the_sevens_one_seven_line_pays_a_first_card_seven_only(vendor_client: APIClient) -> None:
    """MA 17(e)(3) (ma-205-cmr-blackjack.md line 329), "One seven (initial card) 3 to 1": the
    player's first card (engine/readings.py); a seven dealt second is paid by no line. The
    replay of a round that paid it is a finding citing 17(e)(3)."""
    seats = [{"wagers": {"main": "10", "sevens": "1"}, "actions": ["stand"]} for _ in range(2)]
    shoe = "7H 9D 5C 9C 7S TS 4C"  # seat 1: 7H 9C; seat 2: 9D 7S; the dealer 5-T-4
    response = _ma_side_round(vendor_client, "sevens", "us-ma/sevens/highest-winning-payout",
                              shoe, seats)  # fmt: skip
    assert response.status_code == 200, response.json()
    log = response.json()["rounds"][0]
    bets = [(s["seat"], s["net"], s["outcomes"]) for s in log["settlements"]
            if s["wager"] == "sevens"]  # fmt: skip
    assert bets == [(1, "3.00", ["one-7"]), (2, "-1.00", [])]
    side = {"wager": "sevens", "paytable": "us-ma/sevens/highest-winning-payout"}
    replay = vendor_client.post(
        "/api/v1/rounds/replay/",
        {"configuration": _config("US-MA", hole_card="peek", side_wagers=[side]),
         "cards": shoe.split(),
         "seats": [{"wagers": {"main": "10", "sevens": "1"}, "actions": ["stand"],
                    "paid": {"main": "-10", "sevens": "3"}},
                   {"wagers": {"main": "10", "sevens": "1"}, "actions": ["stand"],
                    "paid": {"main": "-10", "sevens": "3"}}]},
        format="json", HTTP_HOST="localhost",
    ).json()  # fmt: skip
    [finding] = replay["findings"]
    assert finding["path"] == "seats[1].paid.sevens"
    assert "paid +3.00, the approved rules pay -1.00" in finding["message"]
    assert [c["citation"] for c in finding["citations"]] == ["17(e)(3)"]
