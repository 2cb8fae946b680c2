"""Signs from a configuration, read back from the printed PDFs as a person would read them."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from django.conf import settings
from django.core.management import call_command
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.models import SignSet
from compliance.services import NotCompliant, sign_set_create
from compliance.signage_render import sign_set_pdf
from variants.models import Paytable

CONFIGS = Path(settings.BASE_DIR) / "fixtures" / "configs"
DATA = Path(__file__).parent / "data"
pytestmark = pytest.mark.django_db


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def pdf_text(pdf: bytes) -> str:
    """Every word of the PDF in reading order, one space apart (a notice may wrap)."""
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return " ".join(" ".join((page.extract_text() or "").split()) for page in doc.pages)


def words(text: str) -> str:
    return " ".join(text.split())


def printed(sign_set: SignSet, size: str = "letter") -> dict[str | None, str]:
    """Each sign's PDF text, by table name (None: the wall sign)."""
    return {
        sign["table"]: pdf_text(sign_set_pdf(sign_set, size=size, sign=n))
        for n, sign in enumerate(sign_set.signs)
    }


def assert_notices_printed(sign_set: SignSet, texts: dict[str | None, str]) -> None:
    """Each notice of each sign is on that sign's PDF: its text, each pay line, its citation."""
    for sign in sign_set.signs:
        text = texts[sign["table"]]
        for notice in sign["notices"]:
            assert words(notice.get("heading", notice["text"])) in text, (sign["table"], notice)
            for line in notice.get("lines", []):
                assert re.search(
                    re.escape(words(line["label"])) + r".*?" + re.escape(line["pays"]), text
                )
            for citation in notice["citations"]:
                assert citation["citation"] in text


def notices(sign_set: SignSet, table: str | None) -> list[str]:
    sign = next(s for s in sign_set.signs if s["table"] == table)
    return [n["text"] for n in sign["notices"]]


def test_colorado_floor_prints_each_required_notice_on_its_tables_sign() -> None:
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-co.json"))
    )
    assert not sign_set.draft
    texts = printed(sign_set)
    assert_notices_printed(sign_set, texts)
    bj1, bj2, wall = texts["BJ-01"], texts["BJ-02"], texts[None]
    # 30-803(3)(a)-(c): soft 17, odds and limits on every table's own sign, never the wall
    for text, odds, limits in (
        (bj1, "3 to 2", "$10, maximum $500"),
        (bj2, "6 to 5", "$5, maximum $200"),
    ):
        assert "Dealer must draw to 16 and stand on all 17's" in text
        assert f"Blackjack pays {odds}" in text
        assert "Insurance pays 2 to 1" in text
        assert f"Table limits: minimum {limits}" in text
    assert "Blackjack pays" not in wall and "Table limits" not in wall
    # the tables differ in surrender: each says its own, and the wall says neither
    assert "Late surrender only" in bj1 and "Surrender is not offered" in bj2
    assert "surrender" not in wall.lower()
    # shared by every table and allowed on a wall sign by 30-803(4): on the wall only
    shared_notices = (
        "Players may request a copy of all blackjack rules",
        "Aces may not be resplit",
        "Split aces receive one card each",
        "Dealer tip wagers: at most $25",
    )
    for shared in shared_notices:
        assert shared in wall and shared not in bj1 and shared not in bj2
    assert "30-803(4)" in wall and "30-804" in wall
    # 30-813: doubling is posted at the table, so it stays there even though both tables share it
    assert "Double down on any first two cards" in bj1 and "Double down" in bj2
    assert "Double down" not in wall
    # 30-2107(3): 21+3 Xtreme's limits and aggregate payout limit at its table
    assert "21+3 Xtreme: minimum $1, maximum $25" in bj2
    assert "aggregate payout limit $50,000" in bj2


def test_a_6_to_5_table_never_says_3_to_2_and_a_for_1_pay_is_never_printed_to_1() -> None:
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-co.json"))
    )
    texts = printed(sign_set, size="tent")
    assert "3 to 2" not in texts["BJ-02"] and "3 to 2" not in texts[None]
    b7p2 = Paytable.objects.get(key="us-co/blazing-7s/b7p2")
    for_lines = [e for e in b7p2.entries.all() if " for " in e.pays]
    assert for_lines
    for entry in for_lines:  # the line's label, then its pay as printed: "for", never "to"
        assert f"{words(entry.label)} {entry.pays}" in texts["BJ-01"], entry.label
        assert f"{words(entry.label)} {entry.pays.replace(' for ', ' to ')}" not in texts["BJ-01"]


