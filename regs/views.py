"""The reader's pages of the rule text: jurisdictions, instruments and provisions as of a date,
citations, search, what changed, and officers' annotation edits. Views parse the address and the
query, call the selectors and services the API calls, and render.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, cast
from urllib.parse import quote, urlencode

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from jurisdictions.models import Jurisdiction
from jurisdictions.web import citation_url, page_as_of
from pitboss.concurrency import EditConflict, revision
from pitboss.errors import DomainError
from pitboss.kbcache import cached_read

from . import reading, selectors, services
from .diff import selectors as diffs
from .diff.redline import html_redline, with_tables
from .forms import AnnotationForm, InstrumentDiffForm, ProvisionDiffForm, SearchForm
from .models import Annotation, Status
from .search import SYNTAX, rule_text_search, words_left_out

_DATED = re.compile(r"^(?P<label>.*?)@(?P<date>[^@]*)$")


def provision_url(
    jurisdiction: str, instrument: str, label: str, as_of: dt.date | None = None
) -> str:
    """A provision's address: /us-co/rule-8/30-899.23@2017-01-01 (no date: as of today)."""
    address = f"/{jurisdiction.lower()}/{instrument}/{quote(label, safe='()-.¶')}"
    return f"{address}@{as_of.isoformat()}" if as_of else address


def unit_anchor(path: str) -> str:
    """The id of a unit on its provision's page: u-(3)(b); "" for the section itself."""
    return f"u-{path}" if path else ""


def _jurisdiction(code: str) -> Jurisdiction:
    found = Jurisdiction.objects.filter(code=code.upper()).first()
    if found is None:
        known = ", ".join(j.lower() for j in Jurisdiction.objects.values_list("code", flat=True))
        raise Http404(f"There is no jurisdiction “{code}”. Jurisdictions: {known}.")
    return found


def _split_date(label: str) -> tuple[str, dt.date | None]:
    """ "30-899.23@2017-01-01" → ("30-899.23", 2017-01-01); no @: (label, None)."""
    match = _DATED.match(label)
    if match is None:
        return label, None
    try:
        return match["label"], dt.date.fromisoformat(match["date"])
    except ValueError:
        raise Http404(
            f"“{match['date']}” is not a date: give a citation as of a date as "
            f"LABEL@YYYY-MM-DD, e.g. 30-899.23@2017-01-01."
        ) from None


def _not_found(error: DomainError) -> Http404:
    return Http404(error.message)


@cached_read
def jurisdiction_page(request: HttpRequest, jurisdiction: str) -> HttpResponse:
    """A jurisdiction's instruments."""
    found = _jurisdiction(jurisdiction)
    return render(
        request,
        "regs/jurisdiction.html",
        {"jurisdiction": found, "instruments": found.instruments.all()},
    )


@cached_read
def instrument_page(request: HttpRequest, jurisdiction: str, instrument: str) -> HttpResponse:
    """An instrument's contents as of `?as_of=`: each provision's label that day, title, state."""
    found = _jurisdiction(jurisdiction)
    try:
        inst = reading.instrument_get(jurisdiction=found.code, slug=instrument)
    except DomainError as error:
        raise _not_found(error) from None
    as_of, message = page_as_of(request)
    states = reading.instrument_contents(instrument=inst, as_of=as_of)
    rows = [
        {
            "state": s,
            "url": provision_url(found.code, inst.slug, s.citation, as_of),
        }
        for s in states
    ]
    return render(
        request,
        "regs/instrument.html",
        {
            "jurisdiction": found,
            "instrument": inst,
            "as_of": as_of,
            "message": message,
            "rows": rows,
        },
    )


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() else None


