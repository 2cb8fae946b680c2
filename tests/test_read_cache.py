"""Public reads served from the response cache, and the validator's remembered catalog facts
(pitboss/kbcache.py): never stale after any write of the knowledge base, never one user's answer
for another, and a bounded number of queries per request so an N+1 cannot come back."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from jurisdictions.models import Instrument
from pitboss import kbcache
from regs.models import Annotation, UnitVersion
from regs.selectors import provision_by_citation
from regs.services import annotation_update, source_ingest
from tests.admin_forms import loaded_change_form
from variants.models import Constraint, PaytableEntry

pytestmark = pytest.mark.django_db

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources"
IN_BETWEEN = "/api/v1/provisions/?jurisdiction=US-CO&citation=30-899.19&as_of=2026-06-01"
KB03 = "us-co/kings-bounty/kb03"
CO_HOUSE_RULES = json.loads(
    (Path(settings.BASE_DIR) / "fixtures/configs/casino-house-rules-co.json").read_text()
)


def _in_json(text: str) -> str:
    """`text` as a JSON response body holds it."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _read_twice(client: Client, url: str, django_assert_max_num_queries: Any) -> str:
    """The page, read twice: the second read is served from the cache (one query: the
    knowledge base's revision)."""
    first = client.get(url)
    assert first.status_code == 200, first.content[:500]
    with django_assert_max_num_queries(1):
        second = client.get(url)
    assert second.content == first.content
    return second.content.decode()


def test_a_reingested_source_is_read_at_once(
    anon_client: APIClient, django_assert_max_num_queries: Any
) -> None:
    before = _read_twice(anon_client, IN_BETWEEN, django_assert_max_num_queries)
    assert "IN BETWEEN is an optional wager for blackjack.\\n" in before
    text = (SOURCES / "text/co-rule-8-blackjack.md").read_text()
    changed = text.replace(
        "- (1) IN BETWEEN is an optional wager for blackjack.",
        "- (1) IN BETWEEN is an optional wager for blackjack and its variations. *Amended 1/14/26*",
    )
    source_ingest(
        instrument=Instrument.objects.get(slug="rule-8"), name="amended.md", data=changed.encode()
    )
    after = _read_twice(anon_client, IN_BETWEEN, django_assert_max_num_queries)
    assert "IN BETWEEN is an optional wager for blackjack and its variations." in after


def test_an_edited_annotation_is_read_at_once(
    anon_client: APIClient, officer: User, django_assert_max_num_queries: Any
) -> None:
    annotation = Annotation.objects.select_related("unit").filter(unit__path="").first()
    assert annotation is not None
    url = f"/api/v1/provisions/{annotation.unit.provision_id}/"
    read = _read_twice(anon_client, url, django_assert_max_num_queries)
    assert _in_json(annotation.text) in read
    annotation_update(annotation=annotation, text="A remark made today.", user=officer)
    assert "A remark made today." in _read_twice(anon_client, url, django_assert_max_num_queries)


def test_a_deleted_annotation_is_gone_at_once(anon_client: APIClient) -> None:
    annotation = Annotation.objects.select_related("unit").filter(unit__path="").first()
    assert annotation is not None
    url = f"/api/v1/provisions/{annotation.unit.provision_id}/"
    marker = _in_json(annotation.text)
    assert marker in anon_client.get(url).content.decode()
    annotation.delete()
    assert marker not in anon_client.get(url).content.decode()


def test_an_edited_paytable_line_is_read_at_once_in_the_api_and_on_its_page(
    anon_client: APIClient, django_assert_max_num_queries: Any
) -> None:
    api, page = f"/api/v1/paytables/{KB03}/", f"/catalog/paytables/{KB03}/"
    assert '"pays":"500 to 1"' in _read_twice(anon_client, api, django_assert_max_num_queries)
    assert "500 to 1" in _read_twice(Client(), page, django_assert_max_num_queries)
    entry = PaytableEntry.objects.get(paytable__key=KB03, pays="500 to 1")
    entry.pays = "400 to 1"
    entry.save()
    assert '"pays":"400 to 1"' in _read_twice(anon_client, api, django_assert_max_num_queries)
    shown = _read_twice(Client(), page, django_assert_max_num_queries)
    assert "400 to 1" in shown and "500 to 1" not in shown


def test_an_admin_save_is_read_at_once(officer: User) -> None:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    version = UnitVersion.objects.get(unit__provision=provision, unit__path="(1)", status="adopted")
    visitor = Client()
    page = f"/us-co/cite/30-899.23@{version.effective_from.isoformat()}"
    assert "(corrected in the admin)" not in visitor.get(page, follow=True).content.decode()
    admin = Client()
    admin.force_login(officer)
    url = f"/admin/regs/unitversion/{version.pk}/change/"
    form = {**loaded_change_form(admin, url), "text": version.text + " (corrected in the admin)"}
    saved = admin.post(url, form)
    assert saved.status_code == 302, saved.content[:2000]
    assert "(corrected in the admin)" in visitor.get(page, follow=True).content.decode()


