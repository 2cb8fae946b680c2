"""Writes: instruments, the role groups, API users and their tokens.

Roles are groups (created by migrations 0003 and 0005; their permissions are synced after every
migrate):

- reader: anonymous visitors, or a login in the "reader" group: reads the published rules,
  catalog and analyses; submits nothing.
- vendor: submits configurations (validations, sign sets, simulations, rounds) and sees only
  its own submissions.
- compliance officer: edits the knowledge base and catalog (model permissions, any jurisdiction,
  every edit in the record history), and sees every submission of the jurisdictions it is an
  officer of (`Jurisdiction.officers`), besides its own.
- admin: a superuser; every permission, every submission.

Who sees which submission is decided in one place, compliance.selectors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group, Permission, User
from django.contrib.auth.password_validation import validate_password
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model
from rest_framework.authtoken.models import Token
from simple_history.models import HistoricalChanges

from jurisdictions.models import Instrument, Jurisdiction
from jurisdictions.roles import OFFICER_EDITABLE_APPS, VENDOR_PERMISSIONS
from jurisdictions.tokens import token_is_expired
from pitboss.concurrency import edit_locked

COMPLIANCE_OFFICER_GROUP = "compliance officer"
VENDOR_GROUP = "vendor"
READER_GROUP = "reader"


# What a vendor may do: submit configurations and read the results (its own: compliance.selectors).
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


def role_groups_sync(*, using: str = "default") -> None:
    """Give each role group its permissions: the compliance officer group add/change/delete/view
    on every knowledge-base model (not the historical models: nobody edits history); the vendor
    group VENDOR_PERMISSIONS. A group whose migration is unapplied is left alone."""
    officer = Group.objects.using(using).filter(name=COMPLIANCE_OFFICER_GROUP).first()
    if officer is not None:
        officer.permissions.add(*_knowledge_base_permissions(using))
    vendor = Group.objects.using(using).filter(name=VENDOR_GROUP).first()
    if vendor is not None:
        vendor.permissions.add(
            *Permission.objects.using(using).filter(
                content_type__app_label__in=list(VENDOR_PERMISSIONS),
                codename__in=[c for codes in VENDOR_PERMISSIONS.values() for c in codes],
            )
        )


def _knowledge_base_permissions(using: str) -> list[Permission]:
    models: list[type[Model]] = [
        model
        for label in OFFICER_EDITABLE_APPS
        if apps.is_installed(label)  # not so outside a test's available_apps
        for model in apps.get_app_config(label).get_models()
        if not issubclass(model, HistoricalChanges)
    ]
    content_types = ContentType.objects.db_manager(using).get_for_models(*models).values()
    return list(Permission.objects.using(using).filter(content_type__in=content_types))


@transaction.atomic
def api_user_create(
    *,
    username: str,
    password: str | None = None,
    officer: bool = False,
    jurisdictions: Iterable[str] = (),
) -> tuple[User, Token]:
    """Create a user with an API token: a vendor, or with `officer` a compliance officer of the
    `jurisdictions` named by code (it sees their submissions).

    Without a password the user can use the API token only. Raises ValidationError for a taken or
    malformed username, a weak password or an unknown jurisdiction code.
    """
    codes = sorted(set(jurisdictions))
    found = list(Jurisdiction.objects.filter(code__in=codes))
    unknown = sorted(set(codes) - {j.code for j in found})
    if unknown:
        raise ValidationError(f"Unknown jurisdiction {', '.join(unknown)}.")
    if codes and not officer:
        raise ValidationError("Only a compliance officer has jurisdictions.")
    user = User(username=username, is_staff=officer)  # officers edit in the admin too
    if password is None:
        user.set_unusable_password()
    else:
        validate_password(password, user)
        user.set_password(password)
    user.full_clean()
    user.save()
    user.groups.add(Group.objects.get(name=COMPLIANCE_OFFICER_GROUP if officer else VENDOR_GROUP))
    user.officer_of.add(*found)
    return user, Token.objects.create(user=user)


@transaction.atomic
def api_token_rotate(*, user: User) -> Token:
    """Give `user` a new API token; the old one, if any, stops working at once."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


def api_token_revoke(*, user: User) -> bool:
    """Delete `user`'s API token, so requests sending it get 401; False if it had none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def api_token_for_login(*, user: User) -> Token:
    """The token to hand a user who has just given their password: theirs, or a new one if they
    have none or theirs has expired."""
    token = Token.objects.filter(user=user).first()
    if token is None or token_is_expired(token):
        return api_token_rotate(user=user)
    return token
