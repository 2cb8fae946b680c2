"""Simulation jobs of a table's base game and rule effects (compliance.simulations) with their
progress, and the pieces the paytable simulations' pages share (job_form_page, job_or_404).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from compliance import selectors
from compliance.api.requests import SimulationIn, request_parse
from compliance.forms import (
    SimulationForm,
)
from compliance.models import SimulationJob
from compliance.simulations import simulation_job_create
from pitboss.errors import DomainError

from .refusals import errors_beside


@login_required
def simulations(request: HttpRequest) -> HttpResponse:
    """Start a simulation job (compliance.simulations.simulation_job_create, as POST
    /api/v1/simulations/) and list the user's jobs."""
    form = SimulationForm(request.POST or None, user=request.user)
    return job_form_page(
        request,
        form,
        functools.partial(request_parse, SimulationIn),
        simulation_job_create,
        "compliance:simulation",
        "compliance/simulations.html",
        selectors.simulation_jobs_visible_to(request.user),
    )


def job_form_page(
    request: HttpRequest,
    form: Any,
    parse: Callable[[Any], dict[str, Any]],
    create: Any,
    job_page: str,
    template: str,
    jobs: QuerySet,
) -> HttpResponse:
    """A page that starts a simulation job from `form` (its request checked as the API checks
    it, by `parse`, then `create(**values, user=…)`, the API's service) and lists the
    user's latest `jobs`: on a valid POST the job's page (`job_page`), else the form again with
    why the request was refused (a 400)."""
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            job = create(**parse(form.request_body()), user=request.user)
        except DomainError as exc:
            problems = errors_beside(form, exc)
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
    job = job_or_404(selectors.simulation_jobs_visible_to(request.user), pk)
    return render(request, "compliance/simulation.html", {"job": job, **_progress(job)})


@login_required
def simulation_progress(request: HttpRequest, pk: Any) -> HttpResponse:
    """The progress fragment the job page polls (htmx); without polling once the job is over."""
    job = job_or_404(selectors.simulation_jobs_visible_to(request.user), pk)
    return render(request, "compliance/_simulation_progress.html", {"job": job, **_progress(job)})


def _progress(job: SimulationJob) -> dict[str, Any]:
    return {
        "over": job.over,
        "percent": round(100 * job.progress),
        "result": job.result or {},
        "rounds": f"{job.rounds:,}",
        "chunk_rounds": f"{job.chunk_rounds:,}",
    }
