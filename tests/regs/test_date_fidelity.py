"""Reviewed dates: what the knowledge base answers on a date, case by case, against the notes the
sources print (issue #9's audit). Each test quotes the note and names its line in the text form
(../shared/sources/text/…); the answers come from the real ingestion through the API."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def provision(client: APIClient, citation: str, as_of: str) -> dict[str, Any]:
    response = client.get(
        "/api/v1/provisions/", {"jurisdiction": "US-CO", "citation": citation, "as_of": as_of}
    )
    assert response.status_code == 200, response.content
    [item] = response.json()["results"]
    return item


def unit(item: dict[str, Any], path: str) -> dict[str, Any]:
    return next(u for u in item["units"] if u["path"] == path)


def periods(
    client: APIClient, citation: str, path: str
) -> list[tuple[str | None, str | None, bool]]:
    """The unit's versions as (from, to, on file), oldest first."""
    item = provision(client, citation, "2025-01-01")
    versions = client.get(f"/api/v1/provisions/{item['id']}/versions/").json()
    found = [
        (v["effective_from"], v["effective_to"], v["on_file"])
        for v in versions
        if v["unit"] == path and v["status"] != "proposed"
    ]
    return sorted(found, key=lambda p: (p[0] is not None, p[0] or ""))


# --- every amendment date bounds a version ----------------------------------------------------


def test_each_amendment_of_king_s_bounty_s_lead_in_starts_a_period(anon_client: APIClient) -> None:
    """co-rule-8-blackjack.md line 1360: "… according to the following rules: *Amended 9/14/20,
    Amended 12/30/23*". Two amendments, two periods not on file before the text on file."""
    assert periods(anon_client, "30-899.20", "") == [
        ("2015-11-14", "2020-09-14", False),
        ("2020-09-14", "2023-12-30", False),
        ("2023-12-30", None, True),
    ]
    in_2021 = unit(provision(anon_client, "30-899.20", "2021-01-01"), "")
    assert (in_2021["state"], in_2021["effective_from"]) == ("not_on_file", "2020-09-14")


def test_each_amendment_of_21_plus_3_s_lead_in_starts_a_period(anon_client: APIClient) -> None:
    """co-rule-21-blackjack-poker.md line 230: "*Amended 10/16/13, Amended 8/14/22*"."""
    assert periods(anon_client, "30-2107", "") == [
        (None, "2013-10-16", False),
        ("2013-10-16", "2022-08-14", False),
        ("2022-08-14", None, True),
    ]


@pytest.mark.parametrize(
    ("citation", "path", "bounds"),
    [
        # line 136: "(30-831 renumbered as 30-804 and amended, perm. 12/30/98) *Amended
        # 03/01/2012, Amended 12/15/17*"
        ("30-804", "", ["1998-12-30", "2012-03-01", "2017-12-15"]),
        # line 151: "(30-803 renumbered as 30-806 and amended, perm. 12/30/98; *Amended 12/15/17*)"
        ("30-806", "(2)", ["1998-12-30", "2017-12-15"]),
    ],
)
def test_a_history_s_amendment_and_a_later_one_each_bound_a_period(
    anon_client: APIClient, citation: str, path: str, bounds: list[str]
) -> None:
    found = periods(anon_client, citation, path)
    assert [end for _, end, _ in found[:-1]] == bounds
    assert [on_file for *_, on_file in found] == [False] * len(bounds) + [True]


# --- new matter is not in force before its "Effective" date ------------------------------------


