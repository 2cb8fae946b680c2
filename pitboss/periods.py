"""Valid time: the period over which a record of the knowledge base holds.

A rule's text, the label it went by and every catalog fact read from it hold from a first day to a
day they stopped (exclusive). Either end may be unknown or open, and the models say what a null
means for them in their docstrings. One abstract model carries the two fields and the check that
the period runs forwards, so the five models that are dated keep them the same way
(docs/architecture.md, "The knowledge model").
"""

from __future__ import annotations

import datetime as dt

from django.db import models
from django.db.models import Q


class Period(models.Model):
    """`effective_from` (inclusive) to `effective_to` (exclusive); a model whose subclass declares
    its own `Meta` extends `Period.Meta` so the check stays."""

    effective_from = models.DateField(
        null=True,
        blank=True,
        help_text="First day it holds (inclusive); null: not dated (what that means is the "
        "model's).",
    )
    effective_to = models.DateField(
        null=True,
        blank=True,
        help_text="Day it stopped holding (exclusive); null while it holds.",
    )

    class Meta:
        abstract = True
        constraints = [
            models.CheckConstraint(
                condition=Q(effective_to__isnull=True)
                | Q(effective_from__isnull=True)
                | Q(effective_to__gt=models.F("effective_from")),
                name="%(app_label)s_%(class)s_period_ordered",
            )
        ]

    def covers(self, day: dt.date) -> bool:
        """Whether the period holds on `day`."""
        return covers(self.effective_from, self.effective_to, day)


def covers(start: dt.date | None, end: dt.date | None, day: dt.date) -> bool:
    """Whether the period from `start` (inclusive) to `end` (exclusive) holds on `day`; an open or
    undated end does not bound it. For plain rows read without a model (regs.selectors)."""
    return (start is None or start <= day) and (end is None or day < end)


def in_force_on(day: dt.date) -> Q:
    """The records whose period holds on `day`, as a filter (what `covers` says of one)."""
    return (Q(effective_from__isnull=True) | Q(effective_from__lte=day)) & (
        Q(effective_to__isnull=True) | Q(effective_to__gt=day)
    )