@cached_read
def provision_page(
    request: HttpRequest, jurisdiction: str, instrument: str, label: str
) -> HttpResponse:
    """A provision as of the date in its address, unit by unit, with its history and what cites
    it. `?as_of=` (the date control) redirects to the address of that date."""
    found = _jurisdiction(jurisdiction)
    label, dated = _split_date(label)
    today = timezone.localdate()
    provision_id = _int(request.GET.get("provision"))
    if "as_of" in request.GET:
        as_of, message = page_as_of(request)
        if message:
            messages.warning(request, message)
        return _redirect_to_date(found, instrument, label, as_of, today, provision_id)
    as_of = dated or today
    try:
        page = reading.provision_reading(
            jurisdiction=found.code,
            label=label,
            as_of=as_of,
            today=today,
            provision_id=provision_id,
        )
    except (selectors.UnknownCitation, selectors.UnknownSubsection) as error:
        raise _not_found(error) from None
    if page.instrument.slug != instrument:
        return redirect(provision_url(found.code, page.instrument.slug, label, dated))
    state = page.state
    return render(
        request,
        "regs/provision.html",
        {
            "jurisdiction": found,
            "page": page,
            "state": state,
            "as_of": as_of,
            "dated": dated,
            "today": today,
            "shown_label": page.asked if page.proposed else state.citation,
            "units": [
                {
                    "unit": u,
                    "anchor": unit_anchor(u.path),
                    "target": bool(page.target) and u.path == page.target,
                    "depth": min(u.path.count("("), 4),
                }
                for u in state.units
            ],
            "annotations": _annotations(state),
            "labels": _label_history(page, today),
            "reused": [
                {**m, "url": citation_url(found.code, str(m["label"]), _inside(m))}
                for m in page.reused
            ],
            "instrument_url": f"/{found.code.lower()}/{page.instrument.slug}/?as_of={as_of}",
            "current_url": provision_url(found.code, page.instrument.slug, state.current_citation),
            "action": provision_url(found.code, page.instrument.slug, label),
            "can_edit": request.user.has_perm("regs.change_annotation"),
            "proposed_diff": _proposed_diff_link(found.code, page, as_of),
            "impact_url": _version_impact_url(found.code, page),
        },
    )


def _version_impact_url(code: str, page: reading.ProvisionReading) -> str:
    """Who is affected by the latest change of the provision in force on the page's date (the
    day before its newest unit's version against that version's first day)."""
    dates = [u.effective_from for u in page.state.units if u.effective_from]
    if page.proposed or not dates:
        return ""
    changed = max(dates)
    return impact_url(code, page.instrument.slug, changed - dt.timedelta(days=1), changed)


def _inside(meaning: dict[str, object]) -> dt.date | None:
    """A date inside the period a label named a provision: its first day, else its last."""
    start, end = meaning.get("effective_from"), meaning.get("effective_to")
    if isinstance(start, dt.date):
        return start
    if isinstance(end, dt.date):
        return end - dt.timedelta(days=1)
    return None


def _annotations(state: selectors.ProvisionState) -> list[dict[str, Any]]:
    by_path = {u.path: u.citation for u in state.units}
    return [
        {**a, "citation": by_path.get(str(a["unit"]), state.citation)} for a in state.annotations
    ]


def _label_history(page: reading.ProvisionReading, today: dt.date) -> list[dict[str, Any]]:
    """The provision's labels for the header: now …, formerly … (dates), proposed as …."""
    labels = []
    for c in page.state.citations:
        if c.status == Status.PROPOSED:
            role = "proposed as"
        elif c.effective_to is not None and c.effective_to <= today:
            role = "formerly"
        elif c.effective_from is not None and c.effective_from > today:
            role = "from"
        else:
            role = "now"
        labels.append({"role": role, "citation": c})
    order = {"now": 0, "formerly": 1, "from": 2, "proposed as": 3}
    return sorted(labels, key=lambda item: order[item["role"]])


def _proposed_diff_link(code: str, page: reading.ProvisionReading, as_of: dt.date) -> str:
    proposed = [c.label for c in page.state.citations if c.status == Status.PROPOSED]
    if not proposed:
        return ""
    query = {"jurisdiction": code, "citation": proposed[0], "left": "proposed", "right": as_of}
    return f"{reverse('regs:diff-provision')}?{urlencode(query)}"


