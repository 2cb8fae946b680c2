"""Slow clients under the production server (`make serve`: gunicorn with pitboss/gunicorn_conf.py,
pitboss/gunicorn_worker.py): a client that trickles its headers or its body holds no thread, other
clients keep being answered meanwhile, and the slow connection is closed SERVE_READ_TIMEOUT after
it opened. A body that stops arriving once the server has asked for it (Expect: 100-continue) is a
JSON 408.

The server is a real gunicorn (one process of two threads, the test database); the slow clients
are raw sockets sending a byte at a time, more of them than the server has threads.
"""

from __future__ import annotations

import json
import os
import secrets
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from pitboss.gunicorn_worker import HEAD_BYTES, request_is_whole
from tests.services import shared_database_url

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = str(Path(sys.executable).parent / "gunicorn")
READ_TIMEOUT = 3.0
THREADS = 2


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[tuple[str, int]]:
    """gunicorn as `make serve` starts it (its configuration file), on the test database."""
    address = ("127.0.0.1", _free_port())
    env = {
        **os.environ,
        "DATABASE_URL": shared_database_url(),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "SERVE_BIND": f"{address[0]}:{address[1]}",
        "SERVE_WORKERS": "1",
        "SERVE_THREADS": str(THREADS),
        "SERVE_READ_TIMEOUT": str(READ_TIMEOUT),
        "ACCESS_LOG": "false",
    }
    process = subprocess.Popen(
        [GUNICORN, "-c", "pitboss/gunicorn_conf.py", "pitboss.wsgi"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://{address[0]}:{address[1]}/api/v1/", timeout=30)
                break
            except OSError:
                time.sleep(0.25)
        else:
            raise RuntimeError("gunicorn did not start")
        yield address
    finally:
        process.terminate()
        process.wait(timeout=30)


class Trickler(threading.Thread):
    """A client sending `head`, then `trickle` a byte every 0.2 s, until the server closes the
    connection (`closed_after`: seconds from connecting) or answers (`answer`)."""

    def __init__(self, address: tuple[str, int], head: bytes, trickle: bytes) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(address)
        self.opened = time.monotonic()
        self.head, self.trickle = head, trickle
        self.closed_after: float | None = None
        self.answer = b""

    def run(self) -> None:
        self.sock.sendall(self.head)
        data = self.trickle
        try:
            while data:
                if select.select([self.sock], [], [], 0.2)[0]:
                    if chunk := self.sock.recv(65536):
                        self.answer += chunk
                        continue
                    break
                self.sock.send(data[:1])
                data = data[1:]
        except OSError:  # reset by the server
            pass
        self.closed_after = time.monotonic() - self.opened
        self.sock.close()


def _post(path: str, body: bytes, headers: str = "") -> bytes:
    """The head of a POST of `body` to `path`."""
    return (
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{headers}\r\n"
    ).encode()


def test_slow_clients_hold_no_thread_and_are_cut_off_after_the_read_timeout(
    server: tuple[str, int],
) -> None:
    request_head = _post("/api/v1/auth/token/", b"x" * 200)
    slow = [Trickler(server, b"", request_head) for _ in range(THREADS + 1)]  # slow headers
    slow += [Trickler(server, request_head, b"x" * 200) for _ in range(THREADS + 1)]  # slow body
    for client in slow:
        client.start()

    base = f"http://{server[0]}:{server[1]}"
    answered: list[tuple[int, float]] = []
    while time.monotonic() - slow[0].opened < READ_TIMEOUT - 1:
        started = time.monotonic()
        with urllib.request.urlopen(base + "/api/v1/jurisdictions/", timeout=10) as response:
            assert "US-CO" in response.read().decode()
            answered.append((response.status, time.monotonic() - started))
        time.sleep(0.1)
    for client in slow:
        client.join(timeout=READ_TIMEOUT + 5)

    # The ordinary requests were answered at once, while every slow client was still connected
    # (had they held the server's threads, none would have been answered before they were cut).
    assert len(answered) >= 5
    assert all(status == 200 and seconds < 1 for status, seconds in answered), answered
    # Every slow client was cut off, unanswered, about SERVE_READ_TIMEOUT after connecting.
    for client in slow:
        assert client.closed_after is not None, "a slow client was never cut off"
        assert READ_TIMEOUT - 0.5 < client.closed_after < READ_TIMEOUT + 2, client.closed_after
        assert client.answer == b""


def test_a_body_that_stops_arriving_is_a_json_408_after_the_read_timeout(
    server: tuple[str, int],
) -> None:
    """A client announcing a body with `Expect: 100-continue` is told to send it (gunicorn answers
    "100 Continue" before the view reads the body); it sends part, then nothing."""
    body = json.dumps({"username": "nobody", "password": "x" * 100}).encode()
    with socket.create_connection(server, timeout=READ_TIMEOUT + 5) as sock:
        started = time.monotonic()
        sock.sendall(_post("/api/v1/auth/token/", body, "Expect: 100-continue\r\n"))
        assert sock.recv(1024) == b"HTTP/1.1 100 Continue\r\n\r\n"
        sock.sendall(body[:10])
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        seconds = time.monotonic() - started

    status_line, _, rest = answer.partition(b"\r\n")
    assert status_line == b"HTTP/1.1 408 Request Timeout"
    assert json.loads(rest.partition(b"\r\n\r\n")[2]) == {
        "error": {
            "code": "request_timeout",
            "message": "The request body did not arrive whole in time; send it again.",
        }
    }
    assert READ_TIMEOUT - 0.5 < seconds < READ_TIMEOUT + 2


def test_clients_holding_their_connection_after_the_last_answer_hold_up_no_one(
    server: tuple[str, int],
) -> None:
    """A client that asks for `Connection: close` and then neither reads nor closes: the server
    answers, sends FIN and waits for the client to close too (RFC 9112 section 9.6), for at most
    2 s, without stalling the other connections (gthread waits 2 s for each such client on the
    event loop, serving no one meanwhile)."""
    request = b"GET /api/v1/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    holders = [socket.create_connection(server, timeout=10) for _ in range(THREADS + 3)]
    for sock in holders:
        sock.sendall(request)
    time.sleep(0.2)

    started = time.monotonic()
    with urllib.request.urlopen(f"http://{server[0]}:{server[1]}/api/v1/", timeout=10) as response:
        assert response.status == 200
    assert time.monotonic() - started < 1

    for sock in holders:  # each answered, then closed by the server
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 OK\r\n")
        sock.close()


HEAD = b"POST /api/v1/validations/ HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\n"


@pytest.mark.parametrize(
    ("data", "whole"),
    [
        (HEAD[:-2], False),  # the head not ended
        (HEAD + b"1234", False),  # a byte of the body to come
        (HEAD + b"12345", True),
        (HEAD + b"12345GET / HTTP/1.1\r\n", True),  # the next request begun behind it
        (b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", True),  # no body
        (HEAD.replace(b"Content-Length: 5", b"content-length:  5 "), False),  # any case, spaces
        (HEAD.replace(b"5", b"1048577"), True),  # over MAX_REQUEST_BYTES: a 413, the body unread
        (HEAD.replace(b"Content-Length: 5", b"Transfer-Encoding: chunked"), True),  # gunicorn's
        (HEAD.replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"), True),  # sent on 100
        (b"GET / HTTP/1.1\nHost", True),  # a bare LF: gunicorn's 400
        (b"GET / HTTP/1.1\r\nX: " + b"x" * HEAD_BYTES, True),  # gunicorn reads on, or refuses
    ],
)
def test_the_event_loop_hands_a_request_on_once_whole_or_once_gunicorn_must_answer(
    data: bytes, whole: bool
) -> None:
    assert request_is_whole(data, body_limit=1024 * 1024) is whole
