"""GET/POST /api/v1/analysis/base-game/: a table's exact house edge by combinatorial analysis,
its conventions, and the change each rule option makes."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from compliance.basegame import base_game_memory_clear
from compliance.models import BaseGameEdge

pytestmark = pytest.mark.django_db

URL = "/api/v1/analysis/base-game/"


def _config(jurisdiction: str = "US-CO", **table: Any) -> dict[str, Any]:
    """A one-table configuration; a table option given as None is left out."""
    config: dict[str, Any] = {
        "jurisdiction": jurisdiction,
        "as_of": "2024-06-01",
        "tables": [
            {
                "name": "BJ-1",
                "game": "blackjack",
                "decks": 6,
                "dealer_soft_17": "stand",
                "hole_card": "peek",
                "blackjack_pays": "3 to 2",
                "double": {"on": "any_two", "after_split": True},
                "split": {"max_hands": 4, "resplit_aces": False, "split_aces_one_card": True},
                "surrender": "late",
                **table,
            }
        ],
    }
    config["tables"][0] = {k: v for k, v in config["tables"][0].items() if v is not None}
    return config


def _post(client: APIClient, body: dict[str, Any]) -> Any:
    return client.post(URL, body, format="json", HTTP_HOST="localhost")


def test_it_gives_the_exact_house_edge_of_a_table_with_its_conventions(
    anon_client: APIClient,
) -> None:
    response = _post(anon_client, {"configuration": _config(), "effects": False})
    assert response.status_code == 200, response.json()
    body = response.json()
    # Farmer's combinatorial analyzer: 6D S17 DOA DAS SPL3 NRSA LS, -0.330268037 % (CDZ-).
    assert body["house_edge_percent"].startswith("0.33026803")
    assert body["table"] == "BJ-1" and body["rules"]["surrender"] == "late"
    assert body["method"].startswith("combinatorial analysis")
    assert any("CDZ-" in text for text in body["conventions"])
    assert any("Farmer" in text for text in body["conventions"])
    assert "effects" not in body
    # The engine's basic strategy (what the simulator plays), valued exactly: a little worse.
    basic = body["basic_strategy"]
    assert basic["play"] == "basic" and "basic strategy" in basic["strategy"]
    assert 0 < float(basic["house_edge"]) - float(body["house_edge"]) < 0.0005


def test_it_gives_the_effect_of_each_rule_option_exactly(anon_client: APIClient) -> None:
    response = _post(anon_client, {"configuration": _config(surrender="none")})
    assert response.status_code == 200, response.json()
    effects = {effect["option"]: effect for effect in response.json()["effects"]}
    six_to_five = effects["blackjack_pays"]
    assert (six_to_five["from"], six_to_five["to"]) == ("3 to 2", "6 to 5")
    assert 1.3 < float(six_to_five["house_edge_change_percent"]) < 1.45
    assert float(effects["dealer_soft_17"]["house_edge_change_percent"]) > 0.15  # hit soft 17
    assert float(effects["surrender"]["house_edge_change_percent"]) < 0  # late surrender given
    assert float(effects["double.after_split"]["house_edge_change_percent"]) > 0.1  # no DAS
    assert {"split.max_hands", "hole_card", "double.on"} <= set(effects)


def test_a_get_with_the_tables_options_gives_what_the_post_gives(anon_client: APIClient) -> None:
    response = anon_client.get(
        URL,
        {
            "jurisdiction": "US-CO",
            "as_of": "2024-06-01",
            "decks": "6",
            "dealer_soft_17": "stand",
            "surrender": "late",
            "double_on": "any_two",
            "double_after_split": "true",
            "max_hands": "4",
            "effects": "false",
        },
        HTTP_HOST="localhost",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["house_edge_percent"].startswith("0.33026803")


def test_a_spanish_21_table_is_analysed_exactly_by_its_own_rules(anon_client: APIClient) -> None:
    # The catalog's Spanish 21 (30-899.16) at 6 decks, S17, late surrender: its split and double
    # rules are the game's own (resplit aces, hit and double split aces, double any time, rescue).
    configuration = _config(game="spanish-21")
    for field in ("blackjack_pays", "split", "double"):
        del configuration["tables"][0][field]
    response = _post(anon_client, {"configuration": configuration})
    assert response.status_code == 200, response.json()
    body = response.json()
    # tests/engine/test_basegame_spanish.py pins this rule set to the Wizard of Odds' 0.37 %.
    assert body["house_edge_percent"].startswith("0.36520")
    rules = body["rules"]
    assert rules["spanish_decks"] and rules["player_21_wins"] and rules["rescue"]
    assert rules["double_on"] == "any_time" and rules["bonus_21"]["678-spades"] == "3 to 1"
    conventions = " ".join(body["conventions"])
    assert "Spanish decks" in conventions and "Super Bonus" in conventions
    basic = body["basic_strategy"]  # the engine's strategy knows nothing of 21s that win
    assert 0.0005 < float(basic["house_edge"]) - float(body["house_edge"]) < 0.002
    effects = {effect["option"]: effect for effect in body["effects"]}
    any_two = effects["double.on"]
    assert (any_two["from"], any_two["to"]) == ("any_time", "any_two")
    assert float(any_two["house_edge_change_percent"]) > 0.1
    redouble = effects["double.max_doubles"]  # double-double down, though an S17 table may not
    assert (redouble["from"], redouble["to"]) == ("1", "3")
    assert float(redouble["house_edge_change_percent"]) < -0.1


@pytest.mark.parametrize(
    ("query", "field"),
    [({"decks": "six"}, "decks"), ({"double_after_split": "maybe"}, "double_after_split")],
)
def test_a_get_with_a_malformed_option_is_a_400_naming_it(
    anon_client: APIClient, query: dict[str, str], field: str
) -> None:
    params = {"jurisdiction": "US-CO", "as_of": "2024-06-01", **query}
    response = anon_client.get(URL, params, HTTP_HOST="localhost")
    assert response.status_code == 400
    assert field in str(response.json())


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"decks": 12}, "configuration.tables[0].decks"),
        ({"split": {"max_hands": 8}}, "configuration.tables[0].split.max_hands"),
        ({"blackjack_pays": "lots"}, "blackjack_pays"),
    ],
)
def test_a_table_the_analysis_cannot_value_is_a_400_naming_the_field(
    anon_client: APIClient, table: dict[str, Any], field: str
) -> None:
    response = _post(anon_client, {"configuration": _config(**table), "effects": False})
    assert response.status_code == 400, response.json()
    assert field in str(response.json())


FACE_UP = {"game": "face-up-blackjack", "hole_card": "face_up", "blackjack_pays": None}


def test_a_face_up_blackjack_table_is_analysed_by_its_own_rules(anon_client: APIClient) -> None:
    # 30-899.02: both dealer cards face up, blackjack 1 to 1, every push lost (a blackjack's
    # too). The best play sees both dealer cards; the engine's strategy, by the dealer's
    # two-card total, is valued too.
    config = _config(surrender="none", **FACE_UP)
    response = _post(anon_client, {"configuration": config, "effects": False})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["house_edge_percent"].startswith(
        "-0.26311937"
    )  # a player edge: standing on soft 17
    assert body["rules"]["dealer_face_up"] and body["rules"]["ties_lose"]
    conventions = " ".join(body["conventions"])
    assert "dealer's two cards" in conventions and "a tie loses" in conventions
    basic = body["basic_strategy"]
    assert basic["play"] == "basic" and "two-card total" in basic["strategy"]
    assert 0 < float(basic["house_edge"]) - float(body["house_edge"]) < 0.0005


def test_a_face_up_tables_rule_effects_are_exact_and_kept(anon_client: APIClient) -> None:
    # Each option changed alone, analysed exactly: hitting soft 17 costs the player, pushes that
    # push instead of losing give a lot back; every value is kept (BaseGameEdge) for the next
    # request. Two decks, splits to 2 hands: quicker to analyse.
    base_game_memory_clear()  # as a fresh process: an earlier test may have analysed them
    split = {"max_hands": 2, "resplit_aces": False, "split_aces_one_card": True}
    config = _config(decks=2, split=split, surrender="none", **FACE_UP)
    response = _post(anon_client, {"configuration": config})
    assert response.status_code == 200, response.json()
    body = response.json()
    effects = {effect["option"]: effect for effect in body["effects"]}
    h17 = effects["dealer_soft_17"]
    assert (h17["from"], h17["to"]) == ("stand", "hit")
    change = float(h17["house_edge_change"])
    assert change > 0
    assert change == pytest.approx(float(h17["house_edge"]) - float(body["house_edge"]), abs=1e-11)
    pushes = effects["ties_lose"]
    assert (pushes["from"], pushes["to"]) == ("true", "false")
    assert float(pushes["house_edge_change_percent"]) < -5
    assert "hole_card" not in effects
    kept = [row.expected_value for row in BaseGameEdge.objects.filter(rules__contains="decks=2;")]
    for effect in body["effects"]:
        assert any(abs(value + float(effect["house_edge"])) < 1e-11 for value in kept)


def test_massachusetts_face_up_dealing_is_analysed_with_its_two_card_21(
    anon_client: APIClient,
) -> None:
    # MA 6(k)'s face-up procedure is analysed as Colorado's game is, with MA's own rule that a
    # split hand's 21 in two cards beats the dealer's 21 in more (3(a)(3)).
    table = {"hole_card": "face_up", "blackjack_pays": None, "surrender": "none"}
    response = _post(anon_client, {"configuration": _config("US-MA", **table), "effects": False})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["rules"]["dealer_face_up"] and body["rules"]["two_card_21_beats_dealer_21"]
    assert body["house_edge"] is not None


def test_a_blackjack_switch_table_is_analysed_per_hand(anon_client: APIClient) -> None:
    """30-2105(8)(e) as read (engine/readings.py SWITCH_DEALER_22): a dealer's 22 pushes every
    hand but a blackjack, the game's rule, and the house keeps 0.538 % a hand (the Wizard of Odds
    publishes 0.58 %). The literal reading, a 22 that busts against every hand but a switched
    blackjack, is shown beside it with its figure, the player's 6.83 %, and its annotation."""
    table = {"game": "blackjack-switch", "blackjack_pays": None, "dealer_soft_17": "hit"}
    response = _post(anon_client, {"configuration": _config(surrender="none", **table)})
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["house_edge_percent"].startswith("0.53818")
    assert body["rules"]["dealer_22_pushes"] is True
    assert any("Switch: each pair of hands" in text for text in body["conventions"])
    assert any("every dealer 22 pushes a hand" in text for text in body["conventions"])
    [literal] = body["alternative_readings"]
    assert (literal["citation"], literal["reading"]) == ("30-2105(8)(e)", "dealer-22-busts")
    assert literal["house_edge_percent"].startswith("-6.8311")
    assert literal["favours"] == "player"
    assert any("6.831%" in text for text in literal["annotations"])
    basic = body["basic_strategy"]  # the engine's own switching and play
    assert 0 < float(basic["house_edge"]) - float(body["house_edge"]) < 0.0005
    effects = {effect["option"]: effect for effect in body["effects"]}
    s17 = effects["dealer_soft_17"]
    assert (s17["from"], s17["to"]) == ("hit", "stand")
    assert float(s17["house_edge_change"]) < 0
    busts = effects["dealer_22_pushes"]
    assert (busts["from"], busts["to"]) == ("true", "false")
    assert float(busts["house_edge_change"]) == pytest.approx(
        float(literal["house_edge"]) - float(body["house_edge"]), abs=1e-11
    )


def test_a_request_without_a_configuration_is_a_400(anon_client: APIClient) -> None:
    response = _post(anon_client, {"table": "BJ-1"})
    assert response.status_code == 400
    assert "configuration" in str(response.json())