def _redirect_to_date(
    jurisdiction: Jurisdiction,
    instrument: str,
    label: str,
    as_of: dt.date,
    today: dt.date,
    provision_id: int | None,
) -> HttpResponse:
    """The address of the same provision on another date, under the label it bore that day."""
    section, path = selectors.normalise_label(label)
    try:
        if provision_id is None:
            provision_id = selectors.citation_resolve(
                jurisdiction=jurisdiction.code, citation=label, as_of=as_of, today=today
            ).provision.pk
        records = selectors.provision_records([provision_id])
        if not records:
            raise Http404(f"There is no provision {provision_id}.")
        record = records[0]
        proposed = {c.status for c in record.citations if c.label == section} == {Status.PROPOSED}
        new = section if proposed else selectors.provision_state(record, as_of=as_of).citation
        cited = f"{new}{path}" if path else new
        named = selectors.citation_resolve(
            jurisdiction=jurisdiction.code, citation=cited, as_of=as_of, today=today
        ).provision.pk
    except selectors.UnknownCitation as error:
        raise _not_found(error) from None
    url = provision_url(jurisdiction.code, instrument, cited, as_of)
    if named != provision_id:  # the label named another provision that day (a reused label)
        url += f"?provision={provision_id}"
    return HttpResponseRedirect(url)


@cached_read
def cite(request: HttpRequest, jurisdiction: str, citation: str) -> HttpResponse:
    """A citation as of a date (/us-co/cite/30-899.23(4)@2017-01-01): the provision's page,
    at the unit cited."""
    found = _jurisdiction(jurisdiction)
    label, dated = _split_date(citation)
    today = timezone.localdate()
    try:
        resolution = selectors.citation_resolve(
            jurisdiction=found.code, citation=label, as_of=dated or today, today=today
        )
    except selectors.UnknownCitation as error:
        raise _not_found(error) from None
    slug = resolution.provision.instrument.slug
    section, path = selectors.normalise_label(label)
    url = provision_url(found.code, slug, section, dated)
    anchor = unit_anchor(path)
    return HttpResponseRedirect(f"{url}#{anchor}" if anchor else url)


def search(request: HttpRequest) -> HttpResponse:
    """Search the rule text in force on a date, across jurisdictions and instruments."""
    form = SearchForm(request.GET or None)
    as_of, message = page_as_of(request)
    hits: list[Any] = []
    total = 0
    q = ""
    if form.is_valid():
        q = form.cleaned_data["q"]
        jurisdiction = form.cleaned_data["jurisdiction"] or None
        hits, total = rule_text_search(q=q, as_of=as_of, jurisdiction=jurisdiction)
    slugs = _instrument_slugs()
    results = [
        {
            "hit": h,
            "url": provision_url(
                h.state.jurisdiction,
                slugs[(h.state.jurisdiction, h.state.instrument)],
                h.state.citation,
                as_of,
            ),
        }
        for h in hits
    ]
    if not form.is_bound:
        form = SearchForm(initial={"as_of": as_of})
    return render(
        request,
        "regs/search.html",
        {
            "form": form,
            "q": q,
            "as_of": as_of,
            "message": message,
            "results": results,
            "total": total,
            "left_out": words_left_out(q),
            "syntax": SYNTAX.get(connection.vendor, SYNTAX["sqlite"]),
        },
    )


def _instrument_slugs() -> dict[tuple[str, str], str]:
    from jurisdictions.models import Instrument

    return {
        (code, name): slug
        for code, name, slug in Instrument.objects.values_list("jurisdiction__code", "name", "slug")
    }


# -------------------------------------------------------------------------------------------
# What changed


def diff_index(request: HttpRequest) -> HttpResponse:
    """The diff forms: a provision on two sides, an instrument's changes, proposed against
    adopted; jurisdictions side by side are the catalog's (variants_diff:facts)."""
    today = timezone.localdate()
    return render(
        request,
        "regs/diff_index.html",
        {
            "provision_form": ProvisionDiffForm(
                initial={"jurisdiction": "US-CO", "citation": "30-899.23", "left": "2017-01-01"}
            ),
            "proposed_form": ProvisionDiffForm(
                initial={
                    "jurisdiction": "US-CO",
                    "citation": "47.1-834.23",
                    "left": "proposed",
                    "right": today.isoformat(),
                },
                prefix="p",
            ),
            "instrument_form": InstrumentDiffForm(
                initial={
                    "instrument": "US-CO/rule-8",
                    "start": dt.date(2016, 1, 1),
                    "end": dt.date(2022, 1, 1),
                }
            ),
            "facts_url": _facts_url(),
        },
    )


