"""The id of the request being served, on every log record (settings.LOGGING). Set by
pitboss.middleware.RequestIdMiddleware; imports nothing of Django, since logging is configured
before the apps load."""

from __future__ import annotations

import logging
from contextvars import ContextVar

request_id: ContextVar[str] = ContextVar("request_id", default="-")
"""The id of the request this thread (or task) is serving; "-" outside a request."""


class RequestIdFilter(logging.Filter):
    """Puts the id of the request being served (or "-") on every record as `request_id`."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True
