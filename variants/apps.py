from __future__ import annotations

from django.apps import AppConfig


class VariantsConfig(AppConfig):
    """Games, wagers, paytables, constraints and options: the structured facts, each cited."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "variants"
