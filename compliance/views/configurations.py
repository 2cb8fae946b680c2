"""The configuration form: build a floor table by table (compliance.forms) or upload it as JSON,
validate it as POST /api/v1/validations/ does, and show every error beside its field.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.forms.utils import ErrorDict, ErrorList
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from compliance import selectors
from compliance.api.configuration import configuration_parse
from compliance.forms import (
    ConfigurationForm,
    SideWagerFormSet,
    TableFormSet,
    UploadForm,
    blank_form_data,
    catalog_choices,
    configuration_from_forms,
    flat_name,
    form_data_from_configuration,
    side_prefix,
)
from compliance.models import ValidationRun
from compliance.services import validation_run_create
from pitboss.errors import DomainError, InvalidInput

from .refusals import error_paths


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
        found = selectors.samples().get(sample)
        if found is None:
            raise Http404(f"No sample configuration {sample}.")
        return form_data_from_configuration(found)
    if run_id:
        return form_data_from_configuration(
            selectors.validation_run_or_404(request.user, run_id).configuration
        )
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
            "samples": list(selectors.samples()),
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
        _contract_errors_too(bound)
        return None
    body, rows = configuration_from_forms(config, tables.forms, [s.forms for s in sides])
    try:
        return validation_run_create(configuration=configuration_parse(body), user=user)
    except InvalidInput as exc:
        for path, message in error_paths(exc.detail):
            _attach(path, message, bound, rows)
    except DomainError as exc:
        config.add_error(None, exc.message)
    return None


def _contract_errors_too(bound: dict[str, Any]) -> None:
    """The forms refused some fields: the contract's errors of the others beside them too, so
    every error shows at once ("banana" in one field and a 13-digit amount in another). The
    refused fields are read as left blank; an error on a field already refused is not added."""
    config, tables, sides = bound["config"], bound["tables"], bound["sides"]
    every = [config, *tables.forms, *(f for s in sides for f in s.forms)]
    if any(not hasattr(form, "cleaned_data") for form in every):
        return  # a formset's own management data refused: nothing to read
    for form in every:
        for name, field in form.fields.items():
            if name in form.errors or name not in form.cleaned_data:
                form.cleaned_data[name] = _blank(field)
    if not config.cleaned_data["jurisdiction"]:
        return
    if config.cleaned_data["as_of"] is None:
        config.cleaned_data["as_of"] = timezone.localdate()
    try:
        body, rows = configuration_from_forms(config, tables.forms, [s.forms for s in sides])
        configuration_parse(body)
    except InvalidInput as exc:
        for path, message in error_paths(exc.detail):
            _attach(path, message, bound, rows, only_free=True)
    except (DomainError, KeyError, TypeError, ValueError):
        pass  # what the forms refused leaves nothing the contract can read


def _blank(field: Any) -> Any:
    """What a refused field is read as: left blank."""
    if isinstance(field, forms.BooleanField):
        return False
    if isinstance(field, forms.MultipleChoiceField):
        return []
    if isinstance(field, forms.CharField | forms.ChoiceField):
        return ""
    return None


_SIDE = re.compile(r"tables\[(\d+)\]\.side_wagers\[(\d+)\]\.(\w+)(?:\.(\w+))?")


_TABLE = re.compile(r"tables\[(\d+)\]\.(\w+)(?:\.(\w+))?")


def _attach(
    path: str, message: str, bound: dict[str, Any], rows: dict[Any, int], *, only_free: bool = False
) -> None:
    """Put a service error beside the form field its path names; else on the form, with the
    path. `only_free`: not beside a field that has an error already, nor on the form."""
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
    if only_free and (name in forms_.errors or name not in forms_.fields):
        return
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
                run = validation_run_create(
                    configuration=configuration_parse(data), user=request.user
                )
            except InvalidInput as exc:
                for path, message in error_paths(exc.detail):
                    upload.add_error("file", f"{path}: {message}" if path else message)
            except DomainError as exc:
                upload.add_error("file", exc.message)
            else:
                return redirect("compliance:run", pk=run.pk)
    return _form_page(request, bound, upload, False, status=400)
