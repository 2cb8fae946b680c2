"""URLs. An app plugs its API in with one `include` line in `api_v1` below.

The app's `<app>/api/urls.py` registers its viewsets on `pitboss.api_router.router` and lists any
plain APIViews in its own `urlpatterns`. `router.urls` comes last, after every include has
imported (and so registered) its app's viewsets.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from pitboss.api_router import router

api_v1: list[URLPattern | URLResolver] = [
    path("", include("jurisdictions.api.urls")),
    path("", include("regs.api.urls")),
    path("", include("variants.api.urls")),
    path("", include("compliance.api.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("", include(router.urls)),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include(api_v1)),
    path("accounts/", include("django.contrib.auth.urls")),
    path("catalog/", include("variants.urls")),
    path("", include("compliance.urls")),
    path("", include("jurisdictions.urls")),
    path("", include("variants.diff_urls")),
    path("", include("regs.urls")),  # last: its /<jurisdiction>/… addresses catch the rest
]

handler404 = "pitboss.api.page_not_found"
handler500 = "pitboss.api.server_error"
