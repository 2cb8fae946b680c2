"""The desk's pages for paytable simulations (/simulations/paytables/): start a simulation of a
paytable no exact method settles (STREAK, Burnout Bonus; compliance.paytable_simulations, as POST
/api/v1/paytable-simulations/) and watch it, its progress polled until each spot's house edge is
in, a decimal with its standard error."""

from __future__ import annotations

import functools
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from compliance import selectors
from compliance.api.requests import PaytableSimulationIn, request_parse
from compliance.models import PaytableSimulationJob
from compliance.paytable_simulations import (
    MAX_ROUNDS,
    MIN_REQUEST_ROUNDS,
    paytable_simulation_create,
    paytable_simulation_result,
)
from engine.streak import MIN_ROUNDS, STREAK_WAGERS
from variants import selectors as catalog

from .simulations import job_form_page, job_or_404


def _paytable_choices() -> list[tuple[str, str]]:
    paytables = catalog.paytables().filter(wager__slug__in=list(STREAK_WAGERS))
    return [
        (p.key, f"{p.wager.jurisdiction.code} · {p.wager.name} · {p.label}")
        for p in paytables.select_related("wager__jurisdiction").order_by("key")
    ]


class PaytableSimulationForm(forms.Form):
    paytable = forms.ChoiceField(help_text="A paytable no exact method settles.")
    decks = forms.IntegerField(
        required=False,
        min_value=1,
        help_text="Blank: every deck count the paytable is played at.",
    )
    rounds = forms.IntegerField(
        min_value=MIN_REQUEST_ROUNDS,
        max_value=MAX_ROUNDS,
        initial=MIN_ROUNDS,
        help_text="Rounds at each deck count; 100,000,000 for a figure to file.",
    )
    seed = forms.IntegerField(
        required=False, min_value=0, help_text="Blank: a random seed, reported with the result."
    )
    continuous_shuffler = forms.BooleanField(
        required=False,
        label="Continuous shuffler",
        help_text="Every round dealt from all the cards; else a shoe cut at three quarters.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["paytable"].choices = _paytable_choices()  # type: ignore[attr-defined]

    def request_body(self) -> dict[str, Any]:
        """The form as the API's request body (blank fields left out)."""
        body = {
            "paytable": self.cleaned_data["paytable"],
            "rounds": self.cleaned_data["rounds"],
            "continuous_shuffler": self.cleaned_data["continuous_shuffler"],
        }
        for name in ("decks", "seed"):
            if self.cleaned_data[name] is not None:
                body[name] = self.cleaned_data[name]
        return body


@login_required
def paytable_simulations(request: HttpRequest) -> HttpResponse:
    """Start a paytable simulation job (?paytable= chooses the paytable) and list the user's."""
    initial = {"paytable": request.GET.get("paytable", "")}
    return job_form_page(
        request,
        PaytableSimulationForm(request.POST or None, initial=initial),
        functools.partial(request_parse, PaytableSimulationIn),
        paytable_simulation_create,
        "compliance:paytable-simulation",
        "compliance/paytable_simulations.html",
        selectors.paytable_simulation_jobs_visible_to(request.user),
    )


@login_required
def paytable_simulation(request: HttpRequest, pk: Any) -> HttpResponse:
    """A paytable simulation job: its progress, polled every second while it runs, then each
    spot's house edge at each deck count."""
    job = job_or_404(selectors.paytable_simulation_jobs_visible_to(request.user), pk)
    return render(request, "compliance/paytable_simulation.html", {"job": job, **_progress(job)})


@login_required
def paytable_simulation_progress(request: HttpRequest, pk: Any) -> HttpResponse:
    """The progress fragment the job page polls (htmx); without polling once the job is over."""
    job = job_or_404(selectors.paytable_simulation_jobs_visible_to(request.user), pk)
    return render(
        request, "compliance/_paytable_simulation_progress.html", {"job": job, **_progress(job)}
    )


def _progress(job: PaytableSimulationJob) -> dict[str, Any]:
    result = paytable_simulation_result(job) or {}
    return {
        "over": job.over,
        "percent": round(100 * job.progress),
        "result": result,
        "spots": [{**a, "settled": f"{a['combinations']:,}"} for a in result.get("analyses", [])],
        "rounds": f"{job.rounds:,}",
        "decks": ", ".join(map(str, job.decks)),
    }
