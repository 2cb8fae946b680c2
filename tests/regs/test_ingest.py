"""`manage.py ingest` on the real sources: idempotent, the PDF agrees with the text, a changed
source makes versions only where text changed, and a bad file changes nothing."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from jurisdictions.models import Instrument
from regs.models import Annotation, Citation, Event, Provision, SourceDocument, Unit, UnitVersion
from regs.selectors import provision_by_citation
from regs.services import IngestError, source_ingest

pytestmark = pytest.mark.django_db

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources"
TRACKED = [Provision, Citation, Unit, UnitVersion, Event, Annotation, SourceDocument]


def snapshot() -> dict[str, int]:
    """Rows and record-history rows of every knowledge-base table."""
    counts = {m.__name__: m.objects.count() for m in TRACKED}
    counts |= {f"history of {m.__name__}": m.history.count() for m in TRACKED}  # type: ignore[attr-defined]
    return counts


def rule_8() -> Instrument:
    return Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")


def ingest(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("ingest", str(path), *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("name", ["text/co-rule-8-blackjack.md", "pdf/co-rule-8-blackjack.pdf"])
def test_re_ingesting_the_same_source_changes_nothing(name: str) -> None:
    before = snapshot()
    report = ingest(SOURCES / name, "--jurisdiction", "US-CO", "--instrument", "Rule 8")
    assert "created: nothing" in report and "updated: nothing" in report
    assert snapshot() == before


def test_the_report_counts_units_dates_and_unplaced_lines() -> None:
    report = ingest(
        SOURCES / "pdf/co-rule-8-blackjack.pdf", "--jurisdiction", "US-CO", "--instrument", "rule-8"
    )
    first = report.splitlines()[0]
    assert first.startswith("co-rule-8-blackjack.pdf (pdf): 70 sections,")
    assert "dated events" in first
    assert "lines not placed: 0" in report


def test_ingesting_the_text_then_the_pdf_creates_no_new_version() -> None:
    UnitVersion.objects.all().delete()
    Event.objects.all().delete()
    for name in ["text/co-rule-8-blackjack.md", "text/co-rule-21-blackjack-poker.md"]:
        instrument = "rule-8" if "rule-8" in name else "rule-21"
        source_ingest(
            instrument=Instrument.objects.get(slug=instrument),
            name=name,
            data=(SOURCES / name).read_bytes(),
        )
    versions = set(
        UnitVersion.objects.values_list(
            "unit_id", "effective_from", "effective_to", "on_file", "text"
        )
    )
    events = set(Event.objects.values_list("unit_id", "kind", "date", "subject", "new_label"))
    for name in ["pdf/co-rule-8-blackjack.pdf", "pdf/co-rule-21-blackjack-poker.pdf"]:
        instrument = "rule-8" if "rule-8" in name else "rule-21"
        report = source_ingest(
            instrument=Instrument.objects.get(slug=instrument),
            name=name,
            data=(SOURCES / name).read_bytes(),
        )
        assert "UnitVersion" not in report.created and "Event" not in report.created, report.created
    assert (
        set(
            UnitVersion.objects.values_list(
                "unit_id", "effective_from", "effective_to", "on_file", "text"
            )
        )
        == versions
    )
    assert (
        set(Event.objects.values_list("unit_id", "kind", "date", "subject", "new_label")) == events
    )
    assert (
        not UnitVersion.objects.filter(on_file=True, page__isnull=True)
        .exclude(status="proposed")
        .exists()
    )


def test_a_changed_source_creates_a_version_only_where_the_text_changed() -> None:
    text = (SOURCES / "text/co-rule-8-blackjack.md").read_text()
    old = "- (1) IN BETWEEN is an optional wager for blackjack."
    assert old in text
    changed = text.replace(
        old,
        "- (1) IN BETWEEN is an optional wager for blackjack and its variations. *Amended 1/14/26*",
    )
    before = snapshot()
    report = source_ingest(instrument=rule_8(), name="co-rule-8-amended.md", data=changed.encode())
    assert report.created == {"SourceDocument": 1, "UnitVersion": 1, "Event": 1}
    one = Unit.objects.get(
        provision=provision_by_citation(jurisdiction="US-CO", label="30-899.19"), path="(1)"
    )
    versions = list(
        one.versions.order_by("effective_from").values_list(
            "effective_from", "effective_to", "status", "text"
        )
    )
    assert [(str(a), str(b), c) for a, b, c, _ in versions] == [
        ("2015-08-14", "2026-01-14", "superseded"),
        ("2026-01-14", "None", "adopted"),
    ]
    assert versions[0][3] == "IN BETWEEN is an optional wager for blackjack."
    assert versions[1][3] == "IN BETWEEN is an optional wager for blackjack and its variations."
    after = snapshot()
    assert after["Unit"] == before["Unit"] and after["Provision"] == before["Provision"]


def test_ingestion_is_recorded_under_the_user_who_ran_it(officer: object) -> None:
    text = (
        (SOURCES / "text/co-rule-8-blackjack.md")
        .read_text()
        .replace(
            "Blackjack must be played at a table having",
            "Blackjack shall be played at a table having",
        )
    )
    path = Path(settings.BASE_DIR) / "tests" / "regs" / "data" / "co-rule-8-edited.md"
    path.write_text(text)
    try:
        ingest(path, "--jurisdiction", "US-CO", "--instrument", "Rule 8", "--user", "olivia")
    finally:
        path.unlink()
    provision = provision_by_citation(jurisdiction="US-CO", label="30-803")
    version = UnitVersion.objects.get(unit__provision=provision, unit__path="", on_file=True)
    last = version.history.first()
    assert last.history_user.username == "olivia"
    assert last.history_change_reason == "ingested from co-rule-8-edited.md"


def _refused(data: bytes, name: str, instrument: Instrument) -> str:
    before = snapshot()
    with pytest.raises(IngestError) as caught:
        source_ingest(instrument=instrument, name=name, data=data)
    assert snapshot() == before
    return caught.value.message


def test_an_empty_file_is_refused() -> None:
    assert "empty" in _refused(b"", "empty.pdf", rule_8())


def test_a_file_that_is_not_a_pdf_nor_text_is_refused() -> None:
    message = _refused(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200), "picture.pdf", rule_8())
    assert "neither a PDF nor" in message


def test_a_truncated_pdf_is_refused_and_nothing_is_written() -> None:
    data = (SOURCES / "pdf/co-rule-8-blackjack.pdf").read_bytes()
    message = _refused(data[: len(data) // 3], "truncated.pdf", rule_8())
    assert "truncated.pdf" in message


def test_another_instruments_file_is_refused() -> None:
    data = (SOURCES / "text/co-rule-21-blackjack-poker.md").read_bytes()
    message = _refused(data, "co-rule-21-blackjack-poker.md", rule_8())
    assert "do not belong to US-CO rule-8" in message


def test_the_command_names_what_is_wrong() -> None:
    with pytest.raises(CommandError, match="No instrument 'Rule 99' in US-CO"):
        ingest(
            SOURCES / "text/co-rule-8-blackjack.md",
            "--jurisdiction",
            "US-CO",
            "--instrument",
            "Rule 99",
        )
    with pytest.raises(CommandError, match="does not exist"):
        ingest(SOURCES / "nowhere.pdf", "--jurisdiction", "US-CO", "--instrument", "Rule 8")
