"""Double Up Blackjack (30-899.10) through the API a vendor calls: a table of Version 1, of
Version 2 or of no version (Version 1, said so) plays rounds under the catalog's rules, each
settlement citing its unit; a version the game does not have is a 400 naming the field; the
simulator refuses the game."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.rulesets import table_rules
from engine.round import DOUBLE_UP_RULE_KEYS
from engine.strategy import Action

pytestmark = pytest.mark.django_db

URL = "/api/v1/rounds/"
SECTION = "30-899.10"


def _config(version: int | None, **table: Any) -> dict[str, Any]:
    """A one-table Colorado configuration dealing Double Up Blackjack; `version` None: left out."""
    config: dict[str, Any] = {
        "jurisdiction": "US-CO",
        "as_of": "2024-06-01",
        "tables": [
            {
                "name": "DU-1",
                "game": "double-up-blackjack",
                "decks": 6,
                "dealing": "shoe",
                "dealer_soft_17": "stand",
                "hole_card": "peek",
                "blackjack_pays": "3 to 2",
                **table,
            }
        ],
    }
    if version is not None:
        config["tables"][0]["game_version"] = version
    return config


def post(client: APIClient, body: dict[str, Any], url: str = URL) -> Any:
    return client.post(url, body, format="json", HTTP_HOST="localhost")


def play(client: APIClient, version: int | None, cards: str, actions: list[str]) -> dict[str, Any]:
    """One scripted round at one seat with a 10 main wager; the whole response."""
    body = {
        "configuration": _config(version),
        "shoe": cards.split(),
        "seats": [{"wagers": {"main": "10"}, "actions": actions}],
    }
    response = post(client, body)
    assert response.status_code == 200, response.json()
    return response.json()


def settled(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(hand, wager, result, net, citation) of the round's settlements."""
    return [
        (s["hand"], s["wager"], s["result"], s["net"], s["citation"]["citation"])
        for s in result["rounds"][0]["settlements"]
    ]


def unit(path: str) -> str:
    return f"{SECTION} {path}"


@pytest.mark.parametrize("version", [1, 2, None])
def test_the_dealers_16_returns_the_main_and_double_up_wagers(
    vendor_client: APIClient, version: int | None
) -> None:
    result = play(vendor_client, version, "TH TC 9D 6S", ["double_up"])
    returned = unit("¶10(2)") if version != 2 else unit("¶17(1)(b)")
    assert settled(result) == [
        (1, "main", "push", "0.00", returned),
        (1, "double-up", "push", "0.00", returned),
    ]
    hand = result["rounds"][0]["seats"][0]["hands"][0]
    assert hand["double_up"] == "10.00" and hand["cards"] == ["TH", "9D"]
    assumed = "game_version: 1 (Version 1 of 30-899.10; the game has versions 1, 2)"
    assert (assumed in result["assumed"]) == (version is None)


@pytest.mark.parametrize("version", [1, 2])
def test_a_drawn_and_a_soft_16_stop_the_dealer(vendor_client: APIClient, version: int) -> None:
    drawn = play(vendor_client, version, "TH 5C 9D 8S 3H KD", ["stand"])
    assert drawn["rounds"][0]["dealer"]["cards"] == ["5C", "8S", "3H"]
    soft = play(vendor_client, version, "TH AC 9D 5S 5D", ["stand"])
    assert soft["rounds"][0]["dealer"] == {"cards": ["AC", "5S"], "total": 16, "blackjack": False}
    for result in (drawn, soft):
        assert [s[2] for s in settled(result)] == ["push"]


def test_a_21_against_the_dealers_16_pushes_in_version_1_and_wins_in_version_2(
    vendor_client: APIClient,
) -> None:
    cards = "5H TC 6D 6S TD"  # 11 doubled to 21 against the dealer's 10-6
    assert settled(play(vendor_client, 1, cards, ["double"])) == [
        (1, "main", "push", "0.00", unit("¶10(2)"))
    ]
    assert settled(play(vendor_client, 2, cards, ["double"])) == [
        (1, "main", "win", "20.00", unit("¶17(1)(a)"))
    ]


