"""Reads of submissions (validation runs, sign sets, simulation jobs, paytable simulation jobs) as
a user may see them.

The one rule of who sees a submission, for every API view and web page:

- an administrator (superuser) sees every submission;
- a compliance officer sees every submission for a jurisdiction it is an officer of
  (`Jurisdiction.officers`), and its own;
- anyone else who is logged in (a vendor) sees only its own (`created_by`);
- an anonymous visitor sees none.

What a user may not see does not exist for it: a view looks an object up in these querysets, so
another's object is a 404, never a 403. The sample configurations a desk page may start from are
read here too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.http import Http404

from compliance.models import PaytableSimulationJob, SignSet, SimulationJob, ValidationRun


def _officer_codes(user: User) -> list[str]:
    return list(user.officer_of.values_list("code", flat=True))


def _visible(queryset: QuerySet, user: User | AnonymousUser, jurisdiction_field: str) -> QuerySet:
    if not user.is_authenticated:
        return queryset.none()
    if user.is_superuser:
        return queryset
    own = Q(created_by=user)
    codes = _officer_codes(user)
    if codes:
        own |= Q(**{f"{jurisdiction_field}__in": codes})
    return queryset.filter(own)


def decides_for(user: User | AnonymousUser, jurisdiction: str) -> bool:
    """Whether `user` may approve or reject the runs of `jurisdiction`: an active officer of it
    holding the change permission (the officer group's), or a superuser."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return jurisdiction in _officer_codes(user) and user.has_perm("compliance.change_validationrun")


def validation_runs_visible_to(user: User | AnonymousUser) -> QuerySet[ValidationRun]:
    """The validation runs `user` may see, newest first (with the officer who decided each)."""
    return _visible(ValidationRun.objects.select_related("decided_by"), user, "jurisdiction")


STATUS_ORDER = ("approved", "submitted", "rejected", "superseded")
"""How floors on file are listed: approved ones first."""


def floors_on_file(user: User | AnonymousUser, jurisdiction: str) -> list[ValidationRun]:
    """The latest run of each floor of `jurisdiction` that `user` may see (a vendor its own, an
    officer its jurisdictions'): one per vendor and floor (ValidationRun.floor), approved ones
    first, then submitted, then rejected; newest first within each."""
    return _latest_of_each_floor(validation_runs_visible_to(user).filter(jurisdiction=jurisdiction))


def floors_of(jurisdiction: str) -> list[ValidationRun]:
    """The latest run of each floor of `jurisdiction`, every vendor's (the watch judges a change
    over all of them, then tells each subscriber of those it may see), in the order of
    floors_on_file."""
    return _latest_of_each_floor(ValidationRun.objects.filter(jurisdiction=jurisdiction))


def _latest_of_each_floor(runs: QuerySet[ValidationRun]) -> list[ValidationRun]:
    newest = _latest_by_floor(runs.select_related("created_by").order_by("-created_at"))
    return sorted(newest, key=lambda r: STATUS_ORDER.index(r.status))


def _latest_by_floor(newest_first: Iterable[ValidationRun]) -> list[ValidationRun]:
    """The first run of each floor (one per vendor and ValidationRun.floor) of runs given
    newest first, in that order."""
    latest: dict[tuple[Any, str], ValidationRun] = {}
    for run in newest_first:
        latest.setdefault((run.created_by_id, run.floor or str(run.pk)), run)
    return list(latest.values())


def sign_sets_visible_to(user: User | AnonymousUser) -> QuerySet[SignSet]:
    """The sign sets `user` may see (by their validation run's jurisdiction), newest first."""
    return _visible(SignSet.objects.select_related("validation"), user, "validation__jurisdiction")


def simulation_jobs_visible_to(user: User | AnonymousUser) -> QuerySet[SimulationJob]:
    """The simulation jobs `user` may see (by their configuration's jurisdiction), newest first."""
    return _visible(SimulationJob.objects.all(), user, "configuration__jurisdiction")


def paytable_simulation_jobs_visible_to(
    user: User | AnonymousUser,
) -> QuerySet[PaytableSimulationJob]:
    """The paytable simulation jobs `user` may see (by the paytable's jurisdiction), newest
    first."""
    return _visible(PaytableSimulationJob.objects.all(), user, "jurisdiction")


def validation_runs_listed_for(user: User | AnonymousUser) -> QuerySet[ValidationRun]:
    """The validation runs `user` may see, with their authors (the desk lists who filed each)."""
    return validation_runs_visible_to(user).select_related("created_by")


LATEST_FLOORS_READ = 500
"""The newest runs a run picker reads its floors from."""


def latest_floors_for(user: User | AnonymousUser) -> list[ValidationRun]:
    """The latest run of each floor `user` may see (one per vendor and floor:
    ValidationRun.floor), newest first, from the newest LATEST_FLOORS_READ runs: a run picker's
    choices, a floor filed twenty times being one choice."""
    runs = validation_runs_listed_for(user).order_by("-created_at")[:LATEST_FLOORS_READ]
    return _latest_by_floor(runs)


def validation_run_or_404(user: User | AnonymousUser, pk: Any) -> ValidationRun:
    """The validation run `pk` if `user` may see it.

    :raises Http404: no such run, another's, or not a run id at all (?run=abc).
    """
    try:
        run = validation_runs_listed_for(user).filter(pk=pk).first()
    except ValidationError:
        run = None
    if run is None:
        raise Http404("No validation run of yours has this id.")
    return run


SAMPLES = Path(settings.BASE_DIR) / "fixtures" / "configs"
"""The sample configurations a form, a round or a simulation may start from."""


def samples() -> dict[str, dict[str, Any]]:
    """The sample configurations in fixtures/configs/, by file name without .json."""
    return {p.stem: json.loads(p.read_text()) for p in sorted(SAMPLES.glob("*.json"))}
