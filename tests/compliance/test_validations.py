"""POST /api/v1/validations/: a casino's proposed tables checked against the rules of a date."""

from __future__ import annotations

import copy
import datetime as dt
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from django.core.management import call_command
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from compliance.api.configuration import ConfigurationSerializer, configuration_parse
from compliance.api.serializers import ValidationOut
from compliance.configuration import configuration_of
from compliance.models import ValidationRun
from pitboss import kbcache
from pitboss.errors import InvalidInput
from variants.catalog import CATALOG

pytestmark = pytest.mark.django_db

CONFIGS = Path(settings.BASE_DIR) / "fixtures" / "configs"

TABLE: dict[str, Any] = {
    "name": "BJ-07",
    "game": "blackjack",
    "decks": 6,
    "player_spots": 7,
    "dealing": "shoe",
    "dealer_soft_17": "stand",
    "hole_card": "peek",
    "blackjack_pays": "3 to 2",
    "insurance_pays": "2 to 1",
    "even_money": True,
    "double": {"on": "any_two", "after_split": True},
    "split": {"max_hands": 4, "resplit_aces": False, "split_aces_one_card": True},
    "surrender": "late",
    "limits": {"min": "10", "max": "500"},
    "chip_unit": "1",
    "side_wagers": [
        {
            "wager": "kings-bounty",
            "paytable": "us-co/kings-bounty/kb03",
            "limits": {"min": "10", "max": "100"},
        },
        {"wager": "blazing-7s", "paytable": "us-co/blazing-7s/b7p2", "meter": "12500"},
        # 30-2107(3): its limits posted at the table, so given (sign_needs)
        {
            "wager": "21-plus-3-xtreme",
            "paytable": "us-co/21-plus-3-xtreme/xtreme",
            "limits": {"min": "1", "max": "25"},
        },
    ],
    # 30-899.20(1), 30-899.21(1): King's Bounty and Blazing 7's only at tables displaying their
    # layouts (21+3 Xtreme's rule, 30-2107, names none).
    "layouts": ["kings-bounty", "blazing-7s"],
}


def configuration(as_of: str = "2024-06-01", **changes: Any) -> dict[str, Any]:
    table = copy.deepcopy(TABLE)
    table.update(changes)
    return {
        "jurisdiction": "US-CO",
        "as_of": as_of,
        "licensee": "Example Casino",
        "tables": [table],
    }


def validate(client: APIClient, config: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/validations/", config, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def codes(body: dict[str, Any]) -> set[str]:
    return {f["code"] for f in body["findings"]}


def test_a_compliant_floor_has_no_findings(vendor_client: APIClient) -> None:
    body = validate(vendor_client, configuration())
    assert body["findings"] == [] and body["compliant"] is True


# Each catalog constraint: a floor that breaks it (and so raises its code); the compliant floor
# above keeps the Colorado ones, MA_TABLE the Massachusetts ones.
MA_TABLE: dict[str, Any] = {
    "name": "MA-01",
    "game": "blackjack",
    "decks": 6,
    "dealing": "shoe",
    "dealer_soft_17": "stand",
    "blackjack_pays": "3 to 2",
    "insurance_pays": "2 to 1",
    "even_money": True,
    "surrender": "none",  # 8(c): a table using the option posts it (sign_needs)
    "limits": {"min": "15", "max": "1000"},
    "side_wagers": [],
}


def side(wager: str, paytable: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"wager": wager, "paytable": paytable} | extra


def load_breaks() -> dict[str, tuple[str, list[dict[str, Any]]]]:
    """tests/compliance/data/breaks-*.yaml: for each catalog constraint, a floor that breaks it."""
    out: dict[str, tuple[str, list[dict[str, Any]]]] = {}
    for path in sorted((Path(__file__).parent / "data").glob("breaks-*.yaml")):
        data = yaml.safe_load(path.read_text())
        out |= {code: (data["jurisdiction"], patches) for code, patches in data["breaks"].items()}
    return out


BREAKS = load_breaks()


FLOOR_KEYS = ("as_of", "include_proposed")


def floor(jurisdiction: str, patches: list[dict[str, Any]]) -> dict[str, Any]:
    """The sample floor with each patch a table, on 2024-06-01 or the `as_of` a patch gives (a
    rule in force only later: 30-899.29, effective 3/17/25); `include_proposed` in a patch is
    the floor's (a proposed fact applies only when asked for)."""
    base = TABLE if jurisdiction == "US-CO" else MA_TABLE
    as_of = next((p["as_of"] for p in patches if "as_of" in p), "2024-06-01")
    proposed = any(p.get("include_proposed") for p in patches)
    return {
        "jurisdiction": jurisdiction,
        "as_of": as_of,
        "include_proposed": proposed,
        "tables": [
            copy.deepcopy(base) | {k: v for k, v in p.items() if k not in FLOOR_KEYS}
            for p in patches
        ],
    }


def catalog_constraint_codes() -> set[str]:
    out = set()
    for path in CATALOG.glob("*.yaml"):
        for c in yaml.safe_load(path.read_text())["constraints"]:
            out |= {f"{c['code']}/{w}" for w in c["wagers"]} if c.get("wagers") else {c["code"]}
    return out


def test_every_constraint_of_the_catalog_has_a_breaking_sample() -> None:
    assert set(BREAKS) == catalog_constraint_codes()


def test_the_massachusetts_sample_floor_keeps_every_rule(vendor_client: APIClient) -> None:
    assert validate(vendor_client, floor("US-MA", [{}]))["findings"] == []


@pytest.mark.parametrize("code", sorted(BREAKS))
def test_each_constraint_fires_on_a_floor_that_breaks_it(
    vendor_client: APIClient, code: str
) -> None:
    jurisdiction, patches = BREAKS[code]
    body = validate(vendor_client, floor(jurisdiction, patches))
    assert code in codes(body)
    finding = next(f for f in body["findings"] if f["code"] == code)
    assert finding["citations"] and finding["citations"][0]["jurisdiction"] == jurisdiction
    if finding["severity"] == "error":
        assert body["compliant"] is False


def test_an_exclusion_stated_one_way_is_enforced_both_ways_and_annotated(
    vendor_client: APIClient, anon_client: APIClient
) -> None:
    # 28(g) says 21+3 may not be offered with King's Bounty; 29(j) does not say the reverse.
    body = validate(
        vendor_client, floor("US-MA", [{"side_wagers": [side("kings-bounty"), side("21-plus-3")]}])
    )
    finding = next(f for f in body["findings"] if f["code"] == "us-ma/21-plus-3/excludes")
    assert "enforced both ways" in finding["message"]
    item = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-MA", "citation": "28(g)"}
    ).json()["results"][0]
    assert any("enforces the exclusion both ways" in a["text"] for a in item["annotations"])


