"""The catalog's writes as the watch sees them (docs/architecture.md, "The watch").

- `catalog_writes_connect`: every catalog fact saved or deleted one by one (an officer's edit in
  the admin, a catalog file loaded again) is told to the apps above, once per transaction, after
  it commits: regs.signals.rules_recorded for each jurisdiction whose facts it wrote, with the
  record times the writes lie between. (Facts created in bulk, as a first load makes them, send
  nothing: there is no floor on file yet to judge.)
- `catalog_as_recorded`: the catalog of a jurisdiction as it was recorded at a past time, put
  back from the record history inside a savepoint that is rolled back on leaving, so the
  validator can judge a floor by it and the catalog as it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import models, transaction
from django.utils import timezone
from simple_history.signals import post_create_historical_record

from regs.signals import rules_recorded

from .models import Constraint, Paytable, PaytableEntry, PlayRule, PostingRequirement, Wager

CATALOG_HISTORY: tuple[tuple[type[models.Model], str], ...] = (
    (Wager, "provision__instrument__jurisdiction__code"),
    (Paytable, "provision__instrument__jurisdiction__code"),
    (PaytableEntry, "paytable__provision__instrument__jurisdiction__code"),
    (Constraint, "provision__instrument__jurisdiction__code"),
    (PlayRule, "provision__instrument__jurisdiction__code"),
    (PostingRequirement, "provision__instrument__jurisdiction__code"),
)
"""The catalog's models, parents before children, each with the path from its record history
to the code of the jurisdiction whose rule it cites (the cited provision is never deleted, so
the path holds for a deleted fact's history too)."""


# --- the writes told ---------------------------------------------------------------------------


def catalog_writes_connect() -> None:
    for model, _ in CATALOG_HISTORY:
        post_create_historical_record.connect(  # sent by the historical model
            _written,
            sender=model.history.model,  # type: ignore[attr-defined]
            dispatch_uid=f"variants.recording.{model.__name__}",
        )


def _written(sender: Any, history_instance: Any, using: str | None = None, **_: Any) -> None:
    """A catalog history row written: the first of its transaction schedules the telling."""
    connection = transaction.get_connection(using)
    pending = getattr(connection, "pitboss_catalog_told", None)
    if pending is not None and any(entry[1] is pending for entry in connection.run_on_commit):
        return  # this transaction's writes are told already, once, when it commits
    start = history_instance.history_date - dt.timedelta(microseconds=1)
    reason = history_instance.history_change_reason or ""
    by = history_instance.history_user

    def tell() -> None:
        end = timezone.now()
        for code in catalog_jurisdictions_written(start, end):
            rules_recorded.send(
                sender=catalog_writes_connect,
                jurisdiction=code,
                start=start,
                end=end,
                reason=f"the catalog edited{f' by {by.get_username()}' if by else ''}"
                f"{f': {reason}' if reason else ''}",
            )

    connection.pitboss_catalog_told = tell
    transaction.on_commit(tell, using=using)


def catalog_jurisdictions_written(start: dt.datetime, end: dt.datetime) -> list[str]:
    """The codes of the jurisdictions whose catalog facts have history rows recorded after
    `start` and up to `end`."""
    codes: set[str] = set()
    for model, path in CATALOG_HISTORY:
        codes |= set(
            model.history.filter(  # type: ignore[attr-defined]
                history_date__gt=start, history_date__lte=end
            )
            .values_list(path, flat=True)
            .distinct()
        )
    return sorted(codes)


def catalog_written(
    jurisdiction: str, start: dt.datetime, end: dt.datetime
) -> list[tuple[str, int]]:
    """The catalog's history rows of `jurisdiction` recorded after `start` and up to `end`, as
    (the model's verbose name, how many), in the catalog's order."""
    found = []
    for model, path in CATALOG_HISTORY:
        count = model.history.filter(  # type: ignore[attr-defined]
            **{path: jurisdiction}, history_date__gt=start, history_date__lte=end
        ).count()
        if count:
            found.append((str(model._meta.verbose_name), count))
    return found


# --- the catalog as it was recorded ----------------------------------------------------------


class CatalogNotRestorable(Exception):
    """The catalog's state at a past record time cannot be put back (a unique key taken since
    by another fact, say)."""


@contextmanager
def catalog_as_recorded(jurisdiction: str, at: dt.datetime) -> Iterator[bool]:
    """Inside the block, `jurisdiction`'s catalog as it was recorded at `at`: every fact
    written since is put back as it was then (one created since is removed, one deleted since
    comes back), inside a savepoint rolled back on leaving. Yields whether anything was put
    back. Nothing put back stays in the history: a fact saved back records none, and the rows
    a removal records are rolled back with the rest.

    :raises CatalogNotRestorable: a fact cannot be put back."""
    with transaction.atomic():
        try:
            changed = _put_back(jurisdiction, at)
        except Exception as exc:  # an IntegrityError, most likely
            transaction.set_rollback(True)
            raise CatalogNotRestorable(f"{type(exc).__name__}: {exc}") from exc
        try:
            yield changed
        finally:
            transaction.set_rollback(True)


def _put_back(jurisdiction: str, at: dt.datetime) -> bool:
    restore: list[models.Model] = []
    remove: list[tuple[type[models.Model], int]] = []
    for model, path in CATALOG_HISTORY:
        history = model.history  # type: ignore[attr-defined]
        touched = set(
            history.filter(**{path: jurisdiction}, history_date__gt=at).values_list("id", flat=True)
        )
        if not touched:
            continue
        then: dict[int, Any] = {}
        for row in history.filter(id__in=touched, history_date__lte=at).order_by(
            "history_date", "history_id"
        ):
            then[row.id] = row  # the last row recorded by `at` wins
        for pk in sorted(touched):
            row = then.get(pk)
            if row is None or row.history_type == "-":
                remove.append((model, pk))
            else:
                restore.append(row.instance)
    for obj in restore:  # parents first
        obj.skip_history_when_saving = True  # type: ignore[attr-defined]
        obj.save()
    for model, pk in reversed(remove):  # children first (their history rows, written by the
        model._default_manager.filter(pk=pk).delete()  # delete, go with the savepoint)
    return bool(restore or remove)
