"""Signs that follow the posting rules: where each notice may go, the notices an option needs,
pays and footnotes as the paytable prints them, and the same findings in the report and the
draft. Read back from the printed PDFs as a person would read them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.services import sign_set_create
from compliance.signage_render import sign_set_pdf
from tests.compliance.test_signage import load, pdf_text, printed, words

CONFIGS = Path(settings.BASE_DIR) / "fixtures" / "configs"
DATA = Path(__file__).parent / "data"
SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources" / "text"
pytestmark = pytest.mark.django_db


def source_line(name: str, line: int) -> str:
    return (SOURCES / name).read_text().splitlines()[line - 1]


def one_table_floor_with_raise_the_roof() -> dict[str, Any]:
    """The sample Colorado floor's BJ-01 alone (King's Bounty KB03, Blazing 7's B7P2), with
    Raise The Roof's six-deck stand-on-soft-17 Pay Table 1 added."""
    data = load(DATA / "signage-floor-co.json")
    table = data["tables"][0]
    table["layouts"].append("raise-the-roof")
    table["side_wagers"].append(
        {
            "wager": "raise-the-roof",
            "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1",
            "limits": {"min": "10", "max": "100"},
        }  # fmt: skip
    )
    return data | {"tables": [table]}


def sign(sign_set: Any, table: str | None) -> dict[str, Any]:
    return next(s for s in sign_set.signs if s["table"] == table)


def cited(notice: dict[str, Any]) -> list[str]:
    return [c["citation"] for c in notice["citations"]]


def test_a_one_table_floors_paytables_stay_on_its_table_sign_under_30_810() -> None:
    """30-810 (co-rule-8-blackjack.md:171): pays "at odds higher than one to one ... shall be
    posted on table signage, EBTs, or shall appear on the table layout" — not on a wall sign,
    though 30-803(4) (line 132) lets the rest of (3)(d)-(i) go there."""
    assert "shall be posted on table signage, EBTs, or shall appear on the table layout" in (
        source_line("co-rule-8-blackjack.md", 171)
    )
    sign_set = sign_set_create(
        configuration=configuration_parse(one_table_floor_with_raise_the_roof()), draft=True
    )
    texts = printed(sign_set)
    table, wall = texts["BJ-01"], texts[None]
    for heading in (
        "King's Bounty Dealer Envy pays (KB03)",
        "Blazing 7's Progressive pays (B7P2)",
        "Raise The Roof pays (6 Decks Dealer Stands on Soft 17: Pay Table 1)",
    ):
        assert heading in table and heading not in wall
        notice = next(n for n in sign(sign_set, "BJ-01")["notices"] if n.get("heading") == heading)
        assert cited(notice) == ["30-803(3)(h)", "30-810"]
    assert "500 to 1" in table and "200 to 1" in table  # KB03's and Raise The Roof's top pays
    assert "King's Bounty" not in wall and "Raise The Roof" not in wall
    # the rest of (3)(d)-(i) still goes to the wall of a one-table floor
    assert "Players may request a copy of all blackjack rules" in wall
    assert "Late surrender only" in wall and "Late surrender only" not in table
    assert "30-810" in table


def test_raise_the_roof_prints_its_pays_as_printed_with_the_footnote_its_asterisks_refer_to() -> (
    None
):
    """30-899.23(12) (co-rule-8-blackjack.md:1495-1503): Pay Table 1's "4, 5, 6, 7 Unsuited*"
    and "Suited*" lines, and under the table "*Dealer Bust total hand. The order in which cards
    are received does not matter." """
    footnote = "*Dealer Bust total hand. The order in which cards are received does not matter."
    assert source_line("co-rule-8-blackjack.md", 1503).replace("\\", "") == footnote
    sign_set = sign_set_create(
        configuration=configuration_parse(one_table_floor_with_raise_the_roof()), draft=True
    )
    notice = next(
        n for n in sign(sign_set, "BJ-01")["notices"] if n.get("heading", "").startswith("Raise")
    )
    assert notice["footnotes"] == [footnote]
    for size in ("letter", "tent"):
        text = pdf_text(sign_set_pdf(sign_set, size=size, sign=0))
        assert "4, 5, 6, 7 Suited* 1 to 1 200 to 1" in text
        assert footnote in text
        # the footnote follows its table, not another table's
        assert text.index("Raise The Roof pays") < text.index(footnote)
    assert footnote in notice["text"]  # the notice's text as the API gives it


