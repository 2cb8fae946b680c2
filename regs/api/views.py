"""Read-only API of the rule text at a point in time. Views parse the query and call selectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pitboss.errors import DomainError
from pitboss.kbcache import CachedReads
from regs import selectors
from regs.api import serializers as s
from regs.models import Provision


def _query(request: Request) -> dict[str, Any]:
    query = s.PointInTimeQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def _today() -> dt.date:
    return timezone.localdate()


_PARAMS = [
    OpenApiParameter("jurisdiction", str, description="Jurisdiction code, e.g. US-CO."),
    OpenApiParameter("instrument", str, description='Instrument name or slug, e.g. "Rule 8".'),
    OpenApiParameter(
        "citation", str, description="A label, old or new: 30-899.23, 47.1-834.23, 28(g)."
    ),
    OpenApiParameter("as_of", dt.date, description="Valid-time date; today if omitted."),
    OpenApiParameter("q", str, description="Words that must all appear in the title or text."),
    OpenApiParameter(
        "include_proposed", bool, description="Show proposed text where there is one."
    ),
]


class ProvisionViewSet(CachedReads, viewsets.GenericViewSet):
    """Provisions as they stood on a date (`as_of`, default today), under the label of that date."""

    permission_classes = [permissions.AllowAny]
    serializer_class = s.ProvisionStateSerializer
    queryset = Provision.objects.none()
    lookup_value_regex = r"\d+"  # an id; anything else is a 404, not a failed query

    @extend_schema(parameters=_PARAMS, responses=s.ProvisionStateSerializer(many=True))
    def list(self, request: Request) -> Response:
        query = _query(request)
        as_of = query.get("as_of") or _today()
        if query.get("citation"):
            if not query.get("jurisdiction"):
                raise DomainError(
                    "jurisdiction_required",
                    "Give ?jurisdiction= with ?citation= (a label means different "
                    "things in different jurisdictions).",
                    fields={"jurisdiction": "required with citation"},
                )
            found = selectors.citation_resolve(
                jurisdiction=query["jurisdiction"],
                citation=query["citation"],
                as_of=as_of,
                today=_today(),
            )
            pks: Any = [found.provision.pk, *(p.pk for p in found.also)]
            path = found.path
        else:
            path = ""
            pks = selectors.provisions_search(
                jurisdiction=query.get("jurisdiction"),
                instrument=query.get("instrument"),
                q=query.get("q"),
            ).values_list("pk", flat=True)
        page = self.paginate_queryset(pks)
        records = selectors.provision_records(list(page or []))
        states = [
            selectors.provision_state(
                record, as_of=as_of, include_proposed=query["include_proposed"], path=path
            )
            for record in records
            if record is records[0] or not path or any(u.path == path for u in record.units)
        ]
        if len(states) > 1 and query.get("citation"):
            states = selectors.shared_label_warned(states, query["citation"], as_of)
        return self.get_paginated_response(s.ProvisionStateSerializer(states, many=True).data)

    @extend_schema(parameters=_PARAMS[3:4] + _PARAMS[5:], responses=s.ProvisionStateSerializer)
    def retrieve(self, request: Request, pk: str) -> Response:
        query = _query(request)
        records = selectors.provision_records([int(pk)] if pk.isdigit() else [])
        if not records:
            raise Http404
        state = selectors.provision_state(
            records[0],
            as_of=query.get("as_of") or _today(),
            include_proposed=query["include_proposed"],
        )
        return Response(s.ProvisionStateSerializer(state).data)

    # pagination_class=None: the whole list, as the schema then documents it (not a page).
    @extend_schema(responses=s.VersionSerializer(many=True))
    @action(detail=True, pagination_class=None)
    def versions(self, request: Request, pk: str) -> Response:
        """Legal (valid-time) history: every version of every unit, with its period and source."""
        provision = get_object_or_404(Provision, pk=pk)
        return Response(
            s.VersionSerializer(selectors.provision_versions(provision), many=True).data
        )

    @extend_schema(responses=s.RecordSerializer(many=True))
    @action(detail=True, pagination_class=None)
    def history(self, request: Request, pk: str) -> Response:
        """Record-time history: who changed the knowledge base's copy of this provision, and
        when."""
        provision = get_object_or_404(Provision, pk=pk)
        return Response(
            s.RecordSerializer(selectors.provision_record_history(provision), many=True).data
        )


class CitationResolveView(CachedReads, APIView):
    """What a citation names on a date: the provision, its label then, and every period the label
    was used, for labels that meant different provisions over time (30-832, 30-803)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=_PARAMS[:4], responses=s.ResolutionSerializer)
    def get(self, request: Request) -> Response:
        query = _query(request)
        if not query.get("jurisdiction") or not query.get("citation"):
            missing = [k for k in ("jurisdiction", "citation") if not query.get(k)]
            raise DomainError(
                "missing_parameter",
                f"Give ?{missing[0]}= (e.g. ?jurisdiction=US-CO&citation=30-832).",
                fields={k: "required" for k in missing},
            )
        as_of = query.get("as_of") or _today()
        found = selectors.citation_resolve(
            jurisdiction=query["jurisdiction"],
            citation=query["citation"],
            as_of=as_of,
            today=_today(),
        )
        state = selectors.provision_state(
            selectors.provision_records([found.provision.pk])[0], as_of=as_of
        )
        return Response(
            s.ResolutionSerializer(
                {
                    "provision": found.provision,
                    "citation": selectors.unit_citation(state.citation, found.path),
                    "current_citation": selectors.unit_citation(state.current_citation, found.path),
                    "as_of": as_of,
                    "meanings": found.meanings,
                }
            ).data
        )
