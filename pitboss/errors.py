"""Errors the domain raises and the API reports as JSON (see pitboss.api.exception_handler)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class DomainError(Exception):
    """A request the domain refuses, with a stable `code` and a message a person can act on.

    `fields` maps request fields (or paths) to what is wrong with each, where that helps.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, fields: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.fields = dict(fields) if fields else None
