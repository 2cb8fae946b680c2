"""Issue #26, the watch on its real parts: an amended text ingested here is judged by a Celery
worker on Redis, which e-mails the officer (Django's file backend, read back) and POSTs the
vendor's webhook to a real local HTTP server that refuses it twice: the third attempt, after the
backoff, arrives signed. The knowledge base is put back afterwards (the ingest commits)."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import tempfile
import time
from pathlib import Path

import pytest
from pytest_django import Settings

from compliance.models import Delivery, RecordedChange
from compliance.services import validation_run_decide
from compliance.watch import subscription_create
from tests.compliance.test_impact import with_raise_the_roof
from tests.compliance.test_watch import (
    FLOOR_CO,
    floor_of,
    ingest_amended,
    signed,
    user,
)
from tests.services import WebhookReceiver, celery_worker, per_worker

BROKER = per_worker(os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/7"))
"""Redis database 7 by default (and up, one per xdist worker): the test empties it."""


def _delivered(count: int, log: Path, seconds: float = 90) -> list[Delivery]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done = list(Delivery.objects.exclude(status="pending").select_related("subscription"))
        if len(done) >= count:
            return done
        time.sleep(0.2)
    change = RecordedChange.objects.first()
    pytest.fail(
        f"{count} deliveries awaited in {seconds} s; the change: "
        f"{change and (change.status, change.error)}; the worker's log:\n{log.read_text()}"
    )


# The worker sees only what is committed: every write commits at once, and the test database,
# the knowledge base the ingest changed included, is put back as loaded after the test.
@pytest.mark.usefixtures("knowledge_base_restored")
def test_a_worker_judges_the_change_and_tells_its_subscribers(settings: Settings) -> None:
    settings.WEBHOOK_PRIVATE_ADDRESSES = True  # here too: the subscriptions are made here
    cora = user("cora", officer_of="US-CO", email="cora@gaming.example")
    victor, wendy = user("victor"), user("wendy")
    victors = floor_of(victor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    validation_run_decide(run=victors, status="approved", on=victors.created_at.date(), user=cora)
    floor_of(wendy, FLOOR_CO, "Wendy's Casino")
    mailbox = Path(tempfile.mkdtemp(prefix="pitboss-mail-"))
    with (
        WebhookReceiver(failures=2) as victor_hook,
        WebhookReceiver() as wendy_hook,
        celery_worker(
            BROKER,
            WEBHOOK_BACKOFF="0.3",
            WEBHOOK_PRIVATE_ADDRESSES="true",  # the receivers are on 127.0.0.1
            EMAIL_FILE_PATH=str(mailbox),
        ) as log,
    ):
        hook = subscription_create(
            user=victor, jurisdiction="US-CO", channel="webhook", url=victor_hook.url
        )
        subscription_create(user=wendy, jurisdiction="US-CO", channel="webhook", url=wendy_hook.url)
        subscription_create(user=cora, jurisdiction="US-CO", channel="email")
        ingest_amended()  # commits; the change's job goes to the worker

        delivered = _delivered(2, log)
        assert {d.subscription.user.username: d.status for d in delivered} == {
            "victor": "delivered",
            "cora": "delivered",
        }
        victor_hook.wait_for(3)
        assert [status for _, _, status in victor_hook.received] == [500, 500, 200]
        attempts = Delivery.objects.get(subscription=hook).attempts
        assert [a["outcome"] for a in attempts] == ["HTTP 500", "HTTP 500", "HTTP 200"]
        at = [dt.datetime.fromisoformat(a["at"]) for a in attempts]
        first_wait, second_wait = ((b - a).total_seconds() for a, b in itertools.pairwise(at))
        assert 0.3 <= first_wait < second_wait  # 0.3 s, then 0.6 s: the backoff doubles
        for headers, body, _ in victor_hook.received:
            assert headers["X-Pitboss-Signature"] == signed(hook.secret, body)
            assert json.loads(body)["affected"] == [str(victors.pk)]
        assert wendy_hook.received == []
        assert "compliance.watch_change" in log.read_text()  # the worker judged it
        assert "compliance.delivery_send" in log.read_text()

    [message] = [path.read_text() for path in mailbox.iterdir()]
    assert "To: cora@gaming.example" in message
    assert "Victor's Casino" in message and "table BJ-01" in message
    assert "Wendy" not in message


@pytest.mark.usefixtures("knowledge_base_restored")
def test_an_impact_job_is_judged_by_a_worker_while_the_request_returns() -> None:
    """POST impact/ over more floors than a request judges answers 202 at once, the job still
    queued; a Celery worker judges it; GET shows it done with the answer an inline request
    gives."""
    from rest_framework.test import APIClient

    from compliance.api.impact import impact_asked
    from tests.compliance.test_impact import RULE_8_WINDOW

    vendor = user("victor")
    floor_of(vendor, with_raise_the_roof(FLOOR_CO), "Victor's Casino")
    floor_of(vendor, FLOOR_CO, "Victor's Other Casino")
    body = {"jurisdiction": "US-CO", "change": RULE_8_WINDOW, "job": True}
    expected = impact_asked(body, vendor)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {vendor.auth_token.key}")
    with celery_worker(BROKER) as log:
        asked = client.post("/api/v1/impact/", body, format="json")
        assert asked.status_code == 202, asked.json()
        assert asked.json()["status"] in ("queued", "running")
        deadline = time.monotonic() + 90
        while (shown := client.get(asked["Location"]).json())["status"] not in ("done", "failed"):
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert shown["status"] == "done", shown["error"]
        assert shown["result"] == expected
        assert "compliance.impact_run" in log.read_text()
