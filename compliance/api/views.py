"""The compliance API: validations, rounds and simulations."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.configuration import ConfigurationSerializer
from compliance.models import SimulationJob, ValidationRun
from compliance.rounds import ReplayIn, RoundsIn, round_replay, rounds_play
from compliance.services import validation_run_create
from compliance.simulations import SimulationIn, simulation_job_create
from compliance.validator import FINDING_CODES


class CitationOut(serializers.Serializer):
    jurisdiction = serializers.CharField()
    citation = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)


class FindingOut(serializers.Serializer):
    severity = serializers.ChoiceField(choices=["error", "warning", "info"])
    code = serializers.CharField()
    message = serializers.CharField()
    table = serializers.CharField()
    path = serializers.CharField()
    citations = CitationOut(many=True)


class ValidationOut(serializers.ModelSerializer[ValidationRun]):
    findings = FindingOut(many=True)

    class Meta:
        model = ValidationRun
        fields = [
            "id",
            "jurisdiction",
            "as_of",
            "compliant",
            "knowledge_base",
            "findings",
            "created_at",
        ]


class ValidationListApi(APIView):
    """Validate a table configuration (vendor token or officer login)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ConfigurationSerializer, responses={201: ValidationOut})
    def post(self, request: Request) -> Response:
        run = validation_run_create(data=request.data, user=request.user)
        return Response(ValidationOut(run).data, status=status.HTTP_201_CREATED)


class ValidationDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ValidationOut)
    def get(self, request: Request, pk: Any) -> Response:
        return Response(ValidationOut(get_object_or_404(ValidationRun, pk=pk)).data)


class FindingCodesApi(APIView):
    """The documented finding codes (catalog constraints add their own, e.g. us-co/kings-bounty/decks)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=dict[str, str])
    def get(self, request: Request) -> Response:
        return Response(FINDING_CODES)


class RoundsApi(APIView):
    """Play rounds under a configuration's rules (a seed or a scripted shoe) and return their logs:
    every card, decision and settlement with the rule applied and its citation."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=RoundsIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(rounds_play(request.data))


class RoundReplayApi(APIView):
    """Check a round as it happened at a table: each payment that differs from what the approved
    rules pay is a finding citing the rule."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReplayIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(round_replay(request.data))


class SimulationOut(serializers.ModelSerializer[SimulationJob]):
    progress = serializers.SerializerMethodField()

    class Meta:
        model = SimulationJob
        fields = [
            "id",
            "status",
            "table",
            "rounds",
            "seed",
            "effects",
            "chunks",
            "chunks_done",
            "progress",
            "rules",
            "assumed",
            "result",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]

    def get_progress(self, job: SimulationJob) -> float:
        """The share of chunks done, 0 to 1."""
        return job.chunks_done / job.chunks


class SimulationListApi(APIView):
    """Start a simulation of a configuration's base game with basic strategy, as a job (vendor
    token or officer login); 202 with the job, then GET it for progress and the house edge."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=SimulationIn, responses={202: SimulationOut})
    def post(self, request: Request) -> Response:
        job = simulation_job_create(data=request.data, user=request.user)
        return Response(SimulationOut(job).data, status=status.HTTP_202_ACCEPTED)


class SimulationDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=SimulationOut)
    def get(self, request: Request, pk: Any) -> Response:
        return Response(SimulationOut(get_object_or_404(SimulationJob, pk=pk)).data)
