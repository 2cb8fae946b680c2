"""Middleware of the whole site."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, UnreadablePostError

from pitboss.api import error_body, page_not_found


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
