"""Middleware of the whole site."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest, PermissionDenied, SuspiciousOperation
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    QueryDict,
    UnreadablePostError,
)
from django.utils.html import escape

from pitboss.api import page_not_found, server_error_response
from pitboss.errors import error_body
from pitboss.faults import DATABASE_ERRORS
from pitboss.logs import request_id
from pitboss.text import text_problem, text_repaired

logger = logging.getLogger("pitboss.request")

# Exceptions Django itself answers with a 4xx (a view's 404, 403, 400): not server errors.
_CLIENT_ERRORS = (Http404, PermissionDenied, BadRequest, SuspiciousOperation)


class RequestIdMiddleware:
    """Every request gets an id: the X-Request-ID header of its response, `request_id` on every
    log record written while it is served, and in the body of a server error.

    An exception under /api/, raised by a view or while rendering its response (a JSON renderer,
    a PDF), answers the API's JSON error (`server_error`, with the id), DEBUG or not, and is
    logged with its traceback under the same id; elsewhere Django's handler500 answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.id = uuid.uuid4().hex  # type: ignore[attr-defined]
        # Not reset on the way out: Django logs a 4xx or 5xx (django.request) after the last
        # middleware returns, and that record carries the id too. The next request's replaces it.
        request_id.set(request.id)  # type: ignore[attr-defined]
        response = self.get_response(request)
        response["X-Request-ID"] = request.id  # type: ignore[attr-defined]
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        # A database error is pitboss.faults' 503.
        if not request.path.startswith("/api/") or isinstance(
            exception, (*_CLIENT_ERRORS, *DATABASE_ERRORS)
        ):
            return None
        logger.error(
            "server error on %s %s",
            request.method,
            request.path,
            exc_info=exception,
            extra={"request_id": request.id},  # type: ignore[attr-defined]
        )
        response = server_error_response(request)
        response._has_been_logged = True  # type: ignore[attr-defined]  # logged just above
        return response


class RequestSizeLimitMiddleware:
    """Refuse a request whose body is larger than settings.MAX_REQUEST_BYTES with a JSON 413
    naming the limit, before anything reads the body. (Django's own check, on reading the body,
    answers a 400 page; DRF's JSON parser reads the stream past it.) A request without a
    Content-Length has no body under WSGI."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.MAX_REQUEST_BYTES
        declared = request.META.get("CONTENT_LENGTH") or "0"
        if not declared.isdigit():
            message = f"Content-Length {declared!r} is not a number of bytes."
            return JsonResponse(error_body("bad_request", message), status=400)
        if int(declared) > limit:
            message = (
                f"The request body is {int(declared):,} bytes; the limit is {limit:,} bytes "
                f"({limit / 1024 / 1024:g} MiB). Send a smaller request (a configuration of "
                f"fewer tables)."
            )
            return JsonResponse(error_body("request_too_large", message), status=413)
        return self.get_response(request)


class TextBoundaryMiddleware:
    """Refuse a request any query parameter or form field of which (its name too) is not text:
    a 400 naming the field, the API's JSON error under /api/, a plain page elsewhere. Before
    any view (and the CSRF check) reads the form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            form = _form(request)
        except UnreadablePostError:  # read here first, so answered here (UnreadableBody...)
            return body_unreadable(request)
        for source, params in (("query parameter", request.GET), ("form field", form)):
            for name, values in params.lists():
                for value in [name, *values]:
                    if problem := text_problem(value):
                        return _refused(request, source, name, problem)
        return self.get_response(request)


def _form(request: HttpRequest) -> Any:
    """The request's form fields, for a form post (urlencoded or multipart); else none."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.content_type not in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        return QueryDict()
    return request.POST


def _refused(request: HttpRequest, source: str, name: str, problem: str) -> HttpResponse:
    shown = text_repaired(name)[:80]
    message = f"{shown}: {problem}"
    if request.path.startswith("/api/"):
        body = error_body("invalid", message, {shown: [problem]})
        return JsonResponse(body, status=400)
    page = (
        f"<!doctype html><title>Refused</title><h1>A {source} is refused</h1>"
        f"<p>{escape(message)}</p>"
    )
    return HttpResponse(page, status=400, content_type="text/html; charset=utf-8")


class UnreadableBodyMiddleware:
    """A request body that could not be read whole (the client stopped sending, or sent too
    slowly: under `make serve` a read past SERVE_READ_TIMEOUT fails, pitboss/gunicorn_worker.py)
    is a 408, the JSON error shape under /api/, never a 500. Django raises UnreadablePostError
    from whatever first reads the body; DRF's exception handler leaves it unhandled."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, UnreadablePostError):
            return None
        return body_unreadable(request)


def body_unreadable(request: HttpRequest) -> HttpResponse:
    """The 408 of a body that did not arrive whole in time."""
    message = "The request body did not arrive whole in time; send it again."
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("request_timeout", message), status=408)
    return HttpResponse(message, status=408, content_type="text/plain; charset=utf-8")


class ApiNotFoundMiddleware:
    """A 404 under /api/ is the JSON error shape with DEBUG on too. A path no URL pattern matches
    (an id of the wrong form: `provisions/a.b/`, `validations/null,null/`) is answered by Django,
    not the API; with DEBUG off by handler404 (pitboss.api.page_not_found, JSON under /api/),
    with DEBUG on by Django's HTML debug page, which schemathesis run against `make run`
    recorded as an undocumented content type on every detail endpoint."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and request.path.startswith("/api/")
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return page_not_found(request, Http404(request.path))
        return response
