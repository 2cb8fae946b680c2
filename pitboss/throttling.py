"""The write throttle of the whole API (REST_FRAMEWORK's DEFAULT_THROTTLE_CLASSES)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import UserRateThrottle


class WriteRateThrottle(UserRateThrottle):
    """Writes (POST, PUT, PATCH, DELETE) per user, or per address when anonymous, at
    settings.WRITE_RATE (read on each request, so a test or benchmark can change it); reads are
    not counted. Over the rate: a JSON 429 with Retry-After."""

    scope = "writes"

    def get_rate(self) -> str | None:
        return settings.WRITE_RATE or None

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)
