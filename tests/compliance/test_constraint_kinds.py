"""Every kind of constraint the catalog may hold has a check in the validator: a kind added to
variants.models.ConstraintKind without one would let its constraints pass silently."""

from __future__ import annotations

import pytest

from compliance.validator import CHECKED_IN_PLACE, FLOOR_CHECKS, SIDE_CHECKS, TABLE_CHECKS
from variants.models import Constraint, ConstraintKind

HANDLED = set(FLOOR_CHECKS) | set(TABLE_CHECKS) | set(SIDE_CHECKS) | CHECKED_IN_PLACE


def test_every_constraint_kind_has_a_check() -> None:
    assert set(ConstraintKind.values) - HANDLED == set()
    assert HANDLED - set(ConstraintKind.values) == set()  # no check of a kind that is gone


@pytest.mark.django_db
def test_every_kind_the_shipped_catalog_uses_is_checked() -> None:
    used = set(Constraint.objects.values_list("kind", flat=True))
    assert len(used) >= 20  # the loaded catalog, not an empty database
    assert used <= HANDLED
