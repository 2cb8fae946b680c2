"""The catalog against the rule text: every paytable row equals the source row it cites."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings
from rest_framework.test import APIClient

from engine.odds import Basis, Pays
from regs.ingest.text_reader import strip_markup
from variants.catalog import (
    CATALOG,
    NO_PAY,
    CatalogError,
    catalog_load,
    catalogs_load,
    read_catalog,
)
from variants.models import Constraint, Paytable, PaytableEntry

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources" / "text"
FILES = {
    ("US-CO", "30-21"): "co-rule-21-blackjack-poker.md",
    ("US-CO", "30-8"): "co-rule-8-blackjack.md",
    ("US-MA", ""): "ma-205-cmr-blackjack.md",
}
PROPOSED = "co-raise-the-roof-proposed.md"
"""The source of the catalog's proposed facts (`proposed: true`): the proposed Raise The Roof
text, 47.1-834.23."""


def source_rows(
    jurisdiction: str,
    citation: str,
    line: int,
    count: int,
    cells: list[int] | None = None,
    wrapped: list[int] | None = None,
    blank_cells: bool = False,
    name: str | None = None,
) -> list[list[str]]:
    """`count` table rows of the source text form from `line`, as cells (blank lines skipped);
    with `cells` [start, end], only those cells of each row (one of tables printed side by side);
    with `wrapped`, the number of printed lines of each row, a cell wrapped over them joined
    (MA 19(k): "Royal Flush (Any other" / "suit)"); with `blank_cells`, a blank cell between
    printed ones is kept as "" so each pay stays in its column (30-899.15(9)); `name`: the
    source file, where not the jurisdiction's adopted text the citation names."""
    name = name or next(
        f
        for (code, prefix), f in FILES.items()
        if code == jurisdiction and citation.startswith(prefix)
    )
    lines = (SOURCES / name).read_text().splitlines()[line - 1 :]
    rows = [[strip_markup(c).strip() for c in raw.split("\t")] for raw in lines if raw.strip()][
        : sum(wrapped) if wrapped else count
    ]
    if wrapped:
        rows = _joined(rows, wrapped)
    if cells:
        rows = [row[cells[0] : cells[1]] for row in rows]
    if blank_cells:
        return [_without_trailing_blanks(row) for row in rows]
    return [[c for c in row if c] for row in rows]


def _without_trailing_blanks(row: list[str]) -> list[str]:
    while row and not row[-1]:
        row = row[:-1]
    return row


def _joined(lines: list[list[str]], sizes: list[int]) -> list[list[str]]:
    """Printed lines joined into rows of `sizes` lines each, cell by cell (a column's non-empty
    cells in order, with a space between)."""
    rows, start = [], 0
    for size in sizes:
        group = lines[start : start + size]
        start += size
        width = max(len(line) for line in group)
        rows.append(
            [" ".join(line[i] for line in group if i < len(line) and line[i]) for i in range(width)]
        )
    return rows


def paytables() -> list[dict[str, Any]]:
    return [
        t | {"jurisdiction": data["jurisdiction"]}
        for data in (read_catalog(path) for path in sorted(CATALOG.glob("*.yaml")))
        for t in data.get("paytables", [])
    ]


