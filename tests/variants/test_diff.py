"""Diffs of the structured facts: King's Bounty Colorado against Massachusetts line by line, the
base game's rule topics by topic, a wager between two dates, through the API."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from rest_framework.test import APIClient

from variants import diff as facts

pytestmark = pytest.mark.django_db

DAY = dt.date(2024, 6, 1)
CO, MA = facts.Side("US-CO", DAY), facts.Side("US-MA", DAY)


def lines(diff: facts.FactDiff, table: str) -> list[tuple[str, str, str, str, str]]:
    """(outcome, left pays, left citation, right pays, right citation) of one right paytable."""
    return [
        (c.key, c.left.text, c.left.citation, c.right.text, c.right.citation)  # type: ignore[union-attr]
        for c in diff.changes
        if c.subject == "paytable_line" and c.right and c.right.fact == table
    ]


def test_kings_bounty_colorado_against_massachusetts_lists_each_differing_line() -> None:
    diff = facts.wager_diff(slug="kings-bounty", left=CO, right=MA)

    assert lines(diff, "us-ma/kings-bounty/table-1") == [
        (
            "two-kings-of-spades-dealer-blackjack/Pays",
            "500 to 1",
            "30-899.20(7)",
            "1000 to 1",
            "29(h)",
        ),
        ("two-kings-of-spades/Pays", "75 to 1", "30-899.20(7)", "100 to 1", "29(h)"),
        ("suited-kings/Pays", "20 to 1", "30-899.20(7)", "30 to 1", "29(h)"),
        ("suited-queens-jacks-tens/Pays", "15 to 1", "30-899.20(7)", "20 to 1", "29(h)"),
        ("suited-20/Pays", "7 to 1", "30-899.20(7)", "9 to 1", "29(h)"),
        ("two-kings/Pays", "5 to 1", "30-899.20(7)", "6 to 1", "29(h)"),
    ]  # unsuited 20 pays 4 to 1 on both sides: not listed
    assert [p["right"] for p in diff.pairs] == [
        "us-ma/kings-bounty/table-1",
        "us-ma/kings-bounty/table-2",
    ]
    column = [c for c in diff.changes if c.subject == "paytable_column"][0]
    assert (column.kind, column.key, column.left.citation) == (  # type: ignore[union-attr]
        "deletion",
        "Dealer Envy",
        "30-899.20(7)",
    )
    constraints = {(c.kind, c.key) for c in diff.changes if c.subject == "constraint"}
    assert ("deletion", "decks_allowed") in constraints  # Colorado: 6 or 8 decks; MA says none
    assert ("insertion", "excludes") in constraints


def test_massachusetts_against_colorado_is_the_inverse_line_by_line() -> None:
    forward = facts.wager_diff(slug="kings-bounty", left=CO, right=MA)
    backward = facts.wager_diff(slug="kings-bounty", left=MA, right=CO)

    pays = {(c.left.text, c.right.text) for c in forward.changes if c.subject == "paytable_line"}  # type: ignore[union-attr]
    back = {(c.right.text, c.left.text) for c in backward.changes if c.subject == "paytable_line"}  # type: ignore[union-attr]
    assert back <= pays


def test_a_wager_against_itself_is_empty() -> None:
    assert facts.wager_diff(slug="kings-bounty", left=CO, right=CO).changes == ()


def test_a_wager_between_two_dates_lists_its_adoption_and_paytables() -> None:
    diff = facts.wager_diff(
        slug="raise-the-roof", left=facts.Side("US-CO", dt.date(2016, 1, 1)), right=CO
    )

    added = [(c.subject, c.key) for c in diff.changes if c.kind == "insertion"]
    assert added[0] == ("wager", "raise-the-roof")
    assert ("paytable", "us-co/raise-the-roof/6d-s17-pay-table-1") in added


def test_surrender_is_compared_by_topic_with_each_side_cited() -> None:
    diff = facts.topic_diff(topic="surrender", left=CO, right=MA)

    assert [u["citation"] for u in diff.text["left"]] == ["30-829"]
    assert [u["citation"] for u in diff.text["right"]][:2] == ["8", "8(a)"]
    assert "forfeiting half the player's original wager" in str(diff.text["left"][0]["text"])
    rules = [(c.kind, c.right.citation) for c in diff.changes if c.subject == "constraint"]  # type: ignore[union-attr]
    assert ("insertion", "8(c)") in rules  # Massachusetts: no surrender at 6 to 5 and more


def test_soft_17_is_compared_by_topic_not_by_section_number() -> None:
    diff = facts.topic_diff(topic="soft-17", left=CO, right=MA)

    assert [u["citation"] for u in diff.text["left"]][0] == "30-826(2)"
    assert [u["citation"] for u in diff.text["right"]] == [
        "12(b)",
        "12(b)(1)",
        "12(b)(2)",
        "12(b)(2)(i)",
        "12(b)(2)(ii)",
        "12(d)",
    ]
    [rule] = [c for c in diff.changes if c.subject == "constraint"]
    assert rule.kind == "insertion" and rule.right.citation == "12(d)"  # type: ignore[union-attr]
    assert "blackjack_pays: 6 to 5" in rule.key  # 6 to 5 games hit soft 17 in Massachusetts


def get(client: APIClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, response.content
    return response.json()


def test_the_wager_diff_api_cites_both_sides(anon_client: APIClient) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/wager/?wager=kings-bounty&jurisdiction=US-CO&other_jurisdiction=US-MA"
        "&as_of=2024-06-01",
    )

    line = next(c for c in body["changes"] if c["key"] == "two-kings-of-spades/Pays")
    assert (line["left"]["text"], line["right"]["text"]) == ("75 to 1", "100 to 1")
    assert (line["left"]["citation"], line["right"]["citation"]) == ("30-899.20(7)", "29(h)")


def test_the_topic_diff_api_names_the_topics_it_accepts(anon_client: APIClient) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/topic/?topic=hole-card&jurisdiction=US-CO&other_jurisdiction=US-MA",
        400,
    )

    assert "soft-17" in body["error"]["fields"]["topic"]


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/v1/diff/wager/?wager=no-such-wager&jurisdiction=US-CO", "wager"),
        ("/api/v1/diff/wager/?wager=kings-bounty&jurisdiction=US-XX", "jurisdiction"),
        (
            "/api/v1/diff/wager/?wager=kings-bounty&jurisdiction=US-CO&left=2024-01-01&right=2020-01-01",
            "left",
        ),
        (
            "/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-829&left=2024-01-01"
            "&other_jurisdiction=US-MA",
            "other_jurisdiction",
        ),
    ],
)
def test_bad_fact_diff_parameters_are_a_400_naming_the_field(
    anon_client: APIClient, url: str, field: str
) -> None:
    assert field in get(anon_client, url, 400)["error"]["fields"]


def test_knowledge_base_edits_between_two_record_times(anon_client: APIClient) -> None:
    from django.utils import timezone

    from regs.models import UnitVersion
    from variants.models import PaytableEntry

    before = timezone.now()
    line = PaytableEntry.objects.get(
        paytable__key="us-co/kings-bounty/kb03", outcome="suited-20", column="Pays"
    )
    line.pays = "8 to 1"
    line.save()
    version = UnitVersion.objects.filter(
        unit__provision__key="us-co-rule-8-30-829", unit__path="", effective_to__isnull=True
    ).get()
    version.text = version.text.upper()  # a change of case only
    version.save()

    body = get(anon_client, f"/api/v1/diff/records/?start={before.isoformat().replace('+', '%2B')}")

    changes = {(c["model"], c["left"]["citation"]): c for c in body["changes"]}
    pay = changes[("paytable line", "us-co/kings-bounty/kb03 suited-20 (Pays)")]
    assert (pay["kind"], pay["substantive"], pay["left"]["text"], pay["right"]["text"]) == (
        "replacement",
        True,
        "7 to 1",
        "8 to 1",
    )
    text = changes[("unit version", "30-829")]
    assert text["kind"] == "replacement" and text["substantive"] is False
    assert (
        get(
            anon_client,
            f"/api/v1/diff/records/?start={timezone.now().isoformat().replace('+', '%2B')}",
        )["changes"]
        == []
    )


def test_a_pay_printed_differently_is_not_substantive_and_tables_pair_by_closeness() -> None:
    diff = facts.wager_diff(slug="trilux-super-3", left=CO, right=MA)

    assert diff.pairs == (
        {"left": "us-co/trilux-super-3/sup-01", "right": "us-ma/trilux-super-3/sup-01"},
    )
    printed = [
        (c.left.text, c.right.text, c.substantive)
        for c in diff.changes
        if c.subject == "paytable_line"
    ]  # type: ignore[union-attr]
    assert ("270 to 1", "270-to-1", False) in printed
    assert all(not substantive for _, _, substantive in printed)


def test_the_fact_redline_marks_each_side_and_escapes_text(anon_client: APIClient) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/wager/?wager=kings-bounty&jurisdiction=US-CO&other_jurisdiction=US-MA"
        "&as_of=2024-06-01",
    )

    assert '<del>75 to 1</del> <span class="cite">US-CO 30-899.20(7)</span>' in body["redline"]
    assert '<ins>100 to 1</ins> <span class="cite">US-MA 29(h)</span>' in body["redline"]
    topic = get(
        anon_client,
        "/api/v1/diff/topic/?topic=surrender&jurisdiction=US-CO&other_jurisdiction=US-MA",
    )
    assert "player&#x27;s original wager" in topic["redline"]
