"""The word-level diff of two provision states, on plain units (no database)."""

from __future__ import annotations

from regs.diff.redline import html_redline, terminal_redline, with_tables
from regs.diff.text import Change, UnitText, diff_units


def units(label: str, *texts: str) -> list[UnitText]:
    return [
        UnitText(f"({n})", f"{label}({n})", None, text, "in_force", n)
        for n, text in enumerate(texts, start=1)
    ]


TWELVE = [
    "The dealer must draw to 16 and stand on all 17s.",
    "Blackjack pays 3 to 2 unless the table posts 6 to 5.",
    "Insurance is offered when the dealer shows an ace.",
    "A player may double down on any first two cards.",
    "Pairs may be split up to three times in a round.",
    "Split aces receive one card each.",
    "Late surrender is allowed at the licensee's discretion.",
    "The shoe holds six or eight decks of 52 cards.",
    "Cards are burned after each shuffle.",
    "Tips may be placed for the dealer in front of a bet.",
    "Wagers are placed before the first card is dealt.",
    "Minimum and maximum limits are posted at the table.",
]


def kinds(changes: tuple[Change, ...]) -> list[tuple[str, str, str]]:
    return [
        (c.kind, c.left.path if c.left else "", c.right.path if c.right else "") for c in changes
    ]


def test_an_inserted_subsection_does_not_make_the_later_ones_look_changed() -> None:
    before = units("30-1", *TWELVE[:11])
    after = units("30-1", *TWELVE[:3], "A new subsection on insurance wagers.", *TWELVE[3:11])

    diff = diff_units(before, after)

    assert kinds(diff.changes)[0] == ("insertion", "", "(4)")
    renumbered = [c for c in diff.changes if c.kind == "renumbered"]
    assert [(c.left.path, c.right.path) for c in renumbered] == [  # type: ignore[union-attr]
        (f"({n})", f"({n + 1})") for n in range(4, 12)
    ]
    assert [c for c in diff.changes if c.kind in ("replacement", "deletion")] == []


def test_a_unit_moved_under_another_parent_is_moved_not_deleted_and_added() -> None:
    before = [
        UnitText("(1)", "X(1)", None, "Dealer stands on all 17s.", "in_force", 0),
        UnitText("(2)", "X(2)", None, "Insurance pays 2 to 1 on every hand.", "in_force", 1),
    ]
    after = [
        UnitText("(1)", "X(1)", None, "Dealer stands on all 17s.", "in_force", 0),
        UnitText("(1)(a)", "X(1)(a)", None, "Insurance pays 2 to 1 on every hand.", "in_force", 1),
    ]

    assert kinds(diff_units(before, after).changes) == [("moved", "(2)", "(1)(a)")]


def test_case_markdown_and_whitespace_differences_are_editorial() -> None:
    diff = diff_units(
        units("47.1-1", "THE DEALER SHALL  PAY THE PLAYER.**"),
        units("30-1", "The dealer shall pay the player."),
    )

    [change] = diff.changes
    assert not change.substantive
    assert change.editorial == ("case", "markdown", "whitespace")


def test_a_punctuation_only_difference_is_not_substantive() -> None:
    diff = diff_units(
        units("X", "Pays 3 to 2; the dealer stands"), units("X", "Pays 3 to 2, the dealer stands")
    )

    assert [c.substantive for c in diff.changes] == [False]


def test_a_spelling_change_is_substantive_even_when_case_is_ignored() -> None:
    diff = diff_units(units("X", "4, 5, 6, 7 UNSUITED*"), units("X", "4, 5, 6, 7 Unsuted*"))

    spelling = [c for c in diff.changes if c.substantive]
    assert [(c.left.text, c.right.text, c.note) for c in spelling] == [  # type: ignore[union-attr]
        ("UNSUITED", "Unsuted", "spelling")
    ]


def test_a_version_diffed_with_itself_is_empty() -> None:
    state = units("X", *TWELVE)

    diff = diff_units(state, state)

    assert diff.changes == ()
    assert {u.status for u in diff.units} == {"same"}


