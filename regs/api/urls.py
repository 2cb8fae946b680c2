"""Registers the rule-text API on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import path

from pitboss.api_router import router
from regs.api import views

router.register("provisions", views.ProvisionViewSet, basename="provision")

urlpatterns = [
    path("citations/resolve/", views.CitationResolveView.as_view(), name="citation-resolve"),
]
