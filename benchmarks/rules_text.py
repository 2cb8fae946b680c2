"""The benchmarks of the rule text: ingesting a PDF, point-in-time lookups, diffs, the provision
pages, the dated notes of the sources."""

from __future__ import annotations

import os
import statistics
import time

from benchmarks import ROOT, percentile


def bench_ingest() -> None:
    """Ingesting the 79-page Rule 8 PDF into an empty knowledge base, then again (no change)."""
    from jurisdictions.models import Instrument
    from regs.services import source_ingest

    rule_8 = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    data = (ROOT / "fixtures/sources/pdf/co-rule-8-blackjack.pdf").read_bytes()
    for label in ("into an empty knowledge base", "again (nothing changes)"):
        start = time.perf_counter()
        report = source_ingest(instrument=rule_8, name="co-rule-8-blackjack.pdf", data=data)
        seconds = time.perf_counter() - start
        print(f"ingest Rule 8 PDF {label}: {seconds:.2f} s  (target < 10 s; {report.units} units)")


def bench_lookup(requests: int = 1000) -> None:
    """Point-in-time provision lookups through the WSGI app in-process (no server)."""
    from django.core.management import call_command
    from django.test import Client

    call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
    client = Client(HTTP_HOST="localhost")
    queries = [
        ("US-CO", "30-899.23", "2017-01-01"),
        ("US-CO", "30-832", "2016-06-01"),
        ("US-CO", "30-803", "1997-01-01"),
        ("US-CO", "30-2107", "2024-06-01"),
        ("US-MA", "28(g)", "2024-06-01"),
        ("US-CO", "47.1-834.23", "2018-01-01"),
    ]
    samples: list[float] = []
    for i in range(requests):
        jurisdiction, citation, as_of = queries[i % len(queries)]
        start = time.perf_counter()
        response = client.get(
            "/api/v1/provisions/",
            {"jurisdiction": jurisdiction, "citation": citation, "as_of": as_of},
        )
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content
    print(
        f"point-in-time lookup GET /api/v1/provisions/?citation=&as_of= over {requests} requests: "
        f"p50 {statistics.median(samples):.2f} ms, p99 {percentile(samples, 0.99):.2f} ms  "
        "(target p50 < 10 ms)"
    )


def bench_diff(runs: int = 200) -> None:
    """Rule 8 between two dates (whole instrument), and single provision diffs (selectors)."""
    import datetime as dt

    from django.core.management import call_command

    from regs.diff import selectors as diffs
    from regs.diff import text
    from regs.models import Provision

    if not Provision.objects.exists():
        call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
    window = {"start": dt.date(2016, 1, 1), "end": dt.date(2022, 1, 1)}
    whole: list[float] = []
    for _ in range(5):
        start = time.perf_counter()
        found = diffs.instrument_diff(jurisdiction="US-CO", instrument="Rule 8", **window)
        whole.append((time.perf_counter() - start) * 1000)
    print(
        f"diff of Rule 8 from 2016-01-01 to 2022-01-01 ({len(found.changes)} changes): "
        f"{statistics.median(whole):.0f} ms median of 5  (target < 1 s)"
    )
    today = dt.date(2025, 1, 1)
    cases: list[tuple[str, dt.date | str, dt.date]] = [
        ("47.1-834.23", diffs.PROPOSED, today),
        ("30-899.23", dt.date(2017, 1, 1), today),
        ("30-803", dt.date(2016, 1, 1), today),
        ("30-899.11", dt.date(2016, 1, 1), today),
    ]
    samples: list[float] = []
    for i in range(runs):
        citation, left, right = cases[i % len(cases)]
        text.tokens.cache_clear()  # cold: no words remembered from the run before
        text.normal_form.cache_clear()
        start = time.perf_counter()
        record, path = diffs.provision_record(
            jurisdiction="US-CO", citation=citation, as_of=today, today=today
        )
        diffs.provision_diff(record=diffs.restrict(record, path), left=left, right=right)
        samples.append((time.perf_counter() - start) * 1000)
    print(
        f"single provision diff (read + diff, cold, {runs} runs of {len(cases)} provisions): "
        f"p50 {statistics.median(samples):.2f} ms, p99 {percentile(samples, 0.99):.2f} ms  "
        f"(target p50 < 20 ms)"
    )


def bench_pages_rules(renders: int = 200) -> None:
    """In-process render of provision pages (django test Client): text by unit, legal and record
    history, annotations, the catalog facts citing it."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    pages = [
        "/us-co/rule-8/30-899.23@2017-01-01",
        "/us-co/rule-8/30-834.23@2017-01-01",
        "/us-co/rule-8/30-803@2024-06-01",
        "/us-co/rule-8/30-899.20@2024-06-01",
        "/us-ma/blackjack/28@2024-06-01",
    ]
    for address in pages:  # warm the template cache and the database pages
        assert client.get(address).status_code == 200, address
    samples: list[float] = []
    for i in range(renders):
        start = time.perf_counter()
        response = client.get(pages[i % len(pages)])
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    print(
        f"provision page render over {renders} renders: p50 {statistics.median(samples):.1f} ms, "
        f"p99 {percentile(samples, 0.99):.1f} ms  (target p50 < 100 ms)"
    )


def bench_date_notes() -> None:
    """Every date printed in the shipped sources (text forms and PDFs), each accounted for by a
    version boundary, a label, an event or an annotation (regs/datenote_audit.py); target 0
    unaccounted."""
    from regs.datenote_audit import all_dated_notes

    start = time.perf_counter()
    notes = all_dated_notes()
    seconds = time.perf_counter() - start
    unaccounted = sum(not n.accounted for n in notes)
    print(
        f"dated notes: {len(notes)} found, {unaccounted} unaccounted  (target 0; "
        f"python manage.py date_notes --unaccounted lists them; {seconds:.1f} s)"
    )
