"""The compliance desk's web pages: build or upload a table configuration and read its
validation report (compliance.services, as POST /api/v1/validations/), the history of runs by
licensee, the signs of a run (signage), rounds played or replayed (compliance.rounds), and
simulation jobs with their progress (compliance.simulations)."""

from __future__ import annotations

import datetime as dt
import json
import re
from decimal import Decimal
from pathlib import Path
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.forms.utils import ErrorDict, ErrorList
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from rest_framework import serializers

from compliance import selectors
from compliance.api.views import ValidationOut
from compliance.forms import (
    ConfigurationForm,
    SideWagerFormSet,
    TableFormSet,
    blank_form_data,
    catalog_choices,
    configuration_from_forms,
    flat_name,
    form_data_from_configuration,
    side_prefix,
)
from compliance.models import SignSet, SimulationJob, ValidationRun
from compliance.rounds import round_replay, rounds_play
from compliance.services import NotCompliant, sign_set_create, validation_run_create
from compliance.signage_render import SIZES, sign_set_html, sign_set_pdf
from compliance.simulations import MAX_ROUNDS, simulation_job_create
from jurisdictions.web import citation_url, user_role
from pitboss.errors import DomainError

SAMPLES = Path(settings.BASE_DIR) / "fixtures" / "configs"
"""The sample configurations a form, a round or a simulation may start from."""


# --- who sees what -------------------------------------------------------------------------------


def _visible_runs(user: Any) -> QuerySet[ValidationRun]:
    """The validation runs a user may read (compliance.selectors: the API's rule)."""
    return selectors.validation_runs_visible_to(user).select_related("created_by")


def _visible_jobs(user: Any) -> QuerySet[SimulationJob]:
    """The simulation jobs a user may read (compliance.selectors: the API's rule)."""
    return selectors.simulation_jobs_visible_to(user)


def _run_or_404(user: Any, pk: Any) -> ValidationRun:
    try:
        run = _visible_runs(user).filter(pk=pk).first()
    except ValidationError:  # not a run id at all (?run=abc)
        run = None
    if run is None:
        raise Http404("No validation run of yours has this id.")
    return run


def samples() -> dict[str, dict[str, Any]]:
    """The sample configurations in fixtures/configs/, by file name without .json."""
    return {p.stem: json.loads(p.read_text()) for p in sorted(SAMPLES.glob("*.json"))}


# --- the configuration form ----------------------------------------------------------------------


class UploadForm(forms.Form):
    file = forms.FileField(
        label="Configuration file (JSON)",
        help_text="A configuration as the API takes it (docs/api.md, contract v1).",
    )


def _forms(data: Any) -> dict[str, Any]:
    """The configuration form, its tables and each table's side wagers, bound to `data`, with
    the catalog's choices for the jurisdiction the data names."""
    catalog = catalog_choices(data.get("jurisdiction") or "US-CO")
    tables = TableFormSet(data, prefix="tables", form_kwargs={"catalog": catalog})
    count = tables.total_form_count() if tables.management_form.is_valid() else 0
    sides = [
        SideWagerFormSet(data, prefix=side_prefix(n), form_kwargs={"catalog": catalog})
        for n in range(count)
    ]
    return {
        "config": ConfigurationForm(data),
        "tables": tables,
        "sides": sides,
        "pairs": list(zip(tables.forms, sides, strict=False)) if count else [],
    }


def _edited(data: Any, action: str) -> Any:
    """The form's data after an "add a table" or "add a side wager" button."""
    data = data.copy()
    if action == "add_table":
        n = _count(data.get("tables-TOTAL_FORMS"))
        data["tables-TOTAL_FORMS"] = str(n + 1)
        data["tables-INITIAL_FORMS"] = "0"
        data[f"tables-{n}-game"] = "blackjack"
        data[f"{side_prefix(n)}-TOTAL_FORMS"] = "3"
        data[f"{side_prefix(n)}-INITIAL_FORMS"] = "0"
    elif match := re.fullmatch(r"add_side-(\d+)", action):
        key = f"{side_prefix(int(match.group(1)))}-TOTAL_FORMS"
        data[key] = str(_count(data.get(key)) + 1)
    return data