def test_findings_cite_the_label_in_force_on_the_date(vendor_client: APIClient) -> None:
    wager = {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1"}
    for as_of, label in [("2017-06-01", "30-834.23(2)"), ("2018-06-01", "30-899.23(2)")]:
        body = validate(vendor_client, configuration(as_of, decks=8, side_wagers=[wager]))
        finding = next(f for f in body["findings"] if f["code"] == "us-co/raise-the-roof/decks")
        assert finding["citations"] == [
            {"jurisdiction": "US-CO", "citation": label, "effective_from": "2016-10-30"}
        ]


def test_a_wager_before_its_effective_date_is_not_in_force(vendor_client: APIClient) -> None:
    wager = {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1"}
    assert "wager-not-in-force" in codes(
        validate(vendor_client, configuration("2016-01-01", side_wagers=[wager]))
    )
    assert "wager-not-in-force" not in codes(
        validate(vendor_client, configuration("2017-01-01", side_wagers=[wager]))
    )


def test_a_paytable_for_another_dealer_rule_or_deck_count_is_an_error(
    vendor_client: APIClient,
) -> None:
    wager = {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1"}
    assert "paytable-soft-17" in codes(
        validate(vendor_client, configuration(dealer_soft_17="hit", side_wagers=[wager]))
    )
    two_deck = {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/2d-h17-pay-table-1"}
    body = validate(vendor_client, configuration(dealer_soft_17="hit", side_wagers=[two_deck]))
    assert "paytable-decks" in codes(body)


def test_an_inline_paytable_equal_to_an_approved_one_passes(vendor_client: APIClient) -> None:
    lines = [
        {"outcome": "flush", "pays": "5 to 1"},
        {"outcome": "straight", "pays": "10 to 1"},
        {"outcome": "three-of-a-kind", "pays": "20 to 1"},
        {"outcome": "straight-flush", "pays": "30 to 1"},
    ]
    limits = {"min": "1", "max": "25"}  # 30-2107(3): posted at the table (sign_needs)
    body = validate(
        vendor_client,
        configuration(
            side_wagers=[{"wager": "21-plus-3-xtreme", "paytable": lines, "limits": limits}]
        ),
    )
    assert body["findings"] == []


def test_an_inline_paytable_that_matches_none_names_the_closest_and_the_lines(
    vendor_client: APIClient,
) -> None:
    lines = [
        {"outcome": "flush", "pays": "6 to 1"},
        {"outcome": "straight", "pays": "10 to 1"},
        {"outcome": "three-of-a-kind", "pays": "20 to 1"},
        {"outcome": "straight-flush", "pays": "30 to 1"},
    ]
    body = validate(
        vendor_client, configuration(side_wagers=[{"wager": "21-plus-3-xtreme", "paytable": lines}])
    )
    finding = next(f for f in body["findings"] if f["code"] == "paytable-not-approved")
    assert (
        "us-co/21-plus-3-xtreme/xtreme differs in: flush: 6 to 1 offered, 5 to 1 approved"
        in finding["message"]
    )
    assert finding["citations"][0]["citation"] == "30-2107 ¶12"


def test_a_wager_of_another_jurisdiction_is_an_error_saying_so(vendor_client: APIClient) -> None:
    wager = {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1"}
    body = validate(vendor_client, floor("US-MA", [{"side_wagers": [wager]}]))
    finding = next(f for f in body["findings"] if f["code"] == "wager-not-authorised")
    assert (
        "raise-the-roof is not authorised in US-MA; the catalog has it in US-CO"
        in finding["message"]
    )


def test_a_missing_deck_count_is_a_finding_not_a_crash(vendor_client: APIClient) -> None:
    config = configuration()
    del config["tables"][0]["decks"]
    body = validate(vendor_client, config)
    assert [f["path"] for f in body["findings"] if f["code"] == "fact-missing"] == [
        "tables[0].decks"
    ] * 3
    assert body["compliant"] is True


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"jurisdiction": "US-XX"}, "jurisdiction"),
        ({"as_of": "1850-01-01"}, "as_of"),
        ({"as_of": "2024-02-30"}, "as_of"),
        ({"tables": []}, "tables"),
        ({"tables": [dict(TABLE, decks="six")]}, "tables[0].decks"),
        ({"tables": [dict(TABLE, blackjack_pays="about 3 to 2")]}, "tables[0].blackjack_pays"),
        ({"tables": [dict(TABLE, limits={"min": "500", "max": "10"})]}, "tables[0].limits.max"),
        (
            {"tables": [dict(TABLE, side_wagers=[{"wager": "no-such-bet"}])]},
            "tables[0].side_wagers[0].wager",
        ),
        ({"tables": [dict(TABLE, layouts=["no-such-layout"])]}, "tables[0].layouts[0]"),
        ({"tables": [dict(TABLE, layouts="spanish-21")]}, "tables[0].layouts"),
    ],
)
def test_bad_input_is_a_400_naming_the_field_and_stores_nothing(
    vendor_client: APIClient, change: dict[str, Any], field: str
) -> None:
    before = ValidationRun.objects.count()
    response = vendor_client.post("/api/v1/validations/", configuration() | change, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(f"{field}:")
    assert ValidationRun.objects.count() == before


def test_an_unknown_slug_lists_the_valid_ones(vendor_client: APIClient) -> None:
    response = vendor_client.post(
        "/api/v1/validations/", configuration(side_wagers=[{"wager": "no-such-bet"}]), format="json"
    )
    message = response.json()["error"]["message"]
    slugs = message.split("valid slugs: ")[1].rstrip(".").split(", ")
    assert slugs == sorted(slugs)
    assert {"blackjack", "kings-bounty", "21-plus-3-xtreme", "raise-the-roof"} <= set(slugs)


def test_malformed_json_is_a_400(vendor_client: APIClient) -> None:
    response = vendor_client.post(
        "/api/v1/validations/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400


def test_a_run_is_stored_with_the_knowledge_base_it_used_and_can_be_read_back(
    vendor_client: APIClient,
) -> None:
    body = validate(vendor_client, configuration(decks=4))
    again = vendor_client.get(f"/api/v1/validations/{body['id']}/").json()
    assert again["findings"] == body["findings"]
    assert (
        again["knowledge_base"]["PaytableEntry"] > 0 and again["knowledge_base"]["UnitVersion"] > 0
    )
    assert validate(vendor_client, configuration(decks=4))["findings"] == body["findings"]


def test_validating_needs_a_token_or_a_login(anon_client: APIClient) -> None:
    assert (
        anon_client.post("/api/v1/validations/", configuration(), format="json").status_code == 401
    )


def test_the_command_prints_findings_and_fails_for_the_casino_house_rules() -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("validate", str(CONFIGS / "casino-house-rules-co.json"), stdout=out)
    assert exit_.value.code == 1
    text = out.getvalue()
    assert "US-CO as of 2024-06-01: NOT compliant" in text
    assert "two-kings-of-spades-dealer-blackjack: 1000 to 1 offered, 500 to 1 approved" in text
    assert "cites US-CO 30-899.20(7)" in text
    json.loads((CONFIGS / "casino-house-rules-co.json").read_text())


def test_the_casino_house_rules_in_massachusetts() -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit):
        call_command("validate", str(CONFIGS / "casino-house-rules-ma.json"), stdout=out)
    text = out.getvalue()
    # Its King's Bounty pays exactly Massachusetts' Table 1 (29(h)), so no finding about it.
    assert "King's Bounty" not in text
    assert "21-plus-3-xtreme is not authorised in US-MA; the catalog has it in US-CO." in text
    # Its Blazing 7's pays exactly 31(d)'s right-hand sample paytable, so no finding about it.
    assert "paytable-not-in-catalog" not in text and "Blazing" not in text


def test_a_variants_rule_binds_only_the_tables_dealing_that_game(vendor_client: APIClient) -> None:
    plain = validate(
        vendor_client, floor("US-CO", [{"decks": 1, "dealing": "hand", "side_wagers": []}])
    )
    assert "us-co/spanish-21/decks" not in codes(plain)
    spanish = validate(
        vendor_client, floor("US-CO", [{"game": "spanish-21", "decks": 6, "side_wagers": []}])
    )
    assert "us-co/spanish-21/decks" not in codes(spanish)
    assert "game-not-authorised" not in codes(spanish)


def test_a_side_wager_excluded_from_the_tables_game_points_at_the_game(
    vendor_client: APIClient,
) -> None:
    # 20(k)(1): the blackjack bonus wager may not be offered at a Multiple Action table.
    body = validate(
        vendor_client,
        floor(
            "US-MA",
            [{"game": "multiple-action-blackjack", "side_wagers": [side("blackjack-bonus")]}],
        ),
    )
    finding = next(f for f in body["findings"] if f["code"] == "us-ma/blackjack-bonus/excludes")
    assert finding["path"] == "tables[0].game"


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"blackjack_pays": "10%"}, "tables[0].blackjack_pays"),
        ({"insurance_pays": "$5"}, "tables[0].insurance_pays"),
        (
            {
                "side_wagers": [
                    {"wager": "kings-bounty", "paytable": [{"outcome": "nope", "pays": "3 to 1"}]}
                ]
            },
            "tables[0].side_wagers[0].paytable[0].outcome",
        ),
    ],
)
def test_odds_that_are_not_odds_and_unknown_outcomes_are_400s(
    vendor_client: APIClient, table: dict[str, Any], field: str
) -> None:
    response = vendor_client.post("/api/v1/validations/", configuration(**table), format="json")
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(f"{field}:")


