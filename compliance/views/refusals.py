"""A refused request's errors as the desk shows them: a malformed request's nested errors
(pitboss.errors.InvalidInput) and domain errors as (path, message) pairs, each naming its field.
"""

from __future__ import annotations

from typing import Any

from pitboss.errors import DomainError, InvalidInput


def error_paths(detail: Any, prefix: str = "") -> list[tuple[str, str]]:
    """Nested errors (InvalidInput.detail, as DRF's serializers give them) as (path, message):
    tables[0].side_wagers[1].limits.max."""
    if isinstance(detail, dict):
        found = []
        for key, value in detail.items():
            if key == "non_field_errors":
                found += error_paths(value, prefix)
            elif isinstance(key, int) or str(key).isdigit():  # a list's errors by index
                found += error_paths(value, f"{prefix}[{key}]")
            else:
                found += error_paths(value, f"{prefix}.{key}" if prefix else str(key))
        return found
    if isinstance(detail, list):
        if detail and all(isinstance(v, str) for v in detail):
            return [(prefix, str(v)) for v in detail]
        found = []
        for n, value in enumerate(detail):
            found += error_paths(value, f"{prefix}[{n}]")
        return found
    return [(prefix, str(detail))]


def refusal_messages(exc: Exception) -> list[str]:
    """A refused request's messages, each naming its field."""
    if isinstance(exc, InvalidInput):
        return [
            f"{path}: {message}" if path else message for path, message in error_paths(exc.detail)
        ]
    if isinstance(exc, DomainError):
        fields = [f"{path}: {message}" for path, message in (exc.fields or {}).items()]
        return [exc.message, *fields]
    raise exc
