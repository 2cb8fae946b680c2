"""The "faults" scenario of `make soak`: PostgreSQL restarted in the middle of load.

The production run (gunicorn, as `make serve`: persistent, health-checked connections) is served
from a throwaway PostgreSQL cluster (initdb into a temporary directory, its own loopback port;
the machine's own server is never touched). Threads read the rules and submit validations
without pause; a third of the way in the cluster is stopped (fast shutdown: open connections are
cut), kept down a few seconds, and started again. Every request is timed and kept, and the
report says: how the requests during the outage were answered (503 JSON expected, never a 500,
never hung), how long after PostgreSQL was back reads succeeded again, the errors after that
(0 expected), and whether the stored validation runs are exactly those answered 201 (no
half-written run, none lost).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import psycopg

PG_BIN = Path(os.environ.get("SOAK_PG_BIN", "/usr/lib/postgresql/15/bin"))
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
READ = "/api/v1/provisions/?jurisdiction=US-CO&citation=30-803&as_of=2024-06-01"
TIMEOUT = 15.0  # seconds a request may take before it counts as hung


class Cluster:
    """A PostgreSQL cluster of its own in a temporary directory, on `port`. initdb refuses to
    run as root: then the cluster belongs to the system's postgres user (runuser)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.dir = Path(tempfile.mkdtemp(prefix="pitboss-faults-pg-"))
        self.data = self.dir / "data"
        self._as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self._as:
            shutil.chown(self.dir, "postgres")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/pitboss_faults"

    def _pg(self, program: str, *args: str) -> None:
        subprocess.run(
            [*self._as, str(PG_BIN / program), *args], check=True, capture_output=True, text=True
        )

    def create(self) -> None:
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-o", options,
                 "start")  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        self._pg("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass  # not running
        shutil.rmtree(self.dir, ignore_errors=True)


@dataclass(frozen=True)
class Sample:
    start: float
    end: float
    write: bool
    status: int  # 0: no answer within TIMEOUT or the connection failed
    code: str | None  # the JSON error code, if the body was the API's error shape
    run: str | None  # a validation run's id, answered 201


def _request(host: str, token: str, body: bytes | None) -> tuple[int, str | None, str | None]:
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    url = f"http://{host}{'/api/v1/validations/' if body else READ}"
    request = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            status, payload = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, payload = e.code, e.read()
    except OSError:
        return 0, None, None
    try:
        data = json.loads(payload)
    except ValueError:
        return status, None, None
    code = data.get("error", {}).get("code") if isinstance(data, dict) else None
    run = data.get("id") if status == 201 and isinstance(data, dict) else None
    return status, code, run


def _load(host: str, token: str, until: float, samples: list[Sample], write: bool) -> None:
    body = (FIXTURES / "configs" / "casino-house-rules-co.json").read_bytes()
    while time.monotonic() < until:
        start = time.monotonic()
        status, code, run = _request(host, token, body if write else None)
        samples.append(Sample(start, time.monotonic(), write, status, code, run))
        write = not write


def _stored_runs(url: str) -> set[str]:
    with psycopg.connect(url.replace("postgres://", "postgresql://"), connect_timeout=10) as c:
        rows = c.execute(
            "SELECT id FROM compliance_validationrun"
            " WHERE findings IS NOT NULL AND knowledge_base IS NOT NULL"
        ).fetchall()
        total = c.execute("SELECT count(*) FROM compliance_validationrun").fetchone()
    whole = {str(row[0]) for row in rows}
    assert total is not None
    if total[0] != len(whole):
        whole.add("incomplete")  # a run with a missing part: never equal to the answered set
    return whole


def faults_run(
    host: str, token: str, cluster: Cluster, seconds: int, users: int, outage: float
) -> dict[str, float]:
    """Load for `seconds` with `users` threads; the cluster stopped a third of the way in for
    `outage` seconds. The figures the scenario reports."""
    samples: list[Sample] = []
    begin = time.monotonic()
    until = begin + seconds
    threads = [
        threading.Thread(target=_load, args=(host, token, until, samples, i % 2 == 0))
        for i in range(users)
    ]
    for thread in threads:
        thread.start()
    time.sleep(seconds / 3)
    down = time.monotonic()
    cluster.stop("fast")
    time.sleep(outage)
    cluster.start()
    up = time.monotonic()
    for thread in threads:
        thread.join()

    during = [s for s in samples if s.end > down and s.start < up]
    clean = [s for s in during if s.status == 503 and s.code == "service_unavailable"]
    served = [s for s in during if 200 <= s.status < 300]  # answered before the cut
    back = min(
        (s.end for s in samples if s.start >= up and not s.write and s.status == 200),
        default=float("inf"),
    )
    after = [s for s in samples if s.start >= back]
    answered = {s.run for s in samples if s.run}
    stored = _stored_runs(cluster.url)
    return {
        "requests": len(samples),
        "outage": up - down,
        "during": len(during),
        "during_503": len(clean),
        "during_served": len(served),
        "during_other": len(during) - len(clean) - len(served),
        "server_errors": sum(s.status == 500 for s in samples),
        "hung": sum(s.status == 0 for s in samples),
        "recovery": back - up,
        "after": len(after),
        "after_errors": sum(not 200 <= s.status < 300 for s in after),
        "answered_201": len(answered),
        "stored": len(stored),
        "missing": len(answered - stored),
        "unanswered": len(stored - answered),
    }


def faults_report(r: dict[str, float]) -> str:
    return (
        f"faults: PostgreSQL down {r['outage']:.1f} s mid-load; {r['during']:.0f} requests "
        f"during the outage: {r['during_503']:.0f} answered 503 JSON service_unavailable, "
        f"{r['during_served']:.0f} served before the cut, {r['during_other']:.0f} otherwise; "
        f"reads succeed again {r['recovery']:.2f} s after it is back; {r['after_errors']:.0f} "
        f"errors of {r['after']:.0f} requests after recovery; {r['server_errors']:.0f} server "
        f"errors (500) and {r['hung']:.0f} hung of {r['requests']:.0f}; validation runs: "
        f"{r['stored']:.0f} stored, {r['answered_201']:.0f} answered 201 ({r['missing']:.0f} "
        f"answered but not stored, {r['unanswered']:.0f} stored but not answered)"
    )
