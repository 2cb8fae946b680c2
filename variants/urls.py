"""The catalog's pages under /catalog/ (jurisdictions.web.wager_url and paytable_url build
them)."""

from __future__ import annotations

from django.urls import path

from variants import views

app_name = "variants"

urlpatterns = [
    path("", views.catalog, name="catalog"),
    path("paytables/<path:key>/", views.paytable, name="paytable"),
    path("<str:jurisdiction>/<slug:slug>/", views.wager, name="wager"),
]
