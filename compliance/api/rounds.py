"""The API of rounds and analyses: seeded rounds played or replayed with every settlement cited,
and the exact base-game analysis of a table.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.basegame import base_game_analysis
from compliance.rounds import round_replay, rounds_play

from .permissions import SubmitsOrReadsVisible
from .requests import BaseGameIn, ReplayIn, RoundsIn, base_game_query, request_parse


class RoundsApi(APIView):
    """Play rounds under a configuration's rules (a seed or a scripted shoe) and return their logs:
    every card, decision and settlement with the rule applied and its citation."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_validationrun"  # rounds are not stored

    @extend_schema(request=RoundsIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(rounds_play(**request_parse(RoundsIn, request.data)))


class RoundReplayApi(APIView):
    """Check a round as it happened at a table: each payment that differs from what the approved
    rules pay is a finding citing the rule."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_validationrun"  # rounds are not stored

    @extend_schema(request=ReplayIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(round_replay(**request_parse(ReplayIn, request.data)))


class BaseGameAnalysisApi(APIView):
    """The exact house edge of a table's base game by combinatorial analysis, with its
    conventions and the change each rule option makes (POST: a configuration; GET: one table's
    options as query parameters, ?jurisdiction=&as_of=&decks=&dealer_soft_17=&…)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=BaseGameIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(base_game_analysis(**request_parse(BaseGameIn, request.data)))

    @extend_schema(responses=dict[str, Any])
    def get(self, request: Request) -> Response:
        query = base_game_query(request.query_params)
        return Response(base_game_analysis(**request_parse(BaseGameIn, query)))