def test_a_paytable_is_told_apart_before_and_after_it_took_effect(vendor_client: APIClient) -> None:
    # 30-2107: "21+3 Progressive Pay Tables: Effective 8/14/22".
    wager = {
        "wager": "21-plus-3-progressive",
        "paytable": "us-co/21-plus-3-progressive/pt-bjs-213-01",
    }
    before = validate(
        vendor_client, floor("US-CO", [{"side_wagers": [wager]}]) | {"as_of": "2022-01-01"}
    )
    finding = next(f for f in before["findings"] if f["code"] == "paytable-not-in-force")
    assert finding["citations"][0]["citation"] == "30-2107 ¶13"
    after = validate(
        vendor_client, floor("US-CO", [{"side_wagers": [wager]}]) | {"as_of": "2023-01-01"}
    )
    assert "paytable-not-in-force" not in codes(after)


@pytest.mark.parametrize(
    ("paytable", "dated", "citation"),
    [
        # 30-2115: "TriLux Bonus (without Lucky George or dealer envy): Amended 2/14/23".
        ("us-co/trilux-bonus/tri-03", "2023-02-14", "30-2115 ¶3"),
        # 30-2105(10): "… the following pay schedules …: Eff 03/01/2012".
        ("us-co/super-match/pay-table-1", "2012-03-01", "30-2105(10)"),
        ("us-co/buster-blackjack/pay-schedule-1", "2012-03-01", "30-2105(10)"),
        # 30-2108 ¶3(9): "… paid against a pay schedule that follows: Amen 10/16/13".
        ("us-co/golden-21-poker/pay-schedule", "2013-10-16", "30-2108 ¶3(9)"),
        # 30-834.9 (30-899.09 since 2017-12-15): "Six Deck Pay tables: Effective 9/14/2012".
        ("us-co/buffalo-blackjack-bonus/6d-a", "2012-09-14", "30-834.9 ¶2"),
    ],
)
def test_a_paytable_dated_in_the_source_is_not_approved_the_day_before(
    vendor_client: APIClient, paytable: str, dated: str, citation: str
) -> None:
    side_wager = {"wager": paytable.split("/")[1], "paytable": paytable}
    day_before = (dt.date.fromisoformat(dated) - dt.timedelta(days=1)).isoformat()
    early = validate(vendor_client, configuration(day_before, side_wagers=[side_wager]))
    finding = next(f for f in early["findings"] if f["code"] == "paytable-not-in-force")
    assert finding["severity"] == "error" and early["compliant"] is False
    assert f"is not approved on {day_before} (the rule dates it from {dated})" in finding["message"]
    assert finding["citations"][0]["citation"] == citation
    on_the_day = validate(vendor_client, configuration(dated, side_wagers=[side_wager]))
    assert "paytable-not-in-force" not in codes(on_the_day)


BUST_BONUS = [("ace", "3", "50"), ("2", "1", "25"), ("3", "1", "15"), ("4", "1", "10")]
BUST_BONUS += [("5", "1", "5"), ("6", "1", "3"), ("7", "2", "15"), ("8", "2", "10")]
BUST_BONUS += [("9", "2", "20"), ("10", "2", "20"), ("888", "25", "75")]


def test_suited_bust_bonus_lines_are_for_six_decks_only(vendor_client: APIClient) -> None:
    """30-899.09¶6: '"Suited" is not applicable in single & double deck games': the Bust Bonus
    table with its suited lines is the six-deck paytable, its off-suit lines alone the one- and
    two-deck paytable; each offered at the other deck count is refused."""
    off_suit = [{"outcome": f"{up}-off-suit", "pays": f"{off} to 1"} for up, off, _ in BUST_BONUS]
    suited = [{"outcome": f"{up}-suited", "pays": f"{s} to 1"} for up, _, s in BUST_BONUS]
    for lines, decks, refused in [
        (off_suit + suited, 2, True),
        (off_suit, 2, False),
        (off_suit + suited, 6, False),
        (off_suit, 6, True),
    ]:
        # 30-899.09(8): its limits posted on the table signage (sign_needs)
        bust_bonus = side("buffalo-bust-bonus", lines, limits={"min": "1", "max": "25"})
        table = {"decks": decks, "side_wagers": [bust_bonus]}
        found = codes(validate(vendor_client, floor("US-CO", [table])))
        assert found == ({"paytable-decks"} if refused else set()), (decks, len(lines))


