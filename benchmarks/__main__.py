"""Run every benchmark and print its figures: python -m benchmarks (make bench).

Each benchmark runs on a fresh SQLite database in a temporary directory, so the figures do not
depend on what a developer's db.sqlite3 holds. The benchmarks, by subject: rules_text.py (ingest,
lookups, diffs, the provision pages, dated notes), floors.py (validation, signs, the report page),
simulation.py (the engine's rounds and simulators), exact.py (the exact analyses).
"""

from __future__ import annotations

import os
import sys
import tempfile

from benchmarks import fresh_database
from benchmarks.exact import bench_analysis, bench_basegame, bench_review
from benchmarks.floors import (
    bench_impact,
    bench_packet,
    bench_pages_desk,
    bench_signage,
    bench_validation,
)
from benchmarks.rules_text import (
    bench_date_notes,
    bench_diff,
    bench_ingest,
    bench_lookup,
    bench_pages_rules,
)
from benchmarks.simulation import (
    bench_engine_rounds,
    bench_first_simulation,
    bench_simulation,
    bench_simulation_vs_c,
    bench_streak,
)

BENCHMARKS = {
    "ingest": bench_ingest,
    "lookup": bench_lookup,
    "date-notes": bench_date_notes,
    "diff": bench_diff,
    "validation": bench_validation,
    "engine": bench_engine_rounds,
    "simulation": bench_simulation,
    "streak": bench_streak,
    "simulation-vs-c": bench_simulation_vs_c,
    "first-simulation": bench_first_simulation,
    "basegame": bench_basegame,
    "analysis": bench_analysis,
    "review": bench_review,
    "signage": bench_signage,
    "pages_rules": bench_pages_rules,
    "pages_desk": bench_pages_desk,
    "impact": bench_impact,
    "packet": bench_packet,
}


def main() -> None:
    """All benchmarks, or those named: python -m benchmarks diff signage."""
    chosen = sys.argv[1:] or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHMARKS)}")
    chosen = [name for name in BENCHMARKS if name in chosen]
    with tempfile.TemporaryDirectory() as directory:
        fresh_database(directory)
        loaded = False  # ingest wants an empty knowledge base; lookup loads it; the rest read it
        for name in chosen:
            if name not in ("ingest", "lookup") and not loaded:
                from django.core.management import call_command

                call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
            loaded = loaded or name != "ingest"
            BENCHMARKS[name]()


if __name__ == "__main__":
    main()
