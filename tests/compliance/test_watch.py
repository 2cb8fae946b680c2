"""Issue #26, the watch: an amended text ingested is judged over the floors on file and exactly
the subscribers whose floors it touches are told, once: a vendor's webhook arrives signed (a
receiver failing twice gets it on the third attempt), an officer's e-mail names the tables;
nobody else hears of it, and nobody sees another vendor's floor. Tasks run in-process here (no
broker); tests/compliance/test_watch_worker.py runs the same through Celery on Redis."""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import hmac
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from pytest_django import DjangoCaptureOnCommitCallbacks, Settings
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.configuration import Configuration
from compliance.models import Delivery, RecordedChange, Subscription, ValidationRun
from compliance.recorded import recorded
from compliance.services import validation_run_create, validation_run_decide
from compliance.validator import configuration_validate
from compliance.watch import subscription_create
from jurisdictions.services import api_user_create
from regs.services import instrument_for, source_ingest
from tests.admin_forms import loaded_change_form
from tests.compliance.test_impact import with_raise_the_roof
from tests.services import WebhookReceiver
from variants.models import Paytable, PaytableEntry

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data"
FLOOR_CO = json.loads((DATA / "signage-floor-co.json").read_text())
RULE_8 = ROOT / "fixtures" / "sources" / "text" / "co-rule-8-blackjack.md"
RTR_PAY_TABLES = "- (12) Pay tables:\n"
RTR_SUITED = "4, 5, 6, 7 Suited*\t1 to 1\t200 to 1"


def amended_rule_8() -> bytes:
    """Rule 8 with Raise The Roof's pay tables (30-899.23(12)) amended on 6/1/26, as Colorado
    prints a subsection's amendment: a note at its end. Its first pay table's suited 4-5-6-7
    pays 150 to 1, not 200 to 1."""
    text = RULE_8.read_text(encoding="utf-8")
    assert text.count(RTR_PAY_TABLES) == 1 and RTR_SUITED in text
    text = text.replace(RTR_PAY_TABLES, "- (12) Pay tables: *Amended 6/1/26*\n")
    return text.replace(RTR_SUITED, "4, 5, 6, 7 Suited*\t1 to 1\t150 to 1", 1).encode()


def ingest_amended() -> Any:
    return source_ingest(
        instrument=instrument_for("US-CO", "rule-8"),
        name="co-rule-8-blackjack-amended.md",
        data=amended_rule_8(),
    )


def user(name: str, *, officer_of: str = "", email: str = "") -> User:
    made, _ = api_user_create(
        username=name, officer=bool(officer_of), jurisdictions=[officer_of] if officer_of else []
    )
    made.email = email
    made.save()
    return made


def floor_of(vendor: User, data: dict[str, Any], licensee: str) -> ValidationRun:
    return validation_run_create(
        configuration=configuration_parse(dict(data, licensee=licensee)), user=vendor
    )