def test_a_variants_own_odds_rule_replaces_the_base_floor(vendor_client: APIClient) -> None:
    # Face Up Blackjack pays blackjack at least 1 to 1 (30-899.02(2)), not the 6 to 5 of 30-810.
    face_up = {"game": "face-up-blackjack", "blackjack_pays": "1 to 1", "side_wagers": []}
    body = validate(vendor_client, floor("US-CO", [face_up | {"even_money": False}]))
    assert "us-co/blackjack/blackjack-pays-at-least-6-to-5" not in codes(body)
    assert "us-co/face-up-blackjack/blackjack-pays-at-least-1-to-1" not in codes(body)
    plain = validate(vendor_client, floor("US-CO", [{"blackjack_pays": "1 to 1"}]))
    assert "us-co/blackjack/blackjack-pays-at-least-6-to-5" in codes(plain)


def test_asking_for_proposed_versions_says_what_it_can_and_cannot_apply(
    vendor_client: APIClient,
) -> None:
    body = validate(vendor_client, configuration() | {"include_proposed": True})
    (info,) = [f for f in body["findings"] if f["code"] == "proposed-applied"]
    assert info["severity"] == "info" and "proposed 47.1-834.23 (not in force)" in info["message"]
    assert body["compliant"] is True  # the floor offers no Raise The Roof
    # Massachusetts has no proposed text on file: nothing is applied, and the finding says so
    ma = validate(vendor_client, floor("US-MA", [{}]) | {"include_proposed": True})
    (info,) = [f for f in ma["findings"] if f["code"] == "proposed-not-applied"]
    assert "the catalog holds no wagers, paytables or constraints" in info["message"]


def test_a_side_wager_above_every_blackjack_wager_is_an_error_within_them_is_not(
    vendor_client: APIClient,
) -> None:
    # 27(c): the Buster Blackjack Wager "shall not exceed the lesser of the player's wager … or any
    # maximum amount established by the gaming licensee". MA_TABLE's maximum is 1000.
    def buster(maximum: str) -> dict[str, Any]:
        limits = {"min": "1", "max": maximum}
        return floor("US-MA", [{"side_wagers": [side("buster-blackjack", limits=limits)]}])

    code = "us-ma/buster-blackjack/at-most-blackjack-wager"
    over = validate(vendor_client, buster("1500"))
    finding = next(f for f in over["findings"] if f["code"] == code)
    assert finding["severity"] == "error" and over["compliant"] is False
    assert finding["path"] == "tables[0].side_wagers[0].limits.max"
    assert finding["message"].startswith(
        "The Buster Blackjack maximum 1500.00 is above the table maximum 1000.00, so the posted "
        "limits allow a Buster Blackjack wager larger than any blackjack wager at this table; "
    )
    assert (
        "the dealer must still hold each bet to the player's blackjack wager" in finding["message"]
    )
    assert finding["citations"] == [
        {"jurisdiction": "US-MA", "citation": "27(c)", "effective_from": None}
    ]
    at_the_maximum = validate(vendor_client, buster("1000"))
    assert code not in codes(at_the_maximum) and at_the_maximum["compliant"] is True


def test_a_side_wager_without_limits_is_told_the_rule_needs_them(vendor_client: APIClient) -> None:
    # 17(g): an additional wager at most the player's blackjack wager.
    over_under = {"side_wagers": [side("over-under-13")], "layouts": ["over-under-13"]}
    body = validate(vendor_client, floor("US-MA", [over_under]))
    (finding,) = [f for f in body["findings"] if f["code"] == "fact-missing"]
    assert finding["severity"] == "warning" and finding["path"] == "tables[0].side_wagers[0].limits"
    assert finding["message"].startswith(
        "The Additional wager - over or under 13 maximum is not given"
    )
    assert finding["citations"][0]["citation"] == "17(g)"
    limited = side("over-under-13", limits={"min": "1", "max": "5"})
    no_table_limits = floor("US-MA", [{"side_wagers": [limited], "layouts": ["over-under-13"]}])
    del no_table_limits["tables"][0]["limits"]
    body = validate(vendor_client, no_table_limits)
    (finding,) = [f for f in body["findings"] if f["code"] == "fact-missing"]
    assert (
        finding["path"] == "tables[0].limits"
        and "The table maximum is not given" in finding["message"]
    )


def test_pocket_rockets_may_exceed_the_blackjack_wager_with_a_continuous_shuffler(
    vendor_client: APIClient,
) -> None:
    # 30-899.28(3): "may not exceed the amount of the original Blackjack wager unless the Licensee
    # uses a continuous shuffler". TABLE's maximum is 500.
    rockets = side(
        "pocket-rockets", "us-co/pocket-rockets/pays", limits={"min": "5", "max": "1000"}
    )
    code = "us-co/pocket-rockets/at-most-blackjack-wager"
    layouts = ["pocket-rockets"]  # 30-899.28(1)
    shoe = validate(vendor_client, floor("US-CO", [{"side_wagers": [rockets], "layouts": layouts}]))
    finding = next(f for f in shoe["findings"] if f["code"] == code)
    assert finding["severity"] == "error"
    assert finding["citations"][0]["citation"] == "30-899.28(3)"
    shuffler = validate(
        vendor_client,
        floor("US-CO", [{"dealing": "csm", "side_wagers": [rockets], "layouts": layouts}]),
    )
    assert shuffler["findings"] == [] and shuffler["compliant"] is True
    unknown = floor("US-CO", [{"side_wagers": [rockets], "layouts": layouts}])
    del unknown["tables"][0]["dealing"]
    (missing,) = [
        f for f in validate(vendor_client, unknown)["findings"] if f["code"] == "fact-missing"
    ]
    assert missing["path"] == "tables[0].dealing"
    assert missing["message"].startswith("The dealing method is not given, and the rule needs it")


def test_a_kings_bounty_maximum_above_the_table_maximum_is_an_error_and_29d_is_annotated(
    vendor_client: APIClient, anon_client: APIClient
) -> None:
    # 29(d): the player's and the dealer's King's Bounty wagers together at most the table
    # maximum (1000 at MA_TABLE); a configuration holds no dealer wagers: the player's is checked.
    def kings_bounty(maximum: str) -> dict[str, Any]:
        limits = {"min": "5", "max": maximum}
        wager = side("kings-bounty", "us-ma/kings-bounty/table-1", limits=limits)
        return floor("US-MA", [{"side_wagers": [wager], "layouts": ["kings-bounty"]}])

    code = "us-ma/kings-bounty/within-table-maximum"
    over = validate(vendor_client, kings_bounty("1000.01"))
    finding = next(f for f in over["findings"] if f["code"] == code)
    assert (
        finding["severity"] == "error" and finding["path"] == "tables[0].side_wagers[0].limits.max"
    )
    assert finding["message"].startswith(
        "The King's Bounty Sidebet maximum 1000.01 is above the table maximum 1000.00; "
    )
    assert finding["citations"][0]["citation"] == "29(d)"
    assert validate(vendor_client, kings_bounty("1000"))["findings"] == []
    item = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-MA", "citation": "29(d)"}
    ).json()["results"][0]
    assert any("110 percent together" in a["text"] for a in item["annotations"])


