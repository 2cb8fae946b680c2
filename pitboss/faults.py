"""The database unavailable (down, restarting, connection lost): a clean 503, never a 500.

Every request that hits a lost or refused database connection answers 503 with a Retry-After
header: the API's JSON error shape (code `service_unavailable`) under /api/, a plain page
elsewhere. Django drops the broken connection at the end of the request, and the next request
connects afresh (with persistent connections, CONN_HEALTH_CHECKS tests them first), so the
service recovers by itself as soon as the database is back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

from pitboss.errors import error_body

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
"""What Django raises (wrapping psycopg's and sqlite3's) when it cannot reach the database."""
RETRY_AFTER = 5
"""Seconds a client should wait before trying again."""

_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pitboss is unavailable</title></head>
<body><h1>Pitboss is briefly unavailable</h1>
<p>Its database cannot be reached. Please try again in a few seconds.</p></body></html>
"""


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer: JSON under /api/, a plain page (no template, no database) elsewhere."""
    if request.path.startswith("/api/"):
        message = "The database is unavailable; try again in a few seconds."
        response: HttpResponse = JsonResponse(
            error_body("service_unavailable", message), status=503
        )
    else:
        response = HttpResponse(_PAGE, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class DatabaseUnavailableMiddleware:
    """Answers 503 for a view (API or page) that lost the database."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_ERRORS):
            return None
        logger.warning("database unavailable on %s: %s", request.path, exception)
        return unavailable(request)
