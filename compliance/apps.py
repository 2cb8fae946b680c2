from __future__ import annotations

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Table configurations, validation runs and findings, signage, round checks."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "compliance"

    def ready(self) -> None:
        # Register the Celery tasks, which compliance.jobs sends by name.
        from compliance import tasks  # noqa: F401
