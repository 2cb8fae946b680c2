"""The gunicorn worker of the production run (pitboss/gunicorn_conf.py): gunicorn's threaded worker
(gthread), reading each request whole before a thread serves it.

gunicorn's gthread worker hands a connection to a thread once its first byte arrives; the thread
then reads the request head and body with blocking reads that have no time limit (gunicorn 27,
workers/gthread.py `handle`: only the wait for the first byte is bounded). A client that trickles
its headers or its body (slowloris, slow POST) holds that thread as long as it likes, and a few
such clients (SERVE_THREADS a process) leave no thread for anyone else.

Here the worker's event loop reads a request without blocking, into memory: its head, and a body
of Content-Length up to MAX_REQUEST_BYTES (a larger one is refused unread with a 413,
pitboss.middleware). A thread gets the request only once it is whole, so a slow client costs a
socket and no thread. A request not whole SERVE_READ_TIMEOUT seconds (default 10: a MiB at about
1 Mbit/s) after its connection is accepted, or after its first byte on a kept-alive connection,
is dropped: the connection is closed.

What a thread still reads from the socket (a body sent after `Expect: 100-continue`, a chunked
body, a head over HEAD_BYTES) has the same deadline: past it the read fails, the application
finds the body unreadable (a 408, pitboss.middleware), and the connection is closed at once.
"""

from __future__ import annotations

import os
import re
import selectors
import socket
import time
from concurrent.futures import Future
from functools import partial
from typing import Any

from django.conf import settings
from gunicorn.http.errors import NoMoreData
from gunicorn.http.parser import RequestParser
from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.gthread import TConn, ThreadWorker

READ_TIMEOUT = float(os.environ.get("SERVE_READ_TIMEOUT") or 10)
"""Seconds a client has to send a whole request (head and body)."""

LINGER_SECONDS = 2.0
"""How long a closing connection waits for the client to close too (gthread's own figure)."""

HEAD_BYTES = 64 * 1024
"""A head not ended within this many bytes goes to a thread as it is (gunicorn refuses one over
its own limits, limit_request_fields and limit_request_field_size), read on with the deadline."""

_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d{1,18})[ \t]*\r\n", re.IGNORECASE)
# A body gunicorn reads itself (chunked), or one the client sends only once gunicorn answers
# "100 Continue": the thread gets the request at the end of its head.
_READ_BY_GUNICORN = re.compile(rb"\r\n(transfer-encoding|expect):", re.IGNORECASE)


class ReadTimeout(NoMoreData, TimeoutError):
    """The request was not read whole by its deadline. A NoMoreData to gunicorn (logged at debug,
    the connection closed), a TimeoutError to its body drain, an OSError to Django (which makes
    it an UnreadablePostError)."""

    def __str__(self) -> str:
        return f"request not whole within SERVE_READ_TIMEOUT ({READ_TIMEOUT:g} s)"


class DeadlineUnreader(SocketUnreader):
    """gunicorn's socket reader, every read bounded by the request's deadline."""

    deadline: float | None = None  # time.monotonic() by which the request is whole
    expired = False

    def chunk(self, size_hint: int | None = None) -> bytes:
        if self.deadline is None:
            return super().chunk(size_hint)
        remaining = self.deadline - time.monotonic()
        previous = self.sock.gettimeout()
        if remaining > 0:
            self.sock.settimeout(remaining if previous is None else min(remaining, previous))
            try:
                return super().chunk(size_hint)
            except TimeoutError:
                pass
            finally:
                self.sock.settimeout(previous)
        self.expired = True
        raise ReadTimeout()


