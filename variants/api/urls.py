"""Registers the catalog API on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path, re_path

from pitboss.api_router import router
from variants.api import diff_views, views

router.register("wagers", views.WagerViewSet, basename="wager")
router.register("paytables", views.PaytableViewSet, basename="paytable")

urlpatterns: list[URLPattern] = [
    re_path(
        r"^paytables/(?P<pk>[\w./-]+)/analysis/$",
        views.PaytableAnalysisApi.as_view(),
        name="paytable-analysis",
    ),
    re_path(
        r"^paytables/(?P<pk>[\w./-]+)/par-sheet/$",
        views.PaytableParSheetApi.as_view(),
        name="paytable-par-sheet",
    ),
    path("analysis/", views.AnalysisApi.as_view(), name="analysis"),
    path("diff/wager/", diff_views.WagerDiffView.as_view(), name="diff-wager"),
    path("diff/topic/", diff_views.TopicDiffView.as_view(), name="diff-topic"),
    path("diff/records/", diff_views.RecordsDiffView.as_view(), name="diff-records"),
]
