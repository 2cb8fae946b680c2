from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate

from jurisdictions.roles import OFFICER_EDITABLE_APPS


def _sync_role_groups(sender: AppConfig, using: str, **kwargs: Any) -> None:
    # Django creates each app's permissions on that app's post_migrate, so sync after each of ours.
    if sender.label in OFFICER_EDITABLE_APPS:
        from jurisdictions.services import role_groups_sync

        role_groups_sync(using=using)


class JurisdictionsConfig(AppConfig):
    """Jurisdictions, their regulators and the instruments (regulations) they publish."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "jurisdictions"

    def ready(self) -> None:
        post_migrate.connect(_sync_role_groups, dispatch_uid="jurisdictions.sync_role_groups")
