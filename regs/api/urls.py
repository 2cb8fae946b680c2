"""Registers the rule-text API on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import path

from pitboss.api_router import router
from regs.api import diff_views, views

router.register("provisions", views.ProvisionViewSet, basename="provision")

urlpatterns = [
    path("citations/resolve/", views.CitationResolveView.as_view(), name="citation-resolve"),
    path("diff/provision/", diff_views.ProvisionDiffView.as_view(), name="diff-provision"),
    path("diff/proposed/", diff_views.ProposedDiffView.as_view(), name="diff-proposed"),
    path("diff/instrument/", diff_views.InstrumentDiffView.as_view(), name="diff-instrument"),
]
