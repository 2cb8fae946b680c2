"""Registers the catalog API on the /api/v1/ router; see pitboss/urls.py."""

from __future__ import annotations

from django.urls import URLPattern

from pitboss.api_router import router
from variants.api import views

router.register("wagers", views.WagerViewSet, basename="wager")
router.register("paytables", views.PaytableViewSet, basename="paytable")

urlpatterns: list[URLPattern] = []
