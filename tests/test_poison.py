"""Poison test (issue #24: nothing one client sends can break what another user sees).

Every class of hostile value (those the issue found, and the kinds the schema fuzz,
tests/test_api_schema_fuzz.py, generates: control characters, very long strings, numbers and
nulls where text belongs) is sent through every write endpoint of the API as a vendor (the
knowledge base's as an officer, the token endpoint anonymously) and through the desk's
configuration form and upload: each value in each endpoint's main text field, and at every leaf
of the request body every value that is no text (a lone surrogate, a control character, too
long) and one of the others in turn. Then every list, detail, page, PDF, CSV and JSON download is
read as every role. Zero 500s; every error under /api/ is JSON; a refused write stores nothing.

The endpoints come from the URL conf: a new write endpoint without a body here, or a new page
with a parameter this test does not know how to fill, fails the test until it is added."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from compliance.api.configuration import configuration_parse
from compliance.forms import blank_form_data
from compliance.models import (
    ImpactJob,
    PaytableSimulationJob,
    RecordedChange,
    SignSet,
    SimulationJob,
    Subscription,
    ValidationRun,
)
from compliance.services import validation_run_create
from jurisdictions.models import Instrument
from jurisdictions.services import api_user_create
from pitboss.text import MAX_TEXT
from regs.models import Annotation, Provision

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads(
    (Path(__file__).parent / "compliance" / "data" / "signage-floor-co.json").read_text()
)

NOT_TEXT: dict[str, Any] = {
    "lone high surrogate": "\ud800",
    "lone low surrogate": "x\udfff",
    "NUL": "a\x00b",
    "terminal escape": "\x1b[2J",
    "DEL": "\x7f",
    "C1 control": "\x85",
    "too long": "x" * (MAX_TEXT + 1),
}
"""Text no field takes: each is tried at every leaf of every request."""
OTHER: dict[str, Any] = {
    "surrogate pair as escapes (a character)": "\ud83c\udca1",
    "line breaks": "BJ\r\n01",
    "bidi override": "\u202eBJ-01",
    "byte order mark": "\ufeffBJ",
    "last code point": "\U0010ffff",
    "markup": "<script>alert(1)</script>",
    "empty": "",
    "zero": 0,
    "negative": -1,
    "huge": 1e308,
    "big integer": 10**30,
    "true": True,
    "null": None,
    "list": [],
    "object": {},
}
"""Values some fields take and others refuse: each at the main text field, and at the leaves in
turn."""
VALUES = list(NOT_TEXT.values()) + list(OTHER.values())


def _one_table(**table: Any) -> dict[str, Any]:
    """The sample Colorado floor's first table alone (its two side wagers), a deep copy."""
    floor = json.loads(json.dumps(FLOOR_CO))
    return floor | {"tables": [floor["tables"][0] | table]}


PLAIN_TABLE = {
    "name": "BJ-1",
    "game": "blackjack",
    "decks": 6,
    "dealer_soft_17": "stand",
    "hole_card": "no_peek",
    "blackjack_pays": "3 to 2",
    "chip_unit": "1",
}
PLAIN = {"jurisdiction": "US-CO", "as_of": "2024-06-01", "licensee": "C", "tables": [PLAIN_TABLE]}

