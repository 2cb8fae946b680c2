"""Schemathesis against the OpenAPI schema (/api/v1/schema/): generated requests to every read
endpoint get no server error, and every response whose status the schema documents matches it.
Bounded: a few examples per operation, through the WSGI application in-process (the real views,
the test database).

Not yet checked: that every status is documented (the schema documents no 4xx; the error shape
is in pitboss/api.py) and that schema-valid requests are never refused (`configuration` is a free
JSON object in the schema, validated by the serializers)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from pitboss.wsgi import application


@pytest.fixture(autouse=True)
def connection_kept() -> Iterator[None]:
    """The WSGI handler closes the database connection after each request (request_finished);
    the test's transaction needs it open, as Django's test client keeps it."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (request_started, request_finished):
        signal.connect(close_old_connections)


schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).include(method="GET")


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_read_endpoint_answers_within_its_schema_and_never_a_server_error(
    case: schemathesis.Case,
) -> None:
    case.call_and_validate(
        checks=[not_a_server_error, response_schema_conformance, content_type_conformance]
    )