@pytest.mark.parametrize("table", paytables(), ids=lambda t: t["id"])
def test_every_paytable_row_equals_the_source_row_and_column(table: dict[str, Any]) -> None:
    if "prose" in table:  # a pay stated in a sentence: quoted as printed, each pay in the quote
        name = next(f for (c, prefix), f in FILES.items() if c == table["jurisdiction"]
                    and table["citation"].startswith(prefix))  # fmt: skip
        printed = strip_markup((SOURCES / name).read_text().splitlines()[table["line"] - 1])
        assert table["prose"] in printed
        assert all(pays in table["prose"] for _label, pays in table["rows"])
        return
    rows = source_rows(
        table["jurisdiction"],
        table["citation"],
        table["line"],
        len(table["rows"]),
        table.get("cells"),
        table.get("wrapped"),
        table.get("blank_cells", False),
        PROPOSED if table.get("proposed") else None,
    )
    if "label_cells" in table:  # a label printed broken over cells of one line ("Mini-Roy" |
        # "al (Spades) - AK/Q", 30-2115¶7): its cells joined as printed
        n = table["label_cells"]
        rows = [["".join(row[:n]), *row[n:]] for row in rows]
    assert table["rows"] == rows
    assert "wrapped" not in table or len(table["wrapped"]) == len(table["rows"])
    if "label_line" in table:  # a row printed without its label, labelled as another line prints it
        printed = source_rows(
            table["jurisdiction"], table["citation"], table["label_line"], len(table["labels"])
        )
        for row, label, line in zip(table["rows"], table["labels"], printed, strict=True):
            assert row[0] == "" and label and line[0].startswith(label)
    if "cell_outcomes" in table:  # each cell its own outcome: the row × the column
        assert "outcomes" not in table
        cells = table["cell_outcomes"]
        width = len(table["columns"])
        # each paytable's keys once: a split part's pay columns (30-2115¶6's two Bust Bonanza
        # tables side by side repeat the same two columns' outcomes)
        parts = (
            [spec.get("pay_columns", [i]) for i, spec in enumerate(table["split"])]
            if "split" in table
            else [list(range(width))]
        )
        for picks in parts:
            keys = [row[i] for row in cells for i in picks]
            assert len(set(keys)) == len(keys)
        assert len(cells) == len(table["rows"])
        assert all(len(row) == width for row in cells)
        assert all(len(row) == 1 + width for row in table["rows"])
        return
    assert len(set(table["outcomes"])) == len(table["outcomes"])
    if "by_row" in table:  # a paytable per row, a line per pay column
        assert len(table["by_row"]) == len(table["rows"])
        assert len(table["line_labels"]) == len(table["outcomes"])
        assert all(len(row) == 1 + len(table["outcomes"]) for row in table["rows"])
    else:
        assert len(table["outcomes"]) == len(table["rows"])


def _pay_cells(table: dict[str, Any]) -> list[list[str]]:
    """The pay cells of each row of each paytable a printed table holds: a split part's own
    columns (`pay_columns` may give a column to two parts: 30-899.09's off-suit Bust Bonus column,
    in the six-deck and the one- and two-deck paytables)."""
    if "split" not in table:
        return [row[1:] for row in table["rows"]]
    return [
        [row[1 + i] for i in spec.get("pay_columns", [index]) if len(row) > 1 + i]
        for index, spec in enumerate(table["split"])
        for row in table["rows"]
    ]


def _source_name(table: dict[str, Any]) -> str:
    if table.get("proposed"):
        return PROPOSED
    return next(
        f
        for (c, prefix), f in FILES.items()
        if c == table["jurisdiction"] and table["citation"].startswith(prefix)
    )


@pytest.mark.parametrize(
    "table", [t for t in paytables() if "footnotes" in t], ids=lambda t: t["id"]
)
def test_each_footnote_is_the_source_line_under_its_table_and_its_mark_is_printed(
    table: dict[str, Any],
) -> None:
    """A footnote as printed under its table (30-899.23(12), co-rule-8-blackjack.md:1503:
    "*Dealer Bust total hand..."); one printed broken over cells, its letters as printed."""
    lines = (SOURCES / _source_name(table)).read_text().splitlines()
    printed = [str(cell) for row in table["rows"] for cell in row] + table["columns"]
    for note in table["footnotes"]:
        assert table["line"] < note["line"] < table["line"] + len(table["rows"]) + 20
        source = strip_markup(lines[note["line"] - 1]).replace("\t", " ")
        if note.get("reassembled"):
            assert sorted(note["text"].replace(" ", "")) == sorted(source.replace(" ", ""))
        else:
            assert note["text"] == " ".join(source.split())
        mark = note["text"][: len(note["text"]) - len(note["text"].lstrip("*"))]
        assert any(cell.endswith(mark) for cell in printed), (table["id"], mark)


@pytest.mark.django_db
def test_raise_the_roof_keeps_its_footnote_in_the_knowledge_base() -> None:
    table = Paytable.objects.get(key="us-co/raise-the-roof/6d-s17-pay-table-1")
    assert table.footnotes == [
        "*Dealer Bust total hand. The order in which cards are received does not matter."
    ]
    assert Paytable.objects.get(key="us-co/kings-bounty/kb03").footnotes == []


