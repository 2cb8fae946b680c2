"""Schemathesis against the OpenAPI schema (/api/v1/schema/): generated requests to every
operation, reads and writes, as every role (anonymous, reader, vendor, officer), get no server
error, a documented status, and a response matching the schema of that status in a documented
content type. Detail endpoints are tried at a generated id and at one that exists (a knowledge
base record; the vendor's own submission, which its jurisdiction's officer sees too), in every
documented format. Bounded: a few derandomized examples an operation, through the WSGI
application in-process (the real views, the test database, DEBUG off as served), with no write
rate (tests/conftest.py lifts WRITE_RATE for every test).

What the runs found, fixed: a paytable simulation job's `result` is null until it is done (the
schema said an object); a sign set answers ?format=html and pdf (the schema said JSON only; the
provision diffs' ?output=html likewise); and, run by the CLI against `make run` (DEBUG on), an id
of a form no URL pattern takes answered Django's HTML debug 404 on every detail endpoint.

Not checked: that schema-valid requests are never refused (`configuration` is a free JSON object
in the schema, validated by the serializers), so most generated writes are 400s."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from django.contrib.auth.models import Group, User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from pytest_django import Settings
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from compliance.api.configuration import configuration_parse
from compliance.api.requests import PaytableSimulationIn, SimulationIn, request_parse
from compliance.paytable_simulations import paytable_simulation_create
from compliance.services import sign_set_create, validation_run_create
from compliance.simulations import simulation_job_create
from jurisdictions.models import Instrument
from jurisdictions.services import READER_GROUP, api_user_create
from pitboss.wsgi import application
from regs.models import Provision

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def connection_kept() -> Iterator[None]:
    """The WSGI handler closes the database connection after each request (request_finished);
    the test's transaction needs it open, as Django's test client keeps it. (Asked for after
    the fixtures that use the test client, which connects the closing again after a request.)"""
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
    case: schemathesis.Case, connection_kept: None
) -> None:
    case.call_and_validate(checks=CHECKS)


# Every operation, reads and writes, as every role (docs/operations.md, "Access control"). The
# coverage phase makes ~1,000 requests to each write operation (minutes) and the reads had theirs
# above: the run stays bounded with the examples and fuzzing phases, four examples an operation,
# each sent as each role, and again at the id of something that exists where the path names one.
every_operation = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
every_operation.config.phases.coverage.enabled = False

AS_EVERY_ROLE = settings(BOUNDED, max_examples=4)


def _token(user: User) -> dict[str, str]:
    return {"Authorization": f"Token {user.auth_token.key}"}


@pytest.fixture
def roles(vendor: User) -> dict[str, dict[str, str]]:
    """The headers of each role: anonymous, a reader (logged in, group reader), Victor the
    vendor, and an officer of Colorado (who sees Victor's Colorado submissions)."""
    reader = User.objects.create_user("rita")
    reader.groups.add(Group.objects.get(name=READER_GROUP))
    Token.objects.create(user=reader)
    officer, _ = api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])
    return {
        "anonymous": {},
        "reader": _token(reader),
        "vendor": _token(vendor),
        "officer": _token(officer),
    }


def _floor() -> Any:
    return json.loads((ROOT / "tests/compliance/data/signage-floor-co.json").read_text())


def _provision(_: User) -> str:
    return str(Provision.objects.filter(instrument__jurisdiction__code="US-CO").first().pk)


# Path template: how to find or make something that exists there (in the knowledge base; a
# submission of Victor's, in Colorado), so that each role's answer for a real object is checked
# too, not only a 404. Jobs send their chunks on commit: never, in the test's transaction.
EXISTING: dict[str, Callable[[User], str]] = {
    "/api/v1/instruments/{id}/": lambda _: str(Instrument.objects.first().pk),
    "/api/v1/jurisdictions/{code}/": lambda _: "US-CO",
    "/api/v1/paytables/{id}/": lambda _: "us-co/kings-bounty/kb03",
    "/api/v1/paytables/{id}/analysis/": lambda _: "us-co/kings-bounty/kb03",
    "/api/v1/paytables/{id}/par-sheet/": lambda _: "us-co/kings-bounty/kb03",
    "/api/v1/provisions/{id}/": _provision,
    "/api/v1/provisions/{id}/history/": _provision,
    "/api/v1/provisions/{id}/versions/": _provision,
    "/api/v1/wagers/{slug}/": lambda _: "kings-bounty",
    "/api/v1/validations/{id}/": lambda user: str(
        validation_run_create(configuration=configuration_parse(_floor()), user=user).pk
    ),
    "/api/v1/signage/{id}/": lambda user: str(
        sign_set_create(configuration=configuration_parse(_floor()), draft=True, user=user).pk
    ),
    "/api/v1/simulations/{id}/": lambda user: str(
        simulation_job_create(
            **request_parse(SimulationIn, {"configuration": _floor(), "rounds": 10, "seed": 1}),
            user=user,
        ).pk
    ),
    "/api/v1/paytable-simulations/{id}/": lambda user: str(
        paytable_simulation_create(
            **request_parse(
                PaytableSimulationIn, {"paytable": "us-co/streak/standard-schedule", "decks": 1}
            ),
            user=user,
        ).pk
    ),
}


@pytest.fixture
def existing(vendor: User) -> Callable[[str], str | None]:
    """The id of something that exists at a path template, if it names one (made once)."""
    return functools.cache(lambda path: EXISTING[path](vendor) if path in EXISTING else None)


@pytest.mark.django_db
@every_operation.parametrize()
@AS_EVERY_ROLE
def test_every_operation_as_every_role_answers_within_its_schema_and_never_a_server_error(
    case: schemathesis.Case,
    roles: dict[str, dict[str, str]],
    existing: Callable[[str], str | None],
    connection_kept: None,
) -> None:
    for headers in roles.values():
        case.call_and_validate(headers=headers, checks=CHECKS)
    if (found := existing(case.path)) is not None:
        (name,) = case.path_parameters
        case.path_parameters = {name: found}
        for headers in roles.values():
            case.call_and_validate(headers=headers, checks=CHECKS)


# The reads of something that exists (EXISTING), with the coverage phase: every documented value
# of every parameter (`?format=` among them), as every role.
details = schemathesis.openapi.from_wsgi("/api/v1/schema/", application).include(
    method="GET", path=list(EXISTING)
)


@pytest.mark.django_db
@details.parametrize()
@AS_EVERY_ROLE
def test_every_existing_object_reads_within_its_schema_in_every_format_as_every_role(
    case: schemathesis.Case,
    roles: dict[str, dict[str, str]],
    existing: Callable[[str], str | None],
    connection_kept: None,
) -> None:
    (name,) = case.path_parameters
    case.path_parameters = {name: existing(case.path)}
    for headers in roles.values():
        case.call_and_validate(headers=headers, checks=CHECKS)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path", ["/api/v1/provisions/%C2%84/", "/api/v1/validations/null,null/", "/api/v1/no-such/"]
)
def test_a_path_no_route_matches_is_a_json_404_with_debug_on_too(
    anon_client: APIClient, settings: Settings, path: str
) -> None:
    """What schemathesis recorded against `make run` (DEBUG on): ids of a form no URL pattern
    takes answered Django's HTML debug page, on every detail endpoint."""
    settings.DEBUG = True
    response = anon_client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"
