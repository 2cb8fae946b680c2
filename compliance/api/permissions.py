"""Who may call the compliance API: the submit permissions of the vendor and officer groups for
writes, any logged-in user for reads (what each sees: compliance.selectors).
"""

from __future__ import annotations

from typing import Any

from django.db import connection
from rest_framework import permissions
from rest_framework.request import Request


class SubmitsOrReadsVisible(permissions.IsAuthenticated):
    """Logged in (token or session); a POST also needs the view's `submit_permission`, which
    vendors, compliance officers and admins hold. What a GET finds is narrowed by
    compliance.selectors, so another's submission is a 404."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        required = getattr(view, "submit_permission", None)  # None: a read-only view (405)
        if request.method in permissions.SAFE_METHODS or required is None:
            return True
        return holds_permission(request.user, required)


# Whether a user holds a permission, directly or through a group (Django's auth tables). Plain
# SQL: the same question through the ORM, an OR across two many-to-many joins, takes five times
# its CPU to compile (about a millisecond).
_HOLDS_PERMISSION = """
SELECT EXISTS (
    SELECT 1 FROM auth_permission p JOIN django_content_type t ON t.id = p.content_type_id
    WHERE t.app_label = %s AND p.codename = %s AND (
        p.id IN (SELECT permission_id FROM auth_user_user_permissions WHERE user_id = %s)
        OR p.id IN (
            SELECT g.permission_id FROM auth_group_permissions g
            JOIN auth_user_groups u ON u.group_id = g.group_id WHERE u.user_id = %s
        )
    )
)"""


def holds_permission(user: Any, perm: str) -> bool:
    """`user.has_perm(perm)` as Django's ModelBackend (the project's only authentication backend)
    answers it: an active superuser holds every permission, an active user its own and its
    groups'. In one query, where ModelBackend reads all the user's and all its groups'
    permissions in two (kept on the user object, which is new at every request)."""
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    app_label, codename = perm.split(".", 1)
    with connection.cursor() as cursor:
        cursor.execute(_HOLDS_PERMISSION, [app_label, codename, user.pk, user.pk])
        return bool(cursor.fetchone()[0])
