"""The review of readings (issue #23): an analysis giving an approved wager the player's edge, or
differing from a published figure the repository pins, is listed with its reading and annotation
(variants/review.py, manage.py review_readings); it is a catalog finding in the API only where a
published analysis agrees or a progressive's meter makes it so, else a reading under review."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from variants.models import Paytable, PaytableEntry
from variants.review import review

pytestmark = pytest.mark.django_db


def analysis(client: APIClient, paytable: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/paytables/{paytable}/analysis/", params)
    assert response.status_code == 200, response.content
    return response.json()


def test_royal_match_pay_table_1_s_player_edge_is_explained_by_the_published_analysis() -> None:
    """30-899.11(17) Pay table 1 pays the Wizard of Odds' Royal Match version 2 (10 to 1, 3 to 1),
    a player's edge from 4 decks in his table as in the engine's (engine/published.yaml): listed
    at 4, 6 and 8 decks, explained, with the annotation recording 45/4043 on the cited unit. Pay
    table 4, version 1, agrees with its published house edges and is not listed."""
    pay_table_1 = Paytable.objects.get(key="us-co/royal-match-21/pay-table-1")
    found = review([pay_table_1], base_games=False)
    assert [(r.decks, r.house_edge[:9]) for r in found.readings] == [
        (4, "-0.006317"),
        (6, "-0.011130"),
        (8, "-0.013531"),
    ]
    for reading in found.readings:
        assert reading.explained.startswith("a published analysis of these pays agrees: Wizard")
        assert reading.reading.startswith("exact")
        assert "45/4043" in reading.annotation
    pay_table_4 = Paytable.objects.get(key="us-co/royal-match-21/pay-table-4")
    assert review([pay_table_4], base_games=False).readings == []


def test_a_misread_pay_that_gives_the_player_an_edge_is_an_unexplained_reading(
    anon_client: APIClient,
) -> None:
    """War Blackjack pays a higher card 1 to 1 (30-899.17(7)). Were the catalog to read it as 3 to
    1, the player would win: the review lists it unexplained at each deck count the rule allows,
    the API reports it as a reading under review (not a catalog finding, not a house edge), and
    `review_readings --check` fails."""
    key = "us-co/war-blackjack/pays"
    PaytableEntry.objects.filter(paytable__key=key).update(pays="3 to 1")
    found = review(Paytable.objects.filter(key=key), base_games=False)
    assert [(r.decks, bool(r.explained)) for r in found.readings] == [(6, False), (8, False)]
    assert found.readings[0].why[0].startswith("gives the player an edge of")
    body = analysis(anon_client, key, decks=6)
    assert body["analyses"] == [] and body["catalog_findings"] == []
    [under_review] = body["readings_under_review"]
    assert under_review["code"] == "reading-under-review"
    assert "reading under review" in under_review["message"]
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("review_readings", key, "--check", stdout=out)
    assert exited.value.code == 1
    assert "UNEXPLAINED" in out.getvalue()
    assert "readings under review: 2 (2 unexplained)" in out.getvalue()


def test_a_player_edge_the_progressive_meter_makes_is_a_catalog_finding(
    anon_client: APIClient,
) -> None:
    """MA 19(k) Super 4 Paytable 1 pays its three top hands 100% of three meters: at $5 with every
    meter at $25,000 (8 decks) the meters' shares give the player the edge, a finding about the
    meters, not a reading to review; with every meter at $0 the house keeps its edge."""
    key = "us-ma/super-4-progressive/paytable-1"
    body = analysis(anon_client, key, decks=8, stake="5", meter="25000")
    assert body["readings_under_review"] == []
    [finding] = body["catalog_findings"]
    assert finding["code"] == "player-edge"
    assert "the progressive meter makes it so" in finding["message"]
    reset = analysis(anon_client, key, decks=8, stake="5", meter="0")
    assert reset["catalog_findings"] == [] and reset["analyses"]


def test_the_command_prints_each_reading_and_the_counts() -> None:
    out = io.StringIO()
    call_command("review_readings", "us-co/royal-match-21/pay-table-1", "--check", stdout=out)
    text = out.getvalue()
    assert "us-co/royal-match-21/pay-table-1 column 'Pays' at 6 decks" in text
    assert "reading: exact" in text and "explained: a published analysis" in text
    assert "readings under review: 3 (0 unexplained)" in text
    assert "without an exact figure besides the wagers the cards do not decide" in text


def test_the_whole_catalog_and_the_sample_floors_leave_nothing_unexplained() -> None:
    """Issue #23's check over everything on file: every catalog paytable at every deck count its
    rule allows has an exact figure (but the wagers the cards do not decide), and every reading
    giving the player an edge is explained. Listed and explained: Royal Match 21 Pay Table 1 at
    4, 6 and 8 decks (the Wizard of Odds agrees) and Double Up Blackjack Version 2 at a table
    standing on soft 17 (fixtures/configs/variant-games-co.json; the annotation on 30-899.10 ¶13
    records 0.114%). Over/under 13 is two bets (no 83 % player edge), the sevens' one seven the
    first card (no 17 % player edge), Blackjack Switch's dealer 22 a push (no 6.83 % one)."""
    found = review()
    assert found.without_exact == []
    assert found.unexplained == []
    listed = {(r.subject, r.decks) for r in found.readings}
    assert listed == {
        ("us-co/royal-match-21/pay-table-1", 4),
        ("us-co/royal-match-21/pay-table-1", 6),
        ("us-co/royal-match-21/pay-table-1", 8),
        ("base game: variant-games-co.json Double Up V2", 6),
    }
    assert sorted(found.set_aside) == ["burnout-bonus", "dead-mans-hand", "streak"]
