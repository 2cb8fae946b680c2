"""Project-wide API pieces: pagination, the one JSON error shape, and the content negotiation of
views that render their own formats.

Every API error body is `{"error": {"code": ..., "message": ..., "fields": {...}}}`; `fields` is
present only where the error concerns particular request fields.
"""

from __future__ import annotations

import functools
import sys
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import APIView, set_rollback
from rest_framework.views import exception_handler as drf_exception_handler

from pitboss import faults
from pitboss.errors import DomainError, error_body, first_error

# What to do next, added to DRF's message for these codes.
_HINTS = {
    "not_authenticated": "Log in, or send the header 'Authorization: Token <your token>'.",
    "permission_denied": "Ask an administrator for the permission this request needs.",
}


class Pagination(PageNumberPagination):
    """Pages of 50; `?page_size=` asks for another size up to 1000."""

    page_size_query_param = "page_size"
    max_page_size = 1000


def paginated(request: Request, view: APIView, queryset: QuerySet, serializer: Any) -> Response:
    """A list view's answer: a page of `queryset` (?page=, ?page_size=) in `serializer`."""
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer(page, many=True).data)


def paged_schema(serializer: type[serializers.Serializer], name: str) -> dict[str, Any]:
    """extend_schema arguments of a list answered by paginated."""
    return {
        "operation_id": f"{name}_list",
        "parameters": [
            OpenApiParameter("page", int, description="Page number, from 1."),
            OpenApiParameter("page_size", int, description="Items a page, up to 1000 (50)."),
        ],
        "responses": inline_serializer(
            f"{serializer.__name__.removesuffix('Out')}Page",
            {
                "count": serializers.IntegerField(),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": serializer(many=True),
            },
        ),
    }


class FormatIsTheView(DefaultContentNegotiation):
    """?format= (or Accept) picks a format the view renders itself (a par sheet's CSV or PDF, the
    signs' HTML or PDF); the JSON renderer answers everything else, errors included."""

    def select_renderer(
        self,
        request: Request,
        renderers: list[Any],  # type: ignore[override]  # DRF passes the view's list
        format_suffix: str | None = None,
    ) -> tuple[Any, str]:
        return renderers[0], renderers[0].media_type


def shared_serializer(serializer_class: type[serializers.BaseSerializer], **kwargs: Any) -> Any:
    """One instance of `serializer_class(**kwargs)` for the whole process, its fields built.

    DRF builds a serializer's fields, deep copies of the declared ones and of every nested
    serializer's, anew for each instance: for a table configuration about a hundred objects, as
    much CPU as checking it. Its `run_validation(data)` and `to_representation(instance)` keep
    nothing of what they check or render on the serializer, so the built instance serves every
    request (and thread): call those two, never `is_valid()` or `.data`, which store it. Its
    `context` is shared too, so a serializer used this way must not keep a request's values in
    it (compliance.api.configuration keeps them in a context variable).
    """
    return _shared(serializer_class, tuple(sorted(kwargs.items())))  # type: ignore[arg-type]


@functools.cache
def _shared(serializer_class: type[serializers.BaseSerializer], kwargs: tuple[Any, ...]) -> Any:
    serializer = serializer_class(**dict(kwargs))
    _build(serializer)
    return serializer


def _build(field: Any) -> None:
    """Build a field's lazily built parts now, and its children's, so that threads sharing it
    only read them."""
    field.validators  # noqa: B018 (a property that builds and keeps the list)
    if isinstance(field, serializers.ListSerializer | serializers.ListField):
        _build(field.child)
    elif isinstance(field, serializers.Serializer):
        for child in field.fields.values():
            _build(child)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler with Django ValidationError and DomainError mapped, in the project's shape.

    Anything else stays unhandled, a 500: an unmapped exception is a bug.
    """
    if isinstance(exc, DomainError):
        set_rollback()
        refused = Response(error_body(exc.code, exc.message, exc.fields), status=exc.status)
        if exc.status == 503:
            refused["Retry-After"] = "30"
        return refused
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(as_serializer_error(exc))

    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    data = response.data
    if response.status_code == 404:
        body = _not_found_body(context["request"].path)
    elif isinstance(exc, exceptions.ValidationError) or "detail" not in data:
        body = error_body("invalid", first_error(data), data if isinstance(data, dict) else None)
    else:
        detail = data["detail"]
        code = getattr(detail, "code", None) or "error"
        body = error_body(code, " ".join(filter(None, [str(detail), _HINTS.get(code)])))
    response.data = body
    return response


def _not_found_body(path: str) -> dict[str, Any]:
    return error_body("not_found", f"Nothing exists at {path}; check the identifier in the URL.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: the JSON error shape under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(_not_found_body(request.path), status=404)
    return defaults.page_not_found(request, exception)


def server_error_response(request: HttpRequest) -> HttpResponse:
    """The API's JSON 500, with the request's id (pitboss.middleware.RequestIdMiddleware), which
    the log's record of the failure carries too."""
    request_id = getattr(request, "id", None)
    message = (
        "The server failed on this request. This is a bug; please report it with the request "
        f"id {request_id}."
    )
    body = error_body("server_error", message)
    body["error"]["request_id"] = request_id
    return JsonResponse(body, status=500)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: the JSON error shape under /api/, Django's page elsewhere; a 503 if the
    failure was the database being unavailable (outside a view, e.g. in a middleware)."""
    if isinstance(sys.exc_info()[1], faults.DATABASE_ERRORS):
        return faults.unavailable(request)
    if request.path.startswith("/api/"):
        return server_error_response(request)
    return defaults.server_error(request)


# The error shape, as the OpenAPI schema documents it.
ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "fields": {"type": "object", "description": "The errors of each request field."},
                "request_id": {
                    "type": "string",
                    "description": "A server error's request id (also the X-Request-ID header "
                    "and in the server's log): quote it when reporting the failure.",
                },
            },
        }
    },
}
_DOCUMENTED_ERRORS = {
    "4XX": "The request was refused (invalid, unauthenticated, not permitted, not found, too "
    "large, throttled, in conflict): the code and message say which.",
    "503": "The database or the job queue is unavailable; retry after Retry-After seconds.",
}
_METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def document_errors(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every operation documents the error shape for 4XX
    and 503 (unless it documents a status of its own there), so clients and the schema fuzz
    (tests/test_api_schema_fuzz.py) check errors too."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path in result.get("paths", {}).values():
        for method, operation in path.items():
            if method not in _METHODS:
                continue
            responses = operation.setdefault("responses", {})
            for status, description in _DOCUMENTED_ERRORS.items():
                responses.setdefault(status, {"description": description, "content": content})
    return result