def test_one_tables_paytable_never_appears_on_another_tables_sign() -> None:
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-co.json"))
    )
    texts = printed(sign_set)
    assert "King's Bounty" in texts["BJ-01"] and "Blazing 7's" in texts["BJ-01"]
    for other in ("BJ-02", None):
        assert "King's Bounty" not in texts[other] and "Blazing 7's" not in texts[other]
        assert "500 for 1" not in texts[other]
    assert "21+3 Xtreme" in texts["BJ-02"] and "21+3" not in texts["BJ-01"]


def test_a_one_table_floor_shares_everything_wall_eligible_and_keeps_the_rest_at_the_table() -> (
    None
):
    data = load(DATA / "signage-floor-co.json")
    data["tables"] = data["tables"][:1]
    sign_set = sign_set_create(configuration=configuration_parse(data))
    texts = printed(sign_set, size="a4")
    assert_notices_printed(sign_set, texts)
    assert "Late surrender only" in texts[None] and "Late surrender only" not in texts["BJ-01"]
    # 30-803(3)(h) lets a pay schedule go on the wall; the table's paytables are its own
    assert "Blackjack pays 3 to 2" in texts["BJ-01"]
    kept = sign_set_create(configuration=configuration_parse(data), wall_signs=False)
    assert [s["table"] for s in kept.signs] == ["BJ-01", None]  # 30-804's house rules
    assert "Late surrender only" in pdf_text(sign_set_pdf(kept, sign=0))


def test_massachusetts_floor_prints_its_147_03_notices_and_7d_on_the_layout() -> None:
    sign_set = sign_set_create(
        configuration=configuration_parse(load(DATA / "signage-floor-ma.json"))
    )
    assert not sign_set.draft, sign_set.findings
    texts = printed(sign_set)
    assert_notices_printed(sign_set, texts)
    assert set(texts) == {"BJ-1", "BJ-2"}  # Massachusetts has no wall-sign rule
    bj1, bj2 = texts["BJ-1"], texts["BJ-2"]
    assert "21+3: minimum $5, maximum $100" in bj1 and "28(d)" in bj1 and "28(f)" in bj1
    assert "King's Bounty" not in bj1 and "21+3" not in bj2
    assert "King's Bounty Sidebet: minimum $5, maximum $50" in bj2 and "29(h)" in bj2
    assert "Even money" in bj1 and "Even money" not in bj2  # 7(c), offered at BJ-1 only
    assert "dealt face down" in bj1 and "10(c)" in bj1
    assert "Pairs may be split up to three times" in bj1 and "11(e)" in bj1
    # 7(d): paying 6 to 5 on six decks outside the variation, its rules go on the layout
    layout = next(s for s in sign_set.signs if s["table"] == "BJ-2")["layout_notices"]
    assert [c["citation"] for n in layout for c in n["citations"]] == ["7(d)"]
    assert "Required on the table layout" in bj2 and "7(d)" in bj2
    assert "Required on the table layout" not in bj1
    assert "3 to 2" not in bj2


def test_the_house_rules_get_no_clean_sign_but_a_draft_marked_not_approved() -> None:
    for name in ("casino-house-rules-co.json", "casino-house-rules-ma.json"):
        data = load(CONFIGS / name)
        with pytest.raises(NotCompliant) as refused:
            sign_set_create(configuration=configuration_parse(data))
        codes = {f["code"] for f in refused.value.findings}
        assert "sign-fact-missing" in codes  # no table limits: 30-803(3)(c), 29(c)
        assert not SignSet.objects.filter(validation=refused.value.run).exists()
        draft = sign_set_create(configuration=configuration_parse(data), draft=True)
        assert draft.draft
        pdf = sign_set_pdf(draft, size="tent")
        with pdfplumber.open(io.BytesIO(pdf)) as doc:
            pages = [page.extract_text() or "" for page in doc.pages]
        assert len(pages) >= 2
        assert all("NOT APPROVED" in page for page in pages)
        assert "sign-fact-missing" in pages[0]
        texts = {
            s["table"]: pdf_text(sign_set_pdf(draft, sign=n)) for n, s in enumerate(draft.signs)
        }
        assert_notices_printed(draft, texts)


def test_the_colorado_house_rules_draft_holds_each_required_notice() -> None:
    draft = sign_set_create(
        configuration=configuration_parse(load(CONFIGS / "casino-house-rules-co.json")), draft=True
    )
    table = pdf_text(sign_set_pdf(draft, sign=0))
    assert "Dealer must hit on soft 17" in table and "Blackjack pays 3 to 2" in table
    assert "Table limits: minimum [not given]" in table
    everything = pdf_text(sign_set_pdf(draft))
    # the offered King's Bounty table matches no approved one: printed only as such, on a draft
    assert "matches no approved paytable" in everything
    assert "2 for 1" in everything and "2 to 1" not in everything.replace(
        "Insurance pays 2 to 1", ""
    )


