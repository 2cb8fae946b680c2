"""The compliance desk's web pages: build or upload a table configuration and read its
validation report (compliance.services, as POST /api/v1/validations/), the history of runs by
licensee, the signs of a run (signage), rounds played or replayed (compliance.rounds), and
simulation jobs with their progress (compliance.simulations)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.forms.utils import ErrorDict, ErrorList
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST
from rest_framework import serializers

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
from compliance.services import NotCompliant, sign_set_create, validation_run_create
from compliance.signage_render import SIZES, sign_set_html, sign_set_pdf
from jurisdictions.services import COMPLIANCE_OFFICER_GROUP
from pitboss.errors import DomainError
from pitboss.web import citation_url

SAMPLES = Path(settings.BASE_DIR) / "fixtures" / "configs"
"""The sample configurations a form, a round or a simulation may start from."""


# --- who sees what -------------------------------------------------------------------------------


def _is_officer(user: Any) -> bool:
    return bool(user.is_superuser or user.groups.filter(name=COMPLIANCE_OFFICER_GROUP).exists())


def _visible_runs(user: Any) -> QuerySet[ValidationRun]:
    """The validation runs a user may read: an officer all, a vendor only those it created."""
    runs = ValidationRun.objects.select_related("created_by")
    return runs if _is_officer(user) else runs.filter(created_by=user)


def _visible_jobs(user: Any) -> QuerySet[SimulationJob]:
    """The simulation jobs a user may read, by the same rule as runs."""
    jobs = SimulationJob.objects.all()
    return jobs if _is_officer(user) else jobs.filter(created_by=user)


def _run_or_404(user: Any, pk: Any) -> ValidationRun:
    run = _visible_runs(user).filter(pk=pk).first()
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
        help_text="A configuration as the API takes it (DESIGN.md contract v1).",
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
        n = int(data.get("tables-TOTAL_FORMS") or 0)
        data["tables-TOTAL_FORMS"] = str(n + 1)
        data[f"tables-{n}-game"] = "blackjack"
        data[f"{side_prefix(n)}-TOTAL_FORMS"] = "3"
        data[f"{side_prefix(n)}-INITIAL_FORMS"] = "0"
    elif match := re.fullmatch(r"add_side-(\d+)", action):
        key = f"{side_prefix(int(match.group(1)))}-TOTAL_FORMS"
        data[key] = str(int(data.get(key) or 0) + 1)
    return data


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
    return render(
        request,
        "compliance/configuration_form.html",
        {**bound, "upload": upload, "show_errors": show_errors, "samples": list(samples())},
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
    return {
        "run": run,
        "licensee": run.configuration.get("licensee", ""),
        "tables": [t.get("name", "") for t in run.configuration.get("tables", [])],
        "findings": findings,
        "counts": counts,
        "knowledge_base": sorted(run.knowledge_base.items()),
        "sizes": list(SIZES),
    }


@login_required
def run_json(request: HttpRequest, pk: Any, what: str) -> HttpResponse:
    """The run (as GET /api/v1/validations/{id}/ gives it) or its configuration, as a file."""
    found = _run_or_404(request.user, pk)
    body = found.configuration if what == "configuration" else ValidationOut(found).data
    response = JsonResponse(body, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{what}-{found.pk}.json"'
    return response


@login_required
def runs(request: HttpRequest) -> HttpResponse:
    """The history of validation runs the user may see, by licensee (?licensee= filters)."""
    visible = _visible_runs(request.user)
    licensees = sorted(
        {r.get("licensee") or "" for r in visible.values_list("configuration", flat=True)}
    )
    chosen = request.GET.get("licensee")
    shown = (
        list(visible[:500])
        if chosen is None
        else [r for r in visible if (r.configuration.get("licensee") or "") == chosen]
    )
    groups: dict[str, list[ValidationRun]] = {}
    for each in shown:
        groups.setdefault(each.configuration.get("licensee") or "", []).append(each)
    return render(
        request,
        "compliance/runs.html",
        {
            "groups": sorted(groups.items()),
            "licensees": licensees,
            "chosen": chosen,
            "officer": _is_officer(request.user),
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
