"""Date notes: the golden table in data/date_notes.yaml, and every note in the shipped sources."""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from regs.ingest.datenotes import EventKind, Note, parse_date, parse_note, split_notes

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ROOT / "fixtures" / "sources" / "text"
RULE_8 = "co-rule-8-blackjack.md"
RULE_21 = "co-rule-21-blackjack-poker.md"
MA = "ma-205-cmr-blackjack.md"
REGULATIONS = (RULE_8, RULE_21, MA)
GOLDEN: dict[str, list[dict[str, Any]]] = yaml.load(
    (Path(__file__).parent / "data" / "date_notes.yaml").read_text(encoding="utf-8"),
    Loader=yaml.CSafeLoader,
)
DATE = re.compile(r"(?<![\d/])\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])")

# Dates the sources print in the middle of a line on purpose-built lines, not as trailing notes.
KNOWN_MID_LINE = {
    (RULE_8, 666): "heading glued to the next one: '…Effective 9/14/2012*****Version 1**'",
    (RULE_8, 840): "table header: 'PROGRESSIVE Pay table 2 Eff 10/16/13' <tab> 'Pays'",
}
# Source lines whose notes have defects other than the cut-off keyword "Amen".
KNOWN_DEFECTS = {
    (RULE_8, 132): "clauses run together: '…perm 10/30/2002 30-803 (1) amended…'",
    (RULE_8, 389): "duplicated fragment '(30-842 added, perm.' and unbalanced parentheses",
    (RULE_8, 513): "history without its opening parenthesis",
    (RULE_8, 1448): "history without its opening parenthesis",
    (RULE_21, 250): "'Amended 10/16/13, Amen 10/16/13': one amendment printed twice",
}


# --- helpers ----------------------------------------------------------------------------------


def event_rows(note: Note) -> list[list[Any]]:
    """A note's events in the golden table's row form."""
    return [[e.kind.value, e.date, e.permanent, e.subject, e.new_label, e.raw] for e in note.events]


def as_golden(notes: list[Note]) -> list[dict[str, Any]]:
    return [{"raw": n.raw, "defects": list(n.defects), "events": event_rows(n)} for n in notes]


def expected_notes(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"raw": n["raw"], "defects": n.get("defects", []), "events": n["events"]}
        for n in case["notes"]
    ]


def strip_markup(line: str) -> str:
    """The plain text of a source line: no emphasis, tags, links, bullets or heading marks."""
    line = re.sub(r"\[([^\]]*)\]\(#\)", r"\1", line)
    line = re.sub(r"</?[bi]>", "", line)
    line = line.replace("*", "")
    line = re.sub(r"^\s*#+\s*", "", line)
    line = re.sub(r"^\s*-\s+", "", line)
    return re.sub(r"\s+", " ", line).strip()


def is_table_of_contents(raw: str) -> bool:
    """A contents line: dot leaders, page numbers after a tab, or section numbers then a tab."""
    return bool(
        re.search(r"\.{4,}", raw)
        or re.search(r"\t[\d ]+$", raw.rstrip("\n"))
        or re.match(r"^(?:\d{2}-\d{3,4}(?:\.\d+)?\s*)+\t", raw)
    )


@functools.cache
def source_lines() -> tuple[tuple[str, int, str, str], ...]:
    """(file, line number, raw line, plain text) for every non-empty line of the regulations."""
    out = []
    for name in REGULATIONS:
        for number, raw in enumerate((SOURCES / name).read_text(encoding="utf-8").splitlines(), 1):
            plain = strip_markup(raw)
            if plain:
                out.append((name, number, raw, plain))
    return tuple(out)