def impact_url(code: str, slug: str | None, start: dt.date, end: dt.date) -> str:
    """The desk's "Who is affected" by the change of a jurisdiction's rules (or an instrument's)
    from `start` to `end`; "" where the desk is not installed."""
    rules = f"{code}/{slug}" if slug else code
    return _installed_url("compliance:impact", {"rules": rules, "start": start, "end": end})


def _installed_url(name: str, query: dict[str, Any] | None = None) -> str:
    """The address of another app's page (the catalog's, the desk's), with `query`; "" where
    that app's pages are not installed."""
    try:
        page = reverse(name)
    except Exception:  # noqa: BLE001 - the app's pages may not be installed
        return ""
    return f"{page}?{urlencode(query)}" if query else page


def _facts_url() -> str:
    return _installed_url("variants_diff:facts")


def diff_provision(request: HttpRequest) -> HttpResponse:
    """A provision's text on two sides (two dates, or proposed and a date): the redline and
    the changes, substantive and editorial apart, with the dated notes between."""
    data = request.GET.copy()
    provision_id = _int(data.get("provision"))
    if provision_id is not None:  # from an instrument's change list: the provision by id
        records = selectors.provision_records([provision_id])
        if not records:
            raise Http404(f"There is no provision {provision_id}.")
        state = selectors.provision_state(records[0], as_of=timezone.localdate())
        data["jurisdiction"] = records[0].jurisdiction
        data.setdefault("citation", state.current_citation)
    form = ProvisionDiffForm(data)
    diff = None
    error = ""
    if form.is_valid():
        values = form.cleaned_data
        right = values.get("right") or timezone.localdate()
        as_of = right if isinstance(right, dt.date) else timezone.localdate()
        try:
            record, path = diffs.provision_record(
                jurisdiction=values["jurisdiction"],
                citation=values["citation"],
                provision=provision_id,
                as_of=as_of,
                today=timezone.localdate(),
            )
            diff = diffs.provision_diff(
                record=diffs.restrict(record, path), left=values["left"], right=right
            )
        except (selectors.UnknownCitation, selectors.UnknownSubsection) as e:
            form.add_error("citation", e.message)
        except DomainError as e:
            field = next(iter(e.fields or {}), None)
            if field in form.fields:
                form.add_error(field, e.message)
            else:
                error = e.message
    context: dict[str, Any] = {"form": form, "diff": diff, "error": error}
    if diff is not None:
        context.update(
            redline=with_tables(html_redline(diff.text, changed_only=True)),
            substantive=[c for c in diff.changes if c.substantive],
            editorial=[c for c in diff.changes if not c.substantive],
            left_url=_side_url(diff, diff.left),
            right_url=_side_url(diff, diff.right),
            impact_url=_diff_impact_url(diff),
        )
    return render(request, "regs/diff_provision.html", context)


def proposed_impact_url(code: str, label: str, as_of: str) -> str:
    """The desk's "Who is affected" by a proposed text (its label) against the adopted rules on
    `as_of`; "" where the desk is not installed."""
    section = label.split("(", 1)[0]
    return _installed_url(
        "compliance:impact", {"jurisdiction": code, "proposed": section, "as_of": as_of}
    )


def _diff_impact_url(diff: diffs.ProvisionDiff) -> str:
    """Who is affected by the provision's instrument's changes between the two dates, or by the
    proposed text against the adopted rules of the other side's date."""
    code = str(diff.provision["jurisdiction"])
    sides = (diff.left, diff.right)
    proposed = [s for s in sides if s.version == diffs.PROPOSED]
    if proposed:
        adopted = [s.version for s in sides if s.version != diffs.PROPOSED]
        return proposed_impact_url(code, proposed[0].citation, adopted[0]) if adopted else ""
    slug = _instrument_slugs()[(code, str(diff.provision["instrument"]))]
    try:
        start, end = sorted(dt.date.fromisoformat(s.version) for s in (diff.left, diff.right))
    except ValueError:  # a side without a date (Massachusetts' undated rules)
        return ""
    return impact_url(code, slug, start, end) if start < end else ""