def signed(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


@pytest.fixture
def fast_retries(settings: Settings) -> None:
    """Retries a hundredth of a second apart, to a receiver on this machine (127.0.0.1)."""
    settings.WEBHOOK_BACKOFF = 0.01
    settings.WEBHOOK_PRIVATE_ADDRESSES = True


@pytest.mark.usefixtures("fast_retries")
def test_an_amended_text_ingested_tells_exactly_those_it_touches(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    cora = user("cora", officer_of="US-CO", email="cora@gaming.example")
    mark = user("mark", officer_of="US-MA", email="mark@massgaming.example")
    victor = user("victor")  # Raise The Roof on BJ-01
    wendy = user("wendy")  # no Raise The Roof
    victors = floor_of(victor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    assert victors.compliant, victors.findings
    validation_run_decide(run=victors, status="approved", on=victors.created_at.date(), user=cora)
    floor_of(wendy, FLOOR_CO, "Wendy's Casino")

    with WebhookReceiver(failures=2) as victor_hook, WebhookReceiver() as wendy_hook:
        victor_watch = subscription_create(
            user=victor, jurisdiction="US-CO", channel="webhook", url=victor_hook.url
        )
        subscription_create(user=wendy, jurisdiction="US-CO", channel="webhook", url=wendy_hook.url)
        subscription_create(user=cora, jurisdiction="US-CO", channel="email")
        subscription_create(user=mark, jurisdiction="US-CO", channel="email")  # sees no CO floor
        subscription_create(user=mark, jurisdiction="US-MA", channel="email")
        with django_capture_on_commit_callbacks(execute=True):
            report = ingest_amended()
        assert report.changed

        [change] = RecordedChange.objects.all()
        assert change.status == "done", change.error
        assert change.jurisdiction == "US-CO"
        [part] = change.change["parts"]
        assert part["kind"] == "amended" and part["on"] == "2026-06-01"
        assert "30-899.23" in part["sections"]
        assert {a["run"] for a in change.impact["affected"]} == {str(victors.pk)}
        assert change.impact["unaffected"] == 1  # Wendy's floor, counted

        # Victor's receiver: refused twice, then the same signed body a third time
        assert [status for _, _, status in victor_hook.received] == [500, 500, 200]
        bodies = {body for _, body, _ in victor_hook.received}
        assert len(bodies) == 1
        for headers, body, _ in victor_hook.received:
            assert headers["X-Pitboss-Signature"] == signed(victor_watch.secret, body)
        sent = json.loads(bodies.pop())
        assert sent["affected"] == [str(victors.pk)]
        assert sent["change"]["id"] == str(change.pk)
        assert sent["impact"].endswith(f"/api/v1/impact/changes/{change.pk}/")
        delivery = Delivery.objects.get(subscription=victor_watch)
        assert delivery.status == "delivered"
        assert [a["outcome"] for a in delivery.attempts] == ["HTTP 500", "HTTP 500", "HTTP 200"]
        # Wendy's floor is untouched: her receiver hears nothing
        assert wendy_hook.received == []

    # Cora's e-mail names the floor and its table, and links to the change's page
    [message] = mail.outbox
    assert message.to == ["cora@gaming.example"]
    assert "US-CO" in message.subject and "1 floor" in message.subject
    assert "Victor's Casino" in message.body and "table BJ-01" in message.body
    assert "1 new finding" in message.body
    assert f"/impact/changes/{change.pk}/" in message.body
    assert "Wendy" not in message.body
    assert Delivery.objects.count() == 2  # Victor's webhook and Cora's e-mail, nobody else

    # Ingesting the same text again records nothing and tells nobody again
    with django_capture_on_commit_callbacks(execute=True):
        assert not ingest_amended().changed
    assert RecordedChange.objects.count() == 1 and len(mail.outbox) == 1


def test_a_change_s_page_shows_each_only_their_own_floors(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    victor, wendy = user("victor"), user("wendy")
    victors = floor_of(victor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    floor_of(wendy, with_raise_the_roof(FLOOR_CO), "Wendy's Casino")
    Subscription.objects.create(user=victor, jurisdiction="US-CO", channel="email")
    with django_capture_on_commit_callbacks(execute=True):
        ingest_amended()
    [change] = RecordedChange.objects.all()
    assert len(change.impact["affected"]) == 2  # both floors judged

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {victor.auth_token.key}")
    shown = api.get(f"/api/v1/impact/changes/{change.pk}/").json()
    assert [a["run"] for a in shown["affected"]] == [str(victors.pk)]
    assert shown["unaffected"] == 0
    [table] = shown["affected"][0]["tables"]
    assert table["table"] == "BJ-01"
    assert table["change"]["kind"] == "amended" and table["change"]["on"] == "2026-06-01"
    # the catalog's pay table still says 200 to 1: not reviewed against the amended text
    [finding] = table["new_findings"]
    assert (finding["severity"], finding["code"]) == ("warning", "catalog-text-amended")
    assert finding["path"] == "tables[0].side_wagers[2].paytable"
    assert finding["citations"] == [
        {"jurisdiction": "US-CO", "citation": "30-899.23(12)", "effective_from": "2026-06-01"}
    ]
    assert "Pay Table 1" in finding["message"]

    browser = Client()
    browser.force_login(wendy)
    page = browser.get(f"/impact/changes/{change.pk}/").content.decode()
    assert "Wendy&#x27;s Casino" in page and "Victor" not in page


def test_a_record_window_is_judged_through_the_api_as_the_watch_judges_it(
    vendor_client: APIClient, vendor: User
) -> None:
    floor_of(vendor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    before = RecordedChange.objects.count()
    from django.utils import timezone

    start = timezone.now()
    ingest_amended()
    end = timezone.now()
    answer = vendor_client.post(
        "/api/v1/impact/",
        {
            "jurisdiction": "US-CO",
            "change": {"kind": "record", "from": start.isoformat(), "to": end.isoformat()},
        },
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert [p["on"] for p in body["change"]["parts"]] == ["2026-06-01"]
    [floor] = body["affected"]
    assert [f["code"] for f in floor["tables"][0]["new_findings"]] == ["catalog-text-amended"]
    assert RecordedChange.objects.count() == before  # asked, not recorded: nobody watches


def test_a_catalog_save_in_a_record_window_is_judged_as_a_catalog_edit(officer: User) -> None:
    from django.utils import timezone

    from compliance.impact import CatalogEdited
    from variants.models import Constraint

    start = timezone.now()
    constraint = Constraint.objects.filter(provision__instrument__jurisdiction__code="US-CO")[0]
    constraint.save()  # an officer's save of the catalog, as the admin saves one
    end = timezone.now()
    found = recorded("US-CO", start, end, as_of=dt.date(2026, 11, 29))
    assert found.parts == (
        CatalogEdited("US-CO", start, end, dt.date(2026, 11, 29), ("1 constraint record",)),
    )
    assert found.not_judged == ()


RTR_PAY_TABLE_1 = "us-co/raise-the-roof/6d-s17-pay-table-1"


@pytest.mark.usefixtures("fast_retries")
def test_an_officers_catalog_edit_in_the_admin_tells_exactly_those_it_touches(
    django_capture_on_commit_callbacks: DjangoCaptureOnCommitCallbacks,
) -> None:
    """Cora corrects Raise The Roof's Pay Table 1 in the admin (suited 4-5-6-7: 200 to 1 →
    150 to 1). Victor, whose table offers it, is told by webhook and Cora by e-mail, with the
    side wager's house edge before and after; Wendy's floor, without it, is counted unaffected
    and she hears nothing. The catalog judged "before" was put back only for the judging."""
    cora = user("cora", officer_of="US-CO", email="cora@gaming.example")
    victor, wendy = user("victor"), user("wendy")
    victors = floor_of(victor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    floor_of(wendy, FLOOR_CO, "Wendy's Casino")
    [side_before] = [s for s in victors.tables[0]["side_wagers"] if s["wager"] == "raise-the-roof"]
    paytable = Paytable.objects.get(key=RTR_PAY_TABLE_1)
    line = paytable.entries.get(pays="200 to 1")
    history_rows = PaytableEntry.history.count()
    admin = Client()
    admin.force_login(cora)
    url = f"/admin/variants/paytable/{paytable.pk}/change/"
    form = loaded_change_form(admin, url)
    row = next(k for k, v in form.items() if k.endswith("-id") and v == str(line.pk))
    with WebhookReceiver() as victor_hook, WebhookReceiver() as wendy_hook:
        victor_watch = subscription_create(
            user=victor, jurisdiction="US-CO", channel="webhook", url=victor_hook.url
        )
        subscription_create(user=wendy, jurisdiction="US-CO", channel="webhook", url=wendy_hook.url)
        subscription_create(user=cora, jurisdiction="US-CO", channel="email")
        with django_capture_on_commit_callbacks(execute=True):
            saved = admin.post(url, {**form, row.replace("-id", "-pays"): "150 to 1"})
        assert saved.status_code == 302

        [change] = RecordedChange.objects.all()
        assert change.status == "done", change.error
        assert change.reason.startswith("the catalog edited by cora")
        [part] = change.change["parts"]
        assert part["kind"] == "catalog" and "1 paytable entry record" in part["edits"]
        assert change.change["not_judged"] == []
        [floor] = change.impact["affected"]
        assert floor["run"] == str(victors.pk) and change.impact["unaffected"] == 1
        [table] = floor["tables"]
        assert table["table"] == "BJ-01" and table["change"]["kind"] == "catalog"
        [side] = table["side_wagers"]
        assert side["wager"] == "raise-the-roof"
        # before: the figures the run stored when filed, under the catalog of then
        assert side["before"] == [[a["column"], a["house_edge"]] for a in side_before["analyses"]]
        assert side["after"] != side["before"]
        assert [status for _, _, status in victor_hook.received] == [200]
        [(headers, body, _)] = victor_hook.received
        assert headers["X-Pitboss-Signature"] == signed(victor_watch.secret, body)
        assert json.loads(body)["affected"] == [str(victors.pk)]
        assert wendy_hook.received == []

    [message] = mail.outbox
    assert message.to == ["cora@gaming.example"]
    assert "Victor's Casino" in message.body and "table BJ-01" in message.body
    assert "Wendy" not in message.body
    # the catalog as edited, and its history as written: the put-back left no trace
    line.refresh_from_db()
    assert line.pays == "150 to 1"
    assert PaytableEntry.history.count() == history_rows + 1


def test_the_catalog_as_recorded_is_put_back_only_inside_the_block() -> None:
    from django.utils import timezone

    from variants.models import Constraint, PlayRule
    from variants.recording import catalog_as_recorded

    entry = PaytableEntry.objects.filter(paytable__key=RTR_PAY_TABLE_1, pays="200 to 1").get()
    play_rule = PlayRule.objects.filter(provision__instrument__jurisdiction__code="US-CO")[0]
    template = Constraint.objects.filter(provision__instrument__jurisdiction__code="US-CO")[0]
    rows = {m: m.history.count() for m in (PaytableEntry, PlayRule, Constraint)}
    at = timezone.now()
    entry.pays = "150 to 1"
    entry.save()
    play_rule_pk = play_rule.pk
    play_rule.delete()
    template.pk, template.code = None, "us-co/test/new-since"
    template.save()

    with catalog_as_recorded("US-CO", at) as put_back:
        assert put_back
        assert PaytableEntry.objects.get(pk=entry.pk).pays == "200 to 1"
        assert PlayRule.objects.filter(pk=play_rule_pk).exists()
        assert not Constraint.objects.filter(code="us-co/test/new-since").exists()
    assert {m: m.history.count() for m in rows} == {m: n + 1 for m, n in rows.items()}
    assert PaytableEntry.objects.get(pk=entry.pk).pays == "150 to 1"
    assert not PlayRule.objects.filter(pk=play_rule_pk).exists()
    assert Constraint.objects.filter(code="us-co/test/new-since").exists()
    with catalog_as_recorded("US-MA", at) as put_back:  # nothing of Massachusetts written
        assert not put_back


def test_subscriptions_through_the_api(vendor_client: APIClient, officer_client: APIClient) -> None:
    made = vendor_client.post(
        "/api/v1/subscriptions/",
        {"jurisdiction": "US-CO", "channel": "webhook", "url": "https://hooks.example/pitboss"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    secret = made.json()["secret"]
    assert len(secret) == 64
    listed = vendor_client.get("/api/v1/subscriptions/").json()
    assert [s["url"] for s in listed["results"]] == ["https://hooks.example/pitboss"]
    assert "secret" not in listed["results"][0]  # shown once
    pk = made.json()["id"]
    assert "secret" not in vendor_client.get(f"/api/v1/subscriptions/{pk}/").json()
    assert vendor_client.get(f"/api/v1/subscriptions/{pk}/deliveries/").json()["count"] == 0
    assert officer_client.get(f"/api/v1/subscriptions/{pk}/").status_code == 404  # not theirs
    assert officer_client.delete(f"/api/v1/subscriptions/{pk}/").status_code == 404

    again = vendor_client.post(
        "/api/v1/subscriptions/",
        {"jurisdiction": "US-CO", "channel": "webhook", "url": "https://hooks.example/pitboss"},
        format="json",
    )
    assert again.status_code == 400 and "jurisdiction" in again.json()["error"]["fields"]
    assert vendor_client.delete(f"/api/v1/subscriptions/{pk}/").status_code == 204
    assert vendor_client.get("/api/v1/subscriptions/").json()["count"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"jurisdiction": "US-CO", "channel": "email"}, "channel"),  # no address on file
        ({"jurisdiction": "US-CO", "channel": "webhook"}, "url"),
        ({"jurisdiction": "US-CO", "channel": "webhook", "url": "ftp://x.example/"}, "url"),
        ({"jurisdiction": "US-XX", "channel": "email"}, "jurisdiction"),
        ({"jurisdiction": "US-CO", "channel": "pigeon"}, "channel"),
    ],
)
def test_a_bad_subscription_is_a_400_naming_the_field(
    vendor_client: APIClient, body: dict[str, Any], field: str
) -> None:
    answer = vendor_client.post("/api/v1/subscriptions/", body, format="json")
    assert answer.status_code == 400
    assert field in answer.json()["error"]["fields"], answer.json()
    assert not Subscription.objects.exists()


def test_the_warning_holds_until_an_officer_reviews_the_paytable() -> None:
    """The catalog's pay table, read before the amendment, is flagged on every date the amended
    text is in force, until an officer brings it in line (an edit records it anew)."""
    config = configuration_parse(with_raise_the_roof(FLOOR_CO))  # as of 2024: before 6/1/26
    today = dataclasses.replace(config, as_of=dt.date(2026, 11, 1))
    assert _amended_warnings(today) == []
    ingest_amended()
    assert _amended_warnings(config) == []  # the old text still in force on its date
    [message] = _amended_warnings(today)
    assert message.startswith(
        "The catalog's Raise The Roof's 6 Decks Dealer Stands on Soft 17: Pay Table 1 was read "
        "from 30-899.23(12) before its text in force from 2026-06-01 was recorded"
    ), message
    line = PaytableEntry.objects.get(
        paytable__key="us-co/raise-the-roof/6d-s17-pay-table-1",
        outcome="bust-4567-suited",
        column="Ante+ Raise The Roof",
    )
    line.pays = "150 to 1"
    line.save()
    assert _amended_warnings(today) == []


def _amended_warnings(config: Configuration) -> list[str]:
    return [f.message for f in configuration_validate(config) if f.code == "catalog-text-amended"]


def test_manage_py_impact_judges_a_record_window(vendor: User) -> None:
    """`manage.py impact US-CO FROM TO --record`: the writes recorded between two record times,
    each amendment with its date, the floors it touches (exit status 1: some are)."""
    from django.core.management import call_command
    from django.utils import timezone

    floor_of(vendor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    floor_of(vendor, FLOOR_CO, "Other Casino")
    start = timezone.now()
    ingest_amended()
    out = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(
            "impact", "US-CO", start.isoformat(), timezone.now().isoformat(), "--record", stdout=out
        )
    assert exited.value.code == 1
    report = out.getvalue()
    assert "1 configuration(s) affected, 1 not" in report
    assert "amended from 2026-06-01: 30-834.23, 30-899.23, 47.1-834.23" in report
    assert "Victor's Casino" in report and "Other Casino" not in report
    assert "BJ-01 (amended from 2026-06-01)" in report
    assert "+ WARNING catalog-text-amended" in report


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8000/hook",
        "http://localhost/hook",
        "https://10.1.2.3/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/hook",
    ],
)
def test_a_webhook_into_the_server_s_own_network_is_refused(
    vendor_client: APIClient, url: str
) -> None:
    answer = vendor_client.post(
        "/api/v1/subscriptions/",
        {"jurisdiction": "US-CO", "channel": "webhook", "url": url},
        format="json",
    )
    assert answer.status_code == 400
    assert "private or reserved address" in answer.json()["error"]["fields"]["url"]
    assert not Subscription.objects.exists()


def test_a_delivery_to_a_name_that_now_resolves_privately_is_refused_and_logged(
    vendor: User, settings: Settings
) -> None:
    """The address is checked again before each attempt: a name may resolve anew."""
    from compliance.watch import delivery_attempt

    settings.WEBHOOK_PRIVATE_ADDRESSES = True
    watch = subscription_create(
        user=vendor, jurisdiction="US-CO", channel="webhook", url="http://localhost:9/hook"
    )
    change = RecordedChange.objects.create(
        jurisdiction="US-CO",
        recorded_from=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
        recorded_to=dt.datetime(2026, 1, 2, tzinfo=dt.UTC),
        reason="a test",
    )
    delivery = Delivery.objects.create(subscription=watch, change=change, affected=[])
    settings.WEBHOOK_PRIVATE_ADDRESSES = False
    assert not delivery_attempt(delivery_id=delivery.pk)
    delivery.refresh_from_db()
    assert [a["outcome"] for a in delivery.attempts] == [
        "refused: localhost, a private or reserved address (127.0.0.1)"
    ]
