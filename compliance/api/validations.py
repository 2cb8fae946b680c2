"""The API of validation runs: file a configuration (201 with the run and its findings, or 400
naming each field), list and read the runs one may see, the finding codes.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance import selectors
from compliance.models import ValidationRun
from compliance.packet import packet_build
from compliance.services import validation_run_create, validation_run_decide
from compliance.validator import FINDING_CODES
from pitboss.api import FormatIsTheView, paged_schema, shared_serializer
from pitboss.errors import InvalidInput

from .configuration import ConfigurationSerializer, configuration_parse
from .requests import DecisionIn, request_parse
from .serializers import ValidationOut
from .submissions import Submissions


class ValidationRuns(Submissions):
    visible = staticmethod(selectors.validation_runs_visible_to)
    out = ValidationOut


class ValidationListApi(ValidationRuns):
    """Validate a table configuration (vendor token or officer login); GET lists the runs the
    caller may see (a vendor its own, an officer its jurisdictions', newest first)."""

    submit_permission = "compliance.add_validationrun"

    @extend_schema(request=ConfigurationSerializer, responses={201: ValidationOut})
    def post(self, request: Request) -> Response:
        configuration = configuration_parse(request.data)
        run = validation_run_create(configuration=configuration, user=request.user)
        out = shared_serializer(ValidationOut).to_representation(run)
        return Response(out, status=status.HTTP_201_CREATED)

    @extend_schema(**paged_schema(ValidationOut, "validations"))
    def get(self, request: Request) -> Response:
        return self.listed(request)


class ValidationDetailApi(ValidationRuns):
    @extend_schema(responses=ValidationOut)
    def get(self, request: Request, pk: Any) -> Response:
        return self.shown(request, pk)


class ValidationDecisionApi(ValidationRuns):
    """An officer's decision on a run of their jurisdiction: approved (a compliant run only) or
    rejected, with a date (default today) and a note. The run's status becomes the decision; a
    run already decided or superseded is a 409."""

    submit_permission = "compliance.change_validationrun"

    @extend_schema(request=DecisionIn, responses=ValidationOut)
    def post(self, request: Request, pk: Any) -> Response:
        run = self.found(request, pk)
        assert isinstance(run, ValidationRun)
        asked = request_parse(DecisionIn, request.data)
        decided = validation_run_decide(
            run=run,
            status=asked["status"],
            on=asked.get("date") or timezone.localdate(),
            note=asked["note"],
            user=request.user,
        )
        return Response(shared_serializer(ValidationOut).to_representation(decided))


class FindingCodesApi(APIView):
    """The documented finding codes (catalog constraints add their own, e.g.
    us-co/kings-bounty/decks)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=dict[str, str])
    def get(self, request: Request) -> Response:
        return Response(FINDING_CODES)


PACKET_FORMATS = {"pdf": "application/pdf", "zip": "application/zip"}


class ValidationPacketApi(ValidationRuns):
    """The run's submission packet, as a vendor files it with the regulator and a testing lab
    reviews it: the report and its findings, each table's base game and rule effects, each side
    wager's par sheet, every cited provision's text as of the run's date, the signs and the
    provenance (the knowledge base's revision, the run, a SHA-256 of each part). ?format=pdf
    (default) or zip (the same content as JSON and CSV). The same run gives the same packet, byte
    for byte, but for the generation time it states."""

    content_negotiation_class = FormatIsTheView

    @extend_schema(
        parameters=[OpenApiParameter("format", str, enum=list(PACKET_FORMATS))],
        responses={(200, "application/pdf"): bytes, (200, "application/zip"): bytes},
    )
    def get(self, request: Request, pk: Any) -> HttpResponse:
        chosen = request.query_params.get("format", "pdf")
        if chosen not in PACKET_FORMATS:
            raise InvalidInput({"format": [f"one of {', '.join(PACKET_FORMATS)}"]})
        run = self.found(request, pk)
        assert isinstance(run, ValidationRun)
        packet = packet_build(run, configuration_parse(run.configuration))
        content = packet.pdf() if chosen == "pdf" else packet.zip()
        response = HttpResponse(content, content_type=PACKET_FORMATS[chosen])
        response["Content-Disposition"] = f'attachment; filename="packet-{run.pk}.{chosen}"'
        return response
