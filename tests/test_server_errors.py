"""An error under /api/ is JSON whatever went wrong, rendering included, DEBUG or not, with a
request id that the log's record of the failure carries too (and every response's
X-Request-ID header)."""

from __future__ import annotations

import logging

import pytest
from django.test import Client
from pytest_django import Settings

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.failing_urls")]


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("where", ["code", "rendering"])
def test_a_server_error_under_the_api_is_json_with_the_request_id_of_its_log_record(
    settings: Settings, caplog: pytest.LogCaptureFixture, debug: bool, where: str
) -> None:
    settings.DEBUG = debug
    client = Client(raise_request_exception=False)

    response = client.get(f"/api/v1/failing/{where}/", HTTP_ACCEPT="application/json")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    error = response.json()["error"]
    request_id = response["X-Request-ID"]
    assert error["code"] == "server_error"
    assert error["request_id"] == request_id
    assert f"request id {request_id}" in error["message"]
    [record] = [r for r in caplog.records if r.name == "pitboss.request"]
    line = logging.Formatter(settings.LOGGING["formatters"]["plain"]["format"]).format(record)
    logged = f"ERROR pitboss.request [{request_id}] server error on GET /api/v1/failing/{where}/"
    assert line.startswith(logged, line.index("ERROR"))
    assert "Traceback" in line  # as the log prints it


def test_every_response_carries_its_own_request_id(client: Client) -> None:
    first, second = client.get("/api/v1/jurisdictions/"), client.get("/api/v1/nothing-here/")

    assert len(first["X-Request-ID"]) == 32
    assert first["X-Request-ID"] != second["X-Request-ID"]
    assert second.status_code == 404
