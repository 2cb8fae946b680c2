"""Caches of what only changes when the knowledge base changes, keyed on its revision.

The knowledge base's revision is the latest record-history id (django-simple-history) of every
tracked table of the jurisdictions, regs and variants apps, read in one query. Every write of the
knowledge base goes through a model's save or delete, or `bulk_create_with_history`, and so adds a
history row: ingestion, catalog and annotation edits, admin saves, a restore (which brings its
history with it). A cached value keyed on the revision is therefore never stale: the first read
after an edit sees a new revision and misses.

Two caches:
- `cached_read` and `ReadCacheMiddleware`: whole responses of public reads (the read API, the rule
  and catalog pages) for anonymous requests, in Django's default cache (shared between server
  processes when it is Redis), with an ETag so a client's repeated read is a 304.
- `remember`: values a computation reads from the knowledge base (the validator's catalog facts,
  the citations it cites), in this process's memory, for the revision they were read at.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from collections.abc import Callable
from typing import Any, cast

from django.apps import apps
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import get_conditional_response

KNOWLEDGE_BASE_APPS = ("jurisdictions", "regs", "variants")
# Cached responses live this long at most (a revision that never comes back is garbage).
RESPONSE_TTL = 3600
# Statuses worth keeping: a page, or the redirect of a citation to its dated address.
_CACHED_STATUSES = {200, 301, 302}


def _history_models() -> list[Any]:
    return sorted(
        (
            m
            for m in apps.get_models()
            if m._meta.app_label in KNOWLEDGE_BASE_APPS and hasattr(m, "history")
        ),
        key=lambda m: m.__name__,
    )


@functools.cache
def _heads_sql() -> tuple[list[str], str]:
    models = _history_models()
    names = [m.__name__ for m in models]
    columns = [
        f"(SELECT MAX(history_id) FROM {connection.ops.quote_name(m.history.model._meta.db_table)})"
        for m in models
    ]
    if connection.vendor == "postgresql":
        # A database dropped and created again numbers its history afresh; its oid tells the
        # two apart for a cache that outlives it (Redis).
        names.append("(database)")
        columns.append("(SELECT oid::bigint FROM pg_database WHERE datname = current_database())")
    return names, f"SELECT {', '.join(columns)}"


def history_heads() -> dict[str, int]:
    """The latest record-history id of each tracked knowledge-base table, by model, in one query
    (0 for a table never written); on PostgreSQL also the database's own id, "(database)"."""
    names, sql = _heads_sql()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Planning the fifteen subqueries costs more than running them: on PostgreSQL the
            # statement is prepared once per connection (connections persist, CONN_MAX_AGE).
            raw = connection.connection
            if not getattr(raw, "pitboss_heads_prepared", False):
                cursor.execute(f"PREPARE pitboss_heads AS {sql}")
                raw.pitboss_heads_prepared = True
            cursor.execute("EXECUTE pitboss_heads")
        else:
            cursor.execute(sql)
        row = cursor.fetchone()
    return {name: head or 0 for name, head in zip(names, row, strict=True)}


def revision_of(heads: dict[str, int]) -> str:
    """A short stamp of the knowledge base's state, from its history heads."""
    text = ",".join(f"{name}={head}" for name, head in sorted(heads.items()))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def knowledge_base_revision_stamp() -> str:
    """The stamp of the knowledge base as it is now (one query)."""
    return revision_of(history_heads())


# --- values read from the knowledge base, per revision, in process memory ---------------------

# Values kept for one revision at most (a citer per date asked for, a catalog per jurisdiction).
REMEMBERED_MOST = 256
_memory: dict[str, dict[Any, Any]] = {}
_memory_lock = threading.Lock()


def remember(revision: str, key: Any, compute: Callable[[], Any]) -> Any:
    """`compute()`'s value for `key` at knowledge-base `revision`, computed once per process.

    Only the latest revision seen is kept: an edit drops everything read before it. The value is
    shared between requests, so it must not be changed by its users.
    """
    store = _memory.get(revision)
    if store is None:
        with _memory_lock:
            store = _memory.get(revision)
            if store is None:
                _memory.clear()
                store = _memory[revision] = {}
    try:
        return store[key]
    except KeyError:
        if len(store) >= REMEMBERED_MOST:  # many dates asked for: start again, memory bounded
            store.clear()
        value = store[key] = compute()
        return value


Kept = Callable[[Any, Callable[[], Any]], Any]
"""A value's reader: `kept(key, compute)` gives compute()'s value, once per revision
(`kept_for(revision)`) or at every call (`read_now`)."""


