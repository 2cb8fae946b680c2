"""GET /api/v1/provisions/ and /api/v1/citations/resolve/: the rules as of a date, as a vendor or
an anonymous reader sees them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

RULE_8 = (
    [f"30-8{n:02d}" for n in range(1, 33)]
    + [f"30-832.{n:02d}" for n in range(1, 10)]
    + [f"30-899.{n:02d}" for n in range(1, 30)]
)
RULE_21 = [f"30-21{n:02d}" for n in range(1, 16)]
MASSACHUSETTS = [str(n) for n in range(1, 32)] + ["6a"]


def provision(client: APIClient, **params: str) -> dict[str, Any]:
    response = client.get("/api/v1/provisions/", params)
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert len(results) == 1
    return results[0]


def unit(item: dict[str, Any], path: str) -> dict[str, Any]:
    return next(u for u in item["units"] if u["path"] == path)


@pytest.mark.parametrize(
    ("jurisdiction", "instrument", "labels"),
    [
        ("US-CO", "rule-8", RULE_8),
        ("US-CO", "rule-21", RULE_21),
        ("US-MA", "blackjack", MASSACHUSETTS),
    ],
)
def test_every_section_of_each_regulation_is_there_with_title_and_text(
    anon_client: APIClient, jurisdiction: str, instrument: str, labels: list[str]
) -> None:
    response = anon_client.get(
        "/api/v1/provisions/",
        {"jurisdiction": jurisdiction, "instrument": instrument, "page_size": 500},
    )
    items = response.json()["results"]
    assert sorted(i["current_citation"] for i in items) == sorted(labels)
    for item in items:
        assert item["title"], item["current_citation"]
        assert any(u["text"] for u in item["units"] if u["state"] in {"in_force", "proposed"}), item


def test_raise_the_roof_was_not_in_force_in_2016(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-899.23", as_of="2016-01-01")
    assert item["state"] == "not_in_force"
    assert item["effective_from"] == "2016-10-30"
    assert "not yet in force on 2016-01-01" in item["warnings"][0]
    assert all(u["text"] is None for u in item["units"])


def test_raise_the_roof_in_2017_answers_under_its_old_label_and_admits_the_gap_in_3(
    anon_client: APIClient,
) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-899.23", as_of="2017-01-01")
    assert item["state"] == "in_force"
    assert item["citation"] == "30-834.23"
    assert item["current_citation"] == "30-899.23"
    assert unit(item, "(2)")["citation"] == "30-834.23(2)"
    assert unit(item, "(2)")["text"].startswith("Raise The Roof shall be played using six decks")
    three = unit(item, "(3)")
    assert three["state"] == "not_on_file" and three["text"] is None
    assert three["effective_to"] == "2021-05-01"
    assert "30-834.23(3): the text in force on 2017-01-01 is not on file." in item["warnings"]
    assert "not on file" in item["text"]
    assert "Amended 5/1/21" not in item["text"]  # the date note is an event, not text


def test_raise_the_roof_in_2018_answers_under_its_new_label(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-899.23", as_of="2018-01-01")
    assert item["citation"] == "30-899.23"
    assert unit(item, "(3)")["state"] == "not_on_file"
    after = provision(anon_client, jurisdiction="US-CO", citation="30-899.23", as_of="2021-05-01")
    assert unit(after, "(3)")["text"].startswith("At the same time a player makes his/her standard")


@pytest.mark.parametrize(
    ("as_of", "label", "state"),
    [
        # not yet in force: cited by the label it first bore, not today's
        ("2016-01-01", "30-834.23", "not_in_force"),
        ("2017-01-01", "30-834.23", "in_force"),
        ("2018-01-01", "30-899.23", "in_force"),
    ],
)
def test_the_same_questions_work_through_the_proposed_label(
    anon_client: APIClient, as_of: str, label: str, state: str
) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="47.1-834.23", as_of=as_of)
    assert (item["citation"], item["state"]) == (label, state)
    assert item["title"] == "The play – Raise The Roof."


def test_the_proposed_text_is_a_proposed_version_of_the_same_provision(
    anon_client: APIClient,
) -> None:
    adopted = provision(anon_client, jurisdiction="US-CO", citation="30-899.23")
    proposed = provision(
        anon_client, jurisdiction="US-CO", citation="47.1-834.23", include_proposed="true"
    )
    assert adopted["id"] == proposed["id"]
    assert {
        "label": "47.1-834.23",
        "effective_from": None,
        "effective_to": None,
        "status": "proposed",
    } in (adopted["citations"])
    two = unit(proposed, "(2)")
    assert two["state"] == "proposed" and two["text"].startswith(
        "RAISE THE ROOF SHALL BE PLAYED USING SIX"
    )


@pytest.mark.parametrize(
    ("as_of", "title"),
    [
        ("2016-06-01", "The play - Multiple Action Blackjack."),
        ("2018-06-01", "Blackjack tournaments."),
    ],
)
def test_30_832_means_what_it_meant_on_the_date(
    anon_client: APIClient, as_of: str, title: str
) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-832", as_of=as_of)
    assert item["title"] == title
    assert item["citation"] == "30-832"


def test_30_803_meant_cards_before_1998(anon_client: APIClient) -> None:
    before = provision(anon_client, jurisdiction="US-CO", citation="30-803", as_of="1997-01-01")
    after = provision(anon_client, jurisdiction="US-CO", citation="30-803", as_of="1999-01-01")
    assert before["title"] == "Cards." and before["current_citation"] == "30-806"
    assert after["title"] == "Blackjack table—physical characteristics."


def test_a_citation_without_a_date_answers_today_and_lists_the_other_meanings(
    anon_client: APIClient,
) -> None:
    response = anon_client.get(
        "/api/v1/citations/resolve/", {"jurisdiction": "US-CO", "citation": "30-832(2)(a)"}
    )
    body = response.json()
    assert body["title"] == "Blackjack tournaments."
    assert body["citation"] == "30-832(2)(a)"
    periods = [(m["title"], m["effective_from"], m["effective_to"]) for m in body["meanings"]]
    assert ("The play - Multiple Action Blackjack.", "1998-12-30", "2017-12-15") in periods
    assert ("Blackjack tournaments.", "2017-12-15", None) in periods


def test_an_old_citation_says_what_the_provision_is_called_now(anon_client: APIClient) -> None:
    response = anon_client.get(
        "/api/v1/citations/resolve/",
        {"jurisdiction": "US-CO", "citation": "30-835", "as_of": "2010-01-01"},
    )
    body = response.json()
    assert (body["title"], body["citation"], body["current_citation"]) == (
        "Blackjack tournaments.",
        "30-835",
        "30-832",
    )


def test_massachusetts_is_undated_and_says_so(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-MA", citation="28(g)", as_of="2000-01-01")
    assert item["undated"] is True
    assert item["effective_from"] is None
    assert any("undated" in w for w in item["warnings"])
    assert unit(item, "(g)")["text"].startswith("The 21+3 wager may not be offered")


def test_a_repeated_letter_gets_a_suffix_and_an_annotation(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-MA", citation="2")
    paths = [u["path"] for u in item["units"]]
    assert "(b)" in paths and "(b-2)" in paths
    assert any(
        "(b) is printed twice" in a["text"] for a in item["annotations"] if a["unit"] == "(b-2)"
    )


def test_dated_events_are_notes_on_their_unit(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-801")
    notes = {(n["unit"], n["kind"], n["date"]) for n in item["notes"]}
    assert ("", "temporary", "1993-05-13") in notes
    assert ("", "adopted", "1993-06-30") in notes
    assert ("(1)", "amended", "1998-12-30") in notes
    assert ("(2)", "adopted", "1998-12-30") in notes
    before = provision(anon_client, jurisdiction="US-CO", citation="30-801", as_of="1995-01-01")
    assert unit(before, "(1)")["state"] == "not_on_file"
    assert unit(before, "(2)")["state"] == "not_in_force"


def test_an_ambiguous_note_keeps_its_unit_and_warns_earlier_answers(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-803", as_of="2019-01-01")
    three_i = unit(item, "(3)(i)")
    assert three_i["text"].startswith("Any restrictions on dealer tip wagers")
    assert any("2021-11-14" in w for w in three_i["warnings"])
    later = provision(anon_client, jurisdiction="US-CO", citation="30-803", as_of="2022-01-01")
    assert unit(later, "(3)(i)")["warnings"] == []


def test_source_defects_are_annotations(anon_client: APIClient) -> None:
    texts = [
        a["text"]
        for a in provision(anon_client, jurisdiction="US-CO", citation="30-821")["annotations"]
    ]
    assert any("30-819 was renumbered as 30-820, but this section is 30-821" in t for t in texts)
    dup = provision(anon_client, jurisdiction="US-CO", citation="30-832.07")["annotations"]
    assert any("30-842 added, perm. (30-842" in a["text"] for a in dup)


def test_full_text_search_finds_the_provisions_with_every_word(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/provisions/", {"jurisdiction": "US-CO", "q": "Ante Raise"})
    labels = {i["current_citation"] for i in response.json()["results"]}
    assert "30-899.23" in labels
    assert "30-801" not in labels


def test_an_unknown_citation_is_a_404_that_says_what_to_cite(anon_client: APIClient) -> None:
    response = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-CO", "citation": "30-999"}
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_citation"
    assert "30-999" in response.json()["error"]["message"]


@pytest.mark.parametrize("bad", ["2019-13-01", "yesterday", "2019-02-30"])
def test_a_malformed_date_is_a_400_naming_the_field(anon_client: APIClient, bad: str) -> None:
    response = anon_client.get("/api/v1/provisions/", {"as_of": bad})
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("as_of:")


def test_a_citation_without_a_jurisdiction_is_a_400(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/provisions/", {"citation": "30-832"})
    assert response.status_code == 400
    assert "jurisdiction" in response.json()["error"]["fields"]


def test_versions_list_the_legal_history_of_every_unit(anon_client: APIClient) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-899.23")
    versions = anon_client.get(f"/api/v1/provisions/{item['id']}/versions/").json()
    three = [
        (v["effective_from"], v["effective_to"], v["on_file"], v["status"])
        for v in versions
        if v["unit"] == "(3)"
    ]
    assert ("2016-10-30", "2021-05-01", False, "superseded") in three
    assert ("2021-05-01", None, True, "adopted") in three
    assert any(v["status"] == "proposed" for v in versions)
    pages = {
        v["page"]
        for v in versions
        if v["unit"] == "(2)" and v["on_file"] and v["status"] == "adopted"
    }
    assert pages == {63}  # the PDF page the unit is printed on


def test_reading_needs_no_login_but_the_api_offers_no_anonymous_writes(
    anon_client: APIClient,
) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-801")
    response = anon_client.post(f"/api/v1/provisions/{item['id']}/", {"title": "x"})
    assert response.status_code in {401, 403, 405}
    assert re.match(
        r"^Blackjack", provision(anon_client, jurisdiction="US-CO", citation="30-801")["title"]
    )


def test_a_note_ending_a_lead_in_dates_the_lead_in_and_warns_the_list(
    anon_client: APIClient,
) -> None:
    # King's Bounty: "… according to the following rules: Amended 9/14/20, Amended 12/30/23"
    item = provision(anon_client, jurisdiction="US-CO", citation="30-899.20", as_of="2016-06-01")
    assert item["citation"] == "30-834.20"
    assert unit(item, "")["state"] == "not_on_file"
    one = unit(item, "(1)")
    assert one["state"] == "in_force"
    assert any("2023-12-30" in w for w in one["warnings"])
    today = provision(anon_client, jurisdiction="US-CO", citation="30-899.20", as_of="2024-01-01")
    assert unit(today, "")["text"].startswith("King's Bounty Dealer Envy is a copyrighted")
    assert unit(today, "(1)")["warnings"] == []


def test_a_subsection_citation_answers_with_that_subsection_and_what_it_contains(
    anon_client: APIClient,
) -> None:
    item = provision(anon_client, jurisdiction="US-CO", citation="30-803(3)(b)", as_of="2024-06-01")
    assert [u["citation"] for u in item["units"]] == [
        "30-803(3)(b)",
        "30-803(3)(b)(i)",
        "30-803(3)(b)(ii)",
    ]
    assert item["text"].startswith("(3)(b) On blackjack tables used for games other than face up")
    assert '"Blackjack pays 6 to 5"' in item["text"]


def test_an_unknown_subsection_is_a_404_listing_the_ones_there_are(anon_client: APIClient) -> None:
    response = anon_client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-CO", "citation": "30-803(9)"}
    )
    assert response.status_code == 404
    assert response.json()["error"]["message"].startswith(
        "30-803 has no subsection (9); it has: (1)"
    )
