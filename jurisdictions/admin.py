from __future__ import annotations

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from jurisdictions.models import Instrument, Jurisdiction


class InstrumentInline(admin.TabularInline):
    model = Instrument
    extra = 0
    fields = ["name", "title", "slug", "citation_scheme"]
    show_change_link = True


@admin.register(Jurisdiction)
class JurisdictionAdmin(SimpleHistoryAdmin):
    list_display = ["code", "name", "regulator"]
    search_fields = ["code", "name", "regulator"]
    inlines = [InstrumentInline]


@admin.register(Instrument)
class InstrumentAdmin(SimpleHistoryAdmin):
    list_display = ["name", "title", "jurisdiction", "slug", "citation_scheme"]
    list_filter = ["jurisdiction"]
    list_select_related = ["jurisdiction"]
    search_fields = ["name", "title", "slug"]
    prepopulated_fields = {"slug": ["name"]}