@pytest.mark.django_db
def test_the_loaded_catalog_holds_every_row_of_the_yaml() -> None:
    expected = sum(
        len([p for p in cells if p not in NO_PAY]) for t in paytables() for cells in _pay_cells(t)
    )
    assert PaytableEntry.objects.count() == expected
    kb = PaytableEntry.objects.get(
        paytable__key="us-co/kings-bounty/kb03", outcome="two-kings-of-spades", column="Dealer Envy"
    )
    assert kb.pays == "$25"


@pytest.mark.django_db
def test_bare_printed_pays_are_stored_as_the_payout_the_source_says_they_are() -> None:
    """30-899.12 ¶3(3) prints "1000"; its note says 'All odds shown above are "to 1"'."""
    line = PaytableEntry.objects.get(
        paytable__key="us-co/lucky-ladies/pay-table-b", outcome="queen-of-hearts-pair"
    )
    assert (line.label, line.pays) == ("Queen of Hearts pair", "200 to 1")


@pytest.mark.django_db
def test_massachusetts_buster_and_blazing_7s_lines_are_read_as_printed() -> None:
    """MA 27(g) "(all pays "to 1")"; 31(d) two tables side by side, the right one a line longer."""
    f = PaytableEntry.objects.get(
        paytable__key="us-ma/buster-blackjack/paytable-f", outcome="bust-3-cards"
    )
    assert (f.label, f.pays) == ("3", "1 to 1")
    left, right = (
        list(
            PaytableEntry.objects.filter(paytable__key=f"us-ma/blazing-7s/sample-paytable-{n}")
            .order_by("order")
            .values_list("label", "pays")
        )
        for n in (1, 2)
    )
    assert left[0] == ("3 suited 7's", "100%") and len(left) == 5
    assert right[2] == ("3 7's – Same Color", "500 for 1") and len(right) == 6


@pytest.mark.django_db
def test_royal_match_progressive_pays_as_printed_without_the_cells_amendment_notes() -> None:
    """30-899.11(17): "40 for 1 amended 1/14/14" is a 40 for 1 line amended on that date;
    Pay table 3 pays shares of two named meters."""
    two = PaytableEntry.objects.get(
        paytable__key="us-co/royal-match-21-progressive/progressive-pay-table-2",
        outcome="royal-match",
    )
    assert (two.label, two.pays) == ("Royal Match", "40 for 1")
    assert two.paytable.decks == [6] and str(two.paytable.effective_from) == "2014-01-14"
    three = PaytableEntry.objects.filter(
        paytable__key="us-co/royal-match-21-progressive/progressive-pay-table-3"
    ).order_by("order")
    assert [Pays.parse(e.pays).meter for e in three[:2]] == ["Major", "Minor"]


def test_a_row_printed_over_two_lines_is_joined_cell_by_cell() -> None:
    """MA 19(k) Paytable 1: "Royal Flush (Any other" / "suit)" beside "100% Spade" / "Progressive";
    "100% Heart" printed on the line above "Three of a Kind" / "Progressive"."""
    rows = source_rows("US-MA", "19(k)", 388, 4, None, [2, 2])
    assert rows == [
        ["Royal Flush (Any other suit)", "100% Spade Progressive", "$5,000", "7%"],
        ["Three of a Kind", "100% Heart Progressive", "$500", "7%"],
    ]
    assert source_rows("US-MA", "19(k)", 388, 4, None, [1, 2, 1]) != rows


@pytest.mark.django_db
def test_massachusetts_progressive_blackjack_and_super_4_pay_the_meters_they_name() -> None:
    """MA 19(c) "100% of the progressive meter amount"; 19(k) Paytable 3, five meters."""
    four = PaytableEntry.objects.get(
        paytable__key="us-ma/progressive-blackjack/payouts", outcome="four-aces-same-color"
    )
    assert (Pays.parse(four.pays).share, Pays.parse(four.pays).meter) == (1, "")
    three = PaytableEntry.objects.filter(paytable__key="us-ma/super-4-progressive/paytable-3")
    assert [Pays.parse(e.pays).meter for e in three.order_by("order")[:5]] == [
        "Star",
        "Spade",
        "Heart",
        "Diamond",
        "Club",
    ]


