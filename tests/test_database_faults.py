"""The database unreachable or restarted: requests answer a clean 503 (the API's JSON error shape,
a Retry-After header; a plain page for the web), never a 500 with a traceback, and the service
recovers by itself once the database is back.

The server is a real gunicorn process with DEBUG off. "PostgreSQL restarted" is a TCP proxy in
front of the shared server that the test stops and starts again: it drops every open connection
as a restart does, without restarting the server other test runs use.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = str(Path(sys.executable).parent / "gunicorn")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """Pitboss under gunicorn (one worker, DEBUG off) on a database URL."""

    def __init__(self, database_url: str) -> None:
        self.base = f"http://127.0.0.1:{_free_port()}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "CONN_MAX_AGE": "60",
        }
        self.process = subprocess.Popen(
            [GUNICORN, "pitboss.wsgi", "--bind", self.base[7:], "--workers", "1"]
            + ["--log-level", "warning", "--timeout", "60"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(120):
            try:
                socket.create_connection(("127.0.0.1", int(self.base.rsplit(":", 1)[1])), 1).close()
                return
            except OSError:
                time.sleep(0.25)
        self.stop()
        raise RuntimeError("gunicorn did not start")

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        """Status, headers and body of a GET."""
        try:
            with urllib.request.urlopen(self.base + path, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)


class Proxy:
    """A TCP proxy on a local port to the database server, that can be stopped (every open
    connection dropped, new ones refused) and started again on the same port."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = _free_port()
        self.sockets: list[socket.socket] = []
        self.listener: socket.socket | None = None

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(16)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self) -> None:
        if self.listener is not None:
            try:
                self.listener.shutdown(socket.SHUT_RDWR)  # wakes the thread blocked in accept()
            except OSError:
                pass
            self.listener.close()
            self.listener = None
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self.sockets.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            if self.listener is not listener:  # stopped while accepting
                client.close()
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def _postgres_url(host: str, port: int) -> str:
    db = connection.settings_dict
    user = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{user}@{host}:{port}/{db['NAME']}"


def _unreachable_url() -> str:
    """A database URL nothing answers: a closed port for PostgreSQL, a file in a directory that
    does not exist for SQLite."""
    if connection.vendor == "postgresql":
        return f"postgres://postgres@127.0.0.1:{_free_port()}/pitboss"
    return "sqlite:////nonexistent-pitboss-directory/db.sqlite3"


@pytest.fixture(scope="module")
def unreachable_server() -> Iterator[Server]:
    server = Server(_unreachable_url())
    yield server
    server.stop()


def assert_unavailable(answer: tuple[int, dict[str, str], str], api: bool) -> None:
    status, headers, body = answer
    assert status == 503, body[:500]
    assert headers["Retry-After"] == "5"
    assert "Traceback" not in body
    if api:
        assert json.loads(body) == {
            "error": {
                "code": "service_unavailable",
                "message": "The database is unavailable; try again in a few seconds.",
            }
        }
    else:
        assert headers["Content-Type"].startswith("text/html")
        assert "Pitboss is briefly unavailable" in body


@pytest.mark.parametrize(
    "path", ["/api/v1/jurisdictions/", "/api/v1/provisions/?jurisdiction=US-CO", "/api/v1/wagers/"]
)
def test_the_api_answers_503_json_when_the_database_is_unreachable(
    unreachable_server: Server, path: str
) -> None:
    assert_unavailable(unreachable_server.get(path), api=True)


@pytest.mark.parametrize("path", ["/", "/us-co/", "/search/?q=insurance"])
def test_a_page_answers_a_plain_503_when_the_database_is_unreachable(
    unreachable_server: Server, path: str
) -> None:
    assert_unavailable(unreachable_server.get(path), api=False)


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="a database server restarting under the service is PostgreSQL's case; SQLite is a file",
)
@pytest.mark.django_db
def test_the_service_answers_503_while_postgresql_restarts_and_recovers_by_itself() -> None:
    db = connection.settings_dict
    proxy = Proxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    proxy.start()
    server = Server(_postgres_url("127.0.0.1", proxy.port))
    try:
        assert server.get("/api/v1/jurisdictions/")[0] == 200  # a kept connection (CONN_MAX_AGE)
        assert server.get("/us-co/")[0] == 200

        proxy.stop()  # the database goes away, and its connections with it
        assert_unavailable(server.get("/api/v1/jurisdictions/"), api=True)
        assert_unavailable(server.get("/us-co/"), api=False)

        proxy.start()  # back: the very next requests succeed, with no restart of the service
        status, _, body = server.get("/api/v1/jurisdictions/")
        assert status == 200
        assert "US-CO" in body
        assert server.get("/us-co/")[0] == 200
    finally:
        server.stop()
        proxy.stop()
