"""The desk's page "Who is affected" (/impact/): the impact of a window of adopted rules on the
floors on file the officer or vendor may see (compliance.impact, as POST /api/v1/impact/)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from compliance.api.impact import impact_asked
from compliance.forms import ImpactForm
from jurisdictions.web import citation_url
from pitboss.errors import DomainError


@login_required
def impact(request: HttpRequest) -> HttpResponse:
    """The form (the rules, from, to: in the URL, so a diff page can link here) and, once asked,
    each affected configuration with what the change does to each of its tables."""
    if "proposed" in request.GET:
        return _proposed(request)
    form = ImpactForm(request.GET or None)
    answer, status = None, 200
    if form.is_bound:
        if form.is_valid():
            try:
                answer = impact_asked(form.request_body(), request.user)
            except DomainError as exc:
                form.add_error(None, exc.message)
        if answer is None:
            status = 400
    if answer is not None:
        end = form.cleaned_data["end"]
        for floor in answer["affected"]:
            for table in floor["tables"]:
                for finding in table["new_findings"] + table["cleared_findings"]:
                    finding["cited"] = [
                        c | {"url": citation_url(c["jurisdiction"], c["citation"], end)}
                        for c in finding["citations"]
                    ]
    context = {"form": form, "answer": answer}
    return render(request, "compliance/impact.html", context, status=status)


def _proposed(request: HttpRequest) -> HttpResponse:
    """?jurisdiction=&proposed=47.1-834.23&as_of=: a proposed text against the adopted rules on a
    date (as a provision's "Proposed against adopted" links here)."""
    change = {"kind": "proposed", "citation": request.GET["proposed"]}
    if request.GET.get("as_of"):
        change["as_of"] = request.GET["as_of"]
    body = {"jurisdiction": request.GET.get("jurisdiction", ""), "change": change}
    form = ImpactForm()
    answer, problem = None, ""
    try:
        answer = impact_asked(body, request.user)
    except DomainError as exc:
        problem = exc.message
    context = {"form": form, "answer": answer, "problem": problem}
    return render(request, "compliance/impact.html", context, status=400 if problem else 200)
