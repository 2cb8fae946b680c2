"""The catalog's diff page (namespace `variants_diff`): jurisdictions side by side by wager or
rule topic. Apart from variants/urls.py (the catalog's pages) so each can change alone."""

from __future__ import annotations

from django.urls import path

from variants import diff_pages

app_name = "variants_diff"

urlpatterns = [
    path("diff/facts/", diff_pages.facts_diff, name="facts"),
]
