"""Admin for the catalog: wagers, paytables, constraints, play rules and posting requirements.
Every change is recorded with its user, and a stale edit is refused (pitboss/admin.py)."""

from __future__ import annotations

from django.contrib import admin

from pitboss.admin import EditCheckedAdmin, EditCheckedTabularInline

from .models import Constraint, Paytable, PaytableEntry, PlayRule, PostingRequirement, Wager


@admin.register(Wager)
class WagerAdmin(EditCheckedAdmin):
    list_display = ["slug", "name", "jurisdiction", "kind"]
    list_filter = ["jurisdiction", "kind"]
    search_fields = ["slug", "name"]
    raw_id_fields = ["provision"]


class PaytableEntryInline(EditCheckedTabularInline):
    model = PaytableEntry
    extra = 0
    fields = ["order", "outcome", "label", "column", "pays"]


@admin.register(Paytable)
class PaytableAdmin(EditCheckedAdmin):
    list_display = ["key", "label", "wager", "effective_from", "effective_to"]
    list_filter = ["wager__jurisdiction"]
    search_fields = ["key", "label"]
    raw_id_fields = ["provision", "wager"]
    inlines = [PaytableEntryInline]


@admin.register(Constraint)
class ConstraintAdmin(EditCheckedAdmin):
    list_display = ["code", "kind", "severity", "jurisdiction"]
    list_filter = ["jurisdiction", "kind", "severity"]
    search_fields = ["code", "message"]
    raw_id_fields = ["provision", "wager"]


@admin.register(PlayRule)
class PlayRuleAdmin(EditCheckedAdmin):
    list_display = ["key", "wager", "jurisdiction", "summary"]
    list_filter = ["jurisdiction"]
    search_fields = ["key", "summary"]
    raw_id_fields = ["provision", "wager"]


@admin.register(PostingRequirement)
class PostingRequirementAdmin(EditCheckedAdmin):
    list_display = ["code", "notice", "jurisdiction", "what"]
    list_filter = ["jurisdiction", "notice"]
    search_fields = ["code", "what"]
    raw_id_fields = ["provision", "wager"]