# Each write endpoint of the API (by URL name): who sends it, a request it accepts, and where
# each hostile value goes besides every leaf in turn. Paths are lists of keys and indexes.
WRITES: dict[str, dict[str, Any]] = {
    "validations": {"body": _one_table(), "main": ["licensee"]},
    "signage": {"body": _one_table(), "main": ["licensee"], "query": "?draft=true"},
    "simulations": {
        "body": {"configuration": PLAIN, "rounds": 10, "seed": 1},
        "main": ["configuration", "licensee"],
    },
    "rounds": {
        "body": {
            "configuration": PLAIN,
            "seed": 1,
            "seats": [{"wagers": {"main": "10"}, "actions": ["stand"]}],
        },
        "main": ["configuration", "tables", 0, "name"],
    },
    "round-replay": {
        "body": {
            "configuration": PLAIN,
            "cards": "5H TC 6D AS 9C".split(),
            "seats": [{"wagers": {"main": "10"}, "actions": ["double"], "paid": {"main": "-10"}}],
        },
        "main": ["table"],
    },
    "base-game-analysis": {
        "body": {"configuration": PLAIN, "effects": False},
        "main": ["table"],
    },
    "paytable-simulations": {
        "body": {
            "paytable": "us-co/streak/standard-schedule",
            "decks": 6,
            "rounds": 1_000_000,
            "seed": 5,
        },
        "main": ["paytable"],
    },
    "analysis": {
        "body": {
            "wager": "kings-bounty",
            "jurisdiction": "US-CO",
            "paytable": [{"outcome": "two-kings", "pays": "30 to 1"}],
            "decks": 6,
        },
        "main": ["jurisdiction"],
    },
    "instrument-list": {
        "as": "officer",
        "body": {
            "jurisdiction": "US-CO",
            "slug": "rule-99",
            "name": "Rule 99",
            "title": "A rule",
            "citation_scheme": "co_section",
        },
        "main": ["title"],
    },
    "instrument-detail": {"as": "officer", "method": "patch", "body": {"title": "Rule 8"}},
    # an officer of Colorado decides on a new run of the owner's for each body (a run is decided
    # once: the same run again is a 409)
    "validation-decision": {
        "as": "officer_co",
        "body": {"status": "approved", "note": "Checked against Rule 8."},
        "main": ["note"],
    },
    # as a job: the request is stored, and its pages read below
    "impact": {
        "body": {
            "jurisdiction": "US-CO",
            "change": {"kind": "window", "from": "2016-01-01", "to": "2022-01-01"},
            "job": True,
        },
        "main": ["jurisdiction"],
    },
    "subscriptions": {
        "body": {"jurisdiction": "US-CO", "channel": "webhook", "url": "https://hooks.example/p"},
        "main": ["url"],
    },
    "auth-token": {
        "as": "anonymous",
        "body": {"username": "olivia", "password": "correct-horse-battery"},  # conftest's
    },
}


# --- the URL conf -------------------------------------------------------------------------


def _patterns(
    patterns: list[Any] | None = None, prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str, URLPattern]]:
    """(route, name with its namespace, pattern) of every named URL but the admin's, and but the
    format-suffix twins DRF's router adds (the same views)."""
    for p in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            if route.startswith("admin/"):
                continue
            inner = ":".join(filter(None, [namespace, p.namespace]))
            yield from _patterns(p.url_patterns, route, inner)
        elif p.name and "(?P<format>" not in route and "<drf_format_suffix" not in route:
            yield route, ":".join(filter(None, [namespace, p.name])), p


def _methods(pattern: URLPattern) -> set[str]:
    """The HTTP methods a pattern's view answers (a function view: GET, unless it says POST)."""
    view = pattern.callback
    actions = getattr(view, "actions", None)
    if actions:
        return set(actions)
    cls = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if cls is None:
        return {"get"}
    return {m for m in ("get", "post", "put", "patch") if hasattr(cls, m)}


def _api_writes() -> set[str]:
    return {
        name
        for route, name, p in _patterns()
        if route.startswith("api/") and _methods(p) & {"post", "put", "patch"}
    }


# --- bodies ----------------------------------------------------------------------------------


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list) and data:
        for n, value in enumerate(data):
            yield from _leaves(value, (*path, n))
    else:
        yield path


def _with(data: Any, path: tuple[Any, ...] | list[Any], value: Any) -> Any:
    copy = json.loads(json.dumps(data))
    if not path:
        return value
    *parents, last = path
    target = copy
    for key in parents:
        target = target[key]
    target[last] = value
    return copy


