"""make soak: load on the production run (gunicorn, PostgreSQL, DEBUG off), on loopback.

    python -m benchmarks.soak [--seconds 20] [--users 16] [--workers N] [--threads N]
                              [--processes N] [--warmup 5] [scenario ...]

Starts Pitboss as `make serve` does (gunicorn -c pitboss/gunicorn_conf.py, persistent database
connections; its own database, SOAK_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/pitboss_soak, and no access log), runs each locust scenario
headless for a bounded time after an uncounted warm-up (--warmup seconds, so that every server
process has read what it caches), prints throughput and its ratio to the target, p50 and p99, the
error count and the CPU a request cost the server and the load generator (which shares the
cores), and stops the server. Scenarios: reads (the read API), validations (POST of the sample
configurations), pages (web pages), and faults
(PostgreSQL restarted mid-load, on a throwaway cluster: benchmarks/soak/faults.py).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import IO

import redis

from benchmarks.soak.faults import Cluster, faults_report, faults_run

ROOT = Path(__file__).resolve().parents[2]
PY = sys.executable


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


HOST = f"127.0.0.1:{_free_port()}"
SCENARIOS = {"reads": "ReadUser", "validations": "ValidationUser", "pages": "PageUser"}
TARGETS = {"reads": 500, "validations": 100}  # requests a second on this machine (issue #14)


def _redis_cache() -> str:
    """SOAK_CACHE_URL if a Redis answers there, else "" (each gunicorn worker counts alone)."""
    url = os.environ.get("SOAK_CACHE_URL", "redis://127.0.0.1:6379/11")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.exceptions.RedisError:
        return ""
    return url


def soak_env() -> dict[str, str]:
    env = dict(os.environ)
    # The workers share one cache, as under `make serve`.
    env.setdefault("CACHE_URL", _redis_cache())
    env["DATABASE_URL"] = os.environ.get(
        "SOAK_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pitboss_soak"
    )
    env["DEBUG"] = "false"
    env.setdefault("CONN_MAX_AGE", "60")  # as `make serve`
    env["ACCESS_LOG"] = "false"
    env.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # The soak measures the service, not the write throttle.
    env["WRITE_RATE"] = "1000000/minute"
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    )
    return done.stdout


def server_prepare(env: dict[str, str]) -> str:
    """Create, migrate and load the soak database; collect static files; a vendor's token."""
    subprocess.run([PY, "-m", "pitboss.createdb", env["DATABASE_URL"]], cwd=ROOT, check=True)
    _manage(env, "migrate", "--no-input", "-v0")
    _manage(env, "load_knowledge_base", "-v0")
    _manage(env, "collectstatic", "--no-input", "-v0")
    return _manage(env, "create_vendor", f"soak-{int(time.time())}").strip()


