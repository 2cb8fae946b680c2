"""Every date note of the sources, mapped to the unit it is placed on: a reviewed golden list.

tests/regs/data/date_note_placements.yaml was generated from the text forms and reviewed against the
source text and the analyst's notes (../shared/notes). Both source forms must reproduce it.
Regenerate with `python -m tests.regs.test_date_note_placement` and review the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from regs.ingest.pdf_reader import read_pdf
from regs.ingest.sources import own_line_notes
from regs.ingest.structure import Scheme, structure
from regs.ingest.text_reader import read_text

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "regs" / "data" / "date_note_placements.yaml"
DOCUMENTS = {
    "co-rule-8-blackjack": ("US-CO", "rule-8", Scheme.CO_SECTION),
    "co-rule-21-blackjack-poker": ("US-CO", "rule-21", Scheme.CO_SECTION),
    "ma-205-cmr-blackjack": ("US-MA", "blackjack", Scheme.MA_SECTION),
    "co-raise-the-roof-proposed": ("US-CO", "rule-8", Scheme.CO_SECTION),
}


def placements(name: str, form: str) -> list[dict[str, Any]]:
    """Each note of the document: section, unit, the note as printed, where it sits, ambiguity."""
    jurisdiction, slug, scheme = DOCUMENTS[name]
    if form == "pdf":
        blocks = read_pdf(ROOT / "fixtures" / "sources" / "pdf" / f"{name}.pdf")
    else:
        blocks = read_text((ROOT / "fixtures" / "sources" / "text" / f"{name}.md").read_text())
    doc = structure(blocks, scheme, own_line_notes(jurisdiction, slug))
    out: list[dict[str, Any]] = []
    for section in doc.sections:
        for unit in section.units:
            for placed in unit.notes:
                out.append(
                    {
                        "section": section.label,
                        "unit": unit.label,
                        "note": placed.note.raw,
                        "where": placed.where,
                        "ambiguous": placed.ambiguous,
                    }
                )
        for note in section.history:
            out.append(
                {
                    "section": section.label,
                    "unit": "history",
                    "note": note.raw,
                    "where": "history",
                    "ambiguous": False,
                }
            )
    for heading, note in doc.document_notes:
        out.append(
            {
                "section": heading,
                "unit": "",
                "note": note.raw,
                "where": "document",
                "ambiguous": False,
            }
        )
    return out


def golden() -> dict[str, list[dict[str, Any]]]:
    return yaml.load(GOLDEN.read_text(), Loader=yaml.CSafeLoader)


@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_every_date_note_of_the_text_form_is_placed_as_reviewed(name: str) -> None:
    assert placements(name, "text") == golden()[name]


@pytest.mark.parametrize("name", ["co-rule-8-blackjack", "co-rule-21-blackjack-poker"])
def test_the_pdf_places_every_date_note_as_the_text_form_does(name: str) -> None:
    assert placements(name, "pdf") == golden()[name]


def test_every_dated_line_of_the_sources_is_in_the_golden_list() -> None:
    notes = [p["note"] for entries in golden().values() for p in entries]
    assert len(notes) == sum(len(placements(name, "text")) for name in DOCUMENTS)
    assert len(golden()["ma-205-cmr-blackjack"]) == 0  # the Massachusetts text has no dates


if __name__ == "__main__":
    GOLDEN.write_text(
        "# Reviewed: every date note of the sources and the unit it is placed on. See the "
        "test module.\n"
        + yaml.safe_dump(
            {name: placements(name, "text") for name in DOCUMENTS},
            sort_keys=False,
            allow_unicode=True,
            width=120,
        )
    )
