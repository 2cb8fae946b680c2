from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from jurisdictions.models import Instrument, Jurisdiction

pytestmark = pytest.mark.django_db


def _rule_8() -> Instrument:
    return Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")


def test_it_lists_jurisdictions_with_their_instruments(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/jurisdictions/")

    assert response.status_code == 200
    assert response.json() == [
        {
            "code": "US-CO",
            "name": "Colorado",
            "regulator": "Colorado Limited Gaming Control Commission",
            "instruments": [
                {"slug": "rule-8", "name": "Rule 8", "title": "Rules for Blackjack"},
                {
                    "slug": "rule-21",
                    "name": "Rule 21",
                    "title": "Rules for Blackjack-Poker Combination Games",
                },
            ],
        },
        {
            "code": "US-MA",
            "name": "Massachusetts",
            "regulator": "Massachusetts Gaming Commission",
            "instruments": [
                {"slug": "blackjack", "name": "205 CMR Blackjack", "title": "Blackjack"}
            ],
        },
    ]


def test_it_finds_a_jurisdiction_by_its_code(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/jurisdictions/US-MA/")

    assert response.status_code == 200
    assert response.json()["regulator"] == "Massachusetts Gaming Commission"


def test_it_filters_instruments_by_jurisdiction_code(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/instruments/", {"jurisdiction": "US-CO"})

    assert response.status_code == 200
    assert [(i["jurisdiction"], i["slug"]) for i in response.json()] == [
        ("US-CO", "rule-8"),
        ("US-CO", "rule-21"),
    ]
    assert response.json()[0]["citation_scheme"] == "co_section"


def test_it_rejects_an_unknown_jurisdiction_code_in_the_filter(anon_client: APIClient) -> None:
    response = anon_client.get("/api/v1/instruments/", {"jurisdiction": "US-XX"})

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert error["message"].startswith("jurisdiction: Select a valid choice.")
    assert list(error["fields"]) == ["jurisdiction"]


def test_it_refuses_anonymous_writes(anon_client: APIClient) -> None:
    instrument = _rule_8()

    created = anon_client.post(
        "/api/v1/instruments/",
        {
            "jurisdiction": "US-CO",
            "slug": "rule-9",
            "name": "Rule 9",
            "title": "Poker",
            "citation_scheme": "co_section",
        },
        format="json",
    )
    changed = anon_client.patch(
        f"/api/v1/instruments/{instrument.pk}/", {"title": "Anything"}, format="json"
    )

    assert created.status_code == 401
    assert changed.status_code == 401
    assert changed.json()["error"]["code"] == "not_authenticated"
    assert "Authorization: Token" in changed.json()["error"]["message"]
    assert not Instrument.objects.filter(slug="rule-9").exists()
    assert _rule_8().title == "Rules for Blackjack"


def test_it_refuses_writes_from_a_vendor_without_permission(vendor_client: APIClient) -> None:
    response = vendor_client.patch(
        f"/api/v1/instruments/{_rule_8().pk}/", {"title": "Anything"}, format="json"
    )

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"
    assert _rule_8().title == "Rules for Blackjack"


def test_an_officer_change_is_recorded_in_history_with_the_officer(
    officer_client: APIClient, officer: User
) -> None:
    instrument = _rule_8()

    response = officer_client.patch(
        f"/api/v1/instruments/{instrument.pk}/",
        {"source_url": "https://example.org/rule-8.pdf"},
        format="json",
    )

    assert response.status_code == 200
    assert response.json()["source_url"] == "https://example.org/rule-8.pdf"
    latest, seeded = instrument.history.all()[:2]
    assert (latest.history_type, latest.history_user) == ("~", officer)
    assert latest.source_url == "https://example.org/rule-8.pdf"
    assert (seeded.history_type, seeded.source_url) == ("+", "")


def test_an_officer_can_add_an_instrument(officer_client: APIClient) -> None:
    response = officer_client.post(
        "/api/v1/instruments/",
        {
            "jurisdiction": "US-MA",
            "slug": "craps",
            "name": "205 CMR Craps",
            "title": "Craps",
            "citation_scheme": "ma_section",
        },
        format="json",
    )

    assert response.status_code == 201
    assert Instrument.objects.get(slug="craps").jurisdiction.code == "US-MA"


def test_it_rejects_a_slug_already_used_in_the_jurisdiction(officer_client: APIClient) -> None:
    response = officer_client.post(
        "/api/v1/instruments/",
        {
            "jurisdiction": "US-CO",
            "slug": "rule-8",
            "name": "Rule 8b",
            "title": "Copy",
            "citation_scheme": "co_section",
        },
        format="json",
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_only_an_administrator_sets_a_jurisdictions_officers_in_the_admin(officer: User) -> None:
    colorado = Jurisdiction.objects.get(code="US-CO")
    url = f"/admin/jurisdictions/jurisdiction/{colorado.pk}/change/"
    as_officer, as_admin = Client(), Client()
    as_officer.force_login(officer)
    as_admin.force_login(User.objects.create_superuser("ada", email=None, password=None))

    officer_page = as_officer.get(url)
    admin_page = as_admin.get(url)

    assert officer_page.status_code == admin_page.status_code == 200
    assert 'name="officers"' not in officer_page.content.decode()
    assert 'name="officers"' in admin_page.content.decode()
