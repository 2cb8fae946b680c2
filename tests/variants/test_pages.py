"""The catalog's pages: wagers by jurisdiction, a wager and where it is approved, a paytable with
its exact analysis as a chart; everything the catalog holds is escaped."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from jurisdictions.web import citation_url, paytable_url, wager_url
from variants.models import PaytableEntry, Wager

pytestmark = pytest.mark.django_db

KB03 = "us-co/kings-bounty/kb03"


def test_the_catalog_lists_the_wagers_of_each_jurisdiction_with_their_rule(client: Client) -> None:
    page = client.get("/catalog/?as_of=2024-06-01").content.decode()
    assert "<h1>Catalog of wagers and paytables</h1>" in page
    assert "Colorado" in page and "Massachusetts" in page
    assert f'href="{wager_url("US-CO", "kings-bounty")}?as_of=2024-06-01"' in page
    assert citation_url("US-CO", "30-899.20", dt.date(2024, 6, 1)) in page


def test_the_catalog_filters_by_jurisdiction_and_date(client: Client) -> None:
    page = client.get("/catalog/?jurisdiction=US-MA&as_of=2024-06-01").content.decode()
    assert "Massachusetts" in page and 'id="group-US-CO"' not in page
    # King's Bounty came into force in Colorado on 2015-11-14: not in the catalog the day before.
    before = client.get("/catalog/?jurisdiction=US-CO&as_of=2015-11-13").content.decode()
    after = client.get("/catalog/?jurisdiction=US-CO&as_of=2015-11-14").content.decode()
    assert wager_url("US-CO", "kings-bounty") not in before
    assert wager_url("US-CO", "kings-bounty") in after


def test_a_bad_date_is_named_and_an_unknown_jurisdiction_is_not_found(client: Client) -> None:
    assert "is not a date" in client.get("/catalog/?as_of=yesterday").content.decode()
    assert client.get("/catalog/?jurisdiction=XX").status_code == 404


def test_a_wager_page_shows_its_outcomes_paytables_rule_and_approvals(client: Client) -> None:
    response = client.get(wager_url("US-CO", "kings-bounty") + "?as_of=2024-06-01")
    page = response.content.decode()
    assert response.status_code == 200
    assert "two-kings-of-spades-dealer-blackjack" in page
    assert f'href="{paytable_url(KB03)}?as_of=2024-06-01"' in page
    # approved in both jurisdictions: Colorado since 2015-11-14, Massachusetts undated
    approvals = page.split("<h2>Approved in</h2>")[1].split("<h2>")[0]
    assert "Colorado" in approvals and "2015-11-14" in approvals
    assert "Massachusetts" in approvals and "undated" in approvals
    assert 'href="/us-ma/cite/29@2024-06-01"' in approvals


def test_an_unknown_wager_or_paytable_is_an_html_404(client: Client) -> None:
    assert client.get(wager_url("US-MA", "no-such-wager")).status_code == 404
    response = client.get(paytable_url("us-co/no/such"))
    assert response.status_code == 404 and b"<h1>Not found</h1>" in response.content


def test_a_paytable_page_shows_its_lines_as_printed_and_the_exact_analysis(client: Client) -> None:
    page = client.get(paytable_url(KB03) + "?decks=8&as_of=2024-06-01").content.decode()
    assert "500 to 1" in page and "$100" in page  # both pay columns, as printed
    assert 'href="/us-co/cite/30-899.20(7)@2024-06-01"' in page
    assert '<option value="8" selected>8</option>' in page
    assert "8 decks" in page
    edge = re.search(r'<strong class="edge">([0-9.]+)</strong>', page)
    assert edge and edge.group(1).startswith("0.3")
    assert "exactly" in page  # the exact fraction beside the decimal
    assert "Dealer Envy" in page and "no house edge per unit staked" in page
    # the chart is inline SVG, one bar per line, drawn on the server
    assert page.count('class="bar bar-s"') == 7 and page.count('class="bar bar-p"') == 7
    assert "<script" not in page.split("</head>")[1]


def test_the_paytable_chart_shares_add_up_to_the_whole_return(client: Client) -> None:
    page = client.get(paytable_url(KB03) + "?decks=6").content.decode()
    table = page.split("Share of the return</th>")[1].split("</table>")[0]
    shares = [float(s) for s in re.findall(r'<td class="num">([0-9.]+)%</td>', table)]
    assert len(shares) == 7 and abs(sum(shares) - 100) < 0.05


def test_decks_the_paytable_does_not_allow_fall_back_with_a_message(client: Client) -> None:
    page = client.get(paytable_url(KB03) + "?decks=2").content.decode()
    assert "this paytable is analysed at 6, 8; showing 6" in page


def test_a_paytable_without_exact_analysis_says_why_and_shows_no_number(client: Client) -> None:
    page = client.get(paytable_url("us-co/burnout-bonus/pays")).content.decode()
    assert re.search(r"No exact analysis at \d+ decks?:", page)
    assert "burnout-bonus is not decided by the cards: it is won on consecutive winning" in page
    assert 'class="edge"' not in page


def test_a_wager_decided_by_the_play_shows_an_exact_house_edge(client: Client) -> None:
    """Buffalo Blackjack Bonus's 21 Magic (30-899.09(6)) is decided by how the hand is played:
    its edge is exact from the play tree, with no standard error."""
    page = client.get(paytable_url("us-co/buffalo-blackjack-bonus/1d-a") + "?decks=1")
    text = page.content.decode()
    assert "the play tree enumerated under the basic strategy" in text
    assert "(standard error; simulated, an estimate)" not in text


def test_catalog_text_is_escaped_in_the_table_and_the_chart(client: Client) -> None:
    entry = PaytableEntry.objects.get(paytable__key=KB03, outcome="suited-20", column="Pays")
    entry.label = "<script>alert(1)</script>"
    entry.save()
    Wager.objects.filter(jurisdiction__code="US-CO", slug="kings-bounty").update(
        owner='<img src=x onerror="alert(2)">'
    )
    page = client.get(paytable_url(KB03)).content.decode()
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    wager = client.get(wager_url("US-CO", "kings-bounty")).content.decode()
    assert "<img src=x" not in wager and "&lt;img src=x" in wager


def test_dollar_lines_are_analysed_at_a_stake_given_as_the_api_takes_it(client: Client) -> None:
    plain = client.get(paytable_url(KB03)).content.decode()
    assert "Column “Dealer Envy”" not in plain
    staked = client.get(paytable_url(KB03) + "?stake=5&meter=1000").content.decode()
    assert "Column “Dealer Envy”, 6 decks" in staked and "At a stake of $5" in staked
    refused = client.get(paytable_url(KB03) + "?stake=five").content.decode()
    assert "Not analysed at a stake: stake: A valid number is required." in refused
    assert "Column “Pays”, 6 decks" in refused  # the odds column still is


def test_the_header_links_the_catalog_and_the_desks_sections(client: Client) -> None:
    header = client.get("/").content.decode().split("</header>")[0]
    for label, address in (
        ("Catalog", "/catalog/"),
        ("Configurations", "/configurations/"),
        ("Rounds", "/rounds/"),
        ("Simulations", "/simulations/"),
    ):
        assert f'<a href="{address}">{label}</a>' in header


def test_a_paytable_printed_in_for_keeps_for_and_its_meter_shares(client: Client) -> None:
    page = client.get(paytable_url("us-co/blazing-7s/b7p2")).content.decode()
    printed = page.split("<h2>The paytable as printed</h2>")[1].split("</table>")[0]
    for pays in ("25 for 1", "500 for 1", "10%", "100%"):
        assert f'<td class="num">{pays}</td>' in printed
    assert "25 to 1" not in page


def test_a_paytable_page_shows_each_over_under_side_and_the_sevens_reading_set_aside(
    client: Client,
) -> None:
    """MA 17(a)(1) (fixtures/sources/text/ma-205-cmr-blackjack.md line 277): over and under 13
    are two wagers, a house edge each; 17(e)(3) (line 329): the sevens page states the reading
    its edge rests on and the other's figure, the player's edge."""
    page = client.get(paytable_url("us-ma/over-under-13/pays") + "?decks=6").content.decode()
    assert "Column “Over 13”, 6 decks" in page and "Column “Under 13”, 6 decks" in page
    assert "= 265/4043 exactly" in page and "= 407/4043 exactly" in page
    sevens = paytable_url("us-ma/sevens/highest-winning-payout") + "?decks=6"
    page = client.get(sevens).content.decode()
    assert "= 14288/125333 exactly" in page
    assert "is read as: the player&#x27;s first card is a seven" in page
    assert "the house edge would be -1648/9641 (Payout Odds) at 6 decks, the player's edge" in page
