"""The compliance desk's pages: /configurations/, /rounds/, /simulations/ and
/simulations/paytables/ (compliance/views/, by area)."""

from __future__ import annotations

from django.urls import path, re_path

from compliance import views

app_name = "compliance"

urlpatterns = [
    path("configurations/", views.configurations, name="configurations"),
    path("configurations/runs/", views.runs, name="runs"),
    path("configurations/runs/<uuid:pk>/", views.run, name="run"),
    re_path(
        r"^configurations/runs/(?P<pk>[0-9a-f-]{36})/(?P<what>configuration|run)\.json$",
        views.run_json,
        name="run-json",
    ),
    path("configurations/runs/<uuid:pk>/signs/", views.run_signs, name="run-signs"),
    path("configurations/runs/<uuid:pk>/decision/", views.run_decision, name="run-decision"),
    path("configurations/signs/<uuid:pk>/", views.signs, name="signs"),
]

urlpatterns += [
    path("impact/", views.impact, name="impact"),
    path("impact/jobs/<uuid:pk>/", views.impact_job, name="impact-job"),
    path("impact/jobs/<uuid:pk>/progress/", views.impact_job_progress, name="impact-job-progress"),
    path("impact/changes/", views.impact_changes, name="impact-changes"),
    path("impact/changes/<uuid:pk>/", views.impact_change, name="impact-change"),
    path("watch/", views.watch, name="watch"),
    path("watch/<int:pk>/end/", views.watch_end, name="watch-end"),
    path("rounds/", views.rounds, name="rounds"),
    path("simulations/", views.simulations, name="simulations"),
    path("simulations/<uuid:pk>/", views.simulation, name="simulation"),
    path("simulations/<uuid:pk>/progress/", views.simulation_progress, name="simulation-progress"),
    path(
        "simulations/paytables/",
        views.paytable_simulations,
        name="paytable-simulations",
    ),
    path(
        "simulations/paytables/<uuid:pk>/",
        views.paytable_simulation,
        name="paytable-simulation",
    ),
    path(
        "simulations/paytables/<uuid:pk>/progress/",
        views.paytable_simulation_progress,
        name="paytable-simulation-progress",
    ),
]
