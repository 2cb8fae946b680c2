"""Writes of the compliance app."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone

from pitboss import kbcache
from pitboss.errors import DomainError
from regs.models import Annotation, Citation, Event, UnitVersion
from variants.models import (
    Constraint,
    Paytable,
    PaytableEntry,
    PlayRule,
    PostingRequirement,
    Wager,
)

from . import selectors
from .basegame import table_base_games
from .configuration import Configuration
from .models import SignSet, ValidationRun
from .signage import SIGN_FACT_MISSING, sign_needs, signs_build
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


def knowledge_base_revision(heads: dict[str, int] | None = None) -> dict[str, int]:
    """The latest record-history id of each table the validator reads: the state of the rules
    (from `heads`, pitboss.kbcache.history_heads, when given; else read in one query)."""
    heads = kbcache.history_heads() if heads is None else heads
    return {model.__name__: heads[model.__name__] for model in _TRACKED}


def validation_run_create(*, configuration: Configuration, user: Any = None) -> ValidationRun:
    """Validate a configuration and store the run with the knowledge-base state it used, and
    each table's base-game house edge (compliance.basegame.table_base_games). Its findings hold
    the rules' and every fact the signs need and the configuration does not give (sign_needs):
    a draft of its signs lists the same.

    The configuration comes parsed (compliance.api.configuration.configuration_parse); the run
    stores it as it was submitted (`configuration.source`).
    """
    run = _validation_run_made(configuration, user=user)
    with transaction.atomic():
        _run_saved(run)
    return run


def _run_saved(run: ValidationRun) -> None:
    """Store a new run, and mark the vendor's older runs of the same floor, submitted or
    approved, superseded by it (each change in their record history). In the caller's
    transaction."""
    run._history_user = run.created_by  # type: ignore[attr-defined]  # simple-history's
    run.save()
    if run.created_by_id is None or not run.floor:
        return
    older = ValidationRun.objects.filter(
        created_by_id=run.created_by_id,
        floor=run.floor,
        status__in=[ValidationRun.Status.SUBMITTED, ValidationRun.Status.APPROVED],
    ).exclude(pk=run.pk)
    # not the big fields, which a run never changes and its history does not copy
    for each in older.defer(*HISTORY_EXCLUDED).select_for_update():
        each.status, each.superseded_by = ValidationRun.Status.SUPERSEDED, run
        each._history_user = run.created_by  # type: ignore[attr-defined]  # simple-history's
        each.save(update_fields=["status", "superseded_by"])


HISTORY_EXCLUDED = ("configuration", "findings", "knowledge_base", "tables")
DECISIONS = (ValidationRun.Status.APPROVED, ValidationRun.Status.REJECTED)


def validation_run_decide(
    *, run: ValidationRun, status: str, on: dt.date, note: str = "", user: Any
) -> ValidationRun:
    """An officer's decision on a run of their jurisdiction: approved (a compliant run only) or
    rejected, on a date (not after today, not before the run was filed), with a note; kept in the
    run's record history with who decided.

    :raises DomainError: not an officer of the run's jurisdiction (403); the run already decided
        or superseded (409); approving a run that is not compliant, a date out of range (400).
    """
    if not selectors.decides_for(user, run.jurisdiction):
        raise DomainError(
            "forbidden", f"Only an officer of {run.jurisdiction} decides on its runs.", 403
        )
    if status not in DECISIONS:
        raise DomainError(
            "invalid", f"{status!r} is no decision", fields={"status": "approved or rejected"}
        )
    if run.status != ValidationRun.Status.SUBMITTED:
        why = (
            f"superseded by the vendor's run {run.superseded_by_id}"
            if run.status == ValidationRun.Status.SUPERSEDED
            else f"{run.status} on {run.decided_on}"
        )
        raise DomainError("already_decided", f"The run is {why}; nothing to decide.", 409)
    if status == ValidationRun.Status.APPROVED and not run.compliant:
        raise DomainError(
            "not_compliant",
            "A run with errors cannot be approved: reject it, or wait for a compliant run.",
            fields={"status": "not compliant: only rejected"},
        )
    filed = timezone.localdate(run.created_at)
    if not filed <= on <= timezone.localdate():
        raise DomainError(
            "invalid",
            f"The decision's date must be between the run's filing ({filed}) and today.",
            fields={"date": f"from {filed} to {timezone.localdate()}"},
        )
    run.status, run.decided_on, run.decision_note, run.decided_by = status, on, note, user
    run._history_user = user  # type: ignore[attr-defined]  # simple-history's
    run.save(update_fields=["status", "decided_on", "decision_note", "decided_by"])
    return run


def _validation_run_made(config: Configuration, *, user: Any = None) -> ValidationRun:
    """The run of a configuration, checked and computed, not yet stored."""
    heads = _heads(config)
    revision = kbcache.revision_of(heads)
    findings = configuration_validate(config, revision=revision)
    findings += sign_needs(config, revision=revision)
    tables = table_base_games(config, revision=revision)
    run = ValidationRun(
        configuration=dict(config.source),
        jurisdiction=config.jurisdiction,
        as_of=config.as_of,
        compliant=is_compliant(findings),
        findings=[f.as_dict() for f in findings],
        knowledge_base=knowledge_base_revision(heads),
        tables=tables,
        created_by=user if user and user.is_authenticated else None,
        floor=config.floor_key(),
    )
    # The fields' own checks; not the two queries asking whether a new random id is taken
    # and whether the user who was just authenticated exists, nor the table's check constraints
    # (a new run is submitted), which the INSERT is held to anyway.
    run.full_clean(exclude=["created_by"], validate_unique=False, validate_constraints=False)
    return run


def _heads(config: Configuration) -> dict[str, int]:
    """The knowledge base's state the configuration is judged at: the one its shape was checked
    at (configuration_parse reads it before the rules), else now. A later edit makes a new one."""
    return dict(config.heads) if config.heads is not None else kbcache.history_heads()


def is_compliant(findings: list[Finding]) -> bool:
    return not any(f.severity == "error" for f in findings)


class NotCompliant(DomainError):
    """A sign set asked for a configuration with findings: no clean sign is printed."""

    def __init__(self, run: ValidationRun, findings: list[dict[str, Any]]) -> None:
        errors = [f for f in findings if f["severity"] == "error"]
        facts = sum(1 for f in errors if f["code"] == SIGN_FACT_MISSING)
        why = [
            f"the configuration breaks the rules ({len(errors) - facts} error(s))"
            if len(errors) > facts
            else "",
            f"the signs need {facts} fact(s) the configuration does not give" if facts else "",
        ]
        super().__init__(
            "not_compliant",
            f"No sign is printed: {' and '.join(filter(None, why))}; fix the findings, or ask "
            f"for a draft (draft=true) marked NOT APPROVED.",
        )
        self.run, self.findings = run, findings


def sign_set_create(
    *,
    configuration: Configuration,
    draft: bool = False,
    wall_signs: bool = True,
    user: Any = None,
    run: ValidationRun | None = None,
    sign: int | None = None,
) -> SignSet:
    """Validate a configuration, build its signs (compliance.signage) and store them with the
    run. A configuration with errors, of the rules or of facts a sign needs, gets a sign set
    only as a draft, every page of which is marked NOT APPROVED.

    A stored `run` of the same configuration is reused while the knowledge base is as it was
    when the run was made; once the rules changed, the configuration is validated again.

    Everything is checked before anything is written (`sign`, the one sign asked for, among
    them), and the run and the sign set are written in one transaction.

    :raises DomainError: `sign` is not a sign of the set (404; nothing stored).
    :raises NotCompliant: errors and no draft asked for (the run is stored, no sign set).
    """
    heads = _heads(configuration)
    if (
        run is None
        or run.configuration != configuration.source
        or run.knowledge_base != knowledge_base_revision(heads)
    ):
        run = _validation_run_made(configuration, user=user)
    built = signs_build(
        configuration,
        knowledge_base=run.knowledge_base,
        wall_signs=wall_signs,
        revision=kbcache.revision_of(heads),
    )
    if sign is not None and sign >= len(built.signs):
        raise DomainError("not_found", f"sign {sign}: the set has {len(built.signs)} signs", 404)
    # the run's findings hold the signs' (sign_needs); a run stored before they did, not
    needs = [f.as_dict() for f in built.findings]
    findings = run.findings + [f for f in needs if f not in run.findings]
    clean = run.compliant and is_compliant(built.findings)
    if not clean and not draft:
        if run._state.adding:
            with transaction.atomic():  # the refusal names the run, whose findings say what to fix
                _run_saved(run)
        raise NotCompliant(run, findings)
    for each in built.signs:
        each["provenance"]["validation"] = str(run.id)
    sign_set = SignSet(
        validation=run,
        draft=not clean,
        signs=built.signs,
        findings=findings,
        created_by=user if user and user.is_authenticated else None,
    )
    sign_set.full_clean(exclude=["validation"] if run._state.adding else None)
    with transaction.atomic():
        if run._state.adding:
            _run_saved(run)
        sign_set.save()
    return sign_set