@pytest.mark.parametrize(
    ("citation", "path", "start", "before"),
    [
        # co-rule-21 line 243: "(2) When a 21+3 Progressive wager is placed … Effective 8/14/22"
        ("30-2107", "¶4(2)", "2022-08-14", "2020-01-01"),
        # co-rule-21 line 987 on: the TriLux progressive paragraphs and tables, "Effective 2/14/23"
        ("30-2115", "¶7", "2023-02-14", "2022-06-01"),
        ("30-2115", "¶10", "2023-02-14", "2022-06-01"),
        ("30-2115", "¶12", "2023-02-14", "2022-06-01"),
        # co-rule-8 line 768: "(7) Blazing 7's Progressive is an optional … Effective 8/14/15"
        ("30-899.11", "(7)", "2015-08-14", "2014-06-01"),
        # co-rule-21 line 108: "(10) The retail licensee may offer … pay schedules … Eff 03/01/2012"
        ("30-2105", "(10)", "2012-03-01", "2011-06-01"),
        # co-rule-8 line 333: "(4) For blackjack, currency, valid tickets, … [Effective 10/15/20]"
        # beside (1)-(3)'s "Amended 10/15/20": the section's own earlier amendments (history,
        # perm. 12/30/98; heading, Amended 7/1/13) do not date (4)
        ("30-831", "(4)", "2020-10-15", "2019-01-01"),
        # co-rule-8 line 115: "Electronic blackjack tables must have a drop slot … *Effective
        # 10/15/20*" in 30-803, whose history dates the section from 1996
        ("30-803", "¶2", "2020-10-15", "2019-01-01"),
        # co-rule-8 line 207: "(6) The licensee reserves the right to use pre-shuffled cards …
        # Effective 5/1/21", after the history of 12/30/98 on (4)
        ("30-816", "(6)", "2021-05-01", "2019-01-01"),
    ],
)
def test_a_unit_first_dated_effective_was_not_in_force_before(
    anon_client: APIClient, citation: str, path: str, start: str, before: str
) -> None:
    earlier = unit(provision(anon_client, citation, before), path)
    assert (earlier["state"], earlier["text"]) == ("not_in_force", None)
    assert earlier["effective_from"] == start
    assert unit(provision(anon_client, citation, start), path)["state"] == "in_force"


def test_30_831_4_is_new_matter_where_its_siblings_are_amended(anon_client: APIClient) -> None:
    """co-rule-8 lines 329-333: (1)-(3) each end "Amended 10/15/20", (4) "Effective 10/15/20".
    On 2019-01-01 (1) stood in words not on file; (4) was not yet there."""
    item = provision(anon_client, "30-831", "2019-01-01")
    assert unit(item, "(1)")["state"] == "not_on_file"
    assert unit(item, "(4)")["state"] == "not_in_force"
    assert "For blackjack, currency" not in item["text"]


def test_an_amended_unit_is_not_on_file_before_its_amendment(anon_client: APIClient) -> None:
    """ "Amended" is a change of a text that stood: 30-2107¶4(4), "*Amended 8/14/22*" (line 255),
    answers not_on_file before, unlike its neighbour ¶4(2)'s "Effective 8/14/22"."""
    assert unit(provision(anon_client, "30-2107", "2020-01-01"), "¶4(4)")["state"] == "not_on_file"


# --- one note, one reading --------------------------------------------------------------------


def test_the_same_lead_in_note_reads_the_same_at_king_s_bounty_and_blazing_7s(
    anon_client: APIClient,
) -> None:
    """30-899.20 prints "Amended 9/14/20, Amended 12/30/23" at the end of its lead-in (line 1360),
    30-899.21 on the line under it (line 1386): both lead-ins are not on file in 2016 and both
    lists answer with the same warning."""
    answers = []
    for citation in ("30-899.20", "30-899.21"):
        item = provision(anon_client, citation, "2016-06-01")
        lead_in, first = unit(item, ""), unit(item, "(1)")
        answers.append((lead_in["state"], first["state"], first["warnings"]))
    assert answers[0] == answers[1]
    assert answers[0][:2] == ("not_on_file", "in_force")
    assert "2023-12-30" in answers[0][2][0]


# --- a unit does not swallow its neighbours' dates ---------------------------------------------


