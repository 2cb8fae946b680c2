from __future__ import annotations

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Table configurations, validation runs and findings, signage, round checks."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "compliance"