def test_a_pay_the_paytable_prints_as_2_5_to_1_is_printed_so_not_reduced_to_5_to_2() -> None:
    """30-2115¶3 (co-rule-21-blackjack-poker.md:926-930): TRI-02 prints every pay "2.5 to 1"."""
    assert "2.5 to 1" in source_line("co-rule-21-blackjack-poker.md", 926)
    data = load(DATA / "signage-floor-co.json")
    table = data["tables"][0] | {"decks": 2, "layouts": ["blackjack", "trilux-bonus"]}
    table["side_wagers"] = [
        {
            "wager": "trilux-bonus",
            "paytable": "us-co/trilux-bonus/tri-02",
            "limits": {"min": "5", "max": "100"},
        }  # fmt: skip
    ]
    inline = copy.deepcopy(table)  # the same table given line by line, its pays written "5 to 2"
    inline["side_wagers"][0]["paytable"] = [
        {"outcome": o, "pays": "5 to 2"}
        for o in ("three-of-a-kind", "straight-flush", "straight", "flush", "pair")
    ]
    for offered in (table, inline):
        sign_set = sign_set_create(
            configuration=configuration_parse(data | {"tables": [offered]}), draft=True
        )
        text = pdf_text(sign_set_pdf(sign_set, sign=0))
        assert "TriLux Bonus pays (TRI-02)" in text
        assert "Pair 2.5 to 1" in text and "5 to 2" not in text


def test_massachusetts_surrender_and_aces_split_once_carry_their_147_03_notices() -> None:
    """8(c) (ma-205-cmr-blackjack.md:176): no initiating "the use of the surrender option at a
    table unless the gaming licensee complies with the notice requirements set forth in 205 CMR
    147.03"; 11(e) (line 205): the licensee "may ... prohibit a player from splitting a pair of
    aces more than once (a total of two hands) if notice is provided as set forth in 205 CMR
    147.03". The sample floor's BJ-1 offers late surrender and splits to four hands, aces once."""
    assert "surrender option at a table unless" in source_line("ma-205-cmr-blackjack.md", 176)
    assert "splitting a pair of aces more than once" in source_line("ma-205-cmr-blackjack.md", 205)
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-ma.json"))
    )
    texts = printed(sign_set)
    bj1, bj2 = sign(sign_set, "BJ-1"), sign(sign_set, "BJ-2")
    surrender = next(n for n in bj1["notices"] if "8(c)" in cited(n))
    assert "surrender" in surrender["text"].lower()
    assert not any("8(c)" in cited(n) for n in bj2["notices"])  # BJ-2 offers none
    aces = next(n for n in bj1["notices"] if "only once" in n["text"])
    assert cited(aces) == ["11(e)"]
    assert "Pairs may be split up to three times (a total of four hands)" in texts["BJ-1"]
    assert words(surrender["text"]) in texts["BJ-1"] and words(aces["text"]) in texts["BJ-1"]
    assert "8(c)" in texts["BJ-1"] and "8(c)" not in texts["BJ-2"]
    assert "only once" not in texts["BJ-2"]  # BJ-2 splits to two hands: no option used


def test_a_6_to_5_variation_table_without_doubling_after_splits_posts_10d_and_147_03() -> None:
    """10(d) (ma-205-cmr-blackjack.md:195): "In the 6 to 5 blackjack variation, a gaming licensee
    may prohibit doubling down after splitting pairs upon compliance with the notice requirements
    set forth at 205 CMR 147.03." 147.03 is not in the sources: the provenance says its text
    sets the notice's form."""
    assert "may prohibit doubling down after splitting pairs" in source_line(
        "ma-205-cmr-blackjack.md", 195
    )
    floor = load(DATA / "signage-floor-ma.json")
    table = floor["tables"][1] | {
        "name": "V-65",
        "variation": "6-to-5",
        "decks": 2,
        "dealing": "hand",
        "dealer_soft_17": "hit",
        "double": {"on": "any_two", "after_split": False},
        "layouts": ["blackjack"],
        "side_wagers": [],
    }
    sign_set = sign_set_create(configuration=configuration_parse(floor | {"tables": [table]}))
    assert not sign_set.draft, sign_set.findings
    only = sign_set.signs[0]
    assert [n["text"] for n in only["notices"]] == ["No doubling down after splitting pairs"]
    assert cited(only["notices"][0]) == ["10(d)"]
    assert only["provenance"]["form_not_on_file"] == [
        {"text": "205 CMR 147.03", "citations": ["10(d)"]}
    ]
    text = pdf_text(sign_set_pdf(sign_set, sign=0))
    assert "No doubling down after splitting pairs" in text and "10(d)" in text
    assert "The form of the notices under 10(d) is set by 205 CMR 147.03" in text
    assert "which Pitboss does not hold" in text
    kept = sign_set_create(
        configuration=configuration_parse(
            floor | {"tables": [table | {"double": {"on": "any_two"}}]}
        )
    )
    assert kept.signs[0]["notices"] == []  # doubling after splits kept: no option used


