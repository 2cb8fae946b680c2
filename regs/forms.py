"""Forms of the reader's pages: the as-of date, search, the diff requests, an annotation edit."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from django import forms

from jurisdictions.models import Instrument, Jurisdiction

from .diff.selectors import PROPOSED
from .models import Annotation


def _jurisdictions() -> list[tuple[str, str]]:
    return [(j.code, f"{j.name} ({j.code})") for j in Jurisdiction.objects.order_by("code")]


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class SearchForm(forms.Form):
    q = forms.CharField(label="Words", max_length=200, required=False)
    jurisdiction = forms.ChoiceField(label="Jurisdiction", required=False)
    as_of = forms.DateField(label="As of", required=False, widget=DateInput())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["jurisdiction"]).choices = [
            ("", "All jurisdictions"),
            *_jurisdictions(),
        ]
        self.fields["q"].widget.attrs.update({"type": "search", "placeholder": "e.g. soft 17"})


class VersionField(forms.CharField):
    """A side of a provision diff: a date YYYY-MM-DD or "proposed"."""

    def to_python(self, value: Any) -> dt.date | str | None:  # type: ignore[override]
        value = cast(str, super().to_python(value)).strip()  # "" for no value
        if not value:
            return None
        if value.lower() == PROPOSED:
            return PROPOSED
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            raise forms.ValidationError(
                'Give a date YYYY-MM-DD (the text in force that day) or "proposed".'
            ) from None


class ProvisionDiffForm(forms.Form):
    jurisdiction = forms.ChoiceField(label="Jurisdiction")
    citation = forms.CharField(
        label="Citation", max_length=60, help_text="Old or new: 30-899.23, 47.1-834.23, 30-803(3)."
    )
    left = VersionField(label="From", help_text='A date YYYY-MM-DD or "proposed".')
    right = VersionField(label="To", required=False, help_text="A date; today if empty.")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["jurisdiction"]).choices = _jurisdictions()
        # A side that is a date is picked from a calendar; "proposed" stays a word to type
        for side in ("left", "right"):
            value = (
                self.data.get(self.add_prefix(side))
                if self.is_bound
                else self.initial.get(side, "")
            )
            if str(value or "").strip().lower() != PROPOSED:
                self.fields[side].widget = DateInput()
                self.fields[side].help_text = (
                    "The text in force that day."
                    if side == "left"
                    else "The text in force that day; today if empty."
                )

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form's: its cleaned_data
        left, right = data.get("left"), data.get("right")
        if isinstance(left, dt.date) and isinstance(right, dt.date) and left > right:
            self.add_error("left", f"{left} is after {right}: give the earlier date first.")
        return data


class InstrumentDiffForm(forms.Form):
    instrument = forms.ChoiceField(label="Instrument")
    start = forms.DateField(label="Changes after", widget=DateInput())
    end = forms.DateField(label="Up to", widget=DateInput())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["instrument"]).choices = [
            (f"{i.jurisdiction.code}/{i.slug}", f"{i.jurisdiction.code} {i.name}")
            for i in Instrument.objects.select_related("jurisdiction").order_by(
                "jurisdiction__code", "pk"
            )
        ]

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form's: its cleaned_data
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            self.add_error("start", f"{start} is after {end}: give the earlier date first.")
        return data


class AnnotationForm(forms.ModelForm):
    revision = forms.CharField(
        widget=forms.HiddenInput, required=False, help_text="The revision the editor loaded."
    )

    class Meta:
        model = Annotation
        fields = ["text"]
        labels = {"text": "Annotation text"}
        widgets = {"text": forms.Textarea(attrs={"rows": 6, "cols": 80})}
