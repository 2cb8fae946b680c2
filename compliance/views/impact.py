"""The desk's page "Who is affected" (/impact/): the impact of a window of adopted rules, or of a
proposed text, on the floors on file the officer or vendor may see (compliance.impact, as POST
/api/v1/impact/). Over more floors than a request judges (settings.IMPACT_INLINE_FLOORS) it is
a job (compliance.impact_jobs): the page goes to the job's own, which shows its progress, polled
every second, then the same report."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from compliance.api.impact import as_job, impact_read
from compliance.forms import ImpactForm
from compliance.impact import impact as impact_judge
from compliance.impact_jobs import impact_job_create, impact_jobs_of
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
                judged = _judged(request, form.request_body())
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                if isinstance(judged, HttpResponse):
                    return judged
                answer = judged
        if answer is None:
            status = 400
    context = {"form": form, "answer": answer}
    return render(request, "compliance/impact.html", context, status=status)


def _proposed(request: HttpRequest) -> HttpResponse:
    """?jurisdiction=&proposed=47.1-834.23&as_of=: a proposed text against the adopted rules on a
    date (as a provision's "Proposed against adopted" links here)."""
    change = {"kind": "proposed", "citation": request.GET["proposed"]}
    if request.GET.get("as_of"):
        change["as_of"] = request.GET["as_of"]
    body = {"jurisdiction": request.GET.get("jurisdiction", ""), "change": change}
    answer, problem = None, ""
    try:
        judged = _judged(request, body)
    except DomainError as exc:
        problem = exc.message
    else:
        if isinstance(judged, HttpResponse):
            return judged
        answer = judged
    context = {"form": ImpactForm(), "answer": answer, "problem": problem}
    return render(request, "compliance/impact.html", context, status=400 if problem else 200)


def _judged(request: HttpRequest, body: dict[str, Any]) -> dict[str, Any] | HttpResponse:
    """The impact `body` asks for, judged now with its citations linked; over many floors, a
    job made and its page to go to.

    :raises DomainError: the request cannot be judged (the queue unreachable, for a job)."""
    asked = impact_read(body, request.user)
    if as_job(asked):
        job = impact_job_create(
            user=request.user, jurisdiction=asked.jurisdiction, asked=body, floors=len(asked.floors)
        )
        return redirect("compliance:impact-job", job.pk)
    return cited_linked(impact_judge(asked.change, asked.floors, heads=asked.heads))


def cited_linked(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer, each finding's citations with the address of the rule cited, as of the
    change's later side (a window's end, a proposed text's or a recorded change's date)."""
    change = answer["change"]
    on = dt.date.fromisoformat(
        change.get("as_of") or change.get("to", "")[:10] or timezone.localdate().isoformat()
    )
    findings_linked(answer["affected"], lambda table: on)
    return answer


def findings_linked(
    affected: list[dict[str, Any]], on: Callable[[dict[str, Any]], dt.date]
) -> None:
    """Each finding of each affected table given `cited`: its citations, each with the address
    of the rule cited as of the date `on(table)` gives."""
    for floor in affected:
        for table in floor["tables"]:
            day = on(table)
            for finding in table["new_findings"] + table["cleared_findings"]:
                finding["cited"] = [
                    c | {"url": citation_url(c["jurisdiction"], c["citation"], day)}
                    for c in finding["citations"]
                ]


@login_required
def impact_job(request: HttpRequest, pk: Any) -> HttpResponse:
    """An impact judged as a job: its progress, polled every second while it runs, then its
    report. Only the user who asked sees it."""
    job = get_object_or_404(impact_jobs_of(request.user), pk=pk)
    return render(request, "compliance/impact_job.html", _job_context(job))


@login_required
def impact_job_progress(request: HttpRequest, pk: Any) -> HttpResponse:
    """The fragment the job page polls (htmx); without polling once the job is over."""
    job = get_object_or_404(impact_jobs_of(request.user), pk=pk)
    return render(request, "compliance/_impact_job_progress.html", _job_context(job))


def _job_context(job: Any) -> dict[str, Any]:
    answer = cited_linked(dict(job.result)) if job.status == "done" else None
    return {"job": job, "answer": answer}
