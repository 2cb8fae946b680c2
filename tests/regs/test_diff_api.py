"""GET /api/v1/diff/… and `manage.py diff`, as a compliance officer or a vendor calls them."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

PROPOSED = "/api/v1/diff/proposed/?jurisdiction=US-CO&citation=47.1-834.23&as_of=2025-01-01"


def get(client: APIClient, url: str, status: int = 200) -> Any:
    response = client.get(url)
    assert response.status_code == status, response.content
    return response.json()


def test_the_proposed_diff_names_each_substantive_change_with_both_citations(
    anon_client: APIClient,
) -> None:
    body = get(anon_client, PROPOSED)

    substantive = [
        (c["kind"], c["left"]["citation"], c["right"]["citation"], c["left"]["text"])
        for c in body["changes"]
        if c["substantive"]
    ]
    assert substantive[:2] == [
        ("renumbered", "47.1-834.23", "30-899.23", None),
        ("deletion", "47.1-834.23(3)", "30-899.23(3)", "$100"),
    ]
    assert len(substantive) == 7
    deletion = body["changes"][[c["kind"] for c in body["changes"]].index("deletion")]
    assert deletion["event"]["raw"] == "Amended 5/1/21"
    assert deletion["right"]["effective_from"] == "2021-05-01"
    assert "<del>$100</del>" in body["redline"]


def test_the_same_request_gives_the_same_answer(anon_client: APIClient) -> None:
    assert get(anon_client, PROPOSED) == get(anon_client, PROPOSED)


def test_the_redline_page_escapes_rule_text(anon_client: APIClient) -> None:
    response = anon_client.get(PROPOSED + "&output=html")

    page = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert "<ins>The player may make the Raise the Roof wager" in page
    assert "player&#x27;s Ante wager" in page  # the apostrophe of the rule text is escaped


def test_a_provision_at_two_dates_shows_the_renumbering_and_the_text_not_on_file(
    anon_client: APIClient,
) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-834.23&left=2017-01-01"
        "&right=2022-01-01",
    )

    assert [
        (c["kind"], c["left"]["citation"], c["right"]["citation"]) for c in body["changes"]
    ] == [("renumbered", "30-834.23", "30-899.23")]
    assert body["not_on_file"][0]["unit"] == "(3)"
    assert body["not_on_file"][0]["left"]["state"] == "not_on_file"


def test_a_version_diffed_with_itself_is_empty(anon_client: APIClient) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-803&left=2024-01-01"
        "&right=2024-01-01",
    )

    assert body["changes"] == [] and body["events"] == []


def test_rule_8_between_two_dates_lists_dated_changes_with_links(anon_client: APIClient) -> None:
    body = get(
        anon_client,
        "/api/v1/diff/instrument/?jurisdiction=US-CO&instrument=Rule 8&start=2016-01-01"
        "&end=2022-01-01",
    )

    adoption = next(c for c in body["changes"] if c["provision"]["citation"] == "30-899.23")
    assert (adoption["kind"], adoption["date"], adoption["event"]["raw"]) == (
        "insertion",
        "2016-10-30",
        "Effective 10/30/16",
    )
    linked = get(anon_client, adoption["link"])  # the day before against the day of adoption
    assert (linked["left"]["version"], linked["right"]["version"]) == ("2016-10-29", "2016-10-30")
    assert linked["left"]["state"] == "not_in_force"
    assert linked["right"]["citation"] == "30-834.23"  # its label on that day
    assert {c["kind"] for c in linked["changes"]} == {"insertion"}


@pytest.mark.parametrize(
    ("url", "field"),
    [
        (
            "/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-899.99&left=2020-01-01",
            "citation",
        ),
        (
            "/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-803&left=2024-01-01"
            "&right=2020-01-01",
            "left",
        ),
        ("/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-803&left=last-week", "left"),
        ("/api/v1/diff/provision/?citation=30-803&left=2020-01-01", "jurisdiction"),
        ("/api/v1/diff/provision/?jurisdiction=US-CO&citation=30-803&left=proposed", "left"),
        (
            "/api/v1/diff/instrument/?jurisdiction=US-CO&instrument=Rule 8&start=2022-01-01"
            "&end=2016-01-01",
            "start",
        ),
        (
            "/api/v1/diff/instrument/?jurisdiction=US-CO&instrument=Rule 99&start=2016-01-01"
            "&end=2022-01-01",
            "instrument",
        ),
    ],
)
def test_bad_parameters_are_a_400_naming_the_field(
    anon_client: APIClient, url: str, field: str
) -> None:
    body = get(anon_client, url, 400)

    assert field in body["error"]["fields"]


def test_the_diff_endpoints_are_in_the_openapi_schema(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/v1/schema/?format=json").json()

    for path in (
        "/api/v1/diff/provision/",
        "/api/v1/diff/proposed/",
        "/api/v1/diff/instrument/",
        "/api/v1/diff/wager/",
        "/api/v1/diff/topic/",
        "/api/v1/diff/records/",
    ):
        operation = schema["paths"][path]["get"]
        assert operation["responses"]["200"]["content"]["application/json"]["examples"]


def test_the_diff_command_prints_a_readable_redline() -> None:
    out = io.StringIO()

    call_command("diff", "US-CO", "47.1-834.23", "proposed", "2025-01-01", stdout=out)

    text = out.getvalue()
    assert "7 substantive, 20 editorial changes" in text
    assert "deletion    30-899.23(3): - '$100'  (Amended 5/1/21)" in text
    assert "[-UNSUITED*-]{+Unsuted*+}" in text


def test_the_diff_command_refuses_reversed_dates() -> None:
    with pytest.raises(CommandError, match="after"):
        call_command("diff", "US-CO", "30-803", "2024-01-01", "2020-01-01")


def test_the_diff_command_compares_a_wager_and_a_topic_across_jurisdictions() -> None:
    out = io.StringIO()

    call_command(
        "diff", "US-CO", "kings-bounty", "2024-06-01", "--wager", "--other", "US-MA", stdout=out
    )
    call_command(
        "diff", "US-CO", "surrender", "2024-06-01", "--topic", "--other", "US-MA", stdout=out
    )

    text = out.getvalue()
    assert "75 to 1 (30-899.20(7)) → 100 to 1 (29(h), us-ma/kings-bounty/table-1)" in text
    assert "    30-829  At the discretion of a retail licensee" in text
