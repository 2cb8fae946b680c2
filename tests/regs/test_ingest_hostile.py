"""`manage.py ingest` given a hostile or broken file refuses it within bounded time and memory
and leaves the knowledge base exactly as it was (a dump of its tables before and after)."""

from __future__ import annotations

import io
import time
import tracemalloc
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources"
RULE_8 = ["--jurisdiction", "US-CO", "--instrument", "Rule 8"]


def knowledge_base_dump() -> str:
    """Every row of the knowledge-base apps, as `dumpdata` writes them."""
    out = io.StringIO()
    call_command("dumpdata", "regs", "variants", "jurisdictions", stdout=out)
    return out.getvalue()


def refused(path: Path) -> tuple[str, float, int]:
    """The command's error, the seconds it took and the peak memory (bytes) it allocated, after
    checking that it changed nothing."""
    before = knowledge_base_dump()
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(CommandError) as caught:
            call_command("ingest", str(path), *RULE_8, stdout=io.StringIO(), stderr=io.StringIO())
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert knowledge_base_dump() == before
    return str(caught.value), elapsed, peak


def empty_pages_pdf(pages: int) -> bytes:
    """A well-formed PDF of `pages` blank pages, written by hand."""
    kids = " ".join(f"{3 + i} 0 R" for i in range(pages))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
        *[b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"] * pages,
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_a_100_mb_file_with_a_pdf_header_is_refused_before_it_is_read(tmp_path: Path) -> None:
    huge = tmp_path / "huge.pdf"
    with huge.open("wb") as out:
        out.write(b"%PDF-1.7\n")
        chunk = bytes(range(256)) * 4096  # 1 MB of junk
        for _ in range(100):
            out.write(chunk)
    message, seconds, peak = refused(huge)
    assert "huge.pdf is 100 MB; a source may be at most 10 MB" in message
    assert seconds < 5
    assert peak < 5 * 1024 * 1024  # never read into memory


def test_a_truncated_copy_of_a_real_pdf_is_refused(tmp_path: Path) -> None:
    data = (SOURCES / "pdf/co-rule-8-blackjack.pdf").read_bytes()
    truncated = tmp_path / "truncated.pdf"
    truncated.write_bytes(data[: len(data) * 2 // 3])
    message, seconds, _ = refused(truncated)
    assert "truncated.pdf is not a readable PDF" in message
    assert seconds < 60


def test_a_pdf_of_thousands_of_blank_pages_is_refused_before_a_page_is_parsed(
    tmp_path: Path,
) -> None:
    blank = tmp_path / "blank.pdf"
    blank.write_bytes(empty_pages_pdf(5000))
    message, seconds, _ = refused(blank)
    assert "it has 5,000 pages; a source may have at most 500" in message
    assert seconds < 30


def test_a_pdf_that_takes_longer_than_the_time_budget_is_refused(
    tmp_path: Path, settings: object
) -> None:
    settings.INGEST_TIME_BUDGET = 0.2  # type: ignore[attr-defined]
    message, seconds, _ = refused(SOURCES / "pdf/co-rule-8-blackjack.pdf")
    assert "reading it took too long (stopped before page" in message
    assert seconds < 10


def test_a_text_file_flooded_with_nul_bytes_is_refused(tmp_path: Path) -> None:
    flood = tmp_path / "flood.md"
    flood.write_bytes((SOURCES / "text/co-rule-8-blackjack.md").read_bytes() + bytes(5_000_000))
    message, seconds, _ = refused(flood)
    assert "flood.md is neither a PDF nor a text file (it holds NUL bytes)" in message
    assert seconds < 5


def test_a_text_file_with_an_extremely_long_line_is_refused(tmp_path: Path) -> None:
    long = tmp_path / "long.md"
    long.write_text("# 30-801 Definitions\n\n" + "**a*" * 2_000_000 + "\n")
    message, seconds, _ = refused(long)
    assert "long.md: line 3 is 8,000,000 characters long; a line of the text form" in message
    assert seconds < 5


def test_a_text_file_holding_a_control_character_is_refused(tmp_path: Path) -> None:
    """Text is checked where it enters (pitboss/text.py), ingestion too: an escape sequence
    would print on a sign."""
    source = (SOURCES / "text/co-rule-8-blackjack.md").read_text().splitlines()
    source[4] += "\x1b[2J"
    hostile = tmp_path / "escape.md"
    hostile.write_text("\n".join(source))
    message, _, _ = refused(hostile)
    assert "escape.md: line 5 holds the control character U+001B" in message


def test_another_instruments_text_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "rule-21.md"
    other.write_bytes((SOURCES / "text/co-rule-21-blackjack-poker.md").read_bytes())
    message, _, _ = refused(other)
    assert "do not belong to US-CO rule-8" in message
