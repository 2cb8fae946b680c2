"""The API of signs: the sign set a validated configuration requires (JSON, HTML or PDF), and a
stored sign set.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import (
    extend_schema,
)
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from compliance import selectors
from compliance.models import SignSet
from compliance.services import NotCompliant, sign_set_create
from compliance.signage_render import sign_set_html, sign_set_pdf
from pitboss.api import FormatIsTheView, paged_schema
from pitboss.errors import DomainError, error_body

from .configuration import ConfigurationSerializer, configuration_parse
from .serializers import SignageQuery, SignSetOut, SignSetSummaryOut
from .submissions import Submissions


def _signs(code: int) -> dict[tuple[int, str], Any]:
    """A sign set's answer in each ?format= (the schema said JSON only: schemathesis, reading a
    vendor's sign set as the vendor, found the undocumented PDF)."""
    return {
        (code, "application/json"): SignSetOut,
        (code, "text/html"): str,
        (code, "application/pdf"): bytes,
    }


def _sign_set_response(request: Request, sign_set: SignSet, code: int) -> HttpResponse:
    query = SignageQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    options = query.validated_data
    index = options.get("sign")
    if index is not None and index >= len(sign_set.signs):
        raise DomainError(
            "not_found", f"sign {index}: the set has {len(sign_set.signs)} signs", 404
        )
    if options["format"] == "pdf":
        pdf = sign_set_pdf(sign_set, size=options["size"], sign=index)
        response = HttpResponse(pdf, content_type="application/pdf", status=code)
        response["Content-Disposition"] = f'inline; filename="signs-{sign_set.pk}.pdf"'
        return response
    if options["format"] == "html":
        html = sign_set_html(sign_set, size=options["size"], sign=index)
        return HttpResponse(html, content_type="text/html; charset=utf-8", status=code)
    return Response(SignSetOut(sign_set).data, status=code)


class SignSets(Submissions):
    visible = staticmethod(selectors.sign_sets_visible_to)
    out = SignSetSummaryOut  # listed; one is printed (_sign_set_response)
    content_negotiation_class = FormatIsTheView


class SignageApi(SignSets):
    """Print the signs a configuration needs (vendor token or officer login): ?format=json (the
    default), html or pdf; ?size=letter, a4 or tent (5x7 in); ?draft=true prints a
    configuration with findings, every page marked NOT APPROVED. Without draft, a configuration
    with errors is a 400 with its findings. GET lists the sign sets the caller may see."""

    submit_permission = "compliance.add_signset"

    @extend_schema(
        request=ConfigurationSerializer,
        parameters=[SignageQuery],
        responses={**_signs(201), 400: dict[str, Any]},
    )
    def post(self, request: Request) -> HttpResponse:
        query = SignageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        body_draft = isinstance(request.data, dict) and request.data.get("draft") is True
        configuration = configuration_parse(request.data)
        try:
            sign_set = sign_set_create(
                configuration=configuration,
                draft=query.validated_data["draft"] or body_draft,
                wall_signs=query.validated_data["wall_signs"],
                user=request.user,
                sign=query.validated_data.get("sign"),
            )
        except NotCompliant as exc:
            body = error_body(exc.code, exc.message)
            body |= {"validation": str(exc.run.id), "findings": exc.findings}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return _sign_set_response(request, sign_set, status.HTTP_201_CREATED)

    @extend_schema(**paged_schema(SignSetSummaryOut, "signage"))
    def get(self, request: Request) -> Response:
        return self.listed(request)


class SignSetApi(SignSets):
    """A stored sign set, printed again identically (?format=, ?size=, ?sign=)."""

    @extend_schema(parameters=[SignageQuery], responses=_signs(200))
    def get(self, request: Request, pk: Any) -> HttpResponse:
        sign_set = self.found(request, pk)
        assert isinstance(sign_set, SignSet)
        return _sign_set_response(request, sign_set, status.HTTP_200_OK)