def test_a_logged_in_users_page_is_never_served_to_a_visitor_nor_the_reverse(
    officer: User,
) -> None:
    visitor, olivia = Client(), Client()
    olivia.force_login(officer)
    page = f"/catalog/paytables/{KB03}/"
    assert "olivia" not in visitor.get(page).content.decode()  # cached for visitors
    assert "olivia" in olivia.get(page).content.decode()  # her own, not the cached one
    assert "X-CSRFToken" in olivia.get(page).content.decode()
    assert "olivia" not in visitor.get(page).content.decode()
    assert "X-CSRFToken" not in visitor.get(page).content.decode()


def test_a_token_holders_read_is_not_stored(
    vendor_client: APIClient, anon_client: APIClient, django_assert_num_queries: Any
) -> None:
    url = f"/api/v1/paytables/{KB03}/"
    assert vendor_client.get(url).status_code == 200
    anonymous = anon_client.get(url)  # made afresh: the vendor's answer was not kept
    assert anonymous.status_code == 200
    with django_assert_num_queries(1):
        assert anon_client.get(url).content == anonymous.content


def test_a_repeated_read_with_its_etag_is_not_modified(anon_client: APIClient) -> None:
    first = anon_client.get(IN_BETWEEN)
    again = anon_client.get(IN_BETWEEN, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content


def test_json_and_the_browsable_api_are_cached_apart(anon_client: APIClient) -> None:
    assert anon_client.get(IN_BETWEEN)["Content-Type"] == "application/json"
    html = anon_client.get(IN_BETWEEN, HTTP_ACCEPT="text/html")
    assert html["Content-Type"].startswith("text/html")
    assert anon_client.get(IN_BETWEEN)["Content-Type"] == "application/json"


def test_a_validation_sees_a_constraint_edited_since_the_last_one(
    vendor_client: APIClient,
) -> None:
    first = vendor_client.post("/api/v1/validations/", CO_HOUSE_RULES, format="json").json()
    # "The deck count is not given, and the rule needs it: <the constraint's message>"
    missing = [f["message"] for f in first["findings"] if f["code"] == "fact-missing"]
    constraint = next(
        c
        for c in Constraint.objects.filter(jurisdiction__code="US-CO")
        if any(c.message in message for message in missing)
    )
    constraint.message = "Edited since the first run."
    constraint.save()
    second = vendor_client.post("/api/v1/validations/", CO_HOUSE_RULES, format="json").json()
    assert second["knowledge_base"] != first["knowledge_base"]
    assert any("Edited since the first run." in f["message"] for f in second["findings"])


def test_reads_and_validations_stay_within_their_queries(
    anon_client: APIClient, vendor_client: APIClient, django_assert_max_num_queries: Any
) -> None:
    """The soak's requests, made afresh (nothing cached): at most so many queries each."""
    reads = {
        IN_BETWEEN: 6,
        "/api/v1/citations/resolve/?jurisdiction=US-CO&citation=30-832&as_of=2016-06-01": 6,
        f"/api/v1/paytables/{KB03}/": 8,
    }
    for url, most in reads.items():
        with django_assert_max_num_queries(most):
            assert anon_client.get(url).status_code == 200
    # the paytable page reads its wager's deck rule too, to analyse only the deck counts it allows
    pages = {"/": 3, f"/catalog/paytables/{KB03}/": 10, "/us-co/rule-8/30-899.23@2017-01-01": 20}
    for url, most in pages.items():
        with django_assert_max_num_queries(most):
            assert Client().get(url).status_code == 200
    # A validation reads the catalog facts, the posting requirements (the facts its signs need)
    # and the provisions it cites once per revision of the knowledge base, and for each table's
    # exact house edge the play rules it deals and the kept value (or analyses and keeps it);
    # then only the token, the user's permissions, the revision, and in one transaction (a
    # savepoint here) its own run, its history row and the vendor's older runs of the same floor
    # it supersedes (issue #26: the second supersedes the first, an update and a history row),
    # and when the wagers and paytables it applies were last recorded against the versions of
    # their texts (variants.reviews: two queries, issue #26's catalog-text-amended).
    with django_assert_max_num_queries(50):
        vendor_client.post("/api/v1/validations/", CO_HOUSE_RULES, format="json")
    with django_assert_max_num_queries(10):
        vendor_client.post("/api/v1/validations/", CO_HOUSE_RULES, format="json")


def test_remembered_values_are_bounded_and_dropped_with_their_revision() -> None:
    for day in range(kbcache.REMEMBERED_MOST + 10):
        assert kbcache.remember("r1", ("citer", day), lambda day=day: day) == day
    assert kbcache.remember("r1", ("citer", 3), lambda: "read again") == "read again"
    assert kbcache.remember("r2", ("citer", 3), lambda: "new revision") == "new revision"
    assert kbcache.remember("r2", ("citer", 3), lambda: "not read") == "new revision"
