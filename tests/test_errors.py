from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework.exceptions import ValidationError
from rest_framework.test import APIClient, APIRequestFactory

from pitboss.api import exception_handler
from pitboss.errors import DomainError

pytestmark = pytest.mark.django_db


def test_an_unknown_jurisdiction_is_a_json_404(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/jurisdictions/US-XX/")

    assert response.status_code == 404
    assert response.json() == {
        "error": {
            "code": "not_found",
            "message": "Nothing exists at /api/v1/jurisdictions/US-XX/; "
            "check the identifier in the URL.",
        }
    }


def test_an_unknown_api_path_is_a_json_404(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/no-such-endpoint/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_malformed_json_is_a_400_with_the_error_shape(officer_client: APIClient) -> None:
    response = officer_client.post(
        "/api/v1/instruments/", "{not json", content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "parse_error"


def test_the_openapi_schema_is_served(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/schema/")

    assert response.status_code == 200
    assert b"/api/v1/jurisdictions/" in response.content


def test_the_api_docs_are_served_without_a_cdn(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/docs/")

    html = response.content.decode()
    assert response.status_code == 200
    assert "drf_spectacular_sidecar/swagger-ui-dist/" in html
    assert "cdn.jsdelivr" not in html


def _handle(exc: Exception) -> tuple[int, Any] | None:
    """Run the project's exception handler as a view would; None when it leaves exc unhandled."""
    response = exception_handler(exc, {"request": APIRequestFactory().get("/api/v1/x/")})
    return None if response is None else (response.status_code, response.data)


def test_a_domain_error_keeps_its_status_code_and_fields() -> None:
    exc = DomainError("too_many_spots", "Use at most 7 spots.", 422, {"player_spots": "max 7"})

    assert _handle(exc) == (
        422,
        {
            "error": {
                "code": "too_many_spots",
                "message": "Use at most 7 spots.",
                "fields": {"player_spots": "max 7"},
            }
        },
    )


def test_a_django_validation_error_is_a_400_naming_the_field() -> None:
    assert _handle(DjangoValidationError({"slug": ["Already taken."]})) == (
        400,
        {
            "error": {
                "code": "invalid",
                "message": "slug: Already taken.",
                "fields": {"slug": ["Already taken."]},
            }
        },
    )


def test_the_message_names_the_path_of_a_nested_error() -> None:
    handled = _handle(ValidationError({"tables": [{}, {"decks": ["Too many."]}]}))

    assert handled is not None
    assert handled[1]["error"]["message"] == "tables[1].decks: Too many."


def test_an_unmapped_exception_is_left_to_become_a_500() -> None:
    assert _handle(ZeroDivisionError()) is None