@pytest.mark.parametrize("version", [1, 2])
def test_the_double_up_wins_beside_the_main_wager_and_loses_on_a_tie(
    vendor_client: APIClient, version: int
) -> None:
    assert settled(play(vendor_client, version, "TH TC 9D 8S", ["double_up"])) == [
        (1, "main", "win", "10.00", "30-807(1)"),
        (1, "double-up", "win", "10.00", unit("¶5(4)")),
    ]
    assert settled(play(vendor_client, version, "TH TC 9D 9S", ["double_up"])) == [
        (1, "main", "push", "0.00", "30-808"),
        (1, "double-up", "lose", "-10.00", unit("¶5(5)")),
    ]


def test_blackjacks_against_a_dealer_blackjack(vendor_client: APIClient) -> None:
    """Version 1 pays the blackjack at once whatever the dealer holds (Game Play (3)); Version 2
    pushes it (Version 2 (1))."""
    assert settled(play(vendor_client, 1, "AH AC KD KS", [])) == [
        (1, "main", "blackjack", "15.00", unit("¶4(3)"))
    ]
    assert settled(play(vendor_client, 2, "AH AC KD KS", [])) == [
        (1, "main", "push", "0.00", unit("¶12(1)"))
    ]
    assert settled(play(vendor_client, 2, "AH 9C KD 7S", [])) == [
        (1, "main", "blackjack", "15.00", unit("¶12(1)"))
    ]


def test_split_aces_and_a_ten_pay_2_to_1_in_version_1_not_in_version_2(
    vendor_client: APIClient,
) -> None:
    cards = "AH 7C AD TS KC 5H"  # aces split; a king on the first; the dealer's 17
    assert settled(play(vendor_client, 1, cards, ["split"])) == [
        (1, "main", "win", "20.00", unit("¶5(6)")),
        (2, "main", "lose", "-10.00", "30-807(2)"),
    ]
    assert settled(play(vendor_client, 2, cards, ["split", "double_up", "stand"])) == [
        (1, "main", "win", "10.00", "30-807(1)"),
        (1, "double-up", "win", "10.00", unit("¶5(4)")),
        (2, "main", "lose", "-10.00", "30-807(2)"),
    ]