def _count(value: Any) -> int:
    """A formset's form count as posted; nought if it is not a number."""
    return int(value) if str(value).isdigit() else 0


@login_required
def configurations(request: HttpRequest) -> HttpResponse:
    """Build a configuration in the form (or upload one) and validate it; GET ?sample= or
    ?run= starts the form from a sample or a stored run."""
    upload = UploadForm()
    if request.method == "POST":
        action = request.POST.get("action", "validate")
        if action == "upload":
            return _upload(request)
        if action != "validate":
            return _form_page(request, _forms(_edited(request.POST, action)), upload, False)
        bound = _forms(request.POST)
        run = _validate(bound, request.user)
        if run is None:
            return _form_page(request, bound, upload, True, status=400)
        return redirect("compliance:run", pk=run.pk)
    start = _start(request)
    return _form_page(request, _forms(start), upload, False)


def _start(request: HttpRequest) -> dict[str, Any]:
    """Where a new form starts: a sample, a stored run, or one blank blackjack table."""
    sample, run_id = request.GET.get("sample", ""), request.GET.get("run", "")
    if sample:
        found = samples().get(sample)
        if found is None:
            raise Http404(f"No sample configuration {sample}.")
        return form_data_from_configuration(found)
    if run_id:
        return form_data_from_configuration(_run_or_404(request.user, run_id).configuration)
    return blank_form_data("US-CO", timezone.localdate())


def _form_page(
    request: HttpRequest,
    bound: dict[str, Any],
    upload: UploadForm,
    show_errors: bool,
    *,
    status: int = 200,
) -> HttpResponse:
    if not show_errors:
        _quiet(bound)
    side_errors = [e for s in bound["sides"] for e in s.non_form_errors()] if show_errors else []
    return render(
        request,
        "compliance/configuration_form.html",
        {
            **bound,
            "upload": upload,
            "show_errors": show_errors,
            "side_errors": side_errors,
            "samples": list(samples()),
        },
        status=status,
    )


def _quiet(bound: dict[str, Any]) -> None:
    """Show bound forms without validating them (a form started from a sample, or after "add a
    table"): reading a bound form's errors validates it, so give each form none to read."""
    for form in [bound["config"], *bound["tables"].forms]:
        form._errors = ErrorDict()
    for formset in [bound["tables"], *bound["sides"]]:
        formset._errors, formset._non_form_errors = [], ErrorList()
        for form in formset.forms:
            form._errors = ErrorDict()


def _validate(bound: dict[str, Any], user: Any) -> ValidationRun | None:
    """Validate the forms, then the configuration they describe through the service the API
    uses; None with the errors on their fields where either refuses it."""
    config, tables, sides = bound["config"], bound["tables"], bound["sides"]
    valid = config.is_valid() & tables.is_valid()
    valid = all([valid, *(s.is_valid() for s in sides)])
    if not valid:
        return None
    body, rows = configuration_from_forms(config, tables.forms, [s.forms for s in sides])
    try:
        return validation_run_create(data=body, user=user)
    except serializers.ValidationError as exc:
        for path, message in _error_paths(exc.detail):
            _attach(path, message, bound, rows)
    except DomainError as exc:
        config.add_error(None, exc.message)
    return None


def _error_paths(detail: Any, prefix: str = "") -> list[tuple[str, str]]:
    """DRF's nested errors as (path, message): tables[0].side_wagers[1].limits.max."""
    if isinstance(detail, dict):
        found = []
        for key, value in detail.items():
            if key == "non_field_errors":
                found += _error_paths(value, prefix)
            elif isinstance(key, int) or str(key).isdigit():  # a list's errors by index
                found += _error_paths(value, f"{prefix}[{key}]")
            else:
                found += _error_paths(value, f"{prefix}.{key}" if prefix else str(key))
        return found
    if isinstance(detail, list):
        if detail and all(isinstance(v, str) for v in detail):
            return [(prefix, str(v)) for v in detail]
        found = []
        for n, value in enumerate(detail):
            found += _error_paths(value, f"{prefix}[{n}]")
        return found
    return [(prefix, str(detail))]


_SIDE = re.compile(r"tables\[(\d+)\]\.side_wagers\[(\d+)\]\.(\w+)(?:\.(\w+))?")
_TABLE = re.compile(r"tables\[(\d+)\]\.(\w+)(?:\.(\w+))?")


