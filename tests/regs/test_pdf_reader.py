"""The PDF reader on the regulator's real PDFs: running header and footer dropped, paragraphs read
whole, tables as rows, bold headings, and the same words as the text form of each regulation,
but for a reviewed list of differences that the two source forms really have."""

from __future__ import annotations

import difflib
import functools
import io
import re
import time
from collections import Counter
from pathlib import Path

import pytest

from regs.ingest.blocks import Block, BlockKind
from regs.ingest.pdf_reader import UnreadablePdfError, read_pdf
from regs.ingest.text_reader import read_text

_ROOT = Path(__file__).resolve().parents[2]
_CANDIDATES = [_ROOT / "fixtures" / "sources", _ROOT.parent / "shared" / "sources"]
SOURCES = next((d for d in _CANDIDATES if (d / "pdf" / "co-rule-8-blackjack.pdf").is_file()), None)
if SOURCES is None:  # pragma: no cover
    pytest.skip("the regulators' source files are not here", allow_module_level=True)

RULE_8 = "co-rule-8-blackjack"
RULE_21 = "co-rule-21-blackjack-poker"
MA = "ma-205-cmr-blackjack"

# Word-level differences between the text form and the PDF after the table of contents, as
# (text form's words, PDF's words): count. Each is a real difference between the two files, not
# a reading error; the test fails on any other difference.
KNOWN_WORD_DIFFERENCES: dict[str, dict[tuple[str, str], int]] = {
    RULE_8: {
        # A table heading cell wrapped after "Hands/": the PDF cannot show whether a space
        # followed the slash; elsewhere ("his/" + "her", "and/" + "or") none does.
        ("Hands/ Wagers", "Hands/Wagers"): 1,
    },
    RULE_21: {
        # Markdown bold markers spanning table rows: the PDF's renderer paired them and printed
        # the rest ("TRILG-04***" + "George**" became "TRILG-04*" + "George"); the text
        # reader, a line at a time, keeps them as text.
        ("TRILG-04***", "TRILG-04*"): 1,
        ("George**", "George"): 1,
        ("**", ""): 3,
        ("**Pay", "Pay"): 1,
        ("***Pay", "*Pay"): 2,
    },
    MA: {
        # The PDF prints no section numbers: its section headings are list items, numbered by
        # the list ("1.", "20.") or bulleted ("• Opening of table for gaming"); the text form
        # has the sections' own numbers 2 … 31. No reading of the PDF can recover them.
        ("2.", "1."): 1,
        ("3.", "20."): 1,
        ("4.", ""): 1,
        ("5.", ""): 1,
        ("6.", ""): 1,
        ("7.", ""): 1,
        ("8.", ""): 1,
        ("9.", ""): 1,
        ("10.", ""): 1,
        ("11.", ""): 1,
        ("12.", ""): 1,
        ("13.", ""): 1,
        ("14.", "1."): 1,
        ("15.", "1."): 1,
        ("16.", "1."): 1,
        ("17.", "5."): 1,
        ("18.", ""): 1,
        ("19.", ""): 1,
        ("20.", "1."): 1,
        ("21.", ""): 1,
        ("22.", "1."): 1,
        ("23.", ""): 1,
        ("24.", "1."): 1,
        ("25.", ""): 1,
        ("26.", "1."): 1,
        ("27.", ""): 1,
        ("28.", "1."): 1,
        ("29.", "1."): 1,
        ("30.", "1."): 1,
        ("31.", "1."): 1,
        # A table cell wrapped after a comma: the PDF cannot show that no space followed it.
        ("1D,2D,6D,8D", "1D,2D, 6D,8D"): 1,
        # Bold markers spanning table cells, as in Rule 21.
        ("LkyGrg**", "LkyGrg"): 4,
    },
}

# Blocks that differ in kind or text (beyond the words above), by the text form's line where
# the differing run starts. Rule 8: 130, a hard line break before "Amended 11/14/21" that the
# PDF cannot show (the line above is full); 136, the PDF prints "to" alone on a line, so a hard
# break "to\nany player" is read; 744, "Hands/ Wagers". Rule 21: the bold markers above. MA:
# the section numbers above, the bold markers, and 735, two lines the PDF prints as one
# paragraph ("… version only **Payouts are Fixed Dollar").
KNOWN_BLOCK_DIFFERENCES: dict[str, set[int]] = {
    RULE_8: {130, 136, 744},
    RULE_21: {944, 947, 954},
    MA: {
        17,
        39,
        63,
        71,
        102,
        163,
        170,
        178,
        190,
        197,
        208,
        223,
        236,
        240,
        268,
        274,
        338,
        358,
        466,
        495,
        499,
        529,
        550,
        577,
        607,
        632,
        667,
        689,
        719,
        727,
        735,
        747,
    },
}