def _poisoned(body: dict[str, Any], main: list[Any] | None) -> Iterator[Any]:
    """The request accepted as is; each hostile value at the main field; at each leaf in turn,
    every value no field takes and the next of the others; and hostile keys, at the top and
    nested."""
    yield body
    if main:
        for value in VALUES:
            yield _with(body, main, value)
    others = list(OTHER.values())
    for n, leaf in enumerate(_leaves(body)):
        for value in [*NOT_TEXT.values(), others[n % len(others)]]:
            yield _with(body, leaf, value)
    yield body | {"\ud800": 1, "\x00": "x"}
    first = next(iter(body))
    if isinstance(body[first], dict):
        yield body | {first: body[first] | {"x\udfff": None}}


# --- the test --------------------------------------------------------------------------------


def _stored() -> tuple[int, ...]:
    models = [ValidationRun, SignSet, SimulationJob, PaytableSimulationJob, Instrument, ImpactJob]
    return tuple(model.objects.count() for model in models)


def _code(response: Any) -> str | None:
    try:
        return str(response.json()["error"]["code"])
    except (ValueError, KeyError, TypeError):
        return None


def _checked(problems: list[str], what: str, response: Any) -> None:
    """A server error, or an error under /api/ that is no JSON, is a problem."""
    if response.status_code >= 500:
        problems.append(f"{what}: {response.status_code} {response.content[:200]!r}")
    elif (
        what.split()[1].startswith("/api/")
        and response.status_code >= 400
        and response["Content-Type"] != "application/json"
    ):
        problems.append(f"{what}: {response.status_code} as {response['Content-Type']}")


@pytest.fixture
def roles(vendor: User, officer: User) -> dict[str, Client]:
    """A client for every role, logged in (a session serves the API and the pages alike)."""
    admin = User.objects.create_superuser("ada", email=None, password=None)
    users = {
        "owner": vendor,
        "other_vendor": api_user_create(username="vera")[0],
        "officer_co": api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])[0],
        "officer_ma": api_user_create(username="maud", officer=True, jurisdictions=["US-MA"])[0],
        "officer": officer,
        "admin": admin,
    }
    clients = {"anonymous": Client(raise_request_exception=False)}
    for role, user in users.items():
        clients[role] = Client(raise_request_exception=False)
        clients[role].force_login(user)
    return clients


def _write_everything(roles: dict[str, Client], problems: list[str]) -> int:
    """Every hostile request to every write endpoint; the requests accepted."""
    instrument = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    accepted = 0
    for name, spec in WRITES.items():
        client = roles[spec.get("as", "owner")]
        kwargs = {"pk": instrument.pk} if name == "instrument-detail" else {}
        # a decision's URL names a run, made anew for each body below
        url = "" if name == "validation-decision" else reverse(name, kwargs=kwargs)
        url += spec.get("query", "")
        send = getattr(client, spec.get("method", "post"))
        for n, body in enumerate(_poisoned(spec["body"], spec.get("main"))):
            if name == "validation-decision":
                run = validation_run_create(
                    configuration=configuration_parse(FLOOR_CO),
                    user=User.objects.get(username="victor"),
                )
                url = reverse(name, kwargs={"pk": run.pk})
            if (
                name == "instrument-list"
                and isinstance(body, dict)
                and body.get("slug") == "rule-99"
            ):
                body = body | {"slug": f"rule-9{n}", "name": f"Rule 9{n}"}  # each its own
            before = _stored()
            response = send(url, json.dumps(body), content_type="application/json")
            what = f"{spec.get('method', 'post').upper()} {url} body {n}"
            _checked(problems, what, response)
            if n == 0 and response.status_code >= 300:
                problems.append(
                    f"{what}: the unpoisoned request is refused: {response.content[:300]!r}"
                )
            if (
                400 <= response.status_code < 500
                and _stored() != before
                and _code(response)
                != (
                    "not_compliant"  # the one refusal that stores: it names the run (signage.md)
                )
            ):
                problems.append(f"{what}: refused ({response.status_code}) but stored")
            accepted += response.status_code < 300
    return accepted