@pytest.mark.django_db
def test_a_table_printed_a_row_per_deck_count_is_a_paytable_per_row() -> None:
    """30-899.24(6): a row per deck count, a column per match; 2 decks print N/A for two suited
    matches (three identical cards)."""
    two = PaytableEntry.objects.filter(paytable__key="us-co/match-the-dealer/2-deck")
    assert two.get(outcome="unsuited-and-suited-match").pays == "23 to 1"
    assert not two.filter(outcome="two-suited-matches").exists()
    eight = PaytableEntry.objects.get(
        paytable__key="us-co/match-the-dealer/8-deck", outcome="one-suited-match"
    )
    assert (eight.paytable.decks, eight.label, eight.pays) == (
        [8],
        "Suited Match Pay Out: 1 card match",
        "14 to 1",
    )


@pytest.mark.django_db
def test_a_blank_cell_of_tables_printed_side_by_side_is_a_line_that_table_does_not_have() -> None:
    """30-899.15(9): "4 – Sets of A-8's" is printed under Pay tables 4, 5 and 7 only; "Paytables 6
    and 7 effective 2/14/16" dates those two columns, the others the section's 7/15/14."""
    row = source_rows("US-CO", "30-899.15(9)", 1160, 1, None, None, True)[0]
    assert row[1:] == ["", "", "", "500 to 1", "500 to 1", "", "500 to 1"]
    assert source_rows("US-CO", "30-899.15(9)", 1160, 1)[0][1:] == ["500 to 1"] * 3
    four = PaytableEntry.objects.filter(
        outcome="four-sets-a-8", paytable__wager__slug="dead-mans-hand"
    )
    assert sorted(four.values_list("paytable__key", flat=True)) == [
        f"us-co/dead-mans-hand/pay-table-{n}" for n in (4, 5, 7)
    ]
    seven = PaytableEntry.objects.get(
        paytable__key="us-co/dead-mans-hand/pay-table-7", outcome="pair-only-a-8-after-split"
    )
    assert (seven.pays, str(seven.paytable.effective_from)) == ("20 to 1", "2016-02-14")
    one = PaytableEntry.objects.get(
        paytable__key="us-co/dead-mans-hand/pay-table-1", outcome="any-ace-or-8"
    )
    assert (one.pays, one.paytable.effective_from) == ("3 to 2", None)


@pytest.mark.django_db
def test_a_split_table_gives_a_column_to_another_wager_and_continues_in_parts() -> None:
    """30-2114 prints "Pay Table A: 21+3" and "Pay Table B: 21+3 Xtreme" side by side, in two parts
    around its heading "21+3 Pay table:": a paytable per column, each of its own wager."""
    from variants.models import Paytable

    b = PaytableEntry.objects.filter(
        paytable__key="us-co/21-plus-3-xtreme/buffalo-blackjack-bonus-3/pay-table-b"
    ).order_by("order")
    assert b[0].paytable.wager.slug == "21-plus-3-xtreme"
    assert [(e.outcome, e.pays) for e in b] == [
        ("straight-flush", "30 to 1"),
        ("three-of-a-kind", "20 to 1"),
        ("straight", "10 to 1"),
        ("flush", "5 to 1"),
    ]
    a = PaytableEntry.objects.filter(
        paytable__key="us-co/21-plus-3/buffalo-blackjack-bonus-3/pay-table-a"
    )
    assert a[0].paytable.wager.slug == "21-plus-3"
    assert a.count() == 4 and {e.pays for e in a} == {"9 to 1"}
    assert not Paytable.objects.filter(key__endswith="/part-2").exists()


@pytest.mark.django_db
def test_a_table_whose_every_cell_is_an_outcome_has_a_line_per_cell() -> None:
    """30-899.09¶5: the Bust Bonus pay table, the dealer's up card × "Bust, Off Suit" / "Bust,
    Suited", bare numbers read "to 1"; ¶6: '"Suited" is not applicable in single & double deck
    games', so the one- and two-deck paytable has the off-suit lines only. 30-2113¶5 and 30-2114¶10
    print the table again, without that note."""
    six = PaytableEntry.objects.filter(paytable__key="us-co/buffalo-bust-bonus/6-decks")
    ace = six.get(outcome="ace-suited")
    assert (ace.label, ace.column, ace.pays) == ("Ace: Bust, Suited", "", "50 to 1")
    assert six.get(outcome="888-off-suit").pays == "25 to 1"
    assert six.count() == 22 and six[0].paytable.decks == [6]
    small = PaytableEntry.objects.filter(paytable__key="us-co/buffalo-bust-bonus/1-2-decks")
    assert small.count() == 11 and small[0].paytable.decks == [1, 2]
    assert not small.filter(outcome__endswith="-suited").exists()
    assert small.get(outcome="2-off-suit").pays == "1 to 1"
    for key, decks in [
        ("us-co/buffalo-blackjack-bonus-2/bust-bonus-pay-table", [1, 2, 4, 6]),
        ("us-co/buffalo-blackjack-bonus-3/bust-bonus-pay-table", [4, 6]),
    ]:
        lines = PaytableEntry.objects.filter(paytable__key=key)
        assert {(e.outcome, e.pays) for e in lines} == {(e.outcome, e.pays) for e in six}
        assert lines[0].paytable.decks == decks


