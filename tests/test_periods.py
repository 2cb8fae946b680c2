"""Every dated record of the knowledge base keeps its period the one way (pitboss/periods.py):
the database refuses a period that ends on or before its first day, on each dated model, and a
period covers the days from its first (inclusive) to its end (exclusive)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction

from pitboss.periods import Period
from regs.models import Citation, UnitVersion
from variants.models import Constraint, Paytable, PlayRule, PostingRequirement, Wager

DATED = [Citation, UnitVersion, Wager, Paytable, Constraint, PlayRule, PostingRequirement]


def test_every_model_with_a_period_is_a_period() -> None:
    """A model gaining effective_from/effective_to gets them from Period, with the check."""
    dated = {
        m
        for m in apps.get_models()
        if {"effective_from", "effective_to"} <= {f.name for f in m._meta.fields}
        and not m.__name__.startswith("Historical")
    }
    assert dated == set(DATED)
    for model in dated:
        assert issubclass(model, Period)
        names = {c.name for c in model._meta.constraints}
        assert f"{model._meta.app_label}_{model._meta.model_name}_period_ordered" in names


@pytest.mark.django_db
@pytest.mark.parametrize("model", DATED, ids=lambda m: m.__name__)
@pytest.mark.parametrize(
    "end", [dt.date(2019, 12, 31), dt.date(2020, 1, 1)], ids=["before", "same"]
)
def test_a_period_ending_before_it_starts_is_refused(model: type[Period], end: dt.date) -> None:
    row = model.objects.order_by("pk").first()  # the knowledge base is loaded
    assert row is not None
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=row.pk).update(effective_from=dt.date(2020, 1, 1), effective_to=end)
    row.refresh_from_db()
    assert (row.effective_from, row.effective_to) != (dt.date(2020, 1, 1), end)


@pytest.mark.parametrize(
    ("start", "end", "day", "covered"),
    [
        (None, None, dt.date(1800, 1, 1), True),
        (dt.date(2016, 10, 30), None, dt.date(2016, 10, 29), False),
        (dt.date(2016, 10, 30), None, dt.date(2016, 10, 30), True),
        (dt.date(2016, 10, 30), dt.date(2017, 12, 15), dt.date(2017, 12, 14), True),
        (dt.date(2016, 10, 30), dt.date(2017, 12, 15), dt.date(2017, 12, 15), False),
        (None, dt.date(2017, 12, 15), dt.date(2000, 1, 1), True),
    ],
)
def test_covers(start: dt.date | None, end: dt.date | None, day: dt.date, covered: bool) -> None:
    assert Citation(effective_from=start, effective_to=end).covers(day) is covered