def _desk_writes(client: Client, problems: list[str]) -> None:
    """The desk's configuration form (a lone surrogate sent as the bytes a careless encoder
    writes, ED A0 80) and its upload, with each hostile value as the licensee."""
    form = blank_form_data("US-CO", date(2024, 6, 1))
    for n, value in enumerate(VALUES):
        text = value if isinstance(value, str) else json.dumps(value)
        fields = form | {"licensee": text, "action": "validate"}
        encoded = urlencode(
            {k: str(v).encode("utf-8", "surrogatepass") for k, v in fields.items()}, doseq=False
        )
        upload = {"action": "upload", "file": _file(_one_table(licensee=value))}
        for kind in ("form", "upload"):
            before = _stored()
            if kind == "form":
                response = client.post(
                    "/configurations/", encoded, content_type="application/x-www-form-urlencoded"
                )
            else:
                response = client.post("/configurations/", upload)
            _checked(problems, f"POST /configurations/ {kind} {n}", response)
            if response.status_code == 400 and _stored() != before:
                problems.append(f"POST /configurations/ {kind} {n}: refused but stored")


def _file(data: Any) -> io.BytesIO:
    upload = io.BytesIO(json.dumps(data).encode())
    upload.name = "configuration.json"
    return upload


# Pages with parameters: how to fill them (each a function of nothing, giving the keyword
# arguments of each URL to read), and the query strings to read each URL with.
def _fills() -> dict[str, Callable[[], list[dict[str, Any]]]]:
    runs = lambda: [{"pk": pk} for pk in ValidationRun.objects.values_list("pk", flat=True)]  # noqa: E731
    sign_sets = lambda: [{"pk": pk} for pk in SignSet.objects.values_list("pk", flat=True)]  # noqa: E731
    jobs = lambda: [{"pk": pk} for pk in SimulationJob.objects.values_list("pk", flat=True)]  # noqa: E731
    paytable_jobs = lambda: [  # noqa: E731
        {"pk": pk} for pk in PaytableSimulationJob.objects.values_list("pk", flat=True)
    ]
    changes = lambda: [{"pk": pk} for pk in RecordedChange.objects.values_list("pk", flat=True)]  # noqa: E731
    impact_jobs = lambda: [{"pk": pk} for pk in ImpactJob.objects.values_list("pk", flat=True)]  # noqa: E731
    watches = lambda: [{"pk": pk} for pk in Subscription.objects.values_list("pk", flat=True)]  # noqa: E731
    instruments = Instrument.objects.select_related("jurisdiction")
    provision = Provision.objects.filter(instrument__jurisdiction__code="US-CO").first
    return {
        "validation": runs,
        "compliance:run": runs,
        "compliance:run-json": lambda: [
            r | {"what": what} for r in runs() for what in ("configuration", "run")
        ],
        "sign-set": sign_sets,
        "compliance:signs": sign_sets,
        "simulation": jobs,
        "compliance:simulation": jobs,
        "compliance:simulation-progress": jobs,
        "paytable-simulation": paytable_jobs,
        "compliance:paytable-simulation": paytable_jobs,
        "compliance:paytable-simulation-progress": paytable_jobs,
        "impact-change": changes,
        "impact-job": impact_jobs,
        "compliance:impact-job": impact_jobs,
        "compliance:impact-job-progress": impact_jobs,
        "compliance:impact-change": changes,
        "subscription": watches,
        "subscription-deliveries": watches,
        "compliance:watch-end": watches,
        "instrument-detail": lambda: [{"pk": i.pk} for i in instruments],
        "regs:instrument": lambda: [
            {"jurisdiction": i.jurisdiction.code.lower(), "instrument": i.slug} for i in instruments
        ],
        "jurisdiction-detail": lambda: [{"code": "US-CO"}, {"code": "US-MA"}],
        "regs:jurisdiction": lambda: [{"jurisdiction": "us-co"}, {"jurisdiction": "us-ma"}],
        "provision-detail": lambda: [{"pk": provision().pk}],
        "provision-history": lambda: [{"pk": provision().pk}],
        "provision-versions": lambda: [{"pk": provision().pk}],
        "regs:provision": lambda: [
            {"jurisdiction": "us-co", "instrument": "rule-8", "label": "30-803"}
        ],
        "regs:cite": lambda: [{"jurisdiction": "us-co", "citation": "30-803"}],
        "regs:annotation-edit": lambda: [{"pk": Annotation.objects.first().pk}],
        "wager-detail": lambda: [{"slug": "kings-bounty"}],
        "paytable-detail": lambda: [{"pk": "us-co/kings-bounty/kb03"}],
        "paytable-analysis": lambda: [{"pk": "us-co/kings-bounty/kb03"}],
        "paytable-par-sheet": lambda: [{"pk": "us-co/kings-bounty/kb03"}],
        # one run's packet (a PDF) by every role; every run's (a ZIP) by its owner, below
        "validation-packet": lambda: runs()[:1],
        "variants:paytable": lambda: [{"key": "us-co/kings-bounty/kb03"}],
        "variants:wager": lambda: [{"jurisdiction": "us-co", "slug": "kings-bounty"}],
    }