@pytest.mark.django_db
def test_tables_printed_side_by_side_keep_their_several_pay_columns() -> None:
    """MA 30: four TriLux tables side by side, each with a "Pays*" and a "LkyGrg**" column;
    Paytable 3 prints NA for a Lucky George flush, Paytable 4 its own decks."""
    from variants.models import Paytable

    three = PaytableEntry.objects.filter(paytable__key="us-ma/trilux-bonus/lucky-george-paytable-3")
    assert three.get(outcome="straight", column="Pays").pays == "10-to-1"
    assert three.get(outcome="straight", column="LkyGrg").pays == "$2"
    assert not three.filter(outcome="flush", column="LkyGrg").exists()
    assert three.count() == 7
    four = Paytable.objects.get(key="us-ma/trilux-bonus/lucky-george-paytable-4")
    assert four.decks == [1, 2, 6, 8]
    sup = PaytableEntry.objects.filter(paytable__key="us-ma/trilux-super-3/sup-01")
    assert list(sup.order_by("order").values_list("outcome", "pays")) == [
        ("three-of-a-kind-suited", "270-to-1"),
        ("straight-flush", "180-to-1"),
        ("three-of-a-kind", "90-to-1"),
    ]


@pytest.mark.django_db
def test_schedules_printed_side_by_side_in_two_parts_are_a_paytable_each() -> None:
    """30-899.07(9): STREAK's Standard and Optional Schedules side by side, the header printed
    again before the 4 and 5 win lines: each schedule is one paytable of four lines in order."""
    streak = Paytable.objects.filter(wager__slug="streak", wager__jurisdiction__code="US-CO")
    assert sorted(streak.values_list("key", flat=True)) == [
        "us-co/streak/optional-schedule",
        "us-co/streak/standard-schedule",
    ]
    for key, pays in [
        ("us-co/streak/standard-schedule", ["3 to 1", "7 to 1", "17 to 1", "37 to 1"]),
        ("us-co/streak/optional-schedule", ["3 to 1", "8 to 1", "18 to 1", "38 to 1"]),
    ]:
        lines = PaytableEntry.objects.filter(paytable__key=key).order_by("order")
        assert [(e.outcome, e.pays) for e in lines] == list(
            zip(["two-wins", "three-wins", "four-wins", "five-wins"], pays, strict=True)
        )


@pytest.mark.django_db
def test_bet_the_set_progressive_top_line_pays_the_meter_plus_odds_and_an_envy_amount() -> None:
    """30-899.13(10): "100% of the progressive + 250 to 1" in the 6 Deck column, "$50" Envy."""
    top = PaytableEntry.objects.filter(
        paytable__key="us-co/bet-the-set-21-progressive/pay-table",
        outcome="four-of-a-kind-same-color",
    )
    pays = {e.column: Pays.parse(e.pays) for e in top}
    assert set(pays) == {"6 Deck*", "Envy Pay out"}
    six = pays["6 Deck*"]
    assert (six.basis, six.share, six.meter, str(six.odds)) == (
        Basis.ODDS_AND_METER,
        1,
        "",
        "250 to 1",
    )
    assert str(pays["Envy Pay out"]) == "$50"
    assert top[0].paytable.decks == [6]


