"""Stored rows holding what pitboss.text now refuses at the door, found and repaired in place:
`manage.py repair_stored_text` (without --write it only lists them).

Every text and JSON column of the project's apps (their record-history tables included) is read;
a lone surrogate becomes U+FFFD, a control character other than tab, newline and carriage return
is removed, and in a stored configuration a number where the contract says string (a licensee
sent as 0, a table named 7) becomes its text ("0", "7"). Rows are updated in place
(QuerySet.update: the repair itself adds no record-history row).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import models, transaction

from pitboss.text import text_repaired, texts_repaired

APPS = ("jurisdictions", "regs", "variants", "compliance")
"""The apps whose tables are read: the knowledge base, the catalog, and what users submitted."""

# The strings of a configuration (docs/api.md, "The table configuration") that DRF's CharField
# once accepted as numbers, by the last key of their path.
_CONFIGURATION_TEXT = re.compile(r"(^|\.)(licensee|name|jokers|column|outcome|pays)$")


@dataclass(frozen=True)
class Repair:
    model: str
    """app_label.ModelName"""
    pk: Any
    fields: tuple[str, ...]


def _repaired(field: models.Field, value: Any) -> Any:
    if isinstance(value, str):
        return text_repaired(value)
    if isinstance(field, models.JSONField):
        return texts_repaired(value, as_text=_is_text if field.name == "configuration" else _never)
    return value


def _is_text(path: str) -> bool:
    return bool(_CONFIGURATION_TEXT.search(path))


def _never(path: str) -> bool:
    return False


def stored_text_repairs(*, write: bool = False) -> list[Repair]:
    """Each row whose stored text needs repair, and which of its fields; with `write`, repaired
    (in one transaction)."""
    found: list[Repair] = []
    with transaction.atomic():
        for label in APPS:
            for model in apps.get_app_config(label).get_models():
                found += _model_repairs(model, write=write)
    return found


def _model_repairs(model: type[models.Model], *, write: bool) -> list[Repair]:
    fields = [
        f
        for f in model._meta.concrete_fields
        if isinstance(f, models.CharField | models.TextField | models.JSONField)
        and not f.primary_key
    ]
    if not fields:
        return []
    found = []
    rows = model._default_manager.values_list("pk", *(f.attname for f in fields))
    for pk, *values in rows.iterator():
        changes = {
            f.attname: repaired
            for f, value in zip(fields, values, strict=True)
            if (repaired := _repaired(f, value)) != value
        }
        if changes:
            found.append(Repair(model._meta.label, pk, tuple(sorted(changes))))
            if write:
                model._default_manager.filter(pk=pk).update(**changes)
    return found