def _side_url(diff: diffs.ProvisionDiff, side: diffs.ProvisionSide) -> str:
    slugs = _instrument_slugs()
    code = str(diff.provision["jurisdiction"])
    slug = slugs[(code, str(diff.provision["instrument"]))]
    if side.version == diffs.PROPOSED:
        return provision_url(code, slug, side.citation)
    return provision_url(code, slug, side.citation, dt.date.fromisoformat(side.version))


def diff_instrument(request: HttpRequest) -> HttpResponse:
    """What changed in an instrument in a window: each change with its date, kind, note and a
    link to its provision's diff."""
    form = InstrumentDiffForm(request.GET)
    diff = None
    rows = []
    if form.is_valid():
        code, slug = form.cleaned_data["instrument"].split("/", 1)
        try:
            diff = diffs.instrument_diff(
                jurisdiction=code,
                instrument=slug,
                start=form.cleaned_data["start"],
                end=form.cleaned_data["end"],
            )
        except DomainError as e:
            form.add_error("instrument", e.message)
        if diff is not None:
            page = reverse("regs:diff-provision")
            rows = [
                {
                    "change": c,
                    "diff_url": f"{page}?{c.link.split('?', 1)[1]}",
                    **_cited_then(code, slug, c),
                }
                for c in diff.changes
            ]
    field = cast(forms.ChoiceField, form.fields["instrument"])
    choices = cast(list[tuple[object, str]], field.choices)  # InstrumentDiffForm's
    title = dict(choices).get(form.data.get("instrument"), "")
    return render(
        request,
        "regs/diff_instrument.html",
        {
            "form": form,
            "diff": diff,
            "rows": rows,
            "title": title,
            "impact_url": impact_url(code, slug, diff.start, diff.end) if diff else "",
        },
    )


def _cited_then(code: str, slug: str, change: diffs.InstrumentChange) -> dict[str, str]:
    """The changed unit under its label on the change's date, and its page on that date."""
    side = change.right or change.left or {}
    cited = str(side.get("citation") or f"{change.provision['citation']}{change.unit}")
    section, path = selectors.normalise_label(cited)
    anchor = unit_anchor(path)
    url = provision_url(code, slug, section, change.date)
    return {"cited": cited, "provision_url": f"{url}#{anchor}" if anchor else url}


# -------------------------------------------------------------------------------------------
# Officers' edits


@login_required
def annotation_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """An officer edits an annotation's text; the change is kept in the record history with
    her name. Others get a 403."""
    if not request.user.has_perm("regs.change_annotation"):
        raise PermissionDenied("Only compliance officers may edit the knowledge base.")
    annotation = get_object_or_404(
        Annotation.objects.select_related("unit__provision__instrument__jurisdiction"), pk=pk
    )
    back = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    provision = annotation.unit.provision
    if not back:
        current = selectors.provision_state(
            selectors.provision_records([provision.pk])[0], as_of=timezone.localdate()
        ).current_citation
        back = provision_url(
            provision.instrument.jurisdiction.code, provision.instrument.slug, current
        )
    form = AnnotationForm(
        request.POST or None, instance=annotation, initial={"revision": revision(annotation)}
    )
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.annotation_update(
                annotation=annotation,
                text=form.cleaned_data["text"],
                user=request.user,
                revision=form.cleaned_data["revision"] or None,
            )
        except EditConflict:
            annotation.refresh_from_db()
            form.add_error(
                None,
                "Someone else changed this annotation since you opened it, so your edit was not "
                f"saved. The current text is: “{annotation.text}”. Apply your change to it and "
                "save again.",
            )
            data = cast(QueryDict, form.data).copy()  # the request's POST
            data["revision"] = revision(annotation)
            form.data = data
            status = 409
        else:
            messages.success(
                request, "The annotation is saved; the record history shows your edit."
            )
            return HttpResponseRedirect(back)
    return render(
        request,
        "regs/annotation_edit.html",
        {"form": form, "annotation": annotation, "provision": provision, "next": back},
        status=status,
    )