def trailing_dates(plain: str) -> Iterator[re.Match[str]]:
    """Dates at the end of a line, or inside the parenthetical the line ends with."""
    body = plain[:-1] if plain.endswith(").") else plain
    if body.endswith(")"):
        depth, start = 0, 0
        for index in range(len(body) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(body[index], 0)
            if depth == 0:
                start = index
                break
        yield from DATE.finditer(body, start)
        return
    match = re.search(rf"{DATE.pattern}\.?$", plain)
    if match:
        yield match


def shape(raw: str) -> str:
    """A note's form: dates, section and subsection labels and repeated Amended items abstracted."""
    text = DATE.sub("D", raw)
    text = re.sub(r"\d{2}-\d{3,4}(?:\.\d{1,2})?", "S", text)
    sub = r"\(\d{1,3}\)(?:\([a-z]{1,4}\))*"
    text = re.sub(rf"{sub}(?:\s*[-–]\s*{sub})?", "L", text)
    text = re.sub(r"Pay ?tables? \d+(?: and \d+)*", "Paytables N", text)
    return re.sub(r"(, Amended D)(?:, Amended D)+", r"\1+", text)


def golden_cases(*sections: str) -> list[Any]:
    return [
        pytest.param(case, id=str(case.get("source") or case["form"]))
        for section in sections
        for case in GOLDEN[section]
    ]


# --- the golden table -------------------------------------------------------------------------


@pytest.mark.parametrize("case", golden_cases("from_sources", "constructed"))
def test_it_splits_every_golden_note(case: dict[str, Any]) -> None:
    text, notes = split_notes(case["paragraph"])
    assert text == case["text"]
    assert as_golden(notes) == expected_notes(case)


@pytest.mark.parametrize("case", golden_cases("from_sources", "constructed"))
def test_it_parses_a_note_on_its_own_as_in_its_paragraph(case: dict[str, Any]) -> None:
    _, notes = split_notes(case["paragraph"])
    for note in notes:
        assert parse_note(note.raw) == note


@pytest.mark.parametrize("case", [pytest.param(c, id=c["why"]) for c in GOLDEN["no_notes"]])
def test_it_leaves_a_paragraph_without_notes_unchanged(case: dict[str, Any]) -> None:
    assert split_notes(case["paragraph"]) == (case["paragraph"], [])


def test_the_golden_table_covers_every_note_form_in_the_sources() -> None:
    golden = {shape(note["raw"]) for case in GOLDEN["from_sources"] for note in case["notes"]}
    found: dict[str, str] = {}
    for name, number, _, plain in source_lines():
        for note in split_notes(plain)[1]:
            found.setdefault(shape(note.raw), f"{name}:{number}")
    missing = {form: where for form, where in found.items() if form not in golden}
    assert not missing, f"note forms without a golden case: {missing}"
    assert len(found) == 39


# --- the sources ------------------------------------------------------------------------------


def test_it_captures_every_date_note_in_the_sources() -> None:
    missed: list[str] = []
    for name, number, raw, plain in source_lines():
        if is_table_of_contents(raw):
            continue
        text, notes = split_notes(plain)
        assert " ".join(filter(None, [text, *(n.raw for n in notes)])) == plain, f"{name}:{number}"
        missed += [
            f"{name}:{number}: {m.group()}" for m in trailing_dates(plain) if m.start() < len(text)
        ]
    assert not missed


def test_every_other_date_in_the_sources_is_a_known_exception() -> None:
    unexplained: list[str] = []
    for name, number, raw, plain in source_lines():
        text = split_notes(plain)[0]
        inside = [m.group() for m in DATE.finditer(plain) if m.start() < len(text)]
        if inside and not is_table_of_contents(raw) and (name, number) not in KNOWN_MID_LINE:
            unexplained.append(f"{name}:{number}: {inside}")
    assert not unexplained


def test_every_note_in_the_sources_dates_all_its_events() -> None:
    counts = {name: 0 for name in REGULATIONS}
    for name, number, _, plain in source_lines():
        for note in split_notes(plain)[1]:
            counts[name] += 1
            assert note.events, f"{name}:{number}"
            assert all(e.date is not None for e in note.events), f"{name}:{number}: {note.raw}"
    assert counts == {RULE_8: 195, RULE_21: 93, MA: 0}  # ToC lines included


def test_it_reports_the_known_source_defects_and_no_others() -> None:
    found: dict[tuple[str, int], list[str]] = {}
    for name, number, _, plain in source_lines():
        for note in split_notes(plain)[1]:
            cut_short = [d for d in note.defects if "'Amen'" in d]
            assert bool(cut_short) == bool(re.search(r"\bAmen\b", note.raw)), f"{name}:{number}"
            others = [d for d in note.defects if d not in cut_short]
            if others:
                found.setdefault((name, number), []).extend(others)
    assert set(found) == set(KNOWN_DEFECTS), found


def test_massachusetts_has_no_date_notes() -> None:
    for name, number, _, plain in source_lines():
        if name == MA:
            assert split_notes(plain) == (plain, []), f"{name}:{number}"


# --- single behaviours ------------------------------------------------------------------------


def test_it_right_strips_the_remaining_text() -> None:
    assert split_notes("The dealer shall deal.   Amended 1/1/20  ")[0] == "The dealer shall deal."


def test_it_marks_a_history_printed_without_its_parenthesis_as_a_history() -> None:
    (note,) = split_notes("30-834.21 renumbered as 30-899.21, effective 12/15/17)")[1]
    assert note.is_history
    (run,) = split_notes("The dealer shall deal. Amended 1/1/20")[1]
    assert not run.is_history


def test_a_temporary_adoption_is_not_permanent_and_the_permanent_one_is() -> None:
    (note,) = split_notes("Rules. (30-801 temp. 5/13/93, perm. 6/30/93)")[1]
    temporary, adopted = note.events
    assert (temporary.kind, temporary.permanent) == (EventKind.TEMPORARY, False)
    assert (adopted.kind, adopted.permanent, adopted.date) == (
        EventKind.ADOPTED,
        True,
        datetime.date(1993, 6, 30),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5/13/93", datetime.date(1993, 5, 13)),
        ("03/01/2012", datetime.date(2012, 3, 1)),
        ("10/30/2002", datetime.date(2002, 10, 30)),
        ("02/21/97", datetime.date(1997, 2, 21)),
        ("1/1/49", datetime.date(2049, 1, 1)),
        ("12/31/50", datetime.date(1950, 12, 31)),
        ("2/29/2000", datetime.date(2000, 2, 29)),
        (" 3/17/25 ", datetime.date(2025, 3, 17)),
    ],
)
def test_it_reads_note_dates(text: str, expected: datetime.date) -> None:
    assert parse_date(text) == expected


@pytest.mark.parametrize(
    "text",
    ["13/45/20", "2/30/21", "0/1/20", "2/29/2001", "1/1/123", "5-1-21", "5/1", "", "May 1, 2021"],
)
def test_it_rejects_impossible_dates(text: str) -> None:
    with pytest.raises(ValueError):
        parse_date(text)
