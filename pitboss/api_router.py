"""The one router of /api/v1/. Each app's `api/urls.py` registers its viewsets on it."""

from __future__ import annotations

from rest_framework.routers import DefaultRouter

router = DefaultRouter()