def test_the_report_and_the_draft_of_the_same_run_list_the_same_findings(
    vendor_client: APIClient, vendor: User, client: Client
) -> None:
    """Every fact the signs need and the configuration lacks is a finding of the validation
    report too, cited to the posting rule (30-803(3)(c), co-rule-8-blackjack.md:124; 29(c),
    ma-205-cmr-blackjack.md:695): the report and the draft count the same errors."""
    for name in ("casino-house-rules-co.json", "casino-house-rules-ma.json"):
        body = load(CONFIGS / name)
        report = vendor_client.post("/api/v1/validations/", body, format="json").json()
        draft = vendor_client.post("/api/v1/signage/?draft=true", body, format="json").json()
        assert draft["findings"] == report["findings"], name
        errors = [f for f in report["findings"] if f["severity"] == "error"]
        needs = [f for f in errors if f["code"] == "sign-fact-missing"]
        assert needs and all(f["citations"] for f in needs)
        assert report["compliant"] is False
        client.force_login(vendor)
        page = client.get(f"/configurations/runs/{report['id']}/")
        assert page.status_code == 200
        html = page.content.decode()
        for finding in needs:
            assert finding["path"] in html
    co = load(CONFIGS / "casino-house-rules-co.json")
    report = vendor_client.post("/api/v1/validations/", co, format="json").json()
    paths = {f["path"] for f in report["findings"] if f["code"] == "sign-fact-missing"}
    assert {"tables[0].limits", "tables[0].side_wagers[1].limits"} <= paths


def test_the_147_03_note_is_on_every_massachusetts_sign_with_such_a_notice() -> None:
    """7(c), 11(e), 28(d), 28(f), 29(c): "in accordance with 205 CMR 147.03" (or "as set forth
    in", "pursuant to"); 29(h) and 7(d) name no 147.03 and are not in the note."""
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-ma.json"))
    )
    notes = {
        s["table"]: [c for n in s["provenance"]["form_not_on_file"] for c in n["citations"]]
        for s in sign_set.signs
    }
    assert set(notes["BJ-1"]) == {"7(c)", "8(c)", "11(e)", "28(d)", "28(f)"}  # not 10(c)
    assert "29(c)" in notes["BJ-2"] and "29(h)" not in notes["BJ-2"]
    assert "7(d)" not in notes["BJ-2"]
    text = json.dumps(sign_set.signs)
    assert "205 CMR 147.03" in text


def test_massachusetts_optional_payouts_and_face_up_dealing_carry_their_147_03_notices() -> None:
    """3(e) (ma-205-cmr-blackjack.md:50): the optional payouts only "provided that the gaming
    licensee complies with the notice requirements set forth in 205 CMR 147.03"; 6(k) (line
    128): the hole card dealt face up on the same condition."""
    assert "notice requirements set forth in 205 CMR 147.03" in source_line(
        "ma-205-cmr-blackjack.md", 50
    )
    assert "notice requirements set forth in 205 CMR 147.03" in source_line(
        "ma-205-cmr-blackjack.md", 128
    )
    floor = load(DATA / "signage-floor-ma.json")
    bonus = floor["tables"][0] | {
        "optional_payouts": ["678-suited", "designated-blackjack"],
        "designated_blackjack": ["AS", "JS"],
    }
    face_up = floor["tables"][1] | {
        "hole_card": "face_up",
        "blackjack_pays": "1 to 1",
        "even_money": False,
        "double": {"on": "9_10_11"},
        "split": {"max_hands": 2},
        "side_wagers": [],
        "layouts": ["blackjack"],
    }
    face_up.pop("insurance_pays")
    sign_set = sign_set_create(
        configuration=configuration_parse(floor | {"tables": [bonus, face_up]}), draft=True
    )
    texts = printed(sign_set)
    by_rule = {
        s["table"]: {n["text"]: cited(n) for n in s["notices"] if n["citations"]}
        for s in sign_set.signs
    }
    assert by_rule["BJ-1"]["6, 7 and 8 of the same suit pays 2 to 1"] == ["3(e)"]
    assert by_rule["BJ-1"]["A blackjack of the designated AS and JS pays 2 to 1"] == ["3(e)"]
    assert "Three 7's" not in texts["BJ-1"]  # 3(e)(2) not offered
    dealt = "The dealer's hole card is dealt face up, before any additional cards are dealt"
    assert dealt in texts["BJ-2"] and dealt not in texts["BJ-1"]
    assert "3(e)" not in texts["BJ-2"]
    notes = {s["table"]: s["provenance"]["form_not_on_file"] for s in sign_set.signs}
    assert "6(k)" in notes["BJ-2"][0]["citations"] and "3(e)" in notes["BJ-1"][0]["citations"]