def request_is_whole(data: bytes, body_limit: int) -> bool:
    """Whether `data`, the bytes a connection has sent since its last request, hold a whole
    request (head, and a body of Content-Length up to `body_limit`), or as much as gunicorn needs
    to answer it: a head gunicorn refuses (a bare LF, too long), or one whose body it reads."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) > HEAD_BYTES or data.count(b"\n") != data.count(b"\r\n")
    head = data[: end + 2]
    length = _CONTENT_LENGTH.search(head)
    if _READ_BY_GUNICORN.search(head) or length is None:
        return True
    declared = int(length[1])
    return declared > body_limit or len(data) - (end + 4) >= declared


class BufferingThreadWorker(ThreadWorker):
    """gthread, with requests read whole by the event loop (module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Connections whose request the event loop is reading, and those it is closing, each
        # with its deadline (time.monotonic()), in the order of their deadlines.
        self.reading: dict[TConn, float] = {}
        self.lingering: dict[TConn, float] = {}

    def buffers(self) -> bool:
        """HTTP/1 in the clear (the production run): the connection's bytes are the request's."""
        return not self.cfg.is_ssl and list(self.cfg.http_protocols) == ["h1"]

    def enqueue_req(self, conn: TConn) -> None:
        """Every request starts here (a new connection, a kept-alive one readable, one pipelined
        behind the last): a thread if it is whole, else read on by the event loop."""
        if not self.buffers():
            return super().enqueue_req(conn)
        if conn.parser is None:
            conn.parser = RequestParser(self.cfg, conn.sock, conn.client)
            conn.parser.unreader = DeadlineUnreader(conn.sock)
        deadline = conn.parser.unreader.deadline = time.monotonic() + READ_TIMEOUT
        if request_is_whole(conn.parser.unreader.buf.getvalue(), settings.MAX_REQUEST_BYTES):
            return self.serve(conn)
        conn.sock.setblocking(False)
        self.reading[conn] = deadline
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_request_bytes, conn))

    def serve(self, conn: TConn) -> None:
        conn.data_ready = True  # gthread's handle() waits for no first byte: it is read
        super().enqueue_req(conn)

    def on_request_bytes(self, conn: TConn, _sock: Any) -> None:
        try:
            data = conn.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:  # the client closed (or reset) the connection
            self.stop_reading(conn)
            return self.drop(conn)
        buf = conn.parser.unreader.buf
        buf.seek(0, os.SEEK_END)
        buf.write(data)
        if request_is_whole(buf.getvalue(), settings.MAX_REQUEST_BYTES):
            self.stop_reading(conn)
            self.serve(conn)

    def stop_reading(self, conn: TConn) -> None:
        del self.reading[conn]
        self.poller.unregister(conn.sock)

    def drop(self, conn: TConn) -> None:
        self.nr_conns -= 1
        conn.close()

    def finish_request(self, conn: TConn, fs: Future[Any]) -> None:
        """A request answered (on the event loop): the connection kept alive, as in gthread, or
        closed: at once if its request ran out of time, else gracefully without blocking."""
        if getattr(getattr(conn.parser, "unreader", None), "expired", False):
            return self.drop(conn)
        if fs.cancelled() or fs.exception() is not None or fs.result():
            return super().finish_request(conn, fs)
        self.nr_conns -= 1
        self.linger(conn)

    def linger(self, conn: TConn) -> None:
        """gthread's graceful close (RFC 9112 section 9.6: send FIN, then read what the client
        still sends until it closes too, so that no unread byte makes the kernel reset the
        connection and lose the end of the response), with the reading done by the event loop:
        gthread reads on the event loop with blocking reads of up to 2 s, so that a client
        holding its connection open after a `Connection: close` stalls every other connection of
        the process for 2 s."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
        except OSError:
            return conn.close()
        conn.sock.setblocking(False)
        self.lingering[conn] = time.monotonic() + LINGER_SECONDS
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_linger_bytes, conn))

    def on_linger_bytes(self, conn: TConn, _sock: Any) -> None:
        try:
            more = bool(conn.sock.recv(65536))
        except BlockingIOError:
            return
        except OSError:
            more = False
        if not more:
            self.stop_lingering(conn)

    def stop_lingering(self, conn: TConn) -> None:
        del self.lingering[conn]
        self.poller.unregister(conn.sock)
        conn.close()

    def murder_pending(self) -> None:
        """gthread's pass of the event loop closing connections past their time; here also those
        whose request is not whole by its deadline, and those done lingering."""
        super().murder_pending()
        now = time.monotonic()
        while self.reading and next(iter(self.reading.values())) <= now:
            conn = next(iter(self.reading))
            self.stop_reading(conn)
            self.log.info(
                "%s: no whole request in %g s, connection closed", conn.client, READ_TIMEOUT
            )
            self.drop(conn)
        while self.lingering and next(iter(self.lingering.values())) <= now:
            self.stop_lingering(next(iter(self.lingering)))
