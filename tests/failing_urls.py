"""The site's URLs and two API views that fail, one in its code and one while its response is
rendered (tests/test_server_errors.py): failures no shipped view has any more, needed to show
what an unforeseen one answers."""

from __future__ import annotations

from typing import Any

from django.urls import path
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pitboss.urls import urlpatterns as site


class FailsInItsCode(APIView):
    permission_classes = [permissions.AllowAny]

    def get(self, request: Request) -> Response:
        return Response({"share": 1 / len(request.query_params)})  # no parameter: 1 / 0


class FailsWhileRendered(APIView):
    permission_classes = [permissions.AllowAny]

    def get(self, request: Request) -> Response:
        return Response({"value": object()})  # JSON cannot write it: the renderer raises


urlpatterns: list[Any] = [
    path("api/v1/failing/code/", FailsInItsCode.as_view()),
    path("api/v1/failing/rendering/", FailsWhileRendered.as_view()),
    *site,
]
handler404 = "pitboss.api.page_not_found"
handler500 = "pitboss.api.server_error"
