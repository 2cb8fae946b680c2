from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from rest_framework.authtoken.models import Token

from jurisdictions.services import COMPLIANCE_OFFICER_GROUP, VENDOR_GROUP

pytestmark = pytest.mark.django_db


def test_the_officer_group_may_edit_the_knowledge_base_but_not_its_history() -> None:
    codenames = set(
        Group.objects.get(name=COMPLIANCE_OFFICER_GROUP).permissions.values_list(
            "codename", flat=True
        )
    )

    assert {"add_instrument", "change_instrument", "delete_instrument", "view_jurisdiction"} <= (
        codenames
    )
    assert not {c for c in codenames if "historical" in c}


def test_create_officer_prints_a_token_of_an_officer(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("create_officer", "olga", password="correct-horse-battery")

    token = Token.objects.get(key=capsys.readouterr().out.strip())
    assert token.user.username == "olga"
    assert token.user.groups.filter(name=COMPLIANCE_OFFICER_GROUP).exists()
    assert token.user.check_password("correct-horse-battery")


def test_create_vendor_prints_a_token_of_a_vendor_without_password(
    capsys: pytest.CaptureFixture[str],
) -> None:
    call_command("create_vendor", "acme")

    user = Token.objects.get(key=capsys.readouterr().out.strip()).user
    assert (user.username, user.has_usable_password()) == ("acme", False)
    assert list(user.groups.values_list("name", flat=True)) == [VENDOR_GROUP]