def test_the_xtreme_table_keeps_its_own_date_apart_from_the_face_down_paragraph(
    anon_client: APIClient,
) -> None:
    """Lines 279-287: the face-down paragraph ("*Amended 8/14/18*") and the 21+3 Xtreme table
    under it ("Eff 10/16/13") are two units, each with its own date."""
    item = provision(anon_client, "30-2107", "2015-06-01")
    face_down, xtreme = unit(item, "¶11"), unit(item, "¶12")
    assert face_down["text"] is None and face_down["state"] == "not_on_file"
    assert face_down["effective_to"] == "2018-08-14"
    assert xtreme["state"] == "in_force"
    assert xtreme["text"].startswith("21+3 Xtreme\nHAND PAY OUT\nFlush | 5 to 1")
    assert xtreme["effective_from"] == "2013-10-16"


def test_the_one_dollar_note_under_the_progressive_tables_takes_their_date(
    anon_client: APIClient,
) -> None:
    """Line 320, "The 21+3 Progressive pay tables are based on a $1 wager", is printed under the
    tables headed "21+3 Progressive Pay Tables: Effective 8/14/22" (line 289)."""
    note = unit(provision(anon_client, "30-2107", "2015-06-01"), "¶14")
    assert (note["state"], note["effective_from"]) == ("not_in_force", "2022-08-14")
    later = unit(provision(anon_client, "30-2107", "2023-01-01"), "¶14")
    assert later["text"].startswith("The 21+3 Progressive pay tables are based on a $1 wager")


def test_the_progressive_hand_rankings_keep_their_own_date(anon_client: APIClient) -> None:
    """Lines 260-271: the plain HAND RANKINGS, then "21+3 Progressive WINNING HAND RANKINGS
    Effective 8/14/22": the first stands as before, the second is not in force before."""
    item = provision(anon_client, "30-2107", "2015-06-01")
    assert unit(item, "¶6")["text"].startswith("HAND RANKINGS\nFlush:")
    assert unit(item, "¶7")["state"] == "not_in_force"


# --- a temporary adoption is in force while it lasts ------------------------------------------


@pytest.mark.parametrize(
    ("citation", "label"),
    [
        # co-rule-8 line 444: "(30-833 temp. 5/13/93, perm. 6/30/93. 30-833 renumbered as 30-832 …)"
        ("30-899.01", "30-833"),
        # co-rule-8 line 90: "(30-801 temp. 5/13/93, perm. 6/30/93; (1) amended, (2)-(3) added …)"
        ("30-801", "30-801"),
    ],
)
def test_a_temporary_adoption_is_in_force_marked_temporary(
    anon_client: APIClient, citation: str, label: str
) -> None:
    """Between the temporary adoption (1993-05-13) and the permanent one (1993-06-30) the rule
    was in force, by a temporary rule whose words are in no source: in force, marked temporary,
    its units not on file (not "not_in_force" with a warning, as before)."""
    item = provision(anon_client, citation, "1993-06-01")
    assert (item["state"], item["temporary"], item["citation"]) == ("in_force", True, label)
    assert item["effective_from"] == "1993-05-13"
    assert any(
        f"by a temporary adoption of 1993-05-13 ('{label} temp. 5/13/93'), until its permanent "
        "adoption on 1993-06-30" in w
        for w in item["warnings"]
    )
    section = unit(item, "")
    assert (section["state"], section["status"], section["text"]) == (
        "not_on_file",
        "temporary",
        None,
    )
    assert (section["effective_from"], section["effective_to"]) == ("1993-05-13", "1993-06-30")
    assert provision(anon_client, citation, "1993-05-12")["state"] == "not_in_force"
    after = provision(anon_client, citation, "1993-07-01")
    assert (after["state"], after["temporary"]) == ("in_force", False)
    assert not any("temporary" in w for w in after["warnings"])


