"""Hostile input: a body over the size limit is a JSON 413 (in DEBUG too), a configuration of
more tables than MAX_TABLES is a 400 naming `tables` before any table is read, JSON nested too
deep is a 400, and writes beyond WRITE_RATE are a JSON 429."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from pytest_django import Settings
from rest_framework.test import APIClient

from compliance.api.configuration import MAX_SIDE_WAGERS, MAX_TABLES
from compliance.models import SimulationJob, ValidationRun
from jurisdictions.services import api_user_create
from pitboss.parsers import MAX_JSON_DEPTH

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads(
    (Path(__file__).parent / "compliance" / "data" / "signage-floor-co.json").read_text()
)


def _floor(tables: int) -> dict[str, Any]:
    """The sample Colorado floor with its first table repeated `tables` times."""
    table = FLOOR_CO["tables"][0]
    return FLOOR_CO | {"tables": [table | {"name": f"BJ-{n}"} for n in range(tables)]}


@pytest.mark.parametrize("debug", [False, True])
def test_a_4_mb_configuration_is_a_json_413_naming_the_limit(
    vendor_client: APIClient, settings: Settings, debug: bool
) -> None:
    settings.DEBUG = debug
    body = json.dumps(_floor(1) | {"licensee": "x" * 4_000_000})

    response = vendor_client.post("/api/v1/validations/", body, content_type="application/json")

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    assert error["code"] == "request_too_large"
    assert "the limit is 1,048,576 bytes" in error["message"]
    assert ValidationRun.objects.count() == 0


def test_the_body_limit_is_a_setting(vendor_client: APIClient, settings: Settings) -> None:
    settings.MAX_REQUEST_BYTES = 2048
    body = _floor(12)

    response = vendor_client.post("/api/v1/validations/", body, format="json")

    assert response.status_code == 413
    assert "the limit is 2,048 bytes" in response.json()["error"]["message"]


def test_a_10000_table_configuration_is_refused_naming_tables(vendor_client: APIClient) -> None:
    """Empty tables keep the body small: only the count can refuse it."""
    body = FLOOR_CO | {"tables": [{}] * 10_000}

    response = vendor_client.post("/api/v1/validations/", body, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert list(error["fields"]) == ["tables"]
    assert error["message"] == (
        f"tables: 10000 tables; a configuration holds at most {MAX_TABLES}. "
        "Send the floor in parts."
    )
    assert ValidationRun.objects.count() == 0


def test_a_floor_of_the_maximum_tables_is_validated(vendor_client: APIClient) -> None:
    assert (
        vendor_client.post("/api/v1/validations/", _floor(MAX_TABLES), format="json").status_code
        == 201
    )
    response = vendor_client.post("/api/v1/validations/", _floor(MAX_TABLES + 1), format="json")
    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["tables"]


def test_a_table_of_more_side_wagers_than_a_layout_holds_is_refused(
    vendor_client: APIClient,
) -> None:
    table = FLOOR_CO["tables"][0]
    side_wagers = table["side_wagers"][:1] * (MAX_SIDE_WAGERS + 1)
    body = FLOOR_CO | {"tables": [table | {"side_wagers": side_wagers}]}

    response = vendor_client.post("/api/v1/validations/", body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        f"tables[0].side_wagers: Ensure this field has no more than {MAX_SIDE_WAGERS} elements."
    )


def test_json_nested_past_the_limit_is_a_400_not_a_crash(vendor_client: APIClient) -> None:
    """100,000 levels would exhaust Python's stack in the decoder; 33 are simply too many."""
    for depth in [100_000, MAX_JSON_DEPTH + 1]:
        body = "[" * depth + "]" * depth

        response = vendor_client.post("/api/v1/validations/", body, content_type="application/json")

        assert response.status_code == 400
        assert response.json()["error"] == {
            "code": "parse_error",
            "message": f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels.",
        }


def test_a_content_length_that_is_no_number_is_a_400(vendor_client: APIClient) -> None:
    response = vendor_client.generic(
        "POST", "/api/v1/validations/", "{}", "application/json", CONTENT_LENGTH="lots"
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_request"


@pytest.mark.parametrize("endpoint", ["simulations/", "rounds/", "signage/"])
def test_every_endpoint_taking_a_configuration_counts_its_tables(
    vendor_client: APIClient, endpoint: str
) -> None:
    if endpoint == "signage/":
        body: dict[str, Any] = FLOOR_CO | {"tables": [{}] * 10_000}
        field = "tables"
    else:
        body = {
            "configuration": FLOOR_CO | {"tables": [{}] * 10_000},
            "rounds": 10,
            "seed": 1,
            "seats": [{"wagers": {"main": "10"}, "actions": []}],
        }
        field = "configuration"

    response = vendor_client.post(f"/api/v1/{endpoint}", body, format="json")

    assert response.status_code == 400
    assert "at most 200" in response.json()["error"]["message"]
    assert list(response.json()["error"]["fields"]) == [field]
    assert SimulationJob.objects.count() == ValidationRun.objects.count() == 0


def test_writes_beyond_the_rate_are_a_json_429_for_that_user_only(
    vendor_client: APIClient, settings: Settings
) -> None:
    settings.WRITE_RATE = "3/minute"
    other = api_user_create(username="vera")[0]
    other_client = APIClient()
    other_client.credentials(HTTP_AUTHORIZATION=f"Token {other.auth_token.key}")

    codes = [
        vendor_client.post("/api/v1/validations/", _floor(1), format="json").status_code
        for _ in range(4)
    ]
    throttled = vendor_client.post("/api/v1/validations/", _floor(1), format="json")

    assert codes == [201, 201, 201, 429]
    assert throttled.json()["error"]["code"] == "throttled"
    assert int(throttled["Retry-After"]) > 0
    assert vendor_client.get("/api/v1/validations/").status_code == 200  # reads are not counted
    assert other_client.post("/api/v1/validations/", _floor(1), format="json").status_code == 201
    assert ValidationRun.objects.count() == 4


def test_login_attempts_are_throttled_too(
    anon_client: APIClient, officer: User, settings: Settings
) -> None:
    settings.WRITE_RATE = "2/minute"
    body = {"username": "olivia", "password": "guess"}

    codes = [anon_client.post("/api/v1/auth/token/", body).status_code for _ in range(3)]

    assert codes == [400, 400, 429]
