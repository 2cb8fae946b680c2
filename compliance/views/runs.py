"""Validation runs: a run's report (findings with citations, each table's base-game and side-wager
analyses), its JSON, the history of runs by licensee, and the signs of a run.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from compliance import selectors
from compliance.api.configuration import configuration_parse
from compliance.api.serializers import ValidationOut
from compliance.forms import (
    DecisionForm,
    SignsForm,
)
from compliance.models import SignSet, ValidationRun
from compliance.services import NotCompliant, sign_set_create, validation_run_decide
from compliance.signage_render import SIZES, sign_set_html, sign_set_pdf
from jurisdictions.web import citation_url, user_role
from pitboss.errors import DomainError


@login_required
def run(request: HttpRequest, pk: Any) -> HttpResponse:
    """A validation report: compliant or not, every finding with its citations linked to the
    provision as of the run's date."""
    found = selectors.validation_run_or_404(request.user, pk)
    context = _run_context(found) | _decision_context(request, found, None)
    return render(request, "compliance/run.html", context)


def _decision_context(
    request: HttpRequest, run: ValidationRun, form: DecisionForm | None
) -> dict[str, Any]:
    """The run's status, and for an officer of its jurisdiction while it is submitted, the form
    that decides on it."""
    decides = run.status == ValidationRun.Status.SUBMITTED and selectors.decides_for(
        request.user, run.jurisdiction
    )
    if decides and form is None:
        form = DecisionForm(initial={"date": timezone.localdate()})
    return {"decision_form": form if decides else None}


@login_required
@require_POST
def run_decision(request: HttpRequest, pk: Any) -> HttpResponse:
    """An officer approves or rejects a run (compliance.services.validation_run_decide, as POST
    /api/v1/validations/{id}/decision/); refused, the report again with why beside the form."""
    found = selectors.validation_run_or_404(request.user, pk)
    form = DecisionForm(request.POST)
    if form.is_valid():
        try:
            validation_run_decide(
                run=found,
                status=form.cleaned_data["status"],
                on=form.cleaned_data["date"],
                note=form.cleaned_data["note"],
                user=request.user,
            )
        except DomainError as exc:
            for field, message in (exc.fields or {}).items():
                form.add_error(field if field in form.fields else None, message)
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Run {found.status} on {found.decided_on:%Y-%m-%d}.")
            return redirect("compliance:run", pk=found.pk)
    context = _run_context(found) | _decision_context(request, found, form)
    return render(request, "compliance/run.html", context, status=400)


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
            # the same par sheet as a spreadsheet (the run stores the PDF's address)
            "par_sheet_csv": (side.get("par_sheet") or "").replace("format=pdf", "format=csv"),
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
    found = selectors.validation_run_or_404(request.user, pk)
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
    visible = selectors.validation_runs_listed_for(request.user)
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


@login_required
@require_POST
def run_signs(request: HttpRequest, pk: Any) -> HttpResponse:
    """Print a run's signs (compliance.services.sign_set_create, as POST /api/v1/signage/):
    stored, then shown as a preview or a PDF."""
    found = selectors.validation_run_or_404(request.user, pk)
    form = SignsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose a format and a size for the signs.")
        return redirect("compliance:run", pk=found.pk)
    options = form.cleaned_data
    try:
        sign_set = sign_set_create(
            configuration=configuration_parse(found.configuration),
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
    if sign_set is None or not selectors.validation_runs_listed_for(request.user).filter(
        pk=sign_set.validation_id
    ):
        raise Http404("No sign set of yours has this id.")
    size = request.GET.get("size", "letter")
    size = size if size in SIZES else "letter"
    if request.GET.get("format") == "pdf":
        response = HttpResponse(sign_set_pdf(sign_set, size=size), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="signs-{sign_set.pk}.pdf"'
        return response
    return HttpResponse(sign_set_html(sign_set, size=size), content_type="text/html; charset=utf-8")
