"""Every date printed in the shipped sources, and what the knowledge base made of it (issue #23):
the inventory `python manage.py date_notes` prints and `make bench` counts. The scan reads the
raw sources (the text form's lines, the PDF's page text), not the date-note parser's output, so
a note the parser dropped would be listed UNACCOUNTED."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.management import call_command

from regs.datenote_audit import UNACCOUNTED, DatedNote, dated_notes, shipped_sources

pytestmark = pytest.mark.django_db

SOURCES = {path.name: (path, code, slug, status) for path, code, slug, status in shipped_sources()}


def inventory(name: str) -> list[DatedNote]:
    path, code, slug, status = SOURCES[name]
    return dated_notes(path, jurisdiction=code, instrument=slug, status=status)


def at(notes: list[DatedNote], where: str, printed: str) -> DatedNote:
    [note] = [n for n in notes if n.where == where and n.printed == printed]
    return note


@pytest.mark.parametrize("name", ["co-rule-8-blackjack.md", "co-rule-21-blackjack-poker.md"])
def test_every_date_of_a_text_form_is_accounted_for(name: str) -> None:
    notes = inventory(name)
    path = SOURCES[name][0]
    printed = len(re.findall(r"\d{1,2}/\d{1,2}/\d{2,4}", path.read_text()))
    assert sum("/" in n.printed for n in notes) == printed  # every m/d/y date printed is listed
    assert [n for n in notes if n.outcome == UNACCOUNTED] == []


@pytest.mark.parametrize(
    ("text", "pdf"),
    [
        ("co-rule-8-blackjack.md", "co-rule-8-blackjack.pdf"),
        ("co-rule-21-blackjack-poker.md", "co-rule-21-blackjack-poker.pdf"),
    ],
)
def test_the_pdf_prints_the_same_dates_and_each_is_accounted_for(text: str, pdf: str) -> None:
    from_text, from_pdf = inventory(text), inventory(pdf)
    assert sorted((n.section, n.printed) for n in from_pdf) == sorted(
        (n.section, n.printed) for n in from_text
    )
    assert [n for n in from_pdf if n.outcome == UNACCOUNTED] == []


def test_each_reviewed_case_is_listed_with_what_became_of_it() -> None:
    """The cases of issue #23, each by its line in co-rule-8-blackjack.md / co-rule-21-…md."""
    rule_8, rule_21 = (
        inventory("co-rule-8-blackjack.md"),
        inventory("co-rule-21-blackjack-poker.md"),
    )
    # line 333: "(4) … [Effective 10/15/20]" starts (4)
    fourth = at(rule_8, "line 333", "10/15/20")
    assert (fourth.unit, fourth.outcome) == ("(4)", "version")
    assert fourth.detail.startswith("30-831(4): 2020-10-15 – now (on file")
    # line 90: "(30-801 temp. 5/13/93, perm. 6/30/93; …)": the temporary period
    temporary = at(rule_8, "line 90", "5/13/93")
    assert (temporary.outcome, temporary.detail) == (
        "version",
        "30-801: 1993-05-13 – 1993-06-30 (not on file, temporary)",
    )
    # line 985: "Amended 5/15/22" under the Bust Bonanza table ends its period not on file
    bust = at(rule_21, "line 985", "5/15/22")
    assert (bust.section, bust.unit, bust.outcome) == ("30-2115", "¶6", "version")
    assert bust.detail == "30-2115 ¶6: 2022-01-14 – 2022-05-15 (not on file, superseded)"
    # line 1065: "Amended 1/15/14" predates the section's "Eff 4/14/2014": annotated why
    early = at(rule_8, "line 1065", "1/15/14")
    assert early.outcome == "annotation"
    assert "gives a date before 2014-04-14" in early.detail
    # line 457: "the rights to which on October 1, 1996 were owned by …": the rule's own words
    assert at(rule_8, "line 457", "October 1, 1996").outcome == "words"
    # line 26: Rule 21's Basis and Purpose "Amended 8/14/16", reviewed in fixtures/date_notes.yaml
    basis = at(rule_21, "line 26", "8/14/16")
    assert (basis.section, basis.outcome) == ("BASIS AND PURPOSE FOR RULE 21", "reviewed")


def test_a_note_left_in_the_text_would_be_unaccounted(tmp_path: Path) -> None:
    """A date after a note keyword inside a unit's words is a note the parser did not split off,
    not the rule's words: a copy of Rule 8 with "as amended 5/1/21" written into 30-899.03(4)
    (line 462), listed against the knowledge base of the shipped text, shows that date
    unaccounted."""
    path, code, slug, status = SOURCES["co-rule-8-blackjack.md"]
    lines = path.read_text().splitlines()
    at_line = next(
        i for i, line in enumerate(lines) if line.startswith("- (4) If a player does not surrender")
    )
    lines[at_line] = lines[at_line].replace(
        "face up.", "face up, as amended 5/1/21 by the Commission."
    )
    altered = tmp_path / path.name
    altered.write_text("\n".join(lines) + "\n")
    notes = dated_notes(altered, jurisdiction=code, instrument=slug, status=status)
    [dropped] = [n for n in notes if n.outcome == UNACCOUNTED]
    assert (dropped.where, dropped.section, dropped.unit, dropped.printed) == (
        f"line {at_line + 1}",
        "30-899.03",
        "(4)",
        "5/1/21",
    )


def test_the_command_lists_the_dates_and_counts_the_unaccounted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("date_notes", "--unaccounted")
    out = capsys.readouterr().out
    assert "co-rule-8-blackjack.md: 280 dated notes (" in out
    assert out.rstrip().endswith("unaccounted")
    assert out.rstrip().splitlines()[-1].endswith(", 0 unaccounted")
