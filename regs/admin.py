"""Admin for the rule text. Every change is recorded with its user (django-simple-history), and
a stale edit is refused (pitboss/admin.py)."""

from __future__ import annotations

from django.contrib import admin

from pitboss.admin import EditCheckedAdmin, EditCheckedStackedInline, EditCheckedTabularInline

from .models import Annotation, Citation, Event, Provision, SourceDocument, Unit, UnitVersion


class CitationInline(EditCheckedTabularInline):
    model = Citation
    extra = 0
    fields = ["label", "effective_from", "effective_to", "status", "basis"]


class UnitInline(EditCheckedTabularInline):
    model = Unit
    extra = 0
    fields = ["path", "order"]
    show_change_link = True


@admin.register(Provision)
class ProvisionAdmin(EditCheckedAdmin):
    list_display = ["key", "title", "instrument", "order"]
    list_filter = ["instrument__jurisdiction", "instrument"]
    search_fields = ["key", "title", "citations__label"]
    inlines = [CitationInline, UnitInline]


class VersionInline(EditCheckedStackedInline):
    model = UnitVersion
    extra = 0
    fields = [
        "status",
        "effective_from",
        "effective_to",
        "on_file",
        "text",
        "ambiguous",
        "source",
        "page",
        "line",
    ]


class EventInline(EditCheckedTabularInline):
    model = Event
    extra = 0
    fields = ["order", "kind", "date", "permanent", "subject", "new_label", "raw", "ambiguous"]


class AnnotationInline(EditCheckedTabularInline):
    model = Annotation
    extra = 0
    fields = ["kind", "text"]


@admin.register(Unit)
class UnitAdmin(EditCheckedAdmin):
    list_display = ["__str__", "provision", "path"]
    list_filter = ["provision__instrument"]
    search_fields = ["provision__key", "provision__title", "path"]
    inlines = [VersionInline, EventInline, AnnotationInline]


@admin.register(UnitVersion)
class UnitVersionAdmin(EditCheckedAdmin):
    list_display = ["unit", "status", "effective_from", "effective_to", "on_file"]
    list_filter = ["status", "on_file", "unit__provision__instrument"]
    search_fields = ["text", "unit__provision__key"]
    raw_id_fields = ["unit", "source"]


@admin.register(Citation)
class CitationAdmin(EditCheckedAdmin):
    list_display = ["label", "provision", "effective_from", "effective_to", "status"]
    search_fields = ["label", "provision__title"]
    raw_id_fields = ["provision"]


@admin.register(Annotation)
class AnnotationAdmin(EditCheckedAdmin):
    list_display = ["unit", "kind", "text"]
    list_filter = ["kind"]
    search_fields = ["text", "unit__provision__key"]
    raw_id_fields = ["unit"]


@admin.register(SourceDocument)
class SourceDocumentAdmin(EditCheckedAdmin):
    list_display = ["name", "instrument", "kind", "status", "pages", "ingested_at"]
    readonly_fields = ["sha256", "ingested_at", "report"]
