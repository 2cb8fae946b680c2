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


class InvalidInput(DomainError):
    """A request whose shape is wrong: `fields` maps each bad field, by its path, to what is wrong
    with it (nested as the request is: {"tables": [{"decks": ["..."]}]}); the message names the
    first. The parsers at the edge (DRF serializers, compliance.api) raise it, so the layers
    below, the desk and the commands never see DRF's own exception."""

    def __init__(self, fields: Any) -> None:
        super().__init__(
            "invalid", first_error(fields), 400, fields if isinstance(fields, dict) else None
        )
        self.detail = fields


def first_error(detail: Any, path: str = "") -> str:
    """The first message in a (nested) DRF error detail, prefixed with the field path it is on."""
    if not detail:
        return f"{path}: invalid" if path else "The request is invalid."
    if isinstance(detail, dict):
        key, value = next(iter(detail.items()))
        if isinstance(key, int) or str(key).isdigit():  # DRF keys a list's item errors by index
            name = f"{path}[{key}]"
        else:
            name = path if key == "non_field_errors" else f"{path}.{key}" if path else str(key)
        return first_error(value, name)
    if isinstance(detail, list):
        for index, item in enumerate(detail):
            if item:  # a list of nested objects has {} for the valid ones
                nested = isinstance(item, (dict, list))
                return first_error(item, f"{path}[{index}]" if nested else path)
    return f"{path}: {detail}" if path else str(detail)