def test_a_subsection_s_temporary_adoption_is_in_force_marked_temporary(
    anon_client: APIClient,
) -> None:
    """co-rule-8 line 463: 30-899.03(5) ends "(30-835 (5), temp. 02/21/97 perm. 6/30/97. …)":
    on 1997-03-01 the section stood and (5) was in force by its temporary adoption."""
    item = provision(anon_client, "30-899.03", "1997-03-01")
    assert (item["state"], item["temporary"]) == ("in_force", True)
    fifth = unit(item, "(5)")
    assert (fifth["state"], fifth["status"]) == ("not_on_file", "temporary")
    assert (fifth["effective_from"], fifth["effective_to"]) == ("1997-02-21", "1997-06-30")
    assert any(
        w.startswith("30-835(5) was in force on 1997-03-01 by a temporary")
        for w in item["warnings"]
    )
    assert unit(item, "(4)")["state"] == "in_force"


# --- a note under a table dates the table ----------------------------------------------------


def test_the_bust_bonanza_table_is_not_on_file_before_its_amendment(anon_client: APIClient) -> None:
    """co-rule-21 line 985: "Amended 5/15/22", printed on its own line under the TriLux Bust
    Bonanza table (lines 967-983), in a section effective 1/14/22 (line 898): on 2022-03-01 the
    table's words are not on file; from 2022-05-15 today's table is in force."""
    before = unit(provision(anon_client, "30-2115", "2022-03-01"), "¶6")
    assert (before["state"], before["text"]) == ("not_on_file", None)
    assert (before["effective_from"], before["effective_to"]) == ("2022-01-14", "2022-05-15")
    after = unit(provision(anon_client, "30-2115", "2022-05-15"), "¶6")
    assert after["state"] == "in_force"
    assert after["text"].startswith("TriLux Bust Bonanza:")
    item = provision(anon_client, "30-2115", "2024-01-01")
    assert any(a["unit"] == "¶6" and "Amended 5/15/22" in a["text"] for a in item["annotations"])


# --- a unit printed after the section's history, undated ---------------------------------------


def test_a_unit_printed_after_the_history_warns_it_may_not_yet_have_been_in_force(
    anon_client: APIClient,
) -> None:
    """co-rule-8 lines 254-256: 30-822(2) ends "(30-821 renumbered as 30-822; amended; and (2)
    added; perm. 12/30/98)"; (3), on digital cards, follows with no date: it was added later, on
    a date the source does not give. In force today without a warning; on 2005-01-01 with one."""
    item = provision(anon_client, "30-822", "2005-01-01")
    third = unit(item, "(3)")
    assert third["state"] == "in_force"
    [warning] = third["warnings"]
    assert "(30-821 renumbered as 30-822; amended; and (2) added; perm. 12/30/98)" in warning
    assert "may not yet have been in force" in warning
    assert any(
        w.startswith("30-822(3): printed after the section's history") for w in item["warnings"]
    )
    assert unit(item, "(2)")["warnings"] == []
    assert unit(provision(anon_client, "30-822", "2025-06-01"), "(3)")["warnings"] == []


# --- a label on a date names every provision that bore it ---------------------------------------


def test_a_label_shared_on_a_date_answers_each_provision(anon_client: APIClient) -> None:
    """co-rule-8 line 254: "(30-821 renumbered as 30-822 … perm. 12/30/98)": until 1998-12-30
    The pickup was 30-821; The play (line 241) is 30-821 and the sources give it no earlier
    label or date. On 1998-12-29 30-821 answers both, each warning that the label is shared."""
    response = anon_client.get(
        "/api/v1/provisions/",
        {"jurisdiction": "US-CO", "citation": "30-821", "as_of": "1998-12-29"},
    )
    results = response.json()["results"]
    assert sorted(r["title"] for r in results) == ["The pickup.", "The play."]
    assert {r["citation"] for r in results} == {"30-821"}
    for r in results:
        assert any("30-821 named 2 provisions" in w for w in r["warnings"])
    later = anon_client.get(
        "/api/v1/provisions/",
        {"jurisdiction": "US-CO", "citation": "30-821", "as_of": "1999-01-01"},
    ).json()["results"]
    assert [r["title"] for r in later] == ["The play."]
