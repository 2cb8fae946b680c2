"""Errors the domain raises and the JSON shape every API error has (pitboss.api.exception_handler
reports them; pitboss.faults and pitboss.middleware answer in the same shape)."""

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


def error_body(code: str, message: str, fields: dict[str, Any] | None = None) -> dict[str, Any]:
    """The JSON body of every API error."""
    error: dict[str, Any] = {"code": code, "message": message}
    if fields:
        error["fields"] = fields
    return {"error": error}