@functools.cache
def pdf(name: str) -> tuple[list[Block], float]:
    """The blocks of a regulation's PDF, and the seconds reading it took (read once a run)."""
    start = time.perf_counter()
    blocks = read_pdf(SOURCES / "pdf" / f"{name}.pdf")
    return blocks, time.perf_counter() - start


@functools.cache
def text(name: str) -> list[Block]:
    return read_text((SOURCES / "text" / f"{name}.md").read_text(encoding="utf-8"))


def after_contents(blocks: list[Block]) -> list[Block]:
    """The blocks from the first heading after the table of contents on."""
    for index, block in enumerate(blocks):
        if block.kind is BlockKind.HEADING and block.text.startswith("BASIS AND PURPOSE"):
            return blocks[index:]
    return blocks


def words(blocks: list[Block]) -> list[str]:
    return [word for block in blocks for word in block.text.split()]


def word_differences(name: str) -> Counter[tuple[str, str]]:
    a, b = words(after_contents(text(name))), words(after_contents(pdf(name)[0]))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return Counter(
        (" ".join(a[i1:i2]), " ".join(b[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    )


def block(name: str, page: int, start: str) -> Block:
    found = [b for b in pdf(name)[0] if b.page == page and b.text.startswith(start)]
    assert len(found) == 1, found
    return found[0]


def test_the_running_header_and_footer_are_dropped_and_pages_kept() -> None:
    blocks, _ = pdf(RULE_8)
    assert not [b for b in blocks if "1 CCR 207-1 Rule 8 Rules for Blackjack" in b.text]
    assert not [b for b in blocks if re.search(r"\bPage \d+ of \d+\b", b.text)]
    pages = [b.page for b in blocks]
    assert pages == sorted(pages) and pages[0] == 1 and pages[-1] == 79
    assert set(pages) == set(range(1, 80))  # no page is lost with its header
    ma, _ = pdf(MA)
    assert ma[0].text == "BLACKJACK"
    assert not [b for b in ma if "Massachusetts Gaming Commission - Blackjack Rules" in b.text]


def test_a_paragraph_wrapped_over_lines_is_read_whole() -> None:
    paragraph = block(RULE_8, 4, "(1) A blackjack table, while in play,")
    assert paragraph.kind is BlockKind.PARAGRAPH
    assert paragraph.text == (
        "(1) A blackjack table, while in play, must have a chip tray, a discard rack, a drop slot "
        "and drop box, and a tip box, except that no tip box shall be required if tips are not "
        "accepted at the table. The table may have a no-peek device. Blackjack tables must have "
        "an identifying number, assigned by the retail licensee, on the top surface of the table "
        "or a table accessory. This table number must be visible to surveillance personnel and "
        "must be able to be captured on surveillance video of table activity. "
        "Amended 03/01/2012, Amended 10/15/20"
    )


def test_a_paragraph_goes_on_across_a_page_break() -> None:
    paragraph = block(RULE_8, 2, "The purpose of Rule 8 is")
    assert paragraph.text.endswith(
        "The statutory basis for Rule 8 is found in sections 44-30-201, C.R.S., 44-30-203, C.R.S., "
        "44-30-302, C.R.S., 44-30-816, C.R.S., and 44-30-818, C.R.S."
    )


def test_a_hard_line_break_is_kept_as_in_the_text_form() -> None:
    paragraph = block(RULE_8, 13, "(1) When any dealing irregularity occurs")
    assert paragraph.text.endswith("believes to be fair and equitable.\nAmended 7/15/14")
    assert paragraph.text in {b.text for b in text(RULE_8)}


def test_lines_broken_inside_a_word_are_joined_without_a_space() -> None:
    blocks, _ = pdf(RULE_8)
    everything = "\n".join(b.text for b in blocks)
    assert "The licensee may not retain any amount collected as buy-ins." in everything
    assert "the initially dealt two-card hand" in everything
    assert "his/her" in block(RULE_8, 69, "(2) All Bonus wagers must be placed").text
    # … but a hyphen before a digit ends a line at a space: line breaking never splits "-2".
    row = next(b for b in pdf(RULE_21)[0] if b.kind is BlockKind.ROW and "213-01" in b.text)
    assert "PT- BJS- 213-01" in row.cells


def test_a_table_row_is_a_row_of_its_cells() -> None:
    row = block(RULE_8, 58, "Suited 21")
    assert row.kind is BlockKind.ROW
    assert row.cells == ("Suited 21", "10 to 1", "15 to 1", "10 to 1")
    assert row.text == "Suited 21 | 10 to 1 | 15 to 1 | 10 to 1"
    header = block(RULE_8, 58, "Table 1")
    assert header.cells == ("Table 1", "Table 2", "Table 3")  # the empty corner cell is dropped


def test_bold_lines_are_headings_and_italic_notes_plain_text() -> None:
    blocks, _ = pdf(RULE_8)
    heading = block(RULE_8, 4, "30-803")
    assert heading.kind is BlockKind.HEADING
    assert heading.text == "30-803 Blackjack table—physical characteristics."
    headings = [b.text for b in blocks if b.kind is BlockKind.HEADING]
    # 70 sections, three of them printed "30- 899.05" in both source forms.
    assert len([h for h in headings if re.match(r"30-\s?\d{3}", h)]) == 70
    # A bold italic date note run straight into a bold title: two headings, as in the text form.
    at = headings.index("30-899.10 The Play – Double Up Blackjack. Effective 9/14/2012")
    assert headings[at + 1] == "Version 1"
    assert block(RULE_8, 4, "Blackjack must be played").kind is BlockKind.PARAGRAPH
    assert not [b for b in blocks if "*" in b.text and "Amended" in b.text]


def test_the_table_of_contents_is_read_too() -> None:
    first_page = [b for b in pdf(RULE_8)[0] if b.page == 1]
    assert first_page[0].text == "Table of Contents"
    entry = "30-803 Blackjack table—physical characteristics. .... | 4"
    assert entry in [b.text for b in first_page]


@pytest.mark.parametrize("name", [RULE_8, RULE_21, MA])
def test_the_pdf_says_the_same_words_as_the_text_form(name: str) -> None:
    unexpected = word_differences(name) - Counter(KNOWN_WORD_DIFFERENCES[name])
    assert not unexpected, f"differences not in the reviewed list: {dict(unexpected)}"


@pytest.mark.parametrize("name", [RULE_8, RULE_21, MA])
def test_the_pdf_gives_the_same_blocks_as_the_text_form(name: str) -> None:
    a = [(b.kind, b.text) for b in after_contents(text(name))]
    b = [(b.kind, b.text) for b in after_contents(pdf(name)[0])]
    lines = [b.line for b in after_contents(text(name))]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    starts = [i1 for tag, i1, _, _, _ in matcher.get_opcodes() if tag != "equal"]
    unexpected = {lines[min(i, len(lines) - 1)] for i in starts} - KNOWN_BLOCK_DIFFERENCES[name]
    assert not unexpected, f"blocks differ at text-form lines not reviewed: {sorted(unexpected)}"
    assert len(a) - len(b) in (-1, 0, 1)


def test_reading_the_79_pages_of_rule_8_takes_seconds() -> None:
    _, seconds = pdf(RULE_8)
    assert seconds < 30, f"{seconds:.1f} s"  # about 5 s; a bound to catch a quadratic turn


def test_a_file_object_reads_as_the_path_does() -> None:
    with open(SOURCES / "pdf" / f"{MA}.pdf", "rb") as handle:
        assert read_pdf(handle) == pdf(MA)[0]


def test_a_file_that_is_not_a_pdf_is_refused(tmp_path: Path) -> None:
    markdown = tmp_path / "rule-8.pdf"
    markdown.write_bytes((SOURCES / "text" / f"{RULE_8}.md").read_bytes())
    with pytest.raises(UnreadablePdfError, match=r"rule-8\.pdf is not a PDF"):
        read_pdf(markdown)
    with pytest.raises(UnreadablePdfError, match="not a PDF"):
        read_pdf(io.BytesIO(b"\x89PNG\r\n\x1a\n" + bytes(100)))
    with pytest.raises(UnreadablePdfError, match="cannot read"):
        read_pdf(tmp_path / "missing.pdf")


def test_an_empty_or_truncated_pdf_is_refused(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    with pytest.raises(UnreadablePdfError, match=r"empty\.pdf is empty"):
        read_pdf(empty)
    data = (SOURCES / "pdf" / f"{RULE_8}.pdf").read_bytes()
    for cut in (data[:9], data[: len(data) // 3], data[:-200]):
        with pytest.raises(UnreadablePdfError, match="damaged or truncated PDF"):
            read_pdf(io.BytesIO(cut))
    assert issubclass(UnreadablePdfError, ValueError)
