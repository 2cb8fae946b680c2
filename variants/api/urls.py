"""Registers the catalog API on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from pitboss.api_router import router
from variants.api import views

router.register("wagers", views.WagerViewSet, basename="wager")
router.register("paytables", views.PaytableViewSet, basename="paytable")

urlpatterns: list[URLPattern] = [
    re_path(
        r"^paytables/(?P<pk>[\w./-]+)/analysis/$",
        views.PaytableAnalysisApi.as_view(),
        name="paytable-analysis",
    ),
    path("analysis/", views.AnalysisApi.as_view(), name="analysis"),
]
