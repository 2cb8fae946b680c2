from __future__ import annotations

from django.apps import AppConfig


class VariantsConfig(AppConfig):
    """Games, wagers, paytables, constraints and options: the structured facts, each cited."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "variants"

    def ready(self) -> None:
        # A provision's page lists the catalog facts citing it (regs cannot import variants).
        from regs.citing import register

        from .provision_facts import catalog_facts_citing

        register(catalog_facts_citing)

        # A catalog fact written: told to the watch once its transaction commits.
        from .recording import catalog_writes_connect

        catalog_writes_connect()