def test_the_proposed_raise_the_roof_cap_appears_only_with_include_proposed() -> None:
    data = load(DATA / "signage-floor-co.json")
    table = data["tables"][0]
    table["layouts"].append("raise-the-roof")
    table["side_wagers"] = [
        {
            "wager": "raise-the-roof",
            "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1",
            "limits": {"min": "10", "max": "100"},
        }  # fmt: skip
    ]
    data["tables"] = [table]
    adopted = sign_set_create(configuration=configuration_parse(data), draft=True)
    assert "$100" not in json.dumps(adopted.signs)
    assert "$100" not in pdf_text(sign_set_pdf(adopted))
    proposed = sign_set_create(
        configuration=configuration_parse(data | {"include_proposed": True}), draft=True
    )
    text = pdf_text(sign_set_pdf(proposed))
    assert "Raise The Roof Ante wagers: table minimum to table maximum, up to $100" in text
    assert "47.1-834.23(3)" in text and "proposed" in text


def test_citations_on_a_sign_are_the_labels_of_the_as_of_date() -> None:
    data = load(DATA / "signage-floor-co.json")
    data["as_of"] = "2016-06-01"  # before 30-899.20 was renumbered from 30-834.20
    data["tables"][0]["side_wagers"] = data["tables"][0]["side_wagers"][:1]
    sign_set = sign_set_create(configuration=configuration_parse(data), draft=True)
    cited = {c["citation"] for s in sign_set.signs for n in s["notices"] for c in n["citations"]}
    assert "30-803(3)(a)" in cited
    assert not any(c.startswith("30-899") for c in cited)
    # 30-803(3)(a) as amended 2017-12-15 is not the version in force in 2016
    versions = {
        c["citation"]: c["effective_from"]
        for s in sign_set.signs
        for c in s["provenance"]["provisions"]
    }
    assert versions["30-803(3)(a)"] != "2017-12-15"


def test_a_sign_set_is_stored_with_its_run_and_prints_again_identically(
    vendor_client: APIClient,
) -> None:
    body = load(DATA / "signage-floor-co.json")
    created = vendor_client.post("/api/v1/signage/", body, format="json")
    assert created.status_code == 201, created.json()
    out = created.json()
    assert out["validation"]["compliant"] is True
    assert [s["placement"] for s in out["signs"]] == ["table", "table", "wall"]
    assert out["signs"][2]["table"] is None
    first = out["signs"][0]
    assert first["provenance"]["knowledge_base"] == out["validation"]["knowledge_base"]
    assert first["provenance"]["licensee"] == "Example Casino, Black Hawk"
    assert all(n["citations"] for s in out["signs"] for n in s["notices"])
    again = vendor_client.get(first["pdf"])
    assert again.status_code == 200 and again["Content-Type"] == "application/pdf"
    stored = SignSet.objects.get(pk=out["id"])
    assert pdf_text(again.content) == pdf_text(sign_set_pdf(stored, sign=0))
    assert words(first["notices"][0]["text"]) in pdf_text(again.content)


