"""A refused request's errors as the desk shows them: a malformed request's nested errors
(pitboss.errors.InvalidInput) and domain errors as (path, message) pairs, each naming its field.
"""

from __future__ import annotations

import re
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


_SEAT = re.compile(r"^seats\[(\d+)\]\.(wagers|actions|paid)(?:\.(.+))?$")


def errors_beside(form: Any, exc: DomainError) -> list[str]:
    """A refused request's errors, each beside the form's field its path names, in the form's
    words (seats[0].paid.main → "Seat 1: paid", for main); what names no field of the form,
    returned to be said above it, its path said in words."""
    pairs = (
        error_paths(exc.detail)
        if isinstance(exc, InvalidInput)
        else list((exc.fields or {}).items()) or [("", exc.message)]
    )
    said = [exc.message] if not isinstance(exc, InvalidInput) and exc.fields else []
    for path, message in pairs:
        if m := _SEAT.match(path):
            name = f"seat{int(m[1]) + 1}_{m[2]}"
            if name in form.fields:
                what = m[3].replace(".", " ") if m[3] else ""
                form.add_error(name, f"{what}: {message}" if what else message)
                continue
        head = path.split(".", 1)[0].split("[", 1)[0]
        if head in form.fields and head != "configuration":
            form.add_error(head, message)
            continue
        if head == "configuration":
            said.append(
                f"The configuration chosen ({path.removeprefix('configuration.')}): {message}"
            )
            continue
        said.append(f"{path}: {message}" if path else message)
    return said


def seat_words(path: str) -> str:
    """A round's path as the form says it: seats[0].paid.main → "Seat 1: paid, main"."""
    if m := _SEAT.match(path):
        rest = f", {m[3].replace('.', ' ')}" if m[3] else ""
        return f"Seat {int(m[1]) + 1}: {m[2]}{rest}"
    return path
