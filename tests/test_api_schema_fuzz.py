"""Schemathesis against the OpenAPI schema (/api/v1/schema/): generated requests to every read
and every write endpoint get no server error, a documented status, and a response matching the
schema of that status. Bounded: a few examples per operation, through the WSGI application
in-process (the real views, the test database); writes as a vendor, or an officer where only an
officer may write, with no write rate (tests/conftest.py lifts WRITE_RATE for every test).

Not checked: that schema-valid requests are never refused (`configuration` is a free JSON object
in the schema, validated by the serializers), so most generated writes are 400s."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

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


# No server error; every status documented (errors as 4XX and 503, pitboss.api.document_errors);
# every response matching the schema of its status, in a documented content type.
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    response_schema_conformance,
    content_type_conformance,
]

BOUNDED = settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
"""Few, reproducible examples an operation, so the run stays bounded in CI."""

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).include(method="GET")


@pytest.mark.django_db
@schema.parametrize()
@BOUNDED
def test_every_read_endpoint_answers_within_its_schema_and_never_a_server_error(
    case: schemathesis.Case,
) -> None:
    case.call_and_validate(checks=CHECKS)


writes = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).exclude(method="GET")
# The coverage phase makes ~1,000 requests to each write operation (minutes): the run stays
# bounded with the examples and fuzzing phases.
writes.config.phases.coverage.enabled = False
# Writes only an officer may make (the knowledge base and catalog); the rest are a vendor's.
OFFICER_ONLY = ("/api/v1/instruments/",)


@pytest.mark.django_db
@writes.parametrize()
@BOUNDED
def test_every_write_endpoint_answers_within_its_schema_and_never_a_server_error(
    case: schemathesis.Case, vendor: User, officer: User
) -> None:
    author = officer if case.path.startswith(OFFICER_ONLY) else vendor
    case.call_and_validate(
        headers={"Authorization": f"Token {author.auth_token.key}"}, checks=CHECKS
    )