QUERIES = {
    "sign-set": ["", "?format=html"],
    "paytable-par-sheet": ["?decks=6", "?decks=6&format=csv", "?decks=6&format=pdf"],
    "paytable-analysis": ["?decks=6"],
    "wager-detail": ["?jurisdiction=US-CO"],
    "compliance:configurations": ["", "?run={run}"],
}
# Read by the owner only, once each: a PDF takes about a second (each role's read of the JSON
# and HTML shows what it may see).
OWNER_ONLY = {"sign-set": ["?format=pdf"]}
# Pages not read: the POST-only pages and the password-reset link (a token mailed to a user).
SKIPPED = {"compliance:run-signs", "compliance:run-decision", "password_reset_confirm"}


def _reads(fills: dict[str, Callable[[], list[dict[str, Any]]]]) -> Iterator[tuple[str, str]]:
    """(URL name, URL) of every read of the site."""
    run = ValidationRun.objects.values_list("pk", flat=True).first()
    for route, name, pattern in _patterns():
        if name in SKIPPED or "get" not in _methods(pattern):
            continue
        parameters = pattern.pattern.regex.groupindex
        if parameters and name not in fills:
            raise AssertionError(f"{route} ({name}): add how to fill {list(parameters)}")
        for kwargs in fills[name]() if parameters else [{}]:
            url = reverse(name, kwargs=kwargs)
            page = "?page_size=1000" if route.startswith("api/") and not parameters else ""
            for query in QUERIES.get(name, [page]):
                yield name, url + query.format(run=run)


def test_nothing_hostile_one_vendor_sends_breaks_what_anyone_reads(
    roles: dict[str, Client],
) -> None:
    assert set(WRITES) == _api_writes(), "a write endpoint without a body in WRITES"
    problems: list[str] = []

    accepted = _write_everything(roles, problems)
    _desk_writes(roles["owner"], problems)

    assert accepted >= 20  # the hostile values the API takes as text (markup, bidi, …) stored
    assert SignSet.objects.exists() and SimulationJob.objects.exists()
    fills = _fills()
    reads = list(_reads(fills))
    assert len(reads) > 200
    for role, client in roles.items():
        for _name, url in reads:
            _checked(problems, f"GET {url} as {role}", client.get(url))
    for sign_set in SignSet.objects.all():
        url = reverse("sign-set", kwargs={"pk": sign_set.pk})
        for query in OWNER_ONLY["sign-set"]:
            _checked(problems, f"GET {url}{query} as owner", roles["owner"].get(url + query))
    for pk in ValidationRun.objects.values_list("pk", flat=True):
        url = reverse("validation-packet", kwargs={"pk": pk}) + "?format=zip"
        _checked(problems, f"GET {url} as owner", roles["owner"].get(url))
    assert problems == [], "\n".join(problems)
