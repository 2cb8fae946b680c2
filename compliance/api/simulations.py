"""The API of simulation jobs: a table's base game and rule effects, and a paytable's spots, each
queued in chunks with its progress.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from compliance import selectors
from compliance.paytable_simulations import (
    paytable_simulation_create,
)
from compliance.simulations import simulation_job_create
from pitboss.api import paged_schema

from .requests import PaytableSimulationIn, SimulationIn, request_parse
from .serializers import PaytableSimulationOut, SimulationOut
from .submissions import Submissions


class SimulationJobs(Submissions):
    visible = staticmethod(selectors.simulation_jobs_visible_to)
    out = SimulationOut


class SimulationListApi(SimulationJobs):
    """Start a simulation of a configuration's base game with basic strategy, as a job (vendor
    token or officer login); 202 with the job, then GET it for progress and the house edge.
    GET lists the jobs the caller may see, newest first."""

    submit_permission = "compliance.add_simulationjob"

    @extend_schema(request=SimulationIn, responses={202: SimulationOut})
    def post(self, request: Request) -> Response:
        job = simulation_job_create(**request_parse(SimulationIn, request.data), user=request.user)
        return Response(SimulationOut(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(**paged_schema(SimulationOut, "simulations"))
    def get(self, request: Request) -> Response:
        return self.listed(request)


class SimulationDetailApi(SimulationJobs):
    @extend_schema(responses=SimulationOut)
    def get(self, request: Request, pk: Any) -> Response:
        return self.shown(request, pk)


class PaytableSimulationJobs(Submissions):
    visible = staticmethod(selectors.paytable_simulation_jobs_visible_to)
    out = PaytableSimulationOut


class PaytableSimulationListApi(PaytableSimulationJobs):
    """Simulate a catalog paytable no exact method settles (STREAK, Burnout Bonus) at every deck
    count it allows (or `decks`), as a job (vendor token or officer login): 202 with the job, then
    GET it for progress and the result. GET lists the jobs the caller may see, newest first."""

    submit_permission = "compliance.add_paytablesimulationjob"

    @extend_schema(request=PaytableSimulationIn, responses={202: PaytableSimulationOut})
    def post(self, request: Request) -> Response:
        asked = request_parse(PaytableSimulationIn, request.data)
        job = paytable_simulation_create(**asked, user=request.user)
        return Response(PaytableSimulationOut(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(**paged_schema(PaytableSimulationOut, "paytable_simulations"))
    def get(self, request: Request) -> Response:
        return self.listed(request)


class PaytableSimulationDetailApi(PaytableSimulationJobs):
    @extend_schema(responses=PaytableSimulationOut)
    def get(self, request: Request, pk: Any) -> Response:
        return self.shown(request, pk)
