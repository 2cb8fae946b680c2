"""Writes: instruments, the compliance officer group, API users."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group, Permission, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from rest_framework.authtoken.models import Token
from simple_history.models import HistoricalChanges

from jurisdictions.apps import KNOWLEDGE_BASE_APPS
from jurisdictions.models import Instrument
from pitboss.concurrency import edit_locked

COMPLIANCE_OFFICER_GROUP = "compliance officer"


def instrument_create(*, data: Mapping[str, Any]) -> Instrument:
    """Create an instrument from validated field values."""
    return _instrument_save(Instrument(), data)


def instrument_update(
    *,
    instrument: Instrument,
    data: Mapping[str, Any],
    user: Any = None,
    revision: str | None = None,
) -> Instrument:
    """Change an instrument's fields to the given values; history records who did it. With
    `revision` (pitboss.concurrency.revision as the editor loaded it), only if nobody changed the
    instrument since.

    :raises pitboss.concurrency.EditConflict: the instrument is no longer at `revision`.
    """
    attempt = ", ".join(f"{field}={value}" for field, value in data.items())
    return edit_locked(
        instrument,
        revision,
        lambda current: _instrument_save(current, data),
        user=user,
        attempt=attempt,
    )


@transaction.atomic
def _instrument_save(instrument: Instrument, data: Mapping[str, Any]) -> Instrument:
    for field, value in data.items():
        setattr(instrument, field, value)
    instrument.full_clean()
    instrument.save()
    return instrument


def compliance_officer_group_sync(*, using: str = "default") -> None:
    """Give the compliance officer group add/change/delete/view on every knowledge-base model.

    Historical (record-time) models are left out: nobody edits history. Does nothing if the group
    does not exist (its migration is unapplied).
    """
    group = Group.objects.using(using).filter(name=COMPLIANCE_OFFICER_GROUP).first()
    if group is None:
        return
    models = [
        model
        for label in KNOWLEDGE_BASE_APPS
        if apps.is_installed(label)  # not so outside a test's available_apps
        for model in apps.get_app_config(label).get_models()
        if not issubclass(model, HistoricalChanges)
    ]
    content_types = ContentType.objects.db_manager(using).get_for_models(*models).values()
    permissions = Permission.objects.using(using).filter(content_type__in=content_types)
    group.permissions.add(*permissions)


@transaction.atomic
def api_user_create(
    *, username: str, password: str | None = None, officer: bool = False
) -> tuple[User, Token]:
    """Create a user with an API token; an officer also joins the compliance officer group.

    Without a password the user can use the API token only. Raises ValidationError for a taken or
    malformed username or a weak password.
    """
    user = User(username=username, is_staff=officer)  # officers edit in the admin too
    if password is None:
        user.set_unusable_password()
    else:
        validate_password(password, user)
        user.set_password(password)
    user.full_clean()
    user.save()
    if officer:
        user.groups.add(Group.objects.get(name=COMPLIANCE_OFFICER_GROUP))
    return user, Token.objects.create(user=user)
