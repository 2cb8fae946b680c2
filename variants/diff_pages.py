"""The page comparing the structured facts on two sides: a wager's paytables, constraints and
play rules, or a base-game rule topic, in two jurisdictions or on two dates (variants.diff)."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import mark_safe

from jurisdictions.models import Jurisdiction
from jurisdictions.web import citation_url
from pitboss.errors import DomainError

from . import diff as facts
from .models import Wager


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self) -> None:
        super().__init__(format="%Y-%m-%d")


class FactsDiffForm(forms.Form):
    by = forms.ChoiceField(
        label="Compare", choices=[("wager", "a wager"), ("topic", "a rule topic")]
    )
    wager = forms.ChoiceField(label="Wager", required=False)
    topic = forms.ChoiceField(label="Topic", required=False)
    jurisdiction = forms.ChoiceField(label="Left")
    other_jurisdiction = forms.ChoiceField(label="Right")
    as_of = forms.DateField(label="As of", required=False, widget=DateInput())

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        codes = [(j.code, f"{j.name} ({j.code})") for j in Jurisdiction.objects.order_by("code")]
        cast(forms.ChoiceField, self.fields["jurisdiction"]).choices = codes
        cast(forms.ChoiceField, self.fields["other_jurisdiction"]).choices = codes
        slugs = sorted(set(Wager.objects.values_list("slug", "name")))
        seen: dict[str, str] = {}
        for slug, name in slugs:
            seen.setdefault(slug, name)
        cast(forms.ChoiceField, self.fields["wager"]).choices = [("", "—")] + [
            (s, f"{n} ({s})") for s, n in seen.items()
        ]
        cast(forms.ChoiceField, self.fields["topic"]).choices = [("", "—")] + [
            (key, t["title"]) for key, t in sorted(facts.topics().items())
        ]

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form's: its cleaned_data
        by = data.get("by")
        if by and not data.get(by):
            self.add_error(by, f"Choose a {by} to compare.")
        return data


def _cited(side: facts.FactSide | None, as_of: dt.date) -> dict[str, Any] | None:
    if side is None:
        return None
    first = side.citation.split(",")[0].strip()
    url = citation_url(side.jurisdiction, first.split(" ")[0], as_of) if first else ""
    return {"side": side, "url": url}


def facts_diff(request: HttpRequest) -> HttpResponse:
    """A wager or a topic on two sides, with the redline and the change list, each side cited."""
    form = FactsDiffForm(request.GET or None)
    diff = None
    error = ""
    if form.is_valid():
        values = form.cleaned_data
        as_of = values.get("as_of") or timezone.localdate()
        left = facts.Side(values["jurisdiction"], as_of)
        right = facts.Side(values["other_jurisdiction"], as_of)
        try:
            if values["by"] == "wager":
                diff = facts.wager_diff(slug=values["wager"], left=left, right=right)
            else:
                diff = facts.topic_diff(topic=values["topic"], left=left, right=right)
        except DomainError as e:
            error = e.message
    if not form.is_bound:
        form = FactsDiffForm(
            initial={
                "by": "wager",
                "wager": "kings-bounty",
                "topic": "soft-17",
                "jurisdiction": "US-CO",
                "other_jurisdiction": "US-MA",
                "as_of": timezone.localdate(),
            }
        )
    context: dict[str, Any] = {"form": form, "diff": diff, "error": error}
    if diff is not None:
        changes: list[dict[str, Any]] = [
            {
                "change": c,
                "left": _cited(c.left, diff.left.as_of),
                "right": _cited(c.right, diff.right.as_of),
            }
            for c in diff.changes
            if c.subject != "text"
        ]
        context.update(
            # fact_redline escapes every value it prints (tests/variants: a <script> stays text).
            redline=mark_safe(facts.fact_redline(diff)),  # noqa: S308
            substantive=[c for c in changes if c["change"].substantive],
            editorial=[c for c in changes if not c["change"].substantive],
            text_changed=any(c.subject == "text" for c in diff.changes),
            title=diff.subject.get("title")
            or Wager.objects.filter(slug=diff.subject.get("wager"))
            .values_list("name", flat=True)
            .first()
            or diff.subject.get("wager"),
        )
    return render(request, "variants/diff_facts.html", context)
