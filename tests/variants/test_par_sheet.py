"""Par sheets (GET paytables/{id}/par-sheet/, issue #13): each line's combinations, probability,
pays and return, with the hit frequency, house edge, variance and standard deviation per unit, as
JSON, CSV and PDF; checked against published analyses and independent counts."""

from __future__ import annotations

import csv
import io
import itertools
import subprocess
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from rest_framework.test import APIClient

from engine.cards import deck
from engine.odds import decimal_string

pytestmark = pytest.mark.django_db


def sheet(client: APIClient, paytable: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/v1/paytables/{paytable}/par-sheet/", params)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    return response.json()


def fraction(text: str) -> Fraction:
    return Fraction(text)


def test_the_par_sheet_of_21_plus_3_matches_the_published_house_edge_and_one_deck_counts(
    anon_client: APIClient,
) -> None:
    """MA 28 Table A (9 to 1 on every hand): the Wizard of Odds' "21+3" house edge, 3.24 % at 6
    decks; at one deck each hand's three-card sets out of C(52,3) = 22,100, whichever card the
    dealer holds (48 straight flushes, 52 trips, 720 straights, 1,096 flushes)."""
    six = sheet(anon_client, "us-ma/21-plus-3/table-a", decks=6)
    [column] = six["sheets"]
    assert decimal_string(fraction(column["house_edge_fraction"]), 4) == "0.0324"
    assert (six["decks"], six["citations"][0]["jurisdiction"]) == (6, "US-MA")
    assert six["citations"][0]["citation"].startswith("28")
    assert "drawn from a full shoe" in six["card_removal"]

    [one] = sheet(anon_client, "us-ma/21-plus-3/table-a", decks=1)["sheets"]
    by = {line["outcome"]: line for line in one["lines"]}
    assert one["combinations"] == 52 * 51 // 2 * 50  # the pair unordered, then the up card
    for outcome, sets in [
        ("straight-flush", 48),
        ("three-of-a-kind", 52),
        ("straight", 720),
        ("flush", 1096),
    ]:
        assert fraction(by[outcome]["probability_fraction"]) == Fraction(sets, 22100)
        assert by[outcome]["combinations"] == sets * 3  # each set dealt with any card up
        assert by[outcome]["pays"] == "9 to 1"
    assert one["house_edge"].startswith("0.133031674")
    assert decimal_string(fraction(one["house_edge_fraction"]), 4) == "0.1330"


@pytest.mark.parametrize(
    ("paytable", "decks", "digits", "published"),
    [
        # E. Jacobson, "Card Counting the King's Bounty Blackjack Side Bet: 6 Decks" (23.164%)
        # and "...: 2 Decks" (24.733489%): MA 29's two tables print these pays
        ("us-ma/kings-bounty/table-1", 6, 5, "0.23164"),
        ("us-ma/kings-bounty/table-2", 2, 8, "0.24733489"),
        # Wizard of Odds, "Lucky Ladies", pay table A at 6 decks: 24.7089 %
        ("us-co/lucky-ladies/pay-table-a", 6, 6, "0.247089"),
        # Wizard of Odds, "Match the Dealer", "4/19 Two-Deck Blackjack Analysis": 3.3124 %
        ("us-co/match-the-dealer/2-deck", 2, 6, "0.033124"),
    ],
)
def test_a_par_sheet_matches_the_published_analysis_and_adds_up(
    anon_client: APIClient, paytable: str, decks: int, digits: int, published: str
) -> None:
    [column] = sheet(anon_client, paytable, decks=decks)["sheets"]
    edge = fraction(column["house_edge_fraction"])
    assert decimal_string(edge, digits) == published
    assert Decimal(column["house_edge"]).quantize(Decimal(10) ** -digits) == Decimal(published)
    lines = column["lines"]
    assert column["lines_exclusive"] is True
    assert sum(fraction(line["probability_fraction"]) for line in lines) == 1
    assert sum(line["combinations"] for line in lines) == column["combinations"]
    assert sum(fraction(line["return_fraction"]) for line in lines) == -edge
    for line in lines:
        assert fraction(line["probability_fraction"]) == Fraction(
            line["combinations"], column["combinations"]
        )
        assert len(line["probability"].lstrip("0.").replace(".", "")) >= 9
    assert [line["kind"] for line in lines][-1] == "lose"
    # the variance from the lines (each deal pays one line): E[net²] − E[net]²
    wins = {line["outcome"]: _win(line["pays"]) for line in lines}
    mean = sum(fraction(line["probability_fraction"]) * wins[line["outcome"]] for line in lines)
    square = sum(
        fraction(line["probability_fraction"]) * wins[line["outcome"]] ** 2 for line in lines
    )
    assert fraction(column["variance_fraction"]) == square - mean * mean
    assert mean == -edge
    sd = Decimal(column["standard_deviation"])
    assert abs(sd * sd - Decimal(column["variance"])) < Decimal("1e-9")
    assert len(column["standard_deviation"].replace(".", "").lstrip("0")) >= 9


def _win(pays: str) -> Fraction:
    if pays == "Loss":
        return Fraction(-1)
    odds, basis, per = pays.split()
    return Fraction(int(odds), int(per)) - (1 if basis == "for" else 0)


def test_the_variance_agrees_with_counting_every_one_deck_hand_independently(
    anon_client: APIClient,
) -> None:
    """MA 28 Table B (straight flush 30, trips 20, straight 10, flush 5 to 1) at one deck: every
    three-card set of the deck classified here by hand, without the engine; the dealer's card is
    any of the three, so the sets weigh alike."""
    pays = {"straight-flush": 30, "three-of-a-kind": 20, "straight": 10, "flush": 5}
    nets: list[int] = []
    for cards in itertools.combinations(deck(), 3):
        ranks = sorted(c.number for c in cards)
        high = sorted(14 if r == 1 else r for r in ranks)
        run = any(b == a + 1 and c == b + 1 for a, b, c in (ranks, high))
        flush = len({c.suit for c in cards}) == 1
        hand = (
            "straight-flush"
            if run and flush
            else "three-of-a-kind"
            if ranks[0] == ranks[2]
            else "straight"
            if run
            else "flush"
            if flush
            else None
        )
        nets.append(pays[hand] if hand else -1)
    n = len(nets)
    mean = Fraction(sum(nets), n)
    variance = Fraction(sum(x * x for x in nets), n) - mean * mean
    hits = Fraction(sum(1 for x in nets if x > 0), n)

    [column] = sheet(anon_client, "us-ma/21-plus-3/table-b", decks=1)["sheets"]

    assert fraction(column["variance_fraction"]) == variance
    assert fraction(column["house_edge_fraction"]) == -mean
    assert fraction(column["hit_frequency_fraction"]) == hits


def test_a_dealer_hand_wager_has_a_par_sheet_over_every_final_dealer_hand(
    anon_client: APIClient,
) -> None:
    """MA 27 Paytable A at 6 decks, the dealer hitting soft 17 as 27(f)(3) says: every line a bust
    of so many cards; the rows add up to the whole cycle and the returns to minus the edge."""
    body = sheet(anon_client, "us-ma/buster-blackjack/paytable-a", decks=6)
    [column] = body["sheets"]
    assert "hitting soft 17" in column["card_removal"]
    assert sum(line["combinations"] for line in column["lines"]) == column["combinations"]
    edge = fraction(column["house_edge_fraction"])
    assert sum(fraction(line["return_fraction"]) for line in column["lines"]) == -edge
    bust = sum(fraction(line["probability_fraction"]) for line in column["lines"][:-1])
    assert fraction(column["hit_frequency_fraction"]) == bust  # every bust pays
    assert 0.284 < bust < 0.288  # the dealer's bust rate hitting soft 17 at 6 decks


def test_a_paytable_approved_for_one_deck_count_needs_no_decks(anon_client: APIClient) -> None:
    body = sheet(anon_client, "us-co/match-the-dealer/4-deck")
    assert body["decks"] == 4


@pytest.mark.parametrize(
    ("paytable", "params", "code", "field"),
    [
        ("us-co/kings-bounty/kb03", {"decks": "six"}, "invalid", "decks"),
        ("us-co/kings-bounty/kb03", {"decks": 3}, "decks_not_approved", "decks"),
        ("us-co/kings-bounty/kb03", {}, "decks_required", "decks"),
        ("us-co/kings-bounty/kb03", {"decks": 6, "format": "xml"}, "invalid", "format"),
        # pays dollar amounts only: analysed for a stake
        ("us-ma/buster-blackjack/free-bonus-b1", {"decks": 6}, "not_analysable", "stake"),
        # beaten by the player as printed: a catalog finding, not a par sheet
        ("us-co/royal-match-21/pay-table-1", {"decks": 6}, "player_edge", "paytable"),
    ],
)
def test_a_par_sheet_that_cannot_be_made_is_a_400_naming_the_field(
    anon_client: APIClient, paytable: str, params: dict[str, Any], code: str, field: str
) -> None:
    response = anon_client.get(f"/api/v1/paytables/{paytable}/par-sheet/", params)
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == code
    assert field in error["fields"]


def test_a_dollar_paytable_has_a_par_sheet_at_a_stake(anon_client: APIClient) -> None:
    """MA 27(h) Free Bonus B1 ($8,000 and $1,000) on a $5 wager: 1,600 and 200 to 1."""
    [column] = sheet(anon_client, "us-ma/buster-blackjack/free-bonus-b1", decks=6, stake="5")[
        "sheets"
    ]
    assert [line["pays"] for line in column["lines"][:2]] == ["1600 to 1", "200 to 1"]


def test_the_csv_par_sheet_holds_the_json_s_lines_and_totals(anon_client: APIClient) -> None:
    body = sheet(anon_client, "us-ma/kings-bounty/table-1", decks=6)
    response = anon_client.get(
        "/api/v1/paytables/us-ma/kings-bounty/table-1/par-sheet/", {"decks": 6, "format": "csv"}
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    blank = [n for n, row in enumerate(rows) if not row]
    particulars = dict(rows[: blank[0]])
    lines = rows[blank[0] + 1 : blank[1]]
    totals = rows[blank[1] + 1 :]
    assert particulars["Paytable"] == "us-ma/kings-bounty/table-1"
    assert particulars["Decks"] == "6"
    assert particulars["Card removal"] == body["card_removal"]
    assert body["citations"][0]["citation"] in particulars["Approved by"]
    [column] = body["sheets"]
    assert lines[0][:5] == ["Column", "Outcome", "Line", "Pays", "Combinations"]
    assert [
        {
            "outcome": r[1],
            "label": r[2],
            "pays": r[3],
            "combinations": int(r[4]),
            "probability": r[5],
            "probability_fraction": r[6],
            "return": r[7],
            "return_fraction": r[8],
        }
        for r in lines[1:]
    ] == [{k: v for k, v in line.items() if k != "kind"} for line in column["lines"]]
    measures = {r[1]: (r[2], r[3]) for r in totals[1:]}
    assert measures["House edge"] == (column["house_edge"], column["house_edge_fraction"])
    assert measures["Variance per unit staked"] == (
        column["variance"],
        column["variance_fraction"],
    )
    assert measures["Standard deviation per unit staked"][0] == column["standard_deviation"]
    assert measures["Combinations in the cycle"][0] == str(column["combinations"])
    accepted = anon_client.get(
        "/api/v1/paytables/us-ma/kings-bounty/table-1/par-sheet/?decks=6",
        HTTP_ACCEPT="text/csv",
    )
    assert accepted.content == response.content


def test_the_pdf_par_sheet_prints_the_lines_and_the_house_edge(
    anon_client: APIClient, tmp_path: Path
) -> None:
    body = sheet(anon_client, "us-ma/kings-bounty/table-1", decks=6)
    response = anon_client.get(
        "/api/v1/paytables/us-ma/kings-bounty/table-1/par-sheet/", {"decks": 6, "format": "pdf"}
    )
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "par-sheet.pdf"
    pdf.write_bytes(response.content)
    with pdfplumber.open(pdf) as document:
        assert len(document.pages) == 1
        text = document.pages[0].extract_text()
    [column] = body["sheets"]
    assert "Par sheet: King's Bounty" in text
    assert column["house_edge"] in text
    assert column["standard_deviation"] in text
    for line in column["lines"]:
        row = f"{line['label']} {line['pays']} {line['combinations']} {line['probability']}"
        assert row in text
    assert body["citations"][0]["citation"] in text
    # one page, rendered: the check a person makes by eye (the PNG is kept next to the PDF)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(tmp_path / "page")], check=True)
    assert (tmp_path / "page-1.png").stat().st_size > 0


def test_the_par_sheet_is_in_the_openapi_schema(anon_client: APIClient) -> None:
    schema = anon_client.get("/api/v1/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/paytables/{id}/par-sheet/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"decks", "format", "stake", "meter"}
    assert set(operation["responses"]["200"]["content"]) == {
        "application/json",
        "text/csv",
        "application/pdf",
    }


def test_every_catalog_paytable_with_an_exact_analysis_has_a_par_sheet_that_adds_up() -> None:
    """Every paytable at every deck count it is analysed at (its approval's, else its wager's deck
    rule's, else 1, 2, 4, 6, 8), and at a $5 stake with $25,000 meters where it pays dollar or
    meter lines: a par sheet whose rows count every deal of the cycle once (or, where a deal pays
    several lines, whose returns still add up to minus the house edge), or a 400 that says why
    not: a wager the cards do not decide (Dead Man's Hand), one simulated as a job (STREAK,
    Burnout Bonus), or a paytable the player beats."""
    from decimal import Decimal

    from pitboss.errors import DomainError
    from variants.analysis import allowed_decks
    from variants.models import Paytable
    from variants.par_sheet import paytable_par_sheet

    def par_sheet(paytable: Paytable, decks: int, **terms: Any) -> dict[str, Any] | DomainError:
        try:
            return paytable_par_sheet(paytable, decks, **terms)
        except DomainError as exc:
            assert exc.status == 400 and exc.fields
            return exc

    made, refused = 0, set()
    for paytable in Paytable.objects.select_related("wager__jurisdiction"):
        for decks in allowed_decks(paytable):
            body = par_sheet(paytable, decks)
            dollars = isinstance(body, DomainError) and "stake" in body.fields
            if dollars or not isinstance(body, DomainError) and body["not_analysed"]:
                body = par_sheet(paytable, decks, stake=Decimal(5), meters={"": Decimal(25000)})
            if isinstance(body, DomainError):
                refused.add(body.code)
                continue
            made += 1
            assert not [n for n in body["not_analysed"] if "stake is the player" not in n]
            for column in body["sheets"]:
                lines = column["lines"]
                edge = fraction(column["house_edge_fraction"])
                assert sum(fraction(line["return_fraction"]) for line in lines) == -edge
                assert edge > 0
                if column["lines_exclusive"]:
                    assert sum(line["combinations"] for line in lines) == column["combinations"]
                assert fraction(column["variance_fraction"]) >= 0
    assert made > 400
    assert refused == {"not_analysable", "player_edge", "simulated_only"}


def test_over_and_under_13_have_a_par_sheet_each(anon_client: APIClient) -> None:
    """MA 17(a)(1), (b)(1)-(2), (c), (e)(1) (fixtures/sources/text/ma-205-cmr-blackjack.md lines
    277, 282-283, 287, 290): over and under 13 are two wagers, one to one, 13 losing both; each
    side's sheet is its own bet, as the analysis values it (265/4043 and 407/4043 at 6 decks),
    its one line and the loss counting every deal once."""
    body = sheet(anon_client, "us-ma/over-under-13/pays", decks=6)
    by_side = {s["column"]: s for s in body["sheets"]}
    assert set(by_side) == {"Over 13", "Under 13"}
    assert by_side["Over 13"]["house_edge_fraction"] == "265/4043"
    assert by_side["Under 13"]["house_edge_fraction"] == "407/4043"
    analysis = anon_client.get(
        "/api/v1/paytables/us-ma/over-under-13/pays/analysis/", {"decks": 6}
    ).json()
    assert {a["column"]: a["house_edge_fraction"] for a in analysis["analyses"]} == {
        column: s["house_edge_fraction"] for column, s in by_side.items()
    }
    for side in by_side.values():
        assert side["lines_exclusive"]
        assert sum(line["combinations"] for line in side["lines"]) == side["combinations"]
        won, lost = side["lines"][0], side["lines"][-1]
        assert won["pays"] == "1 to 1" and lost["outcome"] == "lose"
        assert fraction(side["variance_fraction"]) > 0


def test_the_sevens_par_sheet_pays_one_seven_on_the_first_card(anon_client: APIClient) -> None:
    """MA 17(e)(3) (ma-205-cmr-blackjack.md line 329): "One seven (initial card)" on the player's
    first card (engine/readings.py): at 6 decks, 2,142,720 of 312·311·310 ordered deals and a
    house edge of 14288/125333 (11.40 %), the figure the analysis gives; the reading set aside
    (a seven in either card, the player's edge) is shown beside it."""
    body = sheet(anon_client, "us-ma/sevens/highest-winning-payout", decks=6)
    [column] = body["sheets"]
    assert column["house_edge_fraction"] == "14288/125333"
    assert column["combinations"] == 312 * 311 * 310
    lines = {line["outcome"]: line for line in column["lines"]}
    assert lines["one-7"]["combinations"] == 2_142_720
    [other] = body["alternative_readings"]
    assert other["figures"][0]["house_edge_fraction"] == "-1648/9641"