@pytest.mark.django_db
def test_each_printing_of_the_blazing_7s_tables_is_catalogued_under_its_rule() -> None:
    """B7P1-B7P3 are printed in 30-899.11(17), 30-899.13(12), 30-899.14(11) and 30-899.21(13),
    with the same pays: a casino offering Blazing 7's under Bet the Set 21 or Hit and Run finds
    the table that rule prints."""
    for n in (1, 2, 3):
        printings = {
            rule: list(
                PaytableEntry.objects.filter(paytable__key=key)
                .order_by("order")
                .values_list("outcome", "pays")
            )
            for rule, key in [
                ("30-899.21", f"us-co/blazing-7s/b7p{n}"),
                ("30-899.11", f"us-co/blazing-7s/30-899-11-b7p{n}"),
                ("30-899.13", f"us-co/blazing-7s/30-899-13-b7p{n}"),
                ("30-899.14", f"us-co/blazing-7s/30-899-14-b7p{n}"),
            ]
        }
        assert all(lines == printings["30-899.21"] for lines in printings.values()), n
        assert printings["30-899.21"]
    hit_and_run = Paytable.objects.get(key="us-co/blazing-7s/30-899-14-b7p2")
    assert (hit_and_run.unit_path, str(hit_and_run.effective_from)) == ("(11)", "2015-08-14")


@pytest.mark.django_db
def test_marks_printed_before_the_pays_are_not_part_of_them() -> None:
    """30-899.29(2) prints "-100%", "- 100 for 1", "_3 for 1", "-Lose" (a printing defect, kept
    in the rows and annotated); the lines pay what follows the mark."""
    long_1 = dict(
        PaytableEntry.objects.filter(
            paytable__key="us-co/rocket-aces/long-pay-table-1-6-decks"
        ).values_list("outcome", "pays")
    )
    assert long_1["two-aces-of-spades-dealer-blackjack-of-spades"] == "100%"
    assert long_1["two-aces-suited-dealer-blackjack"] == "2 %"
    assert long_1["dealer-blackjack"] == "3 for 1"
    assert Pays.parse(long_1["all-other-hands"]).basis is Basis.LOSS
    assert source_rows("US-CO", "30-899.29(2)", 1871, 1)[0] == ["Dealer Blackjack", "_3 for 1"]
    twice = Paytable.objects.filter(key__startswith="us-co/rocket-aces/medium-single-ace-2-decks")
    assert {(t.label, tuple(t.decks)) for t in twice} == {
        ("Medium With Single Ace Base – 2 Decks", (2,))
    }
    assert twice.count() == 2


@pytest.mark.django_db
def test_a_garbled_first_line_is_catalogued_from_its_legible_printing() -> None:
    """30-2106 Schedule D: "Three Ace of Spades 5000 to T" | "Three Ace of Speder" | "E000 to 1",
    then "5000 to 1" alone on the line below: the line pays 5000 to 1, first of the schedule."""
    assert source_rows("US-CO", "30-2106", 217, 1, [1, 3], None, True) == [["", "5000 to 1"]]
    d = PaytableEntry.objects.filter(paytable__key="us-co/ante-up-21-poker-bonus/schedule-d")
    first = d.order_by("order").first()
    assert first is not None
    assert (first.outcome, first.label, first.pays) == (
        "three-aces-of-spades",
        "Three Ace of Spades",
        "5000 to 1",
    )
    assert d.count() == 9 and first.paytable.source_line == 217


@pytest.mark.django_db
def test_loading_the_catalog_again_changes_nothing() -> None:
    before = PaytableEntry.history.count()
    catalog_load(path=CATALOG / "us-co.yaml")
    assert PaytableEntry.history.count() == before


@pytest.mark.django_db
def test_a_fact_taken_out_of_the_catalog_is_removed_with_its_history_kept(tmp_path: Path) -> None:
    """Loading a catalog file makes the knowledge base hold what the file holds: a constraint or
    paytable taken out of the YAML no longer binds a configuration (its history keeps it)."""
    lines = PaytableEntry.objects.filter(paytable__key="us-co/kings-bounty/kb03").count()
    entries = PaytableEntry.objects.count()
    data = yaml.load((CATALOG / "us-co.yaml").read_text(), Loader=yaml.CSafeLoader)
    gone = data["constraints"].pop(0)
    data["paytables"] = [t for t in data["paytables"] if t["id"] != "us-co/kings-bounty/kb03"]
    smaller = tmp_path / "us-co.yaml"
    smaller.write_text(yaml.safe_dump(data, sort_keys=False))
    whole = sorted(CATALOG.glob("*.yaml"))
    loaded = catalogs_load(paths=[p if p.name != "us-co.yaml" else smaller for p in whole])
    removed = loaded[whole[-1].name]["removed"]
    assert removed == 2 + lines  # the constraint, KB03 and its lines
    assert not Constraint.objects.filter(code=gone["code"]).exists()
    assert not Paytable.objects.filter(key="us-co/kings-bounty/kb03").exists()
    assert Constraint.history.filter(code=gone["code"], history_type="-").exists()
    assert catalogs_load(paths=whole)[whole[-1].name]["removed"] == 0
    assert Paytable.objects.filter(key="us-co/kings-bounty/kb03").exists()
    assert PaytableEntry.objects.count() == entries