def _attach(path: str, message: str, bound: dict[str, Any], rows: dict[Any, int]) -> None:
    """Put a service error beside the form field its path names; else on the form, with the
    path."""
    forms_, name = None, ""
    if m := _SIDE.match(path):
        t, s = int(m.group(1)), int(m.group(2))
        forms_ = bound["sides"][t].forms[rows[(t, s)]]
        name = "lines" if m.group(3) == "paytable" else _field_name(*m.group(3, 4))
    elif m := _TABLE.match(path):
        forms_ = bound["tables"].forms[int(m.group(1))]
        name = _field_name(*m.group(2, 3))
    else:
        forms_, name = bound["config"], path
    if name in forms_.fields:
        forms_.add_error(name, message)
    else:
        bound["config"].add_error(None, f"{path}: {message}" if path else message)


def _field_name(name: str, key: str | None) -> str:
    return flat_name(name, key) if key else name


def _upload(request: HttpRequest) -> HttpResponse:
    upload = UploadForm(request.POST, request.FILES)
    bound = _forms(blank_form_data("US-CO", timezone.localdate()))
    if upload.is_valid():
        try:
            data = json.loads(upload.cleaned_data["file"].read().decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            upload.add_error("file", f"The file is not JSON: {exc}.")
        else:
            try:
                run = validation_run_create(data=data, user=request.user)
            except serializers.ValidationError as exc:
                for path, message in _error_paths(exc.detail):
                    upload.add_error("file", f"{path}: {message}" if path else message)
            except DomainError as exc:
                upload.add_error("file", exc.message)
            else:
                return redirect("compliance:run", pk=run.pk)
    return _form_page(request, bound, upload, False, status=400)


# --- runs ----------------------------------------------------------------------------------------


@login_required
def run(request: HttpRequest, pk: Any) -> HttpResponse:
    """A validation report: compliant or not, every finding with its citations linked to the
    provision as of the run's date."""
    found = _run_or_404(request.user, pk)
    return render(request, "compliance/run.html", _run_context(found))


def _run_context(run: ValidationRun) -> dict[str, Any]:
    findings = []
    for finding in run.findings:
        cited = [
            {**c, "url": citation_url(c["jurisdiction"], c["citation"], run.as_of)}
            for c in finding.get("citations", [])
        ]
        findings.append({**finding, "cited": cited})
    counts = {
        severity: sum(1 for f in run.findings if f["severity"] == severity)
        for severity in ("error", "warning", "info")
    }
    versions = {
        t.get("name"): t["game_version"]
        for t in run.configuration.get("tables", [])
        if t.get("game_version") is not None
    }
    base_games = [
        _base_game_view(entry, run.as_of, versions.get(entry["table"])) for entry in run.tables
    ]
    return {
        "run": run,
        "licensee": run.configuration.get("licensee", ""),
        "tables": [t.get("name", "") for t in run.configuration.get("tables", [])],
        "findings": findings,
        "counts": counts,
        "base_games": base_games,
        "side_wagers": [
            {"table": game["table"], **side} for game in base_games for side in game["side_wagers"]
        ],
        "knowledge_base": sorted(run.knowledge_base.items()),
        "sizes": list(SIZES),
    }


def _base_game_view(
    entry: dict[str, Any], as_of: dt.date, version: int | None = None
) -> dict[str, Any]:
    """A table's base game as the report shows it: the game's version where the table names one
    (Double Up Blackjack's, 30-899.10), the house edge in percent to 4 places (the full digits in
    a tooltip), each bonus wager's citation linked."""
    shown = {**entry, "version": version}
    if entry["house_edge_percent"] is not None:
        edge = Decimal(entry["house_edge_percent"])
        shown["percent"] = f"{edge:.4f}"
        shown["player_edge"] = f"{-edge:.4f}" if edge < 0 else None
    shown["alternative_readings"] = [  # runs made before readings were shown have none
        {**r, "percent": f"{Decimal(r['house_edge_percent']):.4f}"}
        for r in entry.get("alternative_readings", [])
    ]
    shown["side_wagers"] = [  # runs made before side wagers were valued have none
        {
            **side,
            "analyses": [
                {**a, "percent": f"{Decimal(a['house_edge']) * 100:.4f}"} for a in side["analyses"]
            ],
        }
        for side in entry.get("side_wagers", [])
    ]
    shown["bonus_wagers"] = [
        {
            **bonus,
            "cited": [
                {**c, "url": citation_url(c["jurisdiction"], c["citation"], as_of)}
                for c in bonus["citations"]
            ],
        }
        for bonus in entry["bonus_wagers"]
    ]
    return shown


@login_required
def run_json(request: HttpRequest, pk: Any, what: str) -> HttpResponse:
    """The run (as GET /api/v1/validations/{id}/ gives it) or its configuration, as a file."""
    found = _run_or_404(request.user, pk)
    body = found.configuration if what == "configuration" else ValidationOut(found).data
    response = JsonResponse(body, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{what}-{found.pk}.json"'
    return response


def _licensee(name: Any) -> str:
    """A stored configuration's licensee as text ("" for none); a run stored before licensees
    had to be strings may hold a number (manage.py repair_stored_text makes it its text)."""
    return "" if name is None or name == "" else str(name)


RUNS_SHOWN = 500
"""The most runs the history lists at once, newest first."""


@login_required
def runs(request: HttpRequest) -> HttpResponse:
    """The history of validation runs the user may see, by licensee (?licensee= filters)."""
    visible = _visible_runs(request.user)
    named = visible.values_list("configuration__licensee", flat=True).distinct()
    licensees = sorted({_licensee(name) for name in named})
    chosen = request.GET.get("licensee")
    if chosen:
        visible = visible.filter(configuration__licensee=chosen)
    elif chosen == "":  # runs that name no licensee
        visible = visible.filter(
            Q(configuration__licensee="") | Q(configuration__licensee__isnull=True)
        )
    shown = list(visible[:RUNS_SHOWN])
    groups: dict[str, list[ValidationRun]] = {}
    for each in shown:
        groups.setdefault(_licensee(each.configuration.get("licensee")), []).append(each)
    return render(
        request,
        "compliance/runs.html",
        {
            "groups": sorted(groups.items()),
            "licensees": licensees,
            "chosen": chosen,
            "officer": user_role(request.user) in ("administrator", "compliance officer"),
        },
    )


# --- signs ---------------------------------------------------------------------------------------


class SignsForm(forms.Form):
    format = forms.ChoiceField(choices=[("html", "Preview (HTML)"), ("pdf", "PDF")])
    size = forms.ChoiceField(choices=[(s, s) for s in SIZES], required=False)
    draft = forms.BooleanField(required=False)
    wall_signs = forms.BooleanField(required=False)


@login_required
@require_POST
def run_signs(request: HttpRequest, pk: Any) -> HttpResponse:
    """Print a run's signs (compliance.services.sign_set_create, as POST /api/v1/signage/):
    stored, then shown as a preview or a PDF."""
    found = _run_or_404(request.user, pk)
    form = SignsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a format and a size for the signs.")
        return redirect("compliance:run", pk=found.pk)
    options = form.cleaned_data
    try:
        sign_set = sign_set_create(
            data=found.configuration,
            draft=options["draft"],
            wall_signs=options["wall_signs"],
            user=request.user,
            run=found,
        )
    except NotCompliant as exc:
        own = [f["message"] for f in exc.findings if f["code"].startswith("sign-")]
        messages.error(request, " ".join([exc.message, *own]))
        return redirect("compliance:run", pk=found.pk)
    address = reverse("compliance:signs", kwargs={"pk": sign_set.pk})
    return redirect(f"{address}?format={options['format']}&size={options['size'] or 'letter'}")


@login_required
def signs(request: HttpRequest, pk: Any) -> HttpResponse:
    """A stored sign set as HTML or PDF (?format=html|pdf, ?size=)."""
    sign_set = SignSet.objects.filter(pk=pk).select_related("validation").first()
    if sign_set is None or not _visible_runs(request.user).filter(pk=sign_set.validation_id):
        raise Http404("No sign set of yours has this id.")
    size = request.GET.get("size", "letter")
    size = size if size in SIZES else "letter"
    if request.GET.get("format") == "pdf":
        response = HttpResponse(sign_set_pdf(sign_set, size=size), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="signs-{sign_set.pk}.pdf"'
        return response
    return HttpResponse(sign_set_html(sign_set, size=size), content_type="text/html; charset=utf-8")


# --- rounds and simulations: a configuration from a sample or a stored run -----------------------


def _sources(user: Any) -> list[tuple[str, Any]]:
    """The configurations a round or a simulation may use: the samples, and the user's latest
    runs."""
    runs = [
        (
            f"run:{r.pk}",
            f"{r.configuration.get('licensee') or '(no licensee)'} · {r.jurisdiction} as of "
            f"{r.as_of:%Y-%m-%d} · run of {r.created_at:%Y-%m-%d %H:%M}",
        )
        for r in _visible_runs(user)[:30]
    ]
    choices: list[tuple[str, Any]] = [("Samples", [(f"sample:{name}", name) for name in samples()])]
    return choices + ([("Your latest validation runs", runs)] if runs else [])


def _source(user: Any, value: str) -> dict[str, Any]:
    """The configuration a source choice names."""
    kind, _, name = value.partition(":")
    if kind == "run":
        return dict(_run_or_404(user, name).configuration)
    return samples()[name]


class _SourceForm(forms.Form):
    configuration = forms.ChoiceField(choices=[])
    table = forms.CharField(
        required=False, max_length=80, help_text="The configuration's table; blank: the first."
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["configuration"]).choices = _sources(user)
        self.user = user

    def request_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "configuration": _source(self.user, self.cleaned_data["configuration"])
        }
        if self.cleaned_data["table"]:
            body["table"] = self.cleaned_data["table"]
        return body


def _amounts(text: str, field: str) -> dict[str, str]:
    """ "main=10 kings-bounty=5" as {"main": "10", "kings-bounty": "5"}."""
    amounts = {}
    for part in text.replace(",", " ").split():
        name, equals, amount = part.partition("=")
        if not equals or not name or not amount:
            raise forms.ValidationError(
                f"“{part}” is not wager=amount (e.g. main=10 kings-bounty=5).", code=field
            )
        amounts[name] = amount
    return amounts


def _wagers(text: str, field: str) -> dict[str, Any]:
    """ "main=10 over-under-13:under=1" as {"main": "10", "over-under-13": {"stake": "1",
    "side": "under"}}: a wager placed on one side of several names it after a colon (the API's
    {"stake", "side"})."""
    wagers: dict[str, Any] = {}
    for name, amount in _amounts(text, field).items():
        wager, colon, side = name.partition(":")
        wagers[wager] = {"stake": amount, "side": side} if colon else amount
    return wagers


def _words(text: str) -> list[str]:
    return text.replace(",", " ").split()


SEATS = 3
"""Seats the round forms offer."""


class RoundForm(_SourceForm):
    """Play a round (POST /api/v1/rounds/) or replay one as it happened (rounds/replay/)."""

    replay = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, SEATS + 1):
            self.fields[f"seat{n}_wagers"] = forms.CharField(
                required=n == 1,
                label=f"Seat {n}: wagers",
                help_text="wager=amount, e.g. main=10 kings-bounty=5; a side after a colon: "
                "over-under-13:under=1",
            )
            self.fields[f"seat{n}_actions"] = forms.CharField(
                required=False,
                label=f"Seat {n}: actions",
                help_text="In order of play, e.g. split hit stand stand"
                + ("" if self.replay else "; blank: basic strategy"),
            )
            if self.replay:
                self.fields[f"seat{n}_paid"] = forms.CharField(
                    required=n == 1,
                    label=f"Seat {n}: paid",
                    help_text="Net of the stakes, per wager: main=15 insurance=-5",
                )

    def seats(self) -> list[dict[str, Any]]:
        seats = []
        for n in range(1, SEATS + 1):
            wagers = self.cleaned_data.get(f"seat{n}_wagers")
            if not wagers:
                continue
            actions = _words(self.cleaned_data.get(f"seat{n}_actions") or "")
            seat: dict[str, Any] = {"wagers": _wagers(wagers, f"seat{n}_wagers")}
            if self.replay:
                seat |= {"actions": actions}
                seat["paid"] = _amounts(self.cleaned_data[f"seat{n}_paid"], f"seat{n}_paid")
            else:
                seat["actions"] = actions or None
            seats.append(seat)
        return seats

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        for n in range(1, SEATS + 1):
            for kind in ("wagers", "paid"):
                name = f"seat{n}_{kind}"
                if data.get(name):
                    try:
                        _amounts(data[name], name)
                    except forms.ValidationError as exc:
                        self.add_error(name, exc)
        return data


class PlayForm(RoundForm):
    seed = forms.IntegerField(required=False, min_value=0, help_text="Shuffle the shoe with it.")
    shoe = forms.CharField(
        required=False,
        label="Scripted cards",
        help_text="In dealing order instead of a seed, e.g. TH AC 8D 6S 4C",
    )
    rounds = forms.IntegerField(min_value=1, max_value=20, initial=1, required=False)
    field_order = ["configuration", "table", "seed", "shoe", "rounds"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if (data.get("seed") is None) == (not data.get("shoe")):
            self.add_error("seed", "Give a seed or scripted cards (one of the two).")
        return data

    def request_body(self) -> dict[str, Any]:
        body = super().request_body() | {"seats": self.seats()}
        if self.cleaned_data["shoe"]:
            body["shoe"] = _words(self.cleaned_data["shoe"])
        else:
            body |= {"seed": self.cleaned_data["seed"], "rounds": self.cleaned_data["rounds"] or 1}
        return body


class ReplayForm(RoundForm):
    replay = True
    cards = forms.CharField(label="Cards dealt", help_text="In dealing order, e.g. TH AC 8D 6S 4C")
    field_order = ["configuration", "table", "cards"]

    def request_body(self) -> dict[str, Any]:
        return super().request_body() | {
            "cards": _words(self.cleaned_data["cards"]),
            "seats": self.seats(),
        }


SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _card(code: str) -> str:
    """7H as 7♥, TC as 10♣."""
    rank, suit = code[:-1], code[-1:]
    return f"{'10' if rank == 'T' else rank}{SUITS.get(suit, suit)}"


def _round_view(log: dict[str, Any], as_of: Any) -> dict[str, Any]:
    """A round log as the page shows it: cards with suit signs, each settlement's citation
    linked to the provision on the configuration's date."""
    dealer = log["dealer"] | {"shown": [_card(c) for c in log["dealer"]["cards"]]}
    seats = [
        seat
        | {"hands": [hand | {"shown": [_card(c) for c in hand["cards"]]} for hand in seat["hands"]]}
        for seat in log["seats"]
    ]
    events = [e | {"shown": _card(e["card"]) if e.get("card") else ""} for e in log["events"]]
    settlements = []
    for s in log["settlements"]:
        cited = s.get("citation")
        url = citation_url(cited["jurisdiction"], cited["citation"], as_of) if cited else ""
        settlements.append(s | {"url": url})
    return {"dealer": dealer, "seats": seats, "events": events, "settlements": settlements}


def _problems(exc: Exception) -> list[str]:
    """A refused request's messages, each naming its field."""
    if isinstance(exc, serializers.ValidationError):
        return [
            f"{path}: {message}" if path else message for path, message in _error_paths(exc.detail)
        ]
    if isinstance(exc, DomainError):
        fields = [f"{path}: {message}" for path, message in (exc.fields or {}).items()]
        return [exc.message, *fields]
    raise exc


@login_required
def rounds(request: HttpRequest) -> HttpResponse:
    """Play a round under a configuration's rules, or replay one as it happened (?action=play
    or replay; the request lives in the URL, nothing is stored)."""
    action = request.GET.get("action", "")
    data = request.GET if action else None
    play = PlayForm(data if action == "play" else None, user=request.user, prefix="play")
    replay = ReplayForm(data if action == "replay" else None, user=request.user, prefix="replay")
    result, problems, status = None, [], 200
    form = play if action == "play" else replay if action == "replay" else None
    if form is not None:
        if form.is_valid():
            body = form.request_body()
            try:
                answer = (rounds_play if action == "play" else round_replay)(body)
            except (serializers.ValidationError, DomainError) as exc:
                problems, status = _problems(exc), 400
            else:
                as_of = body["configuration"].get("as_of")
                logs = answer["rounds"] if action == "play" else [answer["round"]]
                result = answer | {
                    "logs": [_round_view(log, _date(as_of)) for log in logs],
                    "findings": _linked(answer["findings"], _date(as_of)),
                }
        else:
            status = 400
    return render(
        request,
        "compliance/rounds.html",
        {
            "play": play,
            "replay": replay,
            "action": action,
            "result": result,
            "problems": problems,
            "as_of": _date(body["configuration"].get("as_of")) if result else None,
        },
        status=status,
    )


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _linked(findings: list[dict[str, Any]], as_of: dt.date | None) -> list[dict[str, Any]]:
    """Findings with each citation's link to the provision on the date."""
    return [
        f
        | {
            "cited": [
                c | {"url": citation_url(c["jurisdiction"], c["citation"], as_of)}
                for c in f.get("citations", [])
            ]
        }
        for f in findings
    ]


# --- simulations ---------------------------------------------------------------------------------


class SimulationForm(_SourceForm):
    rounds = forms.IntegerField(
        min_value=1000,
        max_value=MAX_ROUNDS,
        initial=1_000_000,
        help_text="Rounds to play; split into chunks of a million.",
    )
    seed = forms.IntegerField(
        required=False, min_value=0, help_text="Blank: a random seed, reported with the result."
    )
    effects = forms.BooleanField(
        required=False,
        label="Effect of each rule option",
        help_text="About ten times the work.",
    )

    def request_body(self) -> dict[str, Any]:
        body = super().request_body() | {
            "rounds": self.cleaned_data["rounds"],
            "effects": self.cleaned_data["effects"],
        }
        if self.cleaned_data["seed"] is not None:
            body["seed"] = self.cleaned_data["seed"]
        return body


@login_required
def simulations(request: HttpRequest) -> HttpResponse:
    """Start a simulation job (compliance.simulations.simulation_job_create, as POST
    /api/v1/simulations/) and list the user's jobs."""
    form = SimulationForm(request.POST or None, user=request.user)
    return job_form_page(
        request,
        form,
        simulation_job_create,
        "compliance:simulation",
        "compliance/simulations.html",
        _visible_jobs(request.user),
    )


def job_form_page(
    request: HttpRequest,
    form: Any,
    create: Any,
    job_page: str,
    template: str,
    jobs: QuerySet,
) -> HttpResponse:
    """A page that starts a simulation job from `form` (`create(data=…, user=…)`, the API's
    service) and lists the user's latest `jobs`: on a valid POST the job's page (`job_page`), else
    the form again with why the request was refused (a 400)."""
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            job = create(data=form.request_body(), user=request.user)
        except (serializers.ValidationError, DomainError) as exc:
            problems = _problems(exc)
        else:
            return redirect(job_page, pk=job.pk)
    return render(
        request,
        template,
        {"form": form, "problems": problems, "jobs": jobs[:30]},
        status=400 if request.method == "POST" else 200,
    )


def job_or_404(jobs: QuerySet, pk: Any) -> Any:
    """The job `pk` among those the user may read (`jobs`), else a 404."""
    job = jobs.filter(pk=pk).first()
    if job is None:
        raise Http404("No simulation job of yours has this id.")
    return job


@login_required
def simulation(request: HttpRequest, pk: Any) -> HttpResponse:
    """A simulation job: its progress, polled every second while it runs, then its result."""
    job = job_or_404(_visible_jobs(request.user), pk)
    return render(request, "compliance/simulation.html", {"job": job, **_progress(job)})


@login_required
def simulation_progress(request: HttpRequest, pk: Any) -> HttpResponse:
    """The progress fragment the job page polls (htmx); without polling once the job is over."""
    job = job_or_404(_visible_jobs(request.user), pk)
    return render(request, "compliance/_simulation_progress.html", {"job": job, **_progress(job)})


def _progress(job: SimulationJob) -> dict[str, Any]:
    return {
        "over": job.over,
        "percent": round(100 * job.progress),
        "result": job.result or {},
        "rounds": f"{job.rounds:,}",
        "chunk_rounds": f"{job.chunk_rounds:,}",
    }
