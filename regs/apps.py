from __future__ import annotations

from django.apps import AppConfig


class RegsConfig(AppConfig):
    """Provisions, citations, versions and filings of each instrument."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "regs"