def read_now(key: Any, compute: Callable[[], Any]) -> Any:
    """compute(), every time: a reader for when the revision is not known."""
    return compute()


def kept_for(revision: str | None) -> Kept:
    """`remember` at `revision`; without one, `read_now`."""
    return read_now if revision is None else functools.partial(remember, revision)


def forget() -> None:
    """Drop every remembered value (tests, whose rolled-back writes can reuse history ids)."""
    with _memory_lock:
        _memory.clear()


# --- whole responses of public reads ---------------------------------------------------------

# Request headers a cached response varies on, besides the address: the representation asked
# for (DRF's content negotiation) and htmx's partial-page requests.
_VARY_HEADERS = ("HTTP_ACCEPT", "HTTP_HX_REQUEST", "HTTP_HX_TARGET", "HTTP_HX_TRIGGER")


def _anonymous(request: HttpRequest) -> bool:
    """No credentials of any kind: no token, no session, no pending messages. (Checked on the
    headers, so the cache is consulted before any authentication reads the database.)"""
    return (
        "HTTP_AUTHORIZATION" not in request.META
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "messages" not in request.COOKIES
    )


def _response_key(request: HttpRequest, revision: str) -> str:
    parts = [
        request.method or "",
        request.scheme,
        request.get_host(),
        request.get_full_path(),
        timezone.localdate().isoformat(),  # "today" is the default date of every read
        revision,
        *(request.META.get(h, "") for h in _VARY_HEADERS),
    ]
    digest = hashlib.blake2b("\x1f".join(parts).encode(), digest_size=16).hexdigest()
    return f"pitboss:read:{digest}"


def _cacheable(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        response.status_code in _CACHED_STATUSES
        and not response.cookies
        and not getattr(response, "streaming", False)
        # The page used the CSRF token (a form): it is this visitor's, not everyone's.
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        and "private" not in response.get("Cache-Control", "")
    )


def _etag(content: bytes) -> str:
    return '"' + hashlib.blake2b(content, digest_size=16).hexdigest() + '"'


def cached_read(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark an anonymous GET of this view for the response cache (ReadCacheMiddleware serves and
    stores it): its response is kept while the knowledge base stays at the revision read before
    the view ran, and a matching If-None-Match is answered 304.

    For views whose anonymous response depends only on the request's address, the headers in
    _VARY_HEADERS, today's date and the knowledge base. Anything else (a logged-in user, a token,
    a POST, a response that sets a cookie) passes through uncached.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method not in ("GET", "HEAD") or not _anonymous(request):
            return view(request, *args, **kwargs)
        revision = getattr(request, "kb_revision", None) or knowledge_base_revision_stamp()
        response = view(request, *args, **kwargs)
        response.kb_revision = revision
        return response

    return wrapper


# Paths whose view is a cached_read, learnt from their responses (bounded): only for these does
# the middleware read the revision before the rest of the stack runs.
_CACHED_PATHS_MOST = 10_000
_cached_paths: set[str] = set()


class ReadCacheMiddleware:
    """Serves a stored response of a `cached_read` view before sessions, authentication, URL
    resolution and the view run, and stores one as it leaves them (with what they added, such as
    X-Frame-Options). Placed inside DatabaseUnavailableMiddleware: the revision is a query."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        reads = request.method in ("GET", "HEAD") and _anonymous(request)
        cache = caches["default"]
        if reads and request.path in _cached_paths:
            request.kb_revision = knowledge_base_revision_stamp()  # type: ignore[attr-defined]
            stored = cache.get(_response_key(request, request.kb_revision))  # type: ignore[attr-defined]
            if stored is not None:
                return cast(  # given a response, it answers one
                    HttpResponse,
                    get_conditional_response(request, etag=stored["ETag"], response=stored),
                )
        response = self.get_response(request)
        revision = getattr(response, "kb_revision", None)
        if not reads or revision is None or not _cacheable(request, response):
            return response
        response["ETag"] = _etag(response.content)
        cache.set(_response_key(request, revision), response, RESPONSE_TTL)
        if len(_cached_paths) >= _CACHED_PATHS_MOST:
            _cached_paths.clear()
        _cached_paths.add(request.path)
        return cast(  # given a response, it answers one
            HttpResponse,
            get_conditional_response(request, etag=response["ETag"], response=response),
        )


class CachedReads:
    """A DRF view or viewset whose anonymous GETs are served by `cached_read` (list it first
    among the bases)."""

    @classmethod
    def as_view(cls, *args: Any, **kwargs: Any) -> Any:
        return cached_read(super().as_view(*args, **kwargs))  # type: ignore[misc]
