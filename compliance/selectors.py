"""Reads of submissions (validation runs, sign sets, simulation jobs, paytable simulation jobs) as
a user may see them.

The one rule of who sees a submission, for every API view and web page:

- an administrator (superuser) sees every submission;
- a compliance officer sees every submission for a jurisdiction it is an officer of
  (`Jurisdiction.officers`), and its own;
- anyone else who is logged in (a vendor) sees only its own (`created_by`);
- an anonymous visitor sees none.

What a user may not see does not exist for it: a view looks an object up in these querysets, so
another's object is a 404, never a 403.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

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


def validation_runs_visible_to(user: User | AnonymousUser) -> QuerySet[ValidationRun]:
    """The validation runs `user` may see, newest first."""
    return _visible(ValidationRun.objects.all(), user, "jurisdiction")


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
