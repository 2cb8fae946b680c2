"""The admin of the knowledge base and catalog: every change recorded with its user
(django-simple-history), and checked for conflicts as the API and the annotation form are
(pitboss/concurrency.py): an officer saving a record someone else changed since it was loaded
gets a form error, nothing is saved, and the refused attempt is kept in the record's history.
The rows edited inline on a record's page (a paytable's entries, a unit's versions) are checked
the same way, each row against the revision it was loaded at (EditCheckedInline)."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from pitboss.concurrency import EditConflict, refusal_record, revision


class RevisionCheckedForm(forms.ModelForm):
    """A change form carrying the revision of the record its editor loaded. The admin validates
    and saves the form in one transaction (ModelAdmin.changeform_view), so the record, locked in
    clean(), cannot change between the check and the save."""

    revision = forms.CharField(widget=forms.HiddenInput, required=False)
    editor: Any = None  # the user saving, set by EditCheckedAdmin.get_form

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial["revision"] = revision(self.instance)

    def clean(self) -> dict[str, Any]:
        cleaned = cast(dict[str, Any], super().clean())  # ModelForm's: its cleaned_data
        loaded = cleaned.get("revision")
        if self.instance.pk is None or not loaded:  # adding, or no revision: nothing to check
            return cleaned
        model = type(self.instance)
        current = model._default_manager.select_for_update().get(pk=self.instance.pk)
        if revision(current) != loaded:
            attempt = ", ".join(
                f"{name}={cleaned.get(name)}" for name in self.changed_data if name != "revision"
            )
            refusal_record(current, user=self.editor, attempt=f"admin: {attempt or 'no change'}")
            raise forms.ValidationError(
                EditConflict(str(current), revision(current)).message, code="edit_conflict"
            )
        return cleaned


class EditCheckedAdmin(SimpleHistoryAdmin):
    """SimpleHistoryAdmin whose change form refuses a stale edit (RevisionCheckedForm)."""

    form = RevisionCheckedForm

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm]:
        form = super().get_form(request, obj, change=change, **kwargs)
        return type(form.__name__, (form,), {"editor": request.user})


class EditCheckedInline(admin.options.InlineModelAdmin):
    """An inline whose rows refuse a stale edit (RevisionCheckedForm): a row someone else changed
    since the page was loaded is not written back over, whatever the rest of the page holds."""

    form = RevisionCheckedForm

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        """The inline's fields and the revision each row was loaded at (hidden)."""
        return [*super().get_fields(request, obj), "revision"]

    def get_formset(
        self, request: HttpRequest, obj: Any = None, **kwargs: Any
    ) -> type[BaseInlineFormSet]:
        formset = super().get_formset(request, obj, **kwargs)
        form = type(formset.form.__name__, (formset.form,), {"editor": request.user})
        return type(formset.__name__, (formset,), {"form": form})


class EditCheckedTabularInline(EditCheckedInline, admin.TabularInline):
    pass


class EditCheckedStackedInline(EditCheckedInline, admin.StackedInline):
    pass
