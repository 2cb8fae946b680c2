"""The API of validation runs: file a configuration (201 with the run and its findings, or 400
naming each field), list and read the runs one may see, the finding codes.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance import selectors
from compliance.models import ValidationRun
from compliance.services import validation_run_create, validation_run_decide
from compliance.validator import FINDING_CODES
from pitboss.api import paged_schema, shared_serializer

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