@pytest.mark.parametrize(
    ("version", "cards", "actions", "message"),
    [
        (2, "AH 9C KD 7S", ["double_up"], "actions left over"),  # a blackjack is not played on
        (1, "AH 7C AD TS 7D 5H", ["split", "double_up"], "actions left over"),  # split aces
        (1, "5H TC 4D 7S 9S", ["hit", "double_up"], "double_up is not allowed"),  # three cards
    ],
)
def test_the_double_up_is_refused_where_the_rules_refuse_it(
    vendor_client: APIClient, version: int, cards: str, actions: list[str], message: str
) -> None:
    body = {
        "configuration": _config(version),
        "shoe": cards.split(),
        "seats": [{"wagers": {"main": "10"}, "actions": actions}],
    }
    response = post(vendor_client, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "round_invalid"
    assert message in response.json()["error"]["message"]


@pytest.mark.parametrize(
    ("game", "version", "message"),
    [
        ("double-up-blackjack", 3, "double-up-blackjack has no version 3; its versions: 1, 2."),
        ("blackjack", 1, "blackjack has one version only; leave game_version out."),
        ("spanish-21", 2, "spanish-21 has one version only"),
    ],
)
@pytest.mark.parametrize("url", [URL, "/api/v1/validations/"])
def test_a_version_the_game_does_not_have_is_a_400_naming_the_field(
    vendor_client: APIClient, game: str, version: int, message: str, url: str
) -> None:
    config = _config(version, game=game, blackjack_pays=None if game == "spanish-21" else "3 to 2")
    config["tables"][0] = {k: v for k, v in config["tables"][0].items() if v is not None}
    body: dict[str, Any] = config
    path = "tables[0].game_version"
    if url == URL:
        body = {"configuration": config, "seed": 1, "seats": [{"wagers": {"main": "10"}}]}
    response = post(vendor_client, body, url)
    assert response.status_code == 400, response.json()
    assert path in str(response.json()) and message in str(response.json())


@pytest.mark.parametrize("version", [1, 2, None])
def test_a_double_up_table_of_each_version_is_validated(
    vendor_client: APIClient, version: int | None
) -> None:
    # with the facts its signs need (30-803(3)(b)-(f), 30-899.10¶4(1): sign_needs)
    posted = {
        "insurance_pays": "2 to 1",
        "limits": {"min": "10", "max": "500"},
        "double": {"on": "any_two"},
        "surrender": "none",
    }
    config = _config(version, layouts=["double-up-blackjack"], **posted)
    response = post(vendor_client, config, "/api/v1/validations/")
    assert response.status_code in (200, 201), response.json()
    body = response.json()
    errors = [f for f in body["findings"] if f["severity"] == "error"]
    assert body["compliant"] and not errors, errors
    # The table's base-game entry says which version it took, and its analysis link keeps it.
    [table] = body["tables"]
    assert ("game_version: 1" in " ".join(table["assumed"])) == (version is None)
    assert ("game_version=" in table["analysis"]) == (version is not None)
    if version is not None:
        assert f"game_version={version}" in table["analysis"]


@pytest.mark.parametrize(
    ("version", "best", "basic"),
    [(1, "0.5109922", "0.5302827"), (2, "-0.1137681", "-0.0972324")],
)
def test_a_double_up_tables_analysis_shows_the_engines_basic_strategy_beside_the_best_play(
    vendor_client: APIClient, anon_client: APIClient, version: int, best: str, basic: str
) -> None:
    """The validation report's house edge is the best play's, as every game's; the analysis
    its link gives (GET) shows the engine's basic strategy valued exactly beside it
    (tests/engine/test_basegame_double_up.py pins both)."""
    response = post(vendor_client, _config(version), "/api/v1/validations/")
    assert response.status_code in (200, 201), response.json()
    [table] = response.json()["tables"]
    assert table["play"] == "composition" and table["house_edge_percent"].startswith(best)
    response = anon_client.get(f"{table['analysis']}&effects=false", HTTP_HOST="localhost")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["play"] == "composition" and body["house_edge_percent"].startswith(best)
    shown = body["basic_strategy"]
    assert shown["play"] == "basic" and "not_analysed" not in shown
    assert shown["house_edge_percent"].startswith(basic)
    assert shown["strategy"].startswith("the engine's basic strategy")
    stated = " ".join(body["conventions"])
    assert "the unsplit hand of the same cards takes it" in stated


def test_the_base_game_analysis_link_refuses_a_version_the_game_does_not_have(
    anon_client: APIClient,
) -> None:
    query = "jurisdiction=US-CO&as_of=2024-06-01&game=double-up-blackjack&game_version=3"
    response = anon_client.get(f"/api/v1/analysis/base-game/?{query}", HTTP_HOST="localhost")
    assert response.status_code == 400
    assert "tables[0].game_version" in str(response.json())
    assert "has no version 3" in str(response.json())


@pytest.mark.parametrize("version", [1, 2])
def test_seeded_rounds_with_basic_strategy(vendor_client: APIClient, version: int) -> None:
    body = {
        "configuration": _config(version),
        "seed": 3,
        "rounds": 300,
        "seats": [{"wagers": {"main": "10"}}],
    }
    response = post(vendor_client, body)
    assert response.status_code == 200, response.json()
    settlements = [s for r in response.json()["rounds"] for s in r["settlements"]]
    assert any(s["wager"] == "double-up" for s in settlements)
    assert any(s["rule_key"].startswith("dealer-16") for s in settlements)
    assert all(s["citation"] for s in settlements)


@pytest.mark.parametrize(("version", "absent"), [(1, {"dealer-16-21"}), (2, set())])
def test_every_rule_a_double_up_round_uses_is_cited(version: int, absent: set[str]) -> None:
    config = configuration_parse(_config(version))
    rules = table_rules(config, config.tables[0], "tables[0]").rules
    keys = set(DOUBLE_UP_RULE_KEYS - absent) | {"blackjack", "win", "lose", "push"}
    assert keys <= set(rules.citations)
    assert rules.citations["dealer-16"].citation.startswith(SECTION)
    assert (rules.double_up, rules.dealer_stops_on_16) == (True, True)
    assert rules.double_up_split_aces == rules.dealer_16_pays_21 == (version == 2)
    assert rules.blackjack_paid_at_once == (version == 1)
    assert (rules.split_aces_21_pays is not None) == (version == 1)
    assert Action.DOUBLE_UP.value == "double_up"


def test_the_simulator_refuses_double_up_clearly(vendor_client: APIClient) -> None:
    body = {"configuration": _config(1), "rounds": 1000, "seed": 1}
    response = post(vendor_client, body, "/api/v1/simulations/")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "game_not_simulated"
    assert "the double up (Double Up Blackjack)" in error["message"]
    assert "configuration.tables[0].game" in error["fields"]


def test_a_replayed_double_up_paid_on_a_tie_is_a_finding_citing_its_unit(
    vendor_client: APIClient,
) -> None:
    """A dealer returned the double up on a tie: Player Rules (5) says it loses."""
    body = {
        "configuration": _config(1),
        "cards": "TH TC 9D 9S".split(),
        "seats": [
            {
                "wagers": {"main": "10"},
                "actions": ["double_up"],
                "paid": {"main": "0", "double-up": "0"},
            }
        ],
    }
    response = post(vendor_client, body, f"{URL}replay/")
    result = response.json()
    assert response.status_code == 200 and not result["correct"], result
    [finding] = result["findings"]
    assert finding["path"] == "seats[0].paid.double-up"
    assert "paid 0.00, the approved rules pay -10.00" in finding["message"]
    assert [c["citation"] for c in finding["citations"]] == [unit("¶5(5)")]
    body["seats"][0]["paid"]["double-up"] = "-10"
    assert post(vendor_client, body, f"{URL}replay/").json()["correct"]


def _sign_texts(client: APIClient, version: int | None) -> list[str]:
    """The notices of the table sign a Double Up table gets (every fact a sign needs given)."""
    facts = {
        "insurance_pays": "2 to 1",
        "surrender": "none",
        "double": {"on": "any_two", "after_split": True},
        "split": {"max_hands": 4, "resplit_aces": False, "split_aces_one_card": True},
        "limits": {"min": "10", "max": "500"},
        "tips": {"accepted": False},
        "layouts": ["double-up-blackjack"],
    }
    response = post(client, _config(version, **facts), "/api/v1/signage/")
    assert response.status_code == 201, response.json()
    [table_sign] = [s for s in response.json()["signs"] if s["table"] == "DU-1"]
    return [notice["text"] for notice in table_sign["notices"]]


def test_the_table_sign_posts_the_rules_of_the_version_dealt(vendor_client: APIClient) -> None:
    """30-899.10 Game Play (8): the pay schedule in use appears on the layout or signage; the
    section states its pays in prose, so the sign posts the rules of the version in use."""
    first, second, unsaid = (_sign_texts(vendor_client, v) for v in (1, 2, None))
    assert any("pays every player blackjack" in t for t in first)
    assert any("paid 2:1 automatically" in t for t in first)
    assert not any(t.startswith("Version 2") for t in first)
    assert any("a player blackjack pushes to a dealer blackjack" in t for t in second)
    assert any("every player hand of 21 is paid 1:1" in t for t in second)
    assert not any("pays every player blackjack" in t for t in second)
    assert any("double up wager loses" in t for t in first) and any(
        "double up wager loses" in t for t in second
    )
    assert unsaid == first  # left out: Version 1, as the round assumes
