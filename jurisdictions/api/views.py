from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from rest_framework import mixins, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from jurisdictions import selectors, services
from jurisdictions.api.serializers import InstrumentSerializer, JurisdictionSerializer
from jurisdictions.models import Instrument, Jurisdiction
from pitboss.concurrency import revision


class JurisdictionViewSet(viewsets.ReadOnlyModelViewSet):
    """Jurisdictions with their regulator and instruments; one by its code, e.g. US-CO."""

    serializer_class = JurisdictionSerializer
    lookup_field = "code"
    pagination_class = None  # a handful of rows, listed whole

    def get_queryset(self) -> QuerySet[Jurisdiction]:
        return selectors.jurisdiction_list()


class InstrumentFilter(django_filters.FilterSet):
    jurisdiction = django_filters.ModelChoiceFilter(
        queryset=Jurisdiction.objects.all(), to_field_name="code", help_text="Jurisdiction code."
    )

    class Meta:
        model = Instrument
        fields = ["jurisdiction"]


class InstrumentViewSet(
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.ReadOnlyModelViewSet,
):
    """Instruments (regulations), filtered by jurisdiction code. Compliance officers may edit."""

    serializer_class = InstrumentSerializer
    filterset_class = InstrumentFilter
    pagination_class = None  # a handful of rows, listed whole

    def get_queryset(self) -> QuerySet[Instrument]:
        return selectors.instrument_list()

    def perform_create(self, serializer: BaseSerializer[Instrument]) -> None:
        serializer.instance = services.instrument_create(data=serializer.validated_data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """An instrument, with its revision in the ETag header: send it back in If-Match with an
        edit, and the edit is refused (409 edit_conflict) if someone changed it meanwhile."""
        response = super().retrieve(request, *args, **kwargs)
        response["ETag"] = f'"{revision(self.get_object())}"'
        return response

    def update(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        response = super().update(request, *args, **kwargs)
        response["ETag"] = f'"{revision(self.get_object())}"'
        return response

    def perform_update(self, serializer: BaseSerializer[Instrument]) -> None:
        sent = self.request.headers.get("If-Match")
        serializer.instance = services.instrument_update(
            instrument=serializer.instance,
            data=serializer.validated_data,
            user=self.request.user,
            revision=sent.removeprefix("W/").strip('"') if sent else None,
        )
