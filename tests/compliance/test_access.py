"""Who sees and submits what: every compliance endpoint tried as every role, with the ids of one
vendor's submissions (in Colorado). Another's submission answers 404, as if it did not exist;
an anonymous caller 401; a logged-in reader may submit nothing (403)."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, Permission, User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.api.permissions import holds_permission
from compliance.api.requests import SimulationIn, request_parse
from compliance.services import sign_set_create, validation_run_create
from compliance.simulations import simulation_job_create
from jurisdictions.models import Instrument, Jurisdiction
from jurisdictions.services import READER_GROUP, api_user_create

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads((Path(__file__).parent / "data" / "signage-floor-co.json").read_text())
ROLES = ["anonymous", "reader", "owner", "other_vendor", "officer_co", "officer_ma", "admin"]
# Who sees vendor Victor's Colorado submissions.
SEES = {"owner", "officer_co", "admin"}


def _client(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {user.auth_token.key}")
    return client


@pytest.fixture
def actors(vendor: User) -> dict[str, User | None]:
    """Every role: Victor owns the submissions; Vera is another vendor."""
    reader = User.objects.create_user("rita")
    reader.groups.add(Group.objects.get(name=READER_GROUP))
    Token.objects.create(user=reader)
    admin = User.objects.create_superuser("ada", email=None, password=None)
    Token.objects.create(user=admin)
    return {
        "anonymous": None,
        "reader": reader,
        "owner": vendor,
        "other_vendor": api_user_create(username="vera")[0],
        "officer_co": api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])[0],
        "officer_ma": api_user_create(username="maud", officer=True, jurisdictions=["US-MA"])[0],
        "admin": admin,
    }


@pytest.fixture
def submissions(vendor: User) -> dict[str, str]:
    """Victor's validation run, sign set and simulation job, by the URL of each."""
    run = validation_run_create(configuration=configuration_parse(FLOOR_CO), user=vendor)
    sign_set = sign_set_create(configuration=configuration_parse(FLOOR_CO), draft=True, user=vendor)
    job = simulation_job_create(
        **request_parse(SimulationIn, {"configuration": FLOOR_CO, "rounds": 10, "seed": 1}),
        user=vendor,
    )
    return {
        "validations": str(run.pk),
        "signage": str(sign_set.pk),
        "simulations": str(job.pk),
    }


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ["validations", "signage", "simulations"])
def test_a_submission_is_found_only_by_its_owner_its_jurisdictions_officers_and_admins(
    actors: dict[str, User | None], submissions: dict[str, str], endpoint: str, role: str
) -> None:
    response = _client(actors[role]).get(f"/api/v1/{endpoint}/{submissions[endpoint]}/")

    if role == "anonymous":
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "not_authenticated"
    elif role in SEES:
        assert response.status_code == 200
        assert response.json()["id"] == submissions[endpoint]
    else:
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ["validations", "signage", "simulations"])
def test_a_list_shows_only_the_submissions_the_caller_may_see(
    actors: dict[str, User | None], submissions: dict[str, str], endpoint: str, role: str
) -> None:
    response = _client(actors[role]).get(f"/api/v1/{endpoint}/")

    if role == "anonymous":
        assert response.status_code == 401
        return
    assert response.status_code == 200
    ids = [item["id"] for item in response.json()["results"]]
    if endpoint == "signage":  # the sign set's own run is a validation, not a sign set
        assert ids == ([submissions["signage"]] if role in SEES else [])
    else:
        assert submissions[endpoint] in ids if role in SEES else ids == []


def test_a_sign_set_printed_again_as_pdf_is_hidden_from_another_vendor_too(
    actors: dict[str, User | None], submissions: dict[str, str]
) -> None:
    url = f"/api/v1/signage/{submissions['signage']}/?format=pdf&sign=0"

    assert _client(actors["other_vendor"]).get(url).status_code == 404
    assert _client(actors["owner"]).get(url)["Content-Type"] == "application/pdf"


POSTS = ["validations/", "signage/", "simulations/", "rounds/", "rounds/replay/"]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", POSTS)
def test_only_vendors_officers_and_admins_may_submit(
    actors: dict[str, User | None], endpoint: str, role: str
) -> None:
    """An empty body: a 400 naming a field shows the caller was let through to validation."""
    response = _client(actors[role]).post(f"/api/v1/{endpoint}", {}, format="json")

    expected = {"anonymous": 401, "reader": 403}.get(role, 400)
    assert response.status_code == expected, response.json()
    assert "error" in response.json()


@pytest.mark.parametrize("method", ["post", "put", "patch", "delete"])
@pytest.mark.parametrize("endpoint", ["validations", "signage", "simulations"])
def test_a_stored_submission_cannot_be_changed_even_by_its_owner(
    actors: dict[str, User | None], submissions: dict[str, str], endpoint: str, method: str
) -> None:
    url = f"/api/v1/{endpoint}/{submissions[endpoint]}/"

    response = getattr(_client(actors["owner"]), method)(url, {}, format="json")

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_vendor_b_cannot_read_vendor_a_validation_posted_through_the_api(
    vendor_client: APIClient,
) -> None:
    """The case of issue #14: B's token asking for A's run gets what it gets for no run at all."""
    created = vendor_client.post("/api/v1/validations/", FLOOR_CO, format="json").json()["id"]
    missing = str(uuid.uuid4())
    other = _client(api_user_create(username="vera")[0])

    response = other.get(f"/api/v1/validations/{created}/")
    nothing = other.get(f"/api/v1/validations/{missing}/")

    assert (response.status_code, nothing.status_code) == (404, 404)
    assert response.content.decode().replace(created, missing) == nothing.content.decode()
    assert vendor_client.get(f"/api/v1/validations/{created}/").status_code == 200