@pytest.mark.django_db
def test_a_catalog_citing_a_unit_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    data = yaml.load((CATALOG / "us-co.yaml").read_text(), Loader=yaml.CSafeLoader)
    data["constraints"][0]["citation"] = "30-810(9)"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data))
    with pytest.raises(CatalogError, match=r"30-810 has no unit \(9\)"):
        catalog_load(path=bad)


@pytest.mark.django_db
def test_a_params_key_yaml_reads_as_a_boolean_is_refused(tmp_path: Path) -> None:
    """YAML 1.1 reads an unquoted `on:` as true: Spanish 21's "double on any time" was once
    stored as {"true": "any_time"} and never applied. The loader refuses such a key."""
    text = (CATALOG / "us-co.yaml").read_text()
    assert '{"on": any_time' in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace('{"on": any_time', "{on: any_time", 1))
    with pytest.raises(CatalogError, match="params key True is not text: quote it"):
        catalog_load(path=bad)


@pytest.mark.django_db
def test_paytables_api_filters_by_date_and_cites_the_label_of_the_date(
    anon_client: APIClient,
) -> None:
    params = {"jurisdiction": "US-CO", "wager": "raise-the-roof"}
    assert (
        anon_client.get("/api/v1/paytables/", params | {"as_of": "2016-01-01"}).json()["count"] == 0
    )
    in_2017 = anon_client.get("/api/v1/paytables/", params | {"as_of": "2017-01-01"}).json()[
        "results"
    ]
    assert len(in_2017) == 6
    assert in_2017[0]["citations"][0]["citation"] == "30-834.23(12)"
    in_2018 = anon_client.get("/api/v1/paytables/", params | {"as_of": "2018-01-01"}).json()[
        "results"
    ]
    assert in_2018[0]["citations"][0]["citation"] == "30-899.23(12)"
    one = anon_client.get("/api/v1/paytables/us-co/raise-the-roof/6d-s17-pay-table-1/").json()
    assert one["dealer_soft_17"] == "stand" and one["decks"] == [6]
    line = next(
        e
        for e in one["entries"]
        if e["outcome"] == "bust-4567-suited" and e["column"] == "Ante+ Raise The Roof"
    )
    assert line["pays"] == "200 to 1"


@pytest.mark.django_db
def test_wagers_api_lists_outcomes_and_paytables(anon_client: APIClient) -> None:
    assert anon_client.get("/api/v1/wagers/kings-bounty/").status_code == 400  # in US-CO and US-MA
    body = anon_client.get("/api/v1/wagers/kings-bounty/", {"jurisdiction": "US-CO"}).json()
    assert body["kind"] == "side_wager" and body["owner"] == "LNW Gaming, Inc."
    assert {"key": "unsuited-20", "label": "Unsuited 20"} in body["outcomes"]
    assert body["paytables"] == ["us-co/kings-bounty/kb03"]
    assert anon_client.get("/api/v1/wagers/no-such-wager/").status_code == 404


@pytest.mark.django_db
def test_the_shipped_catalog_is_consistent() -> None:
    from variants.selectors import catalog_problems

    assert catalog_problems() == []


@pytest.mark.django_db
def test_a_fact_dated_before_its_provision_is_reported() -> None:
    import datetime as dt

    from variants.models import Paytable
    from variants.selectors import catalog_problems

    Paytable.objects.filter(key="us-co/raise-the-roof/6d-s17-pay-table-1").update(
        effective_from=dt.date(2015, 1, 1)
    )
    assert catalog_problems() == [
        "us-co/raise-the-roof/6d-s17-pay-table-1: in force from 2015-01-01, before its "
        "provision (2016-10-30)"
    ]


