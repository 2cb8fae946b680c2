"""The before/after dump of issue #25: what users see, written to files, compared byte for byte.

A redesign must leave behaviour unchanged. `dump DIR` writes, through the API as users call it
(django.test.Client with an officer's token, on a fresh SQLite knowledge base in a temporary
directory): every sample configuration of fixtures/configs validated (at its own date, 2016-06-01,
2020-01-01, and with include_proposed), its sign set (draft, so non-compliant ones print too), its
tables' base-game analyses, the regulation and catalog diffs, and every catalog paytable's analysis
and par sheet at each deck count its rule allows. Volatile values are replaced by `stable`.

`compare REV` dumps REV (checked out into a temporary git worktree, this file and
benchmarks/__init__.py copied in if REV lacks it) and this tree, then reports each differing
file; exit 1 if any differs.

The lead runs, after each move:  .venv/bin/python -m benchmarks.golden compare ce0caf2
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import ROOT, fresh_database

DATES = ("2016-06-01", "2020-01-01")
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})?")
VOLATILE_KEYS = {
    "id",
    "knowledge_base",
    "created_at",
    "updated_at",
    "generated_at",
    "revision",
    "knowledge_base_revision",
    "url",
    "pdf",
    "html",
}


def stable(value: Any) -> Any:
    """The value with everything that varies between runs replaced by a placeholder: keys named in
    VOLATILE_KEYS become "<volatile>", UUIDs "<uuid>", ISO timestamps "<timestamp>"."""
    if isinstance(value, dict):
        return {
            k: ("<volatile>" if k in VOLATILE_KEYS else stable(v)) for k, v in sorted(value.items())
        }
    if isinstance(value, list):
        return [stable(v) for v in value]
    if isinstance(value, str):
        return TIMESTAMP.sub("<timestamp>", UUID.sub("<uuid>", value))
    return value


def _write(out: Path, name: str, response: Any) -> None:
    """One response to out/name: stable pretty JSON, or its stable text if not JSON."""
    path = out / name
    path.parent.mkdir(parents=True, exist_ok=True)
    body = f"HTTP {response.status_code}\n"
    if "json" in response.get("Content-Type", ""):
        body += json.dumps(stable(response.json()), indent=1, sort_keys=True, ensure_ascii=False)
    else:
        body += stable(response.content.decode("utf-8", "replace"))
    path.write_text(body + "\n", encoding="utf-8")


def _setup(directory: str) -> Any:
    """A fresh knowledge base in directory; an API client with an officer's token."""
    fresh_database(directory)
    from django.core.management import call_command
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
    from jurisdictions.services import api_user_create

    user, _ = api_user_create(username="golden", password="golden-dump-pass", officer=True)
    return Client(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")


def _validations(client: Any, out: Path) -> None:
    """Each sample configuration validated at several dates, its signs and base-game analyses."""
    for path in sorted((ROOT / "fixtures/configs").glob("*.json")):
        config = json.loads(path.read_text())
        variants = {"own": config} | {d: config | {"as_of": d} for d in DATES}
        variants["proposed"] = config | {"include_proposed": True}
        for label, body in variants.items():
            r = client.post("/api/v1/validations/", body, content_type="application/json")
            _write(out, f"validations/{path.stem}@{label}.json", r)
        r = client.post("/api/v1/signage/?draft=true", config, content_type="application/json")
        _write(out, f"signs/{path.stem}.json", r)
        r = client.post(
            "/api/v1/analysis/base-game/",
            {"configuration": config},
            content_type="application/json",
        )
        _write(out, f"base-game/{path.stem}.json", r)


def _diffs(client: Any, out: Path) -> None:
    """The regulation and catalog diffs the API serves."""
    queries = {
        "rule8-dates": "/api/v1/diff/instrument/?jurisdiction=US-CO&instrument=rule-8"
        "&start=2016-01-01&end=2022-01-01",
        "wager-co-ma": "/api/v1/diff/wager/?jurisdiction=US-CO&other_jurisdiction=US-MA"
        "&wager=21-plus-3&as_of=2024-06-01",
        "topic-co-ma": "/api/v1/diff/topic/?jurisdiction=US-CO&other_jurisdiction=US-MA"
        "&topic=surrender&as_of=2024-06-01",
        "records-co-dates": "/api/v1/diff/records/?jurisdiction=US-CO&start=2016-01-01T00:00:00Z",
    }
    for citation in ("30-2101", "30-2102", "30-2107"):
        queries[f"provision-{citation}"] = (
            f"/api/v1/diff/provision/?jurisdiction=US-CO&citation={citation}"
            "&left=2016-01-01&right=2022-01-01"
        )
        queries[f"proposed-{citation}"] = (
            f"/api/v1/diff/proposed/?jurisdiction=US-CO&citation={citation}"
        )
    for name, url in queries.items():
        _write(out, f"diffs/{name}.json", client.get(url))


def _catalog(client: Any, out: Path) -> None:
    """Every catalog paytable's analysis and par sheet at each deck count its rule allows."""
    from variants.analysis import allowed_decks
    from variants.models import Paytable

    for paytable in Paytable.objects.order_by("key"):
        name = paytable.key.replace("/", "-")
        for decks in allowed_decks(paytable):
            base = f"/api/v1/paytables/{paytable.key}"
            r = client.get(f"{base}/analysis/?decks={decks}")
            _write(out, f"catalog/{name}@{decks}d.json", r)
            r = client.get(f"{base}/par-sheet/?decks={decks}&format=csv")
            _write(out, f"catalog/{name}@{decks}d.csv", r)


def dump(out: Path) -> None:
    """Every golden file into out (created, must be empty or absent)."""
    out.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as directory:
        client = _setup(directory)
        _validations(client, out)
        _diffs(client, out)
        _catalog(client, out)
    files = sum(1 for p in out.rglob("*") if p.is_file())
    print(f"dumped {files} files in {time.perf_counter() - start:.0f} s to {out}")


def _differences(left: Path, right: Path) -> list[str]:
    """A report line (and the first lines of a unified diff) for each file that differs."""
    names = {p.relative_to(left) for p in left.rglob("*") if p.is_file()}
    names |= {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    report = []
    for name in sorted(names):
        a, b = left / name, right / name
        if not a.exists() or not b.exists():
            report.append(f"{name}: only in {'after' if b.exists() else 'before'}")
        elif a.read_bytes() != b.read_bytes():
            lines = difflib.unified_diff(
                a.read_text().splitlines(), b.read_text().splitlines(), "before", "after", n=1
            )
            report.append(f"{name} differs:\n" + "\n".join(list(lines)[:40]))
    return report


def compare(rev: str, keep: Path | None) -> int:
    """Dump REV and this tree; print the differences; 1 if any, else 0."""
    work = Path(keep or tempfile.mkdtemp(prefix="golden-"))
    tree = Path(tempfile.mkdtemp(prefix="golden-tree-")) / "tree"
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=ROOT, check=True)
    try:
        if not (tree / "benchmarks/golden.py").exists():  # and the set-up it shares
            for part in ("__init__.py", "golden.py"):
                shutil.copy(ROOT / "benchmarks" / part, tree / "benchmarks" / part)
        for where, target in ((tree, work / "before"), (ROOT, work / "after")):
            command = [sys.executable, "-m", "benchmarks.golden", "dump", str(target)]
            subprocess.run(command, cwd=where, check=True)
        report = _differences(work / "before", work / "after")
        files = sum(1 for p in (work / "after").rglob("*") if p.is_file())
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)
        if keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print("\n".join(report))
    if report:
        print(f"{len(report)} files differ")
        return 1
    print(f"identical: {files} files")
    return 0


def main() -> None:
    """The command line: dump DIR | compare REV [--keep DIR]."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.golden", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("dump").add_argument("dir", type=Path)
    c = commands.add_parser("compare")
    c.add_argument("rev")
    c.add_argument("--keep", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.dir)
    else:
        sys.exit(compare(args.rev, args.keep))


if __name__ == "__main__":
    main()