def test_a_6_to_5_table_is_warned_of_limits_that_are_not_multiples_of_5_dollars(
    vendor_client: APIClient,
) -> None:
    # 3(d): "All wagers at the 6 to 5 blackjack variation shall be made in multiples of $5.00."
    code = "us-ma/blackjack/wagers-multiples-of-5-at-6-to-5"
    six_to_five = {
        "blackjack_pays": "6 to 5",
        "even_money": False,
        "decks": 2,
        "dealer_soft_17": "hit",
    }
    odd = validate(
        vendor_client, floor("US-MA", [six_to_five | {"limits": {"min": "12", "max": "1002.50"}}])
    )
    findings = [f for f in odd["findings"] if f["code"] == code]
    assert [(f["severity"], f["path"]) for f in findings] == [
        ("warning", "tables[0].limits.min"),
        ("warning", "tables[0].limits.max"),
    ]
    assert findings[0]["message"].startswith("The table minimum 12.00 is not a multiple of 5.00; ")
    assert "outside the variation, as 7(d) allows" in findings[0]["message"]
    assert findings[0]["citations"][0]["citation"] == "3(d)"
    assert odd["compliant"] is True  # a warning: 6 to 5 may be paid outside the variation
    fives = validate(
        vendor_client, floor("US-MA", [six_to_five | {"limits": {"min": "15", "max": "1000"}}])
    )
    assert fives["findings"] == []
    three_to_two = validate(
        vendor_client, floor("US-MA", [{"limits": {"min": "12", "max": "1002"}}])
    )
    assert code not in codes(three_to_two)
    no_limits = floor("US-MA", [six_to_five])
    del no_limits["tables"][0]["limits"]
    (missing,) = validate(vendor_client, no_limits)["findings"]
    assert missing["code"] == "fact-missing" and missing["path"] == "tables[0].limits"


def test_a_pay_column_the_paytable_does_not_print_is_an_error(vendor_client: APIClient) -> None:
    bounty = side("kings-bounty", "us-ma/kings-bounty/table-1", column="Envy")
    body = validate(vendor_client, floor("US-MA", [{"side_wagers": [bounty]}]))
    [finding] = [f for f in body["findings"] if f["code"] == "paytable-column-unknown"]
    assert finding["path"] == "tables[0].side_wagers[0].column"
    assert finding["citations"][0]["citation"].startswith("29")


def test_a_wager_placed_only_with_another_needs_that_one_on_the_table(
    vendor_client: APIClient,
) -> None:
    """30-899.24(2): "If the Match The Dealer Down Card wager is offered, then both wagers must be
    offered"; 30-2114(2): Top 3 only with a 21+3 wager (the Xtreme table is one)."""
    down = side("match-the-dealer-down-card", "us-co/match-the-dealer-down-card/6-deck")
    up = side("match-the-dealer", "us-co/match-the-dealer/6-deck")
    alone = validate(vendor_client, configuration(side_wagers=[down]))
    [finding] = alone["findings"]
    assert finding["code"] == "us-co/match-the-dealer-down-card/requires-up-card"
    assert finding["path"] == "tables[0].side_wagers[0].wager"
    assert finding["citations"][0]["citation"] == "30-899.24(2)" and alone["compliant"] is False
    both = configuration(side_wagers=[up, down], layouts=["match-the-dealer"])  # 30-899.24(1)
    assert validate(vendor_client, both)["findings"] == []
    # their limits posted at the table (30-2107(3), 30-2114: sign_needs)
    limits = {"limits": {"min": "1", "max": "25"}}
    top_3 = side("top-3", "us-co/top-3/pay-table-a", **limits)
    xtreme = side("21-plus-3-xtreme", "us-co/21-plus-3-xtreme/xtreme", **limits)
    buffalo = ["buffalo-blackjack-bonus-3"]  # 30-2114(1): Top 3 on a Buffalo style table layout
    assert codes(validate(vendor_client, configuration(side_wagers=[top_3], layouts=buffalo))) == {
        "us-co/top-3/requires-21-plus-3"
    }
    with_xtreme = configuration(side_wagers=[xtreme, top_3], layouts=buffalo)
    assert validate(vendor_client, with_xtreme)["findings"] == []


def test_21_plus_3_xtreme_may_be_dealt_from_one_deck_and_21_plus_3_may_not(
    vendor_client: APIClient,
) -> None:
    """30-2107(1): "21+3 may be played on 2 and 4-8 deck blackjack games only. 21+3 Xtreme may be
    played on 1, 2, and 4-8 deck blackjack games only." """
    one_deck = {"decks": 1, "dealing": "hand", "hole_card": "peek"}
    xtreme = side("21-plus-3-xtreme", "us-co/21-plus-3-xtreme/xtreme")
    plain = side("21-plus-3")
    xtreme_codes = codes(validate(vendor_client, configuration(side_wagers=[xtreme], **one_deck)))
    plain_codes = codes(validate(vendor_client, configuration(side_wagers=[plain], **one_deck)))
    assert not any(code.startswith("us-co/21-plus-3") for code in xtreme_codes)
    assert "us-co/21-plus-3/decks/21-plus-3" in plain_codes


def test_massachusetts_face_up_dealing_is_checked_by_6k_and_refused_in_colorado(
    vendor_client: APIClient,
) -> None:
    """MA 6(k): a table may deal the hole card face up, then blackjack pays 1 to 1 (3(e)'s 3 to 2
    or 6 to 5 does not bind it), no insurance, even money or surrender, doubles on 9-11, no
    resplits. Colorado's rules have no such procedure."""
    face_up = {
        "hole_card": "face_up",
        "blackjack_pays": "1 to 1",
        "even_money": False,
        "double": {"on": "9_10_11"},
        "split": {"max_hands": 2},
    }
    table = {k: v for k, v in MA_TABLE.items() if k != "insurance_pays"} | face_up
    kept = validate(
        vendor_client, {"jurisdiction": "US-MA", "as_of": "2024-06-01", "tables": [table]}
    )
    assert kept["findings"] == [] and kept["compliant"] is True
    broken = validate(vendor_client, floor("US-MA", [{"hole_card": "face_up"}]))
    assert codes(broken) == {
        "us-ma/blackjack/face-up-dealing-blackjack-pays-1-to-1",
        "us-ma/blackjack/face-up-dealing-no-insurance",
        "us-ma/blackjack/face-up-dealing-no-even-money",
    }
    colorado = validate(vendor_client, configuration(hole_card="face_up"))
    [finding] = colorado["findings"]
    assert finding["code"] == "option-not-authorised" and finding["path"] == "tables[0].hole_card"