@pytest.mark.django_db
def test_the_draft_of_a_paytable_is_its_rows_as_printed() -> None:
    from regs.models import UnitVersion
    from regs.selectors import provision_by_citation
    from variants.catalog import draft_paytables

    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.20")
    text = UnitVersion.objects.get(
        unit__provision=provision, unit__path="(7)", status="adopted"
    ).text
    (draft,) = draft_paytables(text)
    assert draft["columns"] == ["Pays", "Dealer Envy"]
    assert draft["rows"][0] == ["2 Kings of Spades + Dealer BJ", "500 to 1", "$100"]
    assert draft["rows"][-1] == ["Unsuited 20", "4 to 1"]


def _layout_rules() -> list[tuple[str, set[str], dict[str, Any]]]:
    """Each layout_required constraint of the catalog, with its jurisdiction's wager slugs."""
    data = [
        yaml.load(path.read_text(), Loader=yaml.CSafeLoader)
        for path in sorted(CATALOG.glob("*.yaml"))
    ]
    slugs: dict[str, set[str]] = {}
    for d in data:
        slugs.setdefault(d["jurisdiction"], set()).update(w["slug"] for w in d["wagers"])
    return [
        (d["jurisdiction"], slugs[d["jurisdiction"]], c)
        for d in data
        for c in d["constraints"]
        if c["kind"] == "layout_required"
    ]


@pytest.mark.parametrize(
    ("jurisdiction", "slugs", "rule"),
    _layout_rules(),
    ids=[rule["code"] for _, _, rule in _layout_rules()],
)
def test_each_layout_rule_is_read_from_a_source_line_about_the_layout(
    jurisdiction: str, slugs: set[str], rule: dict[str, Any]
) -> None:
    """A layout_required constraint's `line` is the source line that says it, and the layout it
    names (or, without one, each wager's own) is a wager of the jurisdiction."""
    name = next(
        f
        for (code, prefix), f in FILES.items()
        if code == jurisdiction and rule["citation"].startswith(prefix)
    )
    lines = (SOURCES / name).read_text().splitlines()[rule["line"] - 1 :]
    # The unit's first line, and the lines it continues on (MA 25(b), printed over a blank line).
    unit = [lines[0]] + list(
        itertools.takewhile(lambda t: not t.lstrip().startswith(("- (", "(")), lines[1:3])
    )
    assert "layout" in " ".join(unit).lower(), (rule["code"], unit)
    wagers = rule.get("wagers") or [rule["wager"]]
    layouts = [rule["params"]["layout"]] if "layout" in rule.get("params", {}) else wagers
    assert set(layouts) | set(wagers) <= slugs


@pytest.mark.django_db
def test_colorado_trilux_bonus_and_super_3_tables_are_read_as_printed() -> None:
    """30-2115¶3 TRI-01, -02, -05 (Pair: "N/A", "2.5 to 1", "Push"; decks by the Deck Type row);
    ¶4 TRILG-01 to -04, a "Pays" and a fixed-dollar "Lucky George" column each, TRILG-03 "N/A"
    for a Lucky George flush, the Deck Type row empty (any decks); ¶5 SUP-01 to -03."""
    tri = {n: Paytable.objects.get(key=f"us-co/trilux-bonus/tri-0{n}") for n in (1, 2, 5)}
    assert [tri[n].decks for n in (1, 2, 5)] == [list(range(2, 9)), [2], list(range(2, 9))]
    assert not tri[1].entries.filter(outcome="pair").exists()
    assert tri[2].entries.get(outcome="pair").pays == "2.5 to 1"
    assert Pays.parse(tri[5].entries.get(outcome="pair").pays).basis is Basis.PUSH
    three = PaytableEntry.objects.filter(paytable__key="us-co/trilux-bonus/trilg-03")
    assert three.get(outcome="straight-flush", column="Lucky George").pays == "$10"
    assert not three.filter(outcome="flush", column="Lucky George").exists()
    assert three.count() == 7 and three[0].paytable.decks == []
    assert str(three[0].paytable.effective_from) == "2023-02-14"
    sup = PaytableEntry.objects.filter(paytable__key="us-co/trilux-super-3/sup-02")
    assert list(sup.order_by("order").values_list("outcome", "pays")) == [
        ("three-of-a-kind-suited", "1,000 to 1"),
        ("straight-flush", "100 to 1"),
        ("three-of-a-kind", "70 to 1"),
    ]
    assert sup[0].paytable.decks == [6, 7, 8]