def test_signage_as_pdf_and_html_and_refusals_over_the_api(vendor_client: APIClient) -> None:
    body = load(DATA / "signage-floor-co.json")
    pdf = vendor_client.post("/api/v1/signage/?format=pdf&size=tent", body, format="json")
    assert pdf.status_code == 201 and pdf.content.startswith(b"%PDF")
    html = vendor_client.post("/api/v1/signage/?format=html", body, format="json")
    assert b"Blackjack pays 6 to 5" in html.content
    refused = vendor_client.post(
        "/api/v1/signage/", load(CONFIGS / "casino-house-rules-co.json"), format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "not_compliant"
    assert refused.json()["error"]["message"].startswith(
        "No sign is printed: the configuration breaks the rules ("
    )
    assert "and the signs need " in refused.json()["error"]["message"]
    assert {f["code"] for f in refused.json()["findings"]} >= {
        "paytable-not-approved",
        "sign-fact-missing",
    }
    unsaid = copy.deepcopy(body)  # compliant, but the insurance sign's odds are not given
    for table in unsaid["tables"]:
        table.pop("insurance_pays", None)
    short = vendor_client.post("/api/v1/signage/", unsaid, format="json").json()
    assert {f["code"] for f in short["findings"] if f["severity"] == "error"} == {
        "sign-fact-missing"
    }
    assert (
        short["error"]["message"].startswith("No sign is printed: the signs need ")
        and "breaks the rules" not in short["error"]["message"]
    )
    drafted = vendor_client.post(
        "/api/v1/signage/?draft=true", load(CONFIGS / "casino-house-rules-co.json"), format="json"
    )
    assert drafted.status_code == 201 and drafted.json()["draft"] is True
    bad = copy.deepcopy(body)
    bad["tables"][0]["tips"] = {"max": "lots"}
    malformed = vendor_client.post("/api/v1/signage/", bad, format="json")
    assert malformed.status_code == 400 and "tables[0].tips.max" in json.dumps(malformed.json())
    size = vendor_client.post("/api/v1/signage/?size=huge", body, format="json")
    assert size.status_code == 400 and "size" in json.dumps(size.json())


def test_the_command_writes_a_pdf_per_sign(tmp_path: Path) -> None:
    call_command(
        "signage", str(DATA / "signage-floor-ma.json"), "--out", str(tmp_path), "--size", "a4"
    )
    pdfs = sorted(p.name for p in tmp_path.glob("*.pdf"))
    assert pdfs == ["00-table-bj-1.pdf", "01-table-bj-2.pdf"]
    assert "King's Bounty" in pdf_text((tmp_path / "01-table-bj-2.pdf").read_bytes())
    signs = json.loads((tmp_path / "signs.json").read_text())
    assert signs["draft"] is False and len(signs["signs"]) == 2


def test_a_rule_not_yet_in_force_is_cited_by_the_label_it_first_bore(
    vendor_client: APIClient,
) -> None:
    data = load(DATA / "signage-floor-co.json")
    data["as_of"] = "2015-11-13"  # King's Bounty took effect on 2015-11-14, as 30-834.20
    data["tables"][0]["side_wagers"] = data["tables"][0]["side_wagers"][:1]
    response = vendor_client.post("/api/v1/validations/", data, format="json")
    cited = [
        c["citation"]
        for f in response.json()["findings"]
        if f["code"] == "wager-not-in-force"
        for c in f["citations"]
    ]
    assert cited == ["30-834.20"]


def test_a_tip_restriction_a_side_wager_wants_at_the_table_keeps_it_off_the_wall() -> None:
    data = load(DATA / "signage-floor-co.json")
    data["tables"][1]["layouts"].append("streak")
    data["tables"][1]["side_wagers"].append(
        {"wager": "streak", "limits": {"min": "1", "max": "25"}}
    )
    sign_set = sign_set_create(configuration=configuration_parse(data), draft=True)
    tips = "Dealer tip wagers: at most $25"
    for table in ("BJ-01", "BJ-02"):
        assert tips in notices(sign_set, table)
    assert tips not in notices(sign_set, None)
    streak_table = next(s for s in sign_set.signs if s["table"] == "BJ-02")
    cited = next(n["citations"] for n in streak_table["notices"] if n["text"] == tips)
    assert [c["citation"] for c in cited] == ["30-803(3)(i)", "30-899.07(4)"]
    assert "STREAK: minimum $1, maximum $25" in notices(sign_set, "BJ-02")


def test_a_spanish_21_table_posts_the_spanish_21_rules_each_cited() -> None:
    data = load(DATA / "signage-floor-co.json")
    table = data["tables"][1] | {"name": "S21", "game": "spanish-21", "layouts": ["spanish-21"]}
    table["side_wagers"] = []
    sign_set = sign_set_create(
        configuration=configuration_parse(data | {"tables": [table]}), draft=True
    )
    sign = sign_set.signs[0]
    rules = [
        n for n in sign["notices"] if any("30-899.16(1)" == c["citation"] for c in n["citations"])
    ]
    assert any("A player blackjack always beats a dealer blackjack" in n["text"] for n in rules)
    cited = {c["citation"] for n in rules for c in n["citations"]}
    assert {"30-899.16(3)", "30-899.16(7)", "30-899.16(9)"} <= cited
    text = pdf_text(sign_set_pdf(sign_set, sign=0, size="tent"))
    assert "A player total of 21 always beats a dealer total of 21." in text


def test_the_command_refuses_a_configuration_with_errors_unless_drafted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = str(CONFIGS / "casino-house-rules-ma.json")
    with pytest.raises(SystemExit) as refused:
        call_command("signage", config, "--out", str(tmp_path))
    assert refused.value.code == 1
    assert "sign-fact-missing" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.pdf"))
    call_command("signage", config, "--out", str(tmp_path), "--draft", "--size", "tent")
    pdf = (tmp_path / "00-table-house-rules-blackjack.pdf").read_bytes()
    assert pdf_text(pdf).startswith("NOT APPROVED")