# The full variants' option rules (issue #3). A table of each full variant that keeps every rule
# of its game: patches over the sample table, None leaving a field out.
VARIANT_TABLES: dict[str, dict[str, Any]] = {
    "multiple-action-blackjack": {"hole_card": "none"},
    "face-up-blackjack": {
        "hole_card": "face_up",
        "blackjack_pays": "1 to 1",
        "insurance_pays": None,
        "even_money": None,
    },
    "competition-21": {"hole_card": "none", "limits": {"min": "1", "max": "2.50"}},
    "double-action-blackjack": {},
    "triple-play-blackjack": {"split": {"max_hands": 2}},
    "double-up-blackjack": {"dealing": "csm"},
    "spanish-21": {
        "double": {"on": "any_time", "after_split": True},
        "split": {"max_hands": 4, "resplit_aces": True, "split_aces_one_card": False},
    },
    "blackjack-burnout": {"decks": 2, "split": {"max_hands": 5}},
    "stadium-blackjack": {
        "decks": 8,
        "hole_card": "none",
        "blackjack_pays": "6 to 5",
        "split": {"max_hands": 3},
    },  # fmt: skip
    "multi-hand-blackjack": {},
    "21-hold-em": {"decks": 1, "dealing": "hand"},
    "blackjack-switch": {"blackjack_pays": "1 to 1"},
    "ante-up-21": {"dealer_soft_17": "hit", "surrender": "none"},
    "3-card-21-n-done": {"decks": 8, "split": {"max_hands": 3}},
    "pai-jack": {"decks": 1, "dealing": "hand"},
}


def variant_floor(game: str, **changes: Any) -> dict[str, Any]:
    patch = VARIANT_TABLES[game] | {"game": game, "side_wagers": [], "layouts": [game]} | changes
    table = {k: v for k, v in (copy.deepcopy(TABLE) | patch).items() if v is not None}
    return {"jurisdiction": "US-CO", "as_of": "2024-06-01", "tables": [table]}


@pytest.mark.parametrize("game", sorted(VARIANT_TABLES))
def test_a_table_of_each_full_variant_can_keep_every_rule_of_its_game(
    vendor_client: APIClient, game: str
) -> None:
    body = validate(vendor_client, variant_floor(game))
    assert body["findings"] == [] and body["compliant"] is True


@pytest.mark.parametrize(
    ("game", "keeps", "breaks", "code", "cited"),
    [
        # option_required on each table option a variant's rule fixes
        ("competition-21", {"hole_card": "none"}, {"hole_card": "no_peek"},
         "us-co/competition-21/no-hole-card", "30-899.03(10)"),
        ("ante-up-21", {"hole_card": "peek"}, {"hole_card": "none"},
         "us-co/ante-up-21/dealer-checks-for-blackjack", "30-2106(10)"),
        ("competition-21", {"dealer_soft_17": "stand"}, {"dealer_soft_17": "hit"},
         "us-co/competition-21/dealer-stands-on-17", "30-899.03(10)"),
        ("double-up-blackjack", {"dealing": "shoe"}, {"dealing": "hand"},
         "us-co/double-up-blackjack/dealt-from-shoe-or-shuffler", "30-899.10 ¶4(1)"),
        ("21-hold-em", {"dealing": "hand"}, {"dealing": "csm"},
         "us-co/21-hold-em/dealt-from-the-hand", "30-2104(1)"),
        ("spanish-21", {"surrender": "late"}, {"surrender": "none"},
         "us-co/spanish-21/late-surrender", "30-899.16(9)"),
        ("ante-up-21", {"surrender": "none"}, {"surrender": "late"},
         "us-co/ante-up-21/no-surrender", "30-2106(11)(d)"),
        ("blackjack-burnout", {"double": {"on": "any_two"}}, {"double": {"on": "any_time"}},
         "us-co/blackjack-burnout/double-on-first-two-cards", "30-899.25(4)(c)"),
        ("spanish-21", {"double": {"on": "any_time", "after_split": True}},
         {"double": {"on": "any_time", "after_split": False}},
         "us-co/spanish-21/double-after-split", "30-899.16(7)"),
        ("stadium-blackjack", {"split": {"max_hands": 3, "resplit_aces": False}},
         {"split": {"max_hands": 3, "resplit_aces": True}},
         "us-co/stadium-blackjack/aces-split-once", "30-899.26(8)(b)"),
        ("competition-21", {"split": {"max_hands": 4, "split_aces_one_card": True}},
         {"split": {"max_hands": 4, "split_aces_one_card": False}},
         "us-co/competition-21/one-card-to-split-aces", "30-899.03(7)"),
        # an amount, compared exactly
        ("competition-21", {"limits": {"min": "1", "max": "2.50"}},
         {"limits": {"min": "1", "max": "2.51"}},
         "us-co/competition-21/initial-wager-at-most-2-50", "30-899.03(2)"),
        # a variant's own split limit, its blackjack odds, its decks
        ("triple-play-blackjack", {"split": {"max_hands": 2}}, {"split": {"max_hands": 3}},
         "us-co/triple-play-blackjack/no-resplit", "30-899.05(4)(b)"),
        ("triple-play-blackjack", {"blackjack_pays": "2 to 1"}, {"blackjack_pays": "6 to 5"},
         "us-co/triple-play-blackjack/blackjack-pays-at-least-3-to-2", "30-899.05(4)(e)"),
        ("stadium-blackjack", {"blackjack_pays": "3 to 2"}, {"blackjack_pays": "2 to 1"},
         "us-co/stadium-blackjack/blackjack-pays", "30-899.26(3)"),
        ("pai-jack", {"decks": 1}, {"decks": 2},
         "us-co/pai-jack/decks", "30-2112(1)"),
    ],
)  # fmt: skip
def test_a_variants_option_rule_fires_on_a_table_that_breaks_it_only(
    vendor_client: APIClient,
    game: str,
    keeps: dict[str, Any],
    breaks: dict[str, Any],
    code: str,
    cited: str,
) -> None:
    assert validate(vendor_client, variant_floor(game, **keeps))["findings"] == []
    body = validate(vendor_client, variant_floor(game, **breaks))
    [finding] = body["findings"]
    assert finding["code"] == code and finding["citations"][0]["citation"] == cited
    assert finding["path"].startswith("tables[0].")
    assert body["compliant"] is (finding["severity"] != "error")
    # The rule binds only the tables that deal the game.
    plain = copy.deepcopy(TABLE) | {"side_wagers": []} | breaks
    plain = {k: v for k, v in plain.items() if v is not None}
    assert code not in codes(validate(vendor_client, floor("US-CO", [plain])))


def test_a_variants_own_split_limit_and_odds_replace_the_general_ones(
    vendor_client: APIClient,
) -> None:
    """30-899.25(4)(b): Burnout splits "up to four times", beyond 30-814's three; 30-2105(8)(e):
    Blackjack Switch pays a blackjack 1 to 1, below 30-810's six to five."""
    five = validate(vendor_client, variant_floor("blackjack-burnout", split={"max_hands": 5}))
    assert five["findings"] == []
    six = validate(vendor_client, variant_floor("blackjack-burnout", split={"max_hands": 6}))
    assert codes(six) == {"us-co/blackjack-burnout/split-up-to-four-times"}
    plain = validate(vendor_client, floor("US-CO", [{"split": {"max_hands": 5}}]))
    assert codes(plain) == {"us-co/blackjack/split-at-most-three-times"}
    switch = validate(vendor_client, variant_floor("blackjack-switch", blackjack_pays="3 to 2"))
    assert codes(switch) == {"us-co/blackjack-switch/blackjack-pays-1-to-1"}
    assert "us-co/blackjack/blackjack-pays-at-least-6-to-5" not in codes(
        validate(vendor_client, variant_floor("blackjack-switch", blackjack_pays="1 to 1"))
    )


