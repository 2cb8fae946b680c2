"""The PDF and the text form of each regulation give the same units, text and dated events,
except for a reviewed list of places where the two files themselves differ."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from django.conf import settings

from regs.ingest.compare import differences
from regs.ingest.pdf_reader import read_pdf
from regs.ingest.sources import SourceError, check_instrument, own_line_notes
from regs.ingest.structure import ParsedDocument, Scheme, structure
from regs.ingest.text_reader import read_text

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources"

# Reviewed: each is a difference between the two files, not a reading error.
KNOWN = {
    "co-rule-8-blackjack": [
        # A table cell the text form prints "Hands/ Wagers"; the PDF breaks the line after the
        # slash, so whether a space followed cannot be seen.
        "text differs in ('30-899.10', '¶18') at 230: ' | All Player Hands/ Wagers Push to "
        "Dealer 16 | "
        "Player Wins ' vs ' | All Player Hands/Wagers Push to Dealer 16 | Player Wins H'",
    ],
    "co-rule-21-blackjack-poker": [
        # The footnote mark "***" of TRILG-04: the PDF's renderer took two of its asterisks as bold.
        "text differs in ('30-2115', '¶4') at 100: 'TRILG-03 | TRILG-04***\\nPays* | Lucky "
        "| Pays* | Lucky | "
        "Pays*' vs 'TRILG-03 | TRILG-04*\\nPays* | Lucky | Pays* | Lucky | Pays* |'",
    ],
}


@cache
def parsed(name: str, form: str) -> ParsedDocument:
    hints = own_line_notes("US-CO", "rule-8" if "rule-8" in name else "rule-21")
    if form == "pdf":
        return structure(read_pdf(SOURCES / "pdf" / f"{name}.pdf"), Scheme.CO_SECTION, hints)
    return structure(
        read_text((SOURCES / "text" / f"{name}.md").read_text()), Scheme.CO_SECTION, hints
    )


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_the_pdf_and_the_text_form_give_the_same_units_text_and_dates(name: str) -> None:
    assert differences(parsed(name, "text"), parsed(name, "pdf")) == KNOWN[name]


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_no_line_is_left_unplaced_in_either_form(name: str) -> None:
    assert parsed(name, "text").unplaced == []
    assert parsed(name, "pdf").unplaced == []


def test_the_massachusetts_pdf_is_refused_because_its_section_numbers_are_garbled() -> None:
    doc = structure(read_pdf(SOURCES / "pdf" / "ma-205-cmr-blackjack.pdf"), Scheme.MA_SECTION)
    with pytest.raises(SourceError, match="section numbers in this file are missing or garbled"):
        check_instrument(doc, "US-MA", "blackjack", Scheme.MA_SECTION, "ma-205-cmr-blackjack.pdf")
    text = structure(
        read_text((SOURCES / "text" / "ma-205-cmr-blackjack.md").read_text()), Scheme.MA_SECTION
    )
    check_instrument(text, "US-MA", "blackjack", Scheme.MA_SECTION, "ma-205-cmr-blackjack.md")
    assert len(text.sections) == 32
