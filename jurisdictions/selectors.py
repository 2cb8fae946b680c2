"""Reads of jurisdictions and instruments."""

from __future__ import annotations

from django.db.models import QuerySet

from jurisdictions.models import Instrument, Jurisdiction


def jurisdiction_list() -> QuerySet[Jurisdiction]:
    """All jurisdictions by code, with their instruments prefetched."""
    return Jurisdiction.objects.prefetch_related("instruments").order_by("code")


def instrument_list() -> QuerySet[Instrument]:
    """All instruments by jurisdiction code, then in the order they were added."""
    return Instrument.objects.select_related("jurisdiction").order_by("jurisdiction__code", "pk")