def server_start(
    env: dict[str, str],
    workers: int | None,
    threads: int | None,
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """gunicorn as `make serve` starts it (pitboss/gunicorn_conf.py), on the soak's port, its
    errors to `log` (else this terminal), once it answers."""
    env = {**env, "SERVE_BIND": HOST}
    if workers:
        env["SERVE_WORKERS"] = str(workers)
    if threads:
        env["SERVE_THREADS"] = str(threads)
    server = subprocess.Popen(
        [
            str(Path(PY).parent / "gunicorn"),
            "-c",
            str(ROOT / "pitboss/gunicorn_conf.py"),
            "pitboss.wsgi",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stderr=log,
    )
    for _ in range(120):
        try:
            urllib.request.urlopen(f"http://{HOST}/api/v1/jurisdictions/", timeout=2)
            return server
        except OSError:
            time.sleep(0.5)
    os.killpg(server.pid, signal.SIGTERM)
    raise SystemExit("the server did not answer within a minute")


def _cpu_seconds(server: subprocess.Popen[bytes]) -> float:
    """CPU time used so far by the server: gunicorn's master and its workers."""
    import psutil  # locust's dependency

    master = psutil.Process(server.pid)
    total = 0.0
    for process in [master, *master.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def scenario_run(
    name: str,
    seconds: int,
    users: int,
    processes: int,
    env: dict[str, str],
    server: subprocess.Popen[bytes],
    warmup: bool = False,
) -> dict[str, float] | None:
    """One locust scenario, headless; the aggregated row of its statistics, and the CPU seconds
    the server and the load generator (this process's children) used."""
    prefix = f"/tmp/pitboss-soak-{name}"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_before = _cpu_seconds(server)
    run = subprocess.run(
        [
            str(Path(PY).parent / "locust"),
            "-f",
            str(ROOT / "benchmarks/soak/locustfile.py"),
            "--headless",
            "-u",
            str(users),
            "-r",
            str(users),
            "-t",
            f"{seconds}s",
            "--host",
            f"http://{HOST}",
            "--csv",
            prefix,
            "--only-summary",
            "--stop-timeout",
            "5",
            *(["--processes", str(processes)] if processes > 1 else []),
            SCENARIOS[name],
        ],
        cwd=ROOT,
        env=env,
        check=False,
        capture_output=True,
    )
    if warmup:  # a cold server may not answer within a short warm-up: nothing to report
        return None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = _cpu_seconds(server) - server_before
    with open(f"{prefix}_stats.csv", newline="") as f:
        row = next(r for r in csv.DictReader(f) if r["Name"] == "Aggregated")
    if row["Request Count"] == "0":
        tail = run.stderr.decode(errors="replace").strip().splitlines()[-15:]
        raise SystemExit(f"{name}: locust made no request; its last words:\n" + "\n".join(tail))
    return {
        "requests": float(row["Request Count"]),
        "errors": float(row["Failure Count"]),
        "rps": float(row["Requests/s"]),
        "p50": float(row["50%"]),
        "p99": float(row["99%"]),
        "locust_cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
        "server_cpu": server_cpu,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", help=f"any of {', '.join(SCENARIOS)}; default all")
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--users", type=int, default=16)
    parser.add_argument(
        "--workers", type=int, default=None, help="gunicorn processes (default: as make serve)"
    )
    parser.add_argument("--threads", type=int, default=None, help="threads per process")
    parser.add_argument("--processes", type=int, default=1, help="locust processes")
    parser.add_argument(
        "--warmup",
        type=int,
        default=5,
        help="seconds of each scenario run first and not counted, so every server process has "
        "read what it caches (0: measure from a cold start)",
    )
    parser.add_argument(
        "--outage", type=float, default=3.0, help="seconds PostgreSQL stays down (faults)"
    )
    options = parser.parse_args()
    unknown = [name for name in options.scenarios if name not in [*SCENARIOS, "faults"]]
    if unknown:
        parser.error(f"unknown scenario {unknown[0]!r}; choose from {', '.join(SCENARIOS)}, faults")
    options.scenarios = options.scenarios or [*SCENARIOS, "faults"]
    loads = [name for name in options.scenarios if name in SCENARIOS]
    if loads:
        loads_run(loads, options)
    if "faults" in options.scenarios:
        faults_scenario(options)


def faults_scenario(options: argparse.Namespace) -> None:
    """The production run on a throwaway PostgreSQL cluster, restarted mid-load."""
    cluster = Cluster(_free_port())
    server = None
    log = open(Path(tempfile.gettempdir()) / "pitboss-soak-faults-server.log", "wb")
    try:
        cluster.create()
        print(f"faults: a PostgreSQL cluster of its own at {cluster.dir}; loading it", flush=True)
        env = soak_env()
        env["DATABASE_URL"] = cluster.url
        env["CONN_MAX_AGE"] = "60"  # as `make serve`: kept connections, cut by the restart
        token = server_prepare(env)
        # A warning a request during the outage (pitboss.faults): kept out of the report.
        server = server_start(env, options.workers, options.threads, log)
        print(f"faults: the server's log is in {log.name}", flush=True)
        seconds = max(options.seconds, 12)
        r = faults_run(HOST, token, cluster, seconds, options.users, options.outage)
        print(faults_report(r), flush=True)
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        cluster.remove()
        log.close()


def loads_run(scenarios: list[str], options: argparse.Namespace) -> None:
    env = soak_env()
    env["PITBOSS_TOKEN"] = server_prepare(env)
    server = server_start(env, options.workers, options.threads)
    try:
        for name in scenarios:
            if options.warmup:
                scenario_run(
                    name, options.warmup, options.users, options.processes, env, server, warmup=True
                )
            r = scenario_run(name, options.seconds, options.users, options.processes, env, server)
            assert r is not None
            target = (
                f" ({r['rps'] / TARGETS[name]:.2f} of the target {TARGETS[name]}/s)"
                if name in TARGETS
                else ""
            )
            print(
                f"{name}: {r['rps']:.0f} requests/s{target}, p50 {r['p50']:.0f} ms, "
                f"p99 {r['p99']:.0f} ms, {r['errors']:.0f} errors of {r['requests']:.0f}; "
                f"CPU a request: server {1000 * r['server_cpu'] / max(r['requests'], 1):.1f} ms, "
                f"locust {1000 * r['locust_cpu'] / max(r['requests'], 1):.1f} ms "
                f"(locust used {r['locust_cpu'] / options.seconds:.2f} cores)",
                flush=True,
            )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
