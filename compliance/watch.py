"""The watch (issue #26; docs/architecture.md, "The watch"; docs/api.md, "Watch").

A user subscribes to a jurisdiction. When a write of its rules is recorded (regs.signals
rules_recorded: an amended text ingested, a proposed text added, a catalog fact edited) and
someone watches it, the
change is stored (RecordedChange) and judged as a job (compliance.tasks, on Celery where a broker
is configured): read from the record history (compliance.recorded), its impact over every floor
on file of the jurisdiction (compliance.impact). Then each subscriber who may see a floor it
touches is told, once (Delivery): an officer by e-mail through Django's e-mail backend, a vendor
by a webhook POST signed HMAC-SHA256 with the subscription's secret, retried with exponential
backoff, every attempt logged. Nobody else is told, and nobody is told of another vendor's
floors.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from jurisdictions.models import Jurisdiction
from pitboss import kbcache
from pitboss.background import task_send
from pitboss.errors import DomainError

from .configuration import Configuration
from .impact import Floor, impact
from .models import Delivery, RecordedChange, Subscription
from .recorded import recorded
from .selectors import floors_of, validation_runs_visible_to

log = logging.getLogger(__name__)

WATCH_CHANGE_TASK = "compliance.watch_change"
"""The Celery task that judges a recorded change and tells its subscribers."""
DELIVERY_TASK = "compliance.delivery_send"
"""The Celery task that sends one webhook, retried with backoff."""
SIGNATURE_HEADER = "X-Pitboss-Signature"
EAGER_WAIT_LIMIT = 2.0
"""Seconds a retry waits at most when tasks run in-process (no broker): the server's worker
thread is held meanwhile (with BACKGROUND_TASKS=false, the write that recorded the change)."""


# Subscriptions


def subscription_create(
    *, user: Any, jurisdiction: str, channel: str, url: str = ""
) -> Subscription:
    """A watch of `jurisdiction` by `user`: by e-mail to the user's address, or by webhook to
    `url` (http or https) with a new secret, which the caller shows once.

    :raises DomainError: no such jurisdiction; an e-mail watch by a user with no address; a
        webhook without a URL; the same watch twice."""
    if not Jurisdiction.objects.filter(code=jurisdiction).exists():
        raise DomainError(
            "invalid", f"No jurisdiction {jurisdiction!r}.", fields={"jurisdiction": "unknown"}
        )
    secret = ""
    if channel == Subscription.Channel.EMAIL:
        if not user.email:
            raise DomainError(
                "invalid",
                "Your account has no e-mail address to send to: ask an administrator to add "
                "one, or watch by webhook.",
                fields={"channel": "no e-mail address on your account"},
            )
        url = ""
    else:
        try:
            parts = urlsplit(url)
            usable = parts.scheme in ("http", "https") and bool(parts.hostname)
        except ValueError:  # "http://[::1" and the like
            usable = False
        if not usable:
            raise DomainError(
                "invalid", "A webhook needs an http or https URL.", fields={"url": "required"}
            )
        if problem := private_address(url):
            raise DomainError(
                "invalid", f"A webhook cannot go to {problem}.", fields={"url": problem}
            )
        secret = secrets.token_hex(32)
    if Subscription.objects.filter(
        user=user, jurisdiction=jurisdiction, channel=channel, url=url
    ).exists():
        raise DomainError(
            "invalid",
            f"You already watch {jurisdiction} this way.",
            fields={"jurisdiction": "already watched"},
        )
    return Subscription.objects.create(
        user=user, jurisdiction=jurisdiction, channel=channel, url=url, secret=secret
    )


# A change recorded


def rules_recorded_receive(
    sender: Any, *, jurisdiction: str, start: dt.datetime, end: dt.datetime, reason: str, **_: Any
) -> RecordedChange | None:
    """regs.signals.rules_recorded: where someone watches the jurisdiction, the change is stored
    and its job queued (pitboss.background.task_send). A queue that cannot be reached
    fails the change, with why; the write that recorded it stands."""
    if not Subscription.objects.filter(jurisdiction=jurisdiction).exists():
        return None
    change = RecordedChange.objects.create(
        jurisdiction=jurisdiction, recorded_from=start, recorded_to=end, reason=reason
    )
    try:
        task_send(WATCH_CHANGE_TASK, str(change.pk))
    except Exception as exc:  # the broker lost, or the job failed in-process
        log.exception("the watch's job for change %s failed", change.pk)
        change_fail(change_id=str(change.pk), error=f"{type(exc).__name__}: {exc}")
    return change


def change_judge(
    *, change_id: str, parse: Callable[[dict[str, Any], dict[str, int]], Configuration]
) -> None:
    """The job of a recorded change: read what it changes, judge it over the latest run of
    every floor of the jurisdiction (each configuration read again by `parse`), store the
    impact, then tell the subscribers. A change judged already is left as it is (a task
    delivered twice tells nobody twice)."""
    updated = RecordedChange.objects.filter(pk=change_id, status=RecordedChange.Status.PENDING)
    if not updated.update(status=RecordedChange.Status.RUNNING):
        return
    change = RecordedChange.objects.get(pk=change_id)
    runs = floors_of(change.jurisdiction)
    RecordedChange.objects.filter(pk=change_id).update(floors=len(runs))
    what = recorded(
        change.jurisdiction,
        change.recorded_from,
        change.recorded_to,
        as_of=timezone.localdate(change.recorded_to),
    )
    heads = kbcache.history_heads()
    floors, unread = [], []
    for run in runs:
        try:
            floors.append(Floor(parse(run.configuration, heads), run))
        except DomainError as exc:
            unread.append(f"run {run.pk}: its configuration no longer reads ({exc})")

    def progress(done: int) -> None:
        if done % 25 == 0:
            RecordedChange.objects.filter(pk=change_id).update(floors_done=done + len(unread))

    found = impact(what, floors, heads=heads, progress=progress)
    judged = found["change"]
    judged["not_judged"] = [*judged["not_judged"], *unread]
    RecordedChange.objects.filter(pk=change_id).update(
        status=RecordedChange.Status.DONE,
        change=judged,
        impact={"affected": found["affected"], "unaffected": found["unaffected"]},
        floors_done=len(runs),
        finished_at=timezone.now(),
    )
    subscribers_tell(RecordedChange.objects.get(pk=change_id))


def change_fail(*, change_id: str, error: str) -> None:
    RecordedChange.objects.filter(pk=change_id).update(
        status=RecordedChange.Status.FAILED, error=error[:2000], finished_at=timezone.now()
    )


def affected_for(change: RecordedChange, user: Any) -> list[dict[str, Any]]:
    """The floors a change touches that `user` may see (a vendor its own, an officer its
    jurisdictions'), as the impact lists them."""
    ids = [a["run"] for a in change.impact.get("affected", []) if a.get("run")]
    visible = {
        str(pk)
        for pk in validation_runs_visible_to(user).filter(pk__in=ids).values_list("pk", flat=True)
    }
    return [a for a in change.impact.get("affected", []) if a.get("run") in visible]


def subscribers_tell(change: RecordedChange) -> list[Delivery]:
    """Each subscriber of the change's jurisdiction who may see a floor it touches told once:
    e-mail sent now, a webhook queued. Returns the deliveries made."""
    made = []
    for subscription in Subscription.objects.filter(
        jurisdiction=change.jurisdiction, user__is_active=True
    ).select_related("user"):
        theirs = affected_for(change, subscription.user)
        if not theirs:
            continue
        delivery, created = Delivery.objects.get_or_create(
            subscription=subscription,
            change=change,
            defaults={"affected": [a["run"] for a in theirs]},
        )
        if not created:
            continue
        made.append(delivery)
        if subscription.channel == Subscription.Channel.EMAIL:
            email_send(delivery, theirs)
        else:
            transaction.on_commit(functools.partial(_webhook_queue, delivery.pk))
    return made


def _webhook_queue(delivery_id: int) -> None:
    task_send(DELIVERY_TASK, delivery_id)


# Delivering


def change_page_url(change: RecordedChange) -> str:
    return settings.PITBOSS_URL + reverse("compliance:impact-change", args=[change.pk])


def change_api_url(change: RecordedChange) -> str:
    return settings.PITBOSS_URL + reverse("impact-change", args=[change.pk])


def email_send(delivery: Delivery, affected: list[dict[str, Any]]) -> None:
    """The officer's e-mail: which floors and tables the change touches, and how, with a link
    to the change's page. The attempt logged; a failure to send marks the delivery failed."""
    change = delivery.change
    floors = len(affected)
    subject = (
        f"Pitboss: a change of the {change.jurisdiction} rules touches {floors} "
        f"floor{'s' if floors > 1 else ''} on file"
    )
    lines = [
        f"Recorded {change.recorded_to:%Y-%m-%d %H:%M} UTC: {change.reason}.",
        "",
        "The floors it touches:",
    ]
    for floor in affected:
        lines.append(
            f"- {floor['licensee']} (run {floor['run']}, {floor['status']}, as of "
            f"{floor['as_of']}):"
        )
        for table in floor["tables"]:
            lines.append(f"  - {table_summary(table)}")
    not_judged = change.change.get("not_judged", [])
    if not_judged:
        lines += ["", "Not judged:", *(f"- {what}" for what in not_judged)]
    lines += ["", f"What changes, table by table: {change_page_url(change)}"]
    try:
        send_mail(
            subject,
            "\n".join(lines) + "\n",
            settings.DEFAULT_FROM_EMAIL,
            [delivery.subscription.user.email],
        )
    except Exception as exc:  # SMTP refused, unreachable
        _attempt(delivery.pk, f"{type(exc).__name__}: {exc}", ok=False, last=True)
        return
    _attempt(delivery.pk, "sent", ok=True)


def table_summary(table: dict[str, Any]) -> str:
    """One table's entry of an impact in a line: its name and what changes."""
    said = []
    if table["new_findings"]:
        said.append(_count(len(table["new_findings"]), "new finding"))
    if table["cleared_findings"]:
        said.append(_count(len(table["cleared_findings"]), "finding") + " cleared")
    if table.get("house_edge"):
        edge = table["house_edge"]
        said.append(f"house edge {edge['before_percent']} → {edge['after_percent']}")
    if table.get("side_wagers"):
        said.append(_count(len(table["side_wagers"]), "side wager edge") + " moved")
    if table["signs"]["changed"]:
        said.append("sign to reprint")
    name = f"table {table['table']}" if table["table"] else "the wall sign"
    return f"{name}: {', '.join(said)}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def webhook_body(delivery: Delivery) -> bytes:
    """What a webhook POSTs (DESIGN's shape): the change, the address of its impact in the API,
    the subscriber's runs it touches. Keys sorted: the same delivery, the same bytes."""
    change = delivery.change
    body = {
        "change": {"id": str(change.pk), "reason": change.reason, **change.change},
        "impact": change_api_url(change),
        "affected": delivery.affected,
    }
    return json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def signature(secret: str, body: bytes) -> str:
    """The X-Pitboss-Signature header's value: sha256=<hex HMAC-SHA256 of the body>."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def delivery_attempt(*, delivery_id: int) -> bool:
    """POST one webhook; the attempt logged with its outcome (the HTTP status, or the error).
    True when it is delivered (a 2xx answer), or was before."""
    delivery = Delivery.objects.select_related("subscription", "change").get(pk=delivery_id)
    if delivery.status != Delivery.Status.PENDING:
        return delivery.status == Delivery.Status.DELIVERED
    body = webhook_body(delivery)
    if problem := private_address(delivery.subscription.url):
        _attempt(delivery_id, f"refused: {problem}", ok=False)
        return False
    try:
        response = requests.post(
            delivery.subscription.url,
            data=body,
            headers={
                "Content-Type": "application/json",
                SIGNATURE_HEADER: signature(delivery.subscription.secret, body),
                "X-Pitboss-Delivery": str(delivery.pk),
            },
            timeout=settings.WEBHOOK_TIMEOUT,
            allow_redirects=False,
        )
    except requests.RequestException as exc:
        _attempt(delivery_id, f"{type(exc).__name__}: {exc}"[:300], ok=False)
        return False
    ok = 200 <= response.status_code < 300
    _attempt(delivery_id, f"HTTP {response.status_code}", ok=ok)
    return ok


def private_address(url: str) -> str:
    """Why the server must not POST to `url`: its host is, or resolves to, a loopback, private,
    link-local or otherwise reserved address ("" when it may, or when WEBHOOK_PRIVATE_ADDRESSES
    allows them). A name that does not resolve now passes: its delivery fails and is retried.
    Checked when the watch is made and again before each attempt (a name may resolve anew)."""
    if settings.WEBHOOK_PRIVATE_ADDRESSES:
        return ""
    try:
        host = urlsplit(url).hostname or ""
        found = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except (OSError, ValueError):  # not resolved now (UnicodeError is a ValueError)
        return ""
    for address in sorted(found):
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if not ip.is_global or ip.is_multicast:
            return f"{host}, a private or reserved address ({ip})"
    return ""


def delivery_fail(*, delivery_id: int) -> None:
    """Every attempt failed: the delivery is given up, as its log says."""
    Delivery.objects.filter(pk=delivery_id, status=Delivery.Status.PENDING).update(
        status=Delivery.Status.FAILED
    )


def _attempt(delivery_id: int, outcome: str, *, ok: bool, last: bool = False) -> None:
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().get(pk=delivery_id)
        delivery.attempts = [
            *delivery.attempts,
            {"at": timezone.now().isoformat(), "outcome": outcome},
        ]
        if ok:
            delivery.status = Delivery.Status.DELIVERED
            delivery.delivered_at = timezone.now()
        elif last:
            delivery.status = Delivery.Status.FAILED
        delivery.save(update_fields=["attempts", "status", "delivered_at"])


def retry_wait(retries: int) -> float:
    """Seconds before retry number `retries + 1`: WEBHOOK_BACKOFF doubled per retry before."""
    return float(settings.WEBHOOK_BACKOFF * 2**retries)
