"""Optimistic locking of knowledge-base edits: two officers editing the same record at once → the
second gets a conflict, not a silent overwrite.

An edit carries the revision of the record its author loaded (the API's ETag, sent back in
If-Match; a hidden field on a form). The revision is a digest of the record's stored values, so
it changes exactly when the record does. The edit is applied only if the record, locked, still has
that revision; otherwise it is refused with 409 `edit_conflict` and the refused attempt is kept in
the record history under its author (a history row with the values unchanged and the change
reason "edit refused (conflict): …"), so the history names both officers.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import models, transaction

from pitboss.errors import DomainError

M = TypeVar("M", bound=models.Model)

_REASON_MAX = 100  # simple_history's history_change_reason


def revision(instance: models.Model) -> str:
    """The revision of a record: a digest of its stored field values."""
    digest = hashlib.sha256()
    for field in instance._meta.concrete_fields:
        digest.update(f"{field.attname}={field.value_to_string(instance)}\x1f".encode())
    return digest.hexdigest()[:20]


def refusal_record(current: models.Model, *, user: Any, attempt: str) -> None:
    """Keep a refused edit of `current` (the record as stored) in its history: a row with the
    values unchanged, naming `user` and the reason "edit refused (conflict): `attempt`"."""
    current._history_user = user  # type: ignore[attr-defined]
    current._change_reason = f"edit refused (conflict): {attempt}"[:_REASON_MAX]  # type: ignore[attr-defined]
    current.save()


class EditConflict(DomainError):
    """The record changed since the editor loaded it."""

    def __init__(self, label: str, current: str) -> None:
        super().__init__(
            "edit_conflict",
            f"{label} was changed by someone else since you loaded it; your edit was not saved. "
            f"Reload it, and apply your change to the current text.",
            status=409,
            fields={"revision": current},
        )


def edit_locked(
    instance: M,
    expected: str | None,
    apply: Callable[[M], object],
    *,
    user: Any,
    attempt: str,
) -> M:
    """Apply `apply` to the record, locked, if it still has the revision `expected` (None: no
    check, the last write wins); else keep the refused attempt in its history and raise.

    :raises EditConflict: the record's revision is no longer `expected`.
    """
    with transaction.atomic():
        current = type(instance)._default_manager.select_for_update().get(pk=instance.pk)
        conflict = expected is not None and expected != revision(current)
        if conflict:
            refusal_record(current, user=user, attempt=attempt)
        else:
            apply(current)
    if conflict:
        raise EditConflict(str(current), revision(current))
    return current