def test_a_multiple_action_hole_card_is_a_warning_and_the_reading_is_annotated(
    vendor_client: APIClient, anon_client: APIClient
) -> None:
    body = validate(vendor_client, variant_floor("multiple-action-blackjack", hole_card="peek"))
    [finding] = body["findings"]
    assert finding["code"] == "us-co/multiple-action-blackjack/no-hole-card"
    assert finding["severity"] == "warning" and body["compliant"] is True
    assert "annotation on 30-899.01(5)" in finding["message"]
    item = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-CO", "citation": "30-899.01(5)"}
    ).json()["results"][0]
    assert any("no-hole-card" in a["text"] for a in item["annotations"])


def test_push_your_luck_may_be_at_most_half_the_blackjack_wager(vendor_client: APIClient) -> None:
    """30-899.22(3): "up to half the amount of his/her main blackjack wager": with a $500 table
    maximum, a $250 Push Your Luck maximum keeps it, $300 does not."""
    code = "us-co/push-your-luck/at-most-half-the-blackjack-wager"

    def with_max(most: str) -> set[str]:
        wager = side(
            "push-your-luck", "us-co/push-your-luck/pays", limits={"min": "5", "max": most}
        )
        return codes(validate(vendor_client, configuration(side_wagers=[wager])))

    assert code not in with_max("250")
    assert code in with_max("300")


# Layout requirements (issue #3): "X may be played only on tables displaying the X layout".


def test_a_game_or_wager_without_its_layout_is_an_error_with_it_none(
    vendor_client: APIClient,
) -> None:
    """30-899.16(1): "Spanish 21 may be played only on tables displaying the Spanish 21 layout";
    30-899.20(1): King's Bounty likewise, as a side wager."""
    kept = validate(vendor_client, variant_floor("spanish-21", layouts=["spanish-21"]))
    assert kept["findings"] == [] and kept["compliant"] is True
    body = validate(vendor_client, variant_floor("spanish-21", layouts=["blackjack"]))
    [finding] = body["findings"]
    assert finding["code"] == "us-co/spanish-21/layout" and finding["severity"] == "error"
    assert finding["path"] == "tables[0].layouts" and body["compliant"] is False
    assert finding["citations"][0]["citation"] == "30-899.16(1)"
    assert finding["message"].startswith(
        "Spanish 21 is offered, but the table does not display the spanish-21 layout "
        "(its layouts are blackjack); Spanish 21 may be played only on tables displaying"
    )
    side_wager = validate(vendor_client, configuration(layouts=["blazing-7s"]))
    assert codes(side_wager) == {"us-co/kings-bounty/layout"}
    [finding] = side_wager["findings"]
    assert finding["path"] == "tables[0].layouts" and side_wager["compliant"] is False
    assert finding["citations"][0]["citation"] == "30-899.20(1)"
    # The rule binds the tables offering the game or wager, no others.
    plain = configuration(side_wagers=[], layouts=[])
    assert validate(vendor_client, plain)["findings"] == []


def test_a_table_that_does_not_state_its_layouts_is_told_the_rules_need_them(
    vendor_client: APIClient,
) -> None:
    config = configuration()
    del config["tables"][0]["layouts"]
    body = validate(vendor_client, config)
    missing = [f for f in body["findings"] if f["code"] == "fact-missing"]
    assert [(f["severity"], f["path"]) for f in missing] == [("warning", "tables[0].layouts")] * 2
    assert {f["citations"][0]["citation"] for f in missing} == {"30-899.20(1)", "30-899.21(1)"}
    assert missing[0]["message"].startswith(
        "The table's layout is not given, and the rule needs it"
    )
    assert body["findings"] == missing and body["compliant"] is True


def test_blazing_7s_layout_or_signage_is_a_warning_that_names_the_signage(
    vendor_client: APIClient,
) -> None:
    """30-899.21(1): "the Blazing 7's Progressive layout and/or signage": a configuration cannot
    state signage, so a table without the layout may still keep the rule."""
    body = validate(vendor_client, configuration(layouts=["kings-bounty"]))
    [finding] = body["findings"]
    assert finding["code"] == "us-co/blazing-7s/layout" and finding["severity"] == "warning"
    assert "layout and/or signage" in finding["message"]
    assert "a configuration cannot state signage" in finding["message"]
    assert body["compliant"] is True


def test_a_rule_naming_one_layout_for_several_wagers_binds_each(vendor_client: APIClient) -> None:
    """30-2115: "TriLux Blackjack may be played only on tables displaying the TriLux Blackjack
    layout" binds its Bonus, Super 3, Bust Bonanza and progressive wagers; the layout is named by
    the TriLux Bonus."""
    bust = side("trilux-bust-bonanza")
    without = validate(vendor_client, configuration(side_wagers=[bust], layouts=[]))
    finding = next(f for f in without["findings"] if "layout" in f["code"])
    assert finding["code"] == "us-co/trilux/layout/trilux-bust-bonanza"
    assert "does not display the trilux-bonus layout (it displays no layout)" in finding["message"]
    assert finding["citations"][0]["citation"] == "30-2115 ¶2"
    with_it = validate(vendor_client, configuration(side_wagers=[bust], layouts=["trilux-bonus"]))
    assert not [f for f in with_it["findings"] if "layout" in f["code"]]


def test_massachusetts_reads_a_wagers_area_of_the_layout_as_a_warning(
    vendor_client: APIClient,
) -> None:
    """MA 28(d): a 21+3 wager is placed "on the appropriate area of the blackjack layout"."""
    plus_3 = side("21-plus-3", limits={"min": "5", "max": "100"})
    body = validate(vendor_client, floor("US-MA", [{"side_wagers": [plus_3], "layouts": []}]))
    finding = next(f for f in body["findings"] if f["code"] == "us-ma/21-plus-3/layout")
    assert finding["severity"] == "warning" and finding["citations"][0]["citation"] == "28(d)"
    kept = validate(
        vendor_client, floor("US-MA", [{"side_wagers": [plus_3], "layouts": ["21-plus-3"]}])
    )
    assert "us-ma/21-plus-3/layout" not in codes(kept)


def test_an_unknown_layout_is_a_400_naming_it(vendor_client: APIClient) -> None:
    response = vendor_client.post(
        "/api/v1/validations/",
        configuration(layouts=["kings-bounty", "no-such-layout"]),
        format="json",
    )
    assert response.status_code == 400
    message = response.json()["error"]["message"]
    assert message.startswith("tables[0].layouts[1]: 'no-such-layout' is no wager in the catalog")
    assert "valid slugs: " in message and "kings-bounty" in message


