from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer
from rest_framework.settings import api_settings

from jurisdictions import selectors, services
from jurisdictions.api.serializers import InstrumentSerializer, JurisdictionSerializer
from jurisdictions.models import Instrument, Jurisdiction
from jurisdictions.tokens import token_expires_at
from pitboss.concurrency import revision
from pitboss.kbcache import CachedReads
from pitboss.throttling import WriteRateThrottle


class JurisdictionViewSet(CachedReads, viewsets.ReadOnlyModelViewSet):
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
        instrument = serializer.instance
        assert instrument is not None  # an update's serializer holds the instrument
        serializer.instance = services.instrument_update(
            instrument=instrument,
            data=serializer.validated_data,
            user=self.request.user,
            revision=sent.removeprefix("W/").strip('"') if sent else None,
        )


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="Send as the header 'Authorization: Token <token>'.")
    expires = serializers.DateTimeField(help_text="When the token stops being accepted.")


class TokenObtainApi(ObtainAuthToken):
    """Username and password for the API token: the caller's own, or a new one if it has none or
    it has expired (settings.TOKEN_TTL_DAYS). Attempts count as writes (WriteRateThrottle), and
    failures toward the login lockout (429 locked_out)."""

    throttle_classes = [WriteRateThrottle]
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]

    def get_serializer_context(self) -> dict[str, Any]:
        """Django's request for authenticate(): django-axes marks a locked-out login on the
        request it is given, and its middleware reads Django's (pitboss/settings.py)."""
        return {**super().get_serializer_context(), "request": self.request._request}

    @extend_schema(request=AuthTokenSerializer, responses=TokenOut)
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = services.api_token_for_login(user=serializer.validated_data["user"])
        return Response(TokenOut({"token": token.key, "expires": token_expires_at(token)}).data)
