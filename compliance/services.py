"""Writes of the compliance app."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max

from regs.models import Annotation, Citation, Event, UnitVersion
from variants.models import (
    Constraint,
    Paytable,
    PaytableEntry,
    PlayRule,
    PostingRequirement,
    Wager,
)

from .configuration import configuration_parse
from .models import ValidationRun
from .validator import Finding, configuration_validate

_TRACKED = [
    UnitVersion,
    Citation,
    Event,
    Annotation,
    Wager,
    Paytable,
    PaytableEntry,
    Constraint,
    PlayRule,
    PostingRequirement,
]


def knowledge_base_revision() -> dict[str, int]:
    """The latest record-history id of each table the validator reads: the state of the rules."""
    return {
        model.__name__: model.history.aggregate(last=Max("history_id"))["last"] or 0  # type: ignore[attr-defined]
        for model in _TRACKED
    }


def validation_run_create(*, data: Any, user: Any = None) -> ValidationRun:
    """Validate a configuration and store the run with the knowledge-base state it used.

    :raises rest_framework.exceptions.ValidationError: a malformed configuration (nothing stored).
    """
    config = configuration_parse(data)
    findings = configuration_validate(config)
    with transaction.atomic():
        run = ValidationRun(
            configuration=data,
            jurisdiction=config["jurisdiction"],
            as_of=config["as_of"],
            compliant=is_compliant(findings),
            findings=[f.as_dict() for f in findings],
            knowledge_base=knowledge_base_revision(),
            created_by=user if user and user.is_authenticated else None,
        )
        run.full_clean()
        run.save()
    return run


def is_compliant(findings: list[Finding]) -> bool:
    return not any(f.severity == "error" for f in findings)
