"""Create the "reader" and "vendor" role groups (the "compliance officer" group exists since 0003)
and put every existing API user who has no role into "vendor", as create_vendor now does.

The groups' permissions come from jurisdictions.services.role_groups_sync after migrate (Django
creates permissions only then). Reversing deletes the two groups and so their memberships.
"""

from __future__ import annotations

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

READER, VENDOR = "reader", "vendor"


def create_groups(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    User = apps.get_model("auth", "User")
    Group.objects.get_or_create(name=READER)
    vendor, _ = Group.objects.get_or_create(name=VENDOR)
    # API users made by create_vendor before roles existed: a token, no password, no group.
    for user in User.objects.filter(
        auth_token__isnull=False, groups__isnull=True, is_superuser=False, is_staff=False
    ):
        user.groups.add(vendor)


def delete_groups(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("auth", "Group").objects.filter(name__in=[READER, VENDOR]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("jurisdictions", "0004_jurisdiction_officers"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
