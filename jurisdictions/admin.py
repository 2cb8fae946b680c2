from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from jurisdictions.models import Instrument, Jurisdiction
from pitboss.admin import EditCheckedAdmin, EditCheckedTabularInline


class InstrumentInline(EditCheckedTabularInline):
    model = Instrument
    extra = 0
    fields = ["name", "title", "slug", "citation_scheme"]
    show_change_link = True


@admin.register(Jurisdiction)
class JurisdictionAdmin(EditCheckedAdmin):
    list_display = ["code", "name", "regulator"]
    search_fields = ["code", "name", "regulator"]
    inlines = [InstrumentInline]
    filter_horizontal = ["officers"]

    def get_exclude(self, request: HttpRequest, obj: Any = None) -> list[str]:
        """Only an administrator says who the officers are: an officer (staff, with the change
        permission) cannot widen whose submissions it sees."""
        return [] if request.user.is_superuser else ["officers"]


@admin.register(Instrument)
class InstrumentAdmin(EditCheckedAdmin):
    list_display = ["name", "title", "jurisdiction", "slug", "citation_scheme"]
    list_filter = ["jurisdiction"]
    list_select_related = ["jurisdiction"]
    search_fields = ["name", "title", "slug"]
    prepopulated_fields = {"slug": ["name"]}