PUBLIC_READS = [
    "/api/v1/jurisdictions/",
    "/api/v1/jurisdictions/US-CO/",
    "/api/v1/instruments/",
    "/api/v1/provisions/?jurisdiction=US-CO&citation=30-803",
    "/api/v1/citations/resolve/?jurisdiction=US-CO&citation=30-832&as_of=2016-06-01",
    "/api/v1/wagers/?jurisdiction=US-CO",
    "/api/v1/wagers/kings-bounty/?jurisdiction=US-CO",
    "/api/v1/paytables/?jurisdiction=US-CO&wager=kings-bounty",
    "/api/v1/diff/proposed/?jurisdiction=US-CO&citation=47.1-834.23",
    "/api/v1/validations/codes/",
]


@pytest.mark.parametrize("role", ["anonymous", "reader", "owner", "officer_ma"])
@pytest.mark.parametrize("url", PUBLIC_READS)
def test_the_rules_and_catalog_are_read_by_everyone_alike(
    actors: dict[str, User | None], url: str, role: str
) -> None:
    response = _client(actors[role]).get(url)

    assert response.status_code == 200
    assert response.content == APIClient().get(url).content


# Knowledge-base writes through the API: only officers and admins may make them.
INSTRUMENT_WRITES = [
    ("post", "/api/v1/instruments/", {"jurisdiction": "US-CO", "slug": "rule-9", "name": "Rule 9",
                                      "title": "Poker", "citation_scheme": "co_section"}),
    ("patch", "/api/v1/instruments/{rule_8}/", {"title": "Anything"}),
    ("put", "/api/v1/instruments/{rule_8}/", {"jurisdiction": "US-CO", "slug": "rule-8",
                                              "name": "Rule 8", "title": "Anything",
                                              "citation_scheme": "co_section"}),
    ("post", "/api/v1/jurisdictions/", {"code": "US-NV", "name": "Nevada", "regulator": "NGC"}),
]  # fmt: skip


@pytest.mark.parametrize("role", ["anonymous", "reader", "owner"])
@pytest.mark.parametrize(("method", "url", "body"), INSTRUMENT_WRITES)
def test_the_knowledge_base_refuses_writes_from_readers_and_vendors(
    actors: dict[str, User | None], role: str, method: str, url: str, body: dict[str, Any]
) -> None:
    rule_8 = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    before = (Instrument.objects.count(), Jurisdiction.objects.count(), rule_8.title)

    response = getattr(_client(actors[role]), method)(
        url.format(rule_8=rule_8.pk), body, format="json"
    )

    assert response.status_code == (401 if role == "anonymous" else 403), response.json()
    rule_8.refresh_from_db()
    assert (Instrument.objects.count(), Jurisdiction.objects.count(), rule_8.title) == before


@pytest.mark.parametrize("role", ["anonymous", "owner", "officer_co", "admin"])
@pytest.mark.parametrize(
    "url",
    ["/api/v1/provisions/", "/api/v1/wagers/", "/api/v1/paytables/"],
)
def test_the_read_only_catalog_takes_no_writes_from_anyone(
    actors: dict[str, User | None], role: str, url: str
) -> None:
    response = _client(actors[role]).post(url, {"slug": "anything"}, format="json")

    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


SUBMIT_PERMISSIONS = [
    "compliance.add_validationrun",
    "compliance.add_signset",
    "compliance.add_simulationjob",
    "regs.change_annotation",
]


@pytest.mark.parametrize("role", [r for r in ROLES if r != "anonymous"])
def test_the_one_query_permission_check_answers_as_django_does(
    actors: dict[str, User | None], role: str
) -> None:
    user = User.objects.get(pk=actors[role].pk)  # type: ignore[union-attr]
    for perm in SUBMIT_PERMISSIONS:
        assert holds_permission(user, perm) == user.has_perm(perm), perm
        user.is_active = False
        assert holds_permission(user, perm) is user.has_perm(perm) is False
        user.is_active = True


def test_a_permission_given_to_the_user_itself_lets_it_submit(
    actors: dict[str, User | None],
) -> None:
    reader = actors["reader"]
    assert reader is not None
    assert _client(reader).post("/api/v1/validations/", {}, format="json").status_code == 403

    reader.user_permissions.add(Permission.objects.get(codename="add_validationrun"))

    assert _client(reader).post("/api/v1/validations/", {}, format="json").status_code == 400


def test_a_vendor_taken_out_of_its_group_is_refused_at_its_next_request(
    actors: dict[str, User | None],
) -> None:
    owner = actors["owner"]
    assert owner is not None
    client = _client(owner)
    assert client.post("/api/v1/validations/", FLOOR_CO, format="json").status_code == 201

    owner.groups.clear()

    assert client.post("/api/v1/validations/", FLOOR_CO, format="json").status_code == 403
