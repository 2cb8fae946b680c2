"""Registers this app's viewsets on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import URLPattern, path

from jurisdictions.api import views
from pitboss.api_router import router

router.register("jurisdictions", views.JurisdictionViewSet, basename="jurisdiction")
router.register("instruments", views.InstrumentViewSet, basename="instrument")

urlpatterns: list[URLPattern] = [
    path("auth/token/", views.TokenObtainApi.as_view(), name="auth-token"),
]