def test_the_schema_documents_a_tables_layouts(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/v1/schema/", {"format": "json"}).json()
    layouts = schema["components"]["schemas"]["Table"]["properties"]["layouts"]
    assert (
        layouts["type"] == "array"
        and "approved layouts the table displays" in (layouts["description"])
    )


def test_colorado_trilux_tables_are_checked_against_their_printed_decks(
    vendor_client: APIClient,
) -> None:
    """30-2115¶3, ¶5: each TriLux Bonus and Super 3 pay table's Deck Type row; ¶4's Lucky George
    tables print none, so any deck count keeps them."""
    trilux = [
        side("trilux-bonus", "us-co/trilux-bonus/tri-05"),
        side("trilux-super-3", "us-co/trilux-super-3/sup-01"),
    ]
    ok = configuration(side_wagers=trilux, layouts=["trilux-bonus"])
    assert validate(vendor_client, ok)["findings"] == []
    lucky = [side("trilux-bonus", "us-co/trilux-bonus/trilg-04")]
    for decks in (1, 3, 8):
        body = validate(
            vendor_client,
            configuration(
                decks=decks,
                dealing="hand" if decks == 1 else "shoe",
                side_wagers=lucky,
                layouts=["trilux-bonus"],
            ),
        )
        assert "paytable-decks" not in codes(body), decks
    two_decks = [side("trilux-bonus", "us-co/trilux-bonus/tri-02"), trilux[1]]
    body = validate(vendor_client, configuration(side_wagers=two_decks, layouts=["trilux-bonus"]))
    assert [f["path"] for f in body["findings"] if f["code"] == "paytable-decks"] == [
        "tables[0].side_wagers[0].paytable"
    ]


def test_trilg_04_is_played_with_a_minimum_of_five_dollars(vendor_client: APIClient) -> None:
    """30-2115¶4: "Pay table TRILG-04 must be a minimum of $5 only": a $1 minimum with TRILG-04
    breaks it, a $5 minimum keeps it, and another TriLux Bonus table is not bound."""
    code = "us-co/trilux-bonus/trilg-04-minimum-5-dollars"

    def findings(paytable: str, least: str) -> set[str]:
        bonus = side("trilux-bonus", paytable, limits={"min": least, "max": "100"})
        return codes(validate(vendor_client, configuration(side_wagers=[bonus])))

    assert code in findings("us-co/trilux-bonus/trilg-04", "1")
    assert code not in findings("us-co/trilux-bonus/trilg-04", "5")
    assert code not in findings("us-co/trilux-bonus/trilg-01", "1")


def test_a_validation_costs_eight_queries_once_the_catalog_is_read(
    vendor_client: APIClient, django_assert_num_queries: Any
) -> None:
    """The token and its user, the permission, the knowledge base's revision; then in one
    transaction (a savepoint and its release here, inside the test's) the insert, its history
    row, and the vendor's older runs of the same floor to supersede (none the first time; the
    one filed before it the second: its update and history row). The catalog facts and
    citations are read at the first validation of a revision, not again."""
    body = json.loads((CONFIGS / "casino-house-rules-co.json").read_text())
    validate(vendor_client, body)
    other_floor = dict(body, licensee="Another casino")

    with django_assert_num_queries(8):
        validate(vendor_client, other_floor)
    with django_assert_num_queries(10):
        validate(vendor_client, other_floor)


# Faults everywhere in one configuration: the whole configuration, a table's fields, nested
# objects, an inline paytable's lines, a list's items.
MANY_FAULTS = {
    "jurisdiction": "US-CO",
    "as_of": "2024-13-01",
    "tables": [
        dict(TABLE, decks="six", double={"on": "sometimes"}, split={}, layouts=["nope", 3]),
        {
            "name": "x" * 81,
            "game": "blackjack",
            "blackjack_pays": "10%",
            "limits": {"min": "500", "max": "10"},
            "side_wagers": [
                {"wager": "no-such-bet"},
                {"wager": "kings-bounty", "paytable": [{"outcome": "suited-kings"}, {"pays": 4}]},
                {"wager": "blazing-7s", "paytable": [], "bonus_payouts": [{"amount": "-1"}]},
            ],
        },
        "not a table",
    ],
}


def _fresh_serializer(data: dict[str, Any]) -> ConfigurationSerializer:
    """A ConfigurationSerializer as DRF makes one for a request, fields built anew."""
    serializer = ConfigurationSerializer(data=copy.deepcopy(data))
    serializer.is_valid()
    return serializer


def test_a_faulty_configuration_gets_every_error_a_fresh_serializer_gives(
    vendor_client: APIClient,
) -> None:
    """configuration_parse checks with one serializer built once (pitboss.api.shared_serializer):
    the same errors as a new one, however often and between good configurations it is used."""
    expected = json.loads(json.dumps(_fresh_serializer(MANY_FAULTS).errors))
    assert len(expected["tables"]) == 3

    for _ in range(2):
        response = vendor_client.post("/api/v1/validations/", MANY_FAULTS, format="json")
        assert response.status_code == 400
        assert response.json()["error"]["fields"] == expected
        validate(vendor_client, configuration())


@pytest.mark.parametrize("name", ["casino-house-rules-co.json", "casino-house-rules-ma.json"])
def test_a_configuration_parses_as_a_fresh_serializer_reads_it(name: str) -> None:
    data = json.loads((CONFIGS / name).read_text())
    data["tables"].append(TABLE)

    fresh = configuration_of(dict(_fresh_serializer(data).validated_data), data)
    assert configuration_parse(data) == fresh
    assert configuration_parse(data, heads=kbcache.history_heads()) == fresh


def test_threads_sharing_the_serializer_each_get_their_own_answer() -> None:
    """gunicorn's threads check configurations at once with the one shared serializer."""
    heads = kbcache.history_heads()
    good = configuration()
    parsed = configuration_parse(good, heads=heads)  # the catalog read, in this thread
    with pytest.raises(InvalidInput) as faulty:
        configuration_parse(MANY_FAULTS, heads=heads)

    def check(n: int) -> bool:
        if n % 2:
            return configuration_parse(good, heads=heads) == parsed
        try:
            configuration_parse(MANY_FAULTS, heads=heads)
        except InvalidInput as exc:
            return exc.detail == faulty.value.detail
        return False

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert all(pool.map(check, range(200)))


@pytest.mark.parametrize("name", ["casino-house-rules-co.json", "casino-house-rules-ma.json"])
def test_the_answer_is_the_stored_run_as_a_fresh_serializer_renders_it(
    vendor_client: APIClient, name: str
) -> None:
    """The POST's answer and a GET of the run render it with one shared ValidationOut."""
    body = validate(vendor_client, json.loads((CONFIGS / name).read_text()))
    run = ValidationRun.objects.get(pk=body["id"])

    assert body["findings"] and body["tables"]
    assert body == json.loads(JSONRenderer().render(ValidationOut(run).data))
    assert vendor_client.get(f"/api/v1/validations/{run.pk}/").json() == body