def test_a_diff_is_deterministic_and_its_reverse_is_its_inverse() -> None:
    before = units("30-1", *TWELVE[:11], "Blackjack pays 3 to 2 at every table.")
    after = units("30-1", *TWELVE[:3], "A new subsection.", *TWELVE[3:10], "Blackjack pays 6 to 5.")

    forward = diff_units(before, after)
    backward = diff_units(after, before)

    assert forward == diff_units(before, after)
    key = repr
    assert sorted(map(key, forward.changes)) == sorted(key(c.inverse()) for c in backward.changes)


def test_a_side_not_on_file_is_reported_never_diffed() -> None:
    before = [UnitText("(3)", "X(3)", None, None, "not_on_file", 0)]
    after = [UnitText("(3)", "X(3)", None, "Bets up to the table maximum.", "in_force", 0)]

    diff = diff_units(before, after)

    assert diff.changes == ()
    assert [u.status for u in diff.units] == ["not_on_file"]


def test_the_html_redline_escapes_rule_text() -> None:
    diff = diff_units(
        units("X", "Pays 3 & 2 <script>x</script> here"),
        units("X", "Pays 6 & 2 <script>x</script> here"),
    )

    html = html_redline(diff)

    assert "<script>" not in html
    assert "Pays <del>3</del><ins>6</ins> &amp; 2 &lt;script&gt;x&lt;/script&gt; here" in html


def test_a_table_in_a_redline_keeps_its_cells_and_its_marks() -> None:
    """Issue #27: a unit's " | " lines are a table on the page, a deletion or insertion that
    crosses a cell boundary closed and opened again in each cell."""
    diff = diff_units(
        units("X", "Pay table:\nBust | Ante\n--- | ---\n4567 suited | 200 to 1\n9 | 1 to 1"),
        units("X", "Pay table:\nBust | Ante\n--- | ---\n4567 suited | 150 to 1\n8 | 2 to 1"),
    )

    html = with_tables(html_redline(diff))

    assert '<table class="data rule-table">' in html and " | " not in html
    assert "<tr><td>Bust</td><td>Ante</td></tr>" in html
    assert "<td><del>200</del><ins>150</ins> to 1</td>" in html
    rows = html.split("<tr>")
    assert len(rows) == 4  # before the table, then three rows: the separator row is no row
    assert all(row.count("<del") == row.count("</del>") for row in rows)
    assert all(row.count("<ins") == row.count("</ins>") for row in rows)


def test_the_terminal_redline_marks_deletions_and_insertions() -> None:
    diff = diff_units(units("X", "Pays 3 to 2."), units("X", "Pays 6 to 5."))

    assert terminal_redline(diff) == "X(1)  [changed]\n  Pays [-3-]{+6+} to [-2-]{+5+}."


def test_subsections_carried_along_by_a_renumbered_unit_are_not_listed_again() -> None:
    def state(number: str) -> list[UnitText]:
        return [
            UnitText(f"({number})", f"X({number})", None, TWELVE[0], "in_force", 0),
            UnitText(f"({number})(a)", f"X({number})(a)", None, TWELVE[1], "in_force", 1),
            UnitText(f"({number})(b)", f"X({number})(b)", None, TWELVE[2], "in_force", 2),
        ]

    diff = diff_units(state("4"), state("5"))

    assert kinds(diff.changes) == [("renumbered", "(4)", "(5)")]
    assert [u.right.citation for u in diff.units] == ["X(5)", "X(5)(a)", "X(5)(b)"]  # type: ignore[union-attr]


def test_a_date_note_left_in_the_text_is_never_inserted_rule_text() -> None:
    diff = diff_units(
        units("30-2107", "Straight Flush | 30 to 1"),
        units("30-2107", "Straight Flush | 30 to 1\nEff 10/16/13"),
    )

    assert [(c.substantive, c.editorial) for c in diff.changes] == [(False, ("date note",))]
