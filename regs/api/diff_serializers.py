"""Shapes of the diff API (docs/diffs.md; `changes: [{kind, substantive, left, right, event}]` plus
a redline). Query serializers say what each parameter accepts; output serializers read the frozen
results of regs.diff."""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from regs.diff.selectors import PROPOSED

KINDS = "insertion, deletion, replacement, moved or renumbered."


@extend_schema_field(OpenApiTypes.STR)
class VersionField(serializers.Field):
    """A side of a diff: "proposed" or a date YYYY-MM-DD (the text in force that day)."""

    default_error_messages = {
        "invalid": 'Give a date YYYY-MM-DD (the text in force that day) or "proposed".'
    }

    def to_internal_value(self, data: Any) -> dt.date | str:
        if isinstance(data, str) and data.strip().lower() == PROPOSED:
            return PROPOSED
        try:
            return dt.date.fromisoformat(str(data).strip())
        except ValueError:
            self.fail("invalid")
        raise AssertionError  # unreachable: fail() raises

    def to_representation(self, value: Any) -> str:
        return value if isinstance(value, str) else value.isoformat()


class ProvisionDiffQuery(serializers.Serializer):
    jurisdiction = serializers.CharField(required=False, help_text="e.g. US-CO; with citation.")
    citation = serializers.CharField(
        required=False,
        help_text="A label, old or new, optionally a subsection: 30-899.23, 47.1-834.23, "
        "30-803(3). Give this (with jurisdiction) or provision.",
    )
    provision = serializers.IntegerField(required=False, help_text="A provision id instead.")
    left = VersionField(help_text='"proposed" or a date YYYY-MM-DD: the earlier side.')
    right = VersionField(required=False, help_text='"proposed" or a date; today if omitted.')
    output = serializers.ChoiceField(
        choices=["json", "html"], required=False, default="json", help_text="html: the redline."
    )
    other_jurisdiction = serializers.CharField(
        required=False, help_text="Not accepted: jurisdictions are compared by topic or wager."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        other = attrs.get("other_jurisdiction")
        if other and other != attrs.get("jurisdiction"):
            raise serializers.ValidationError(
                {
                    "other_jurisdiction": "a provision is not compared with another "
                    "jurisdiction's by section number; use /api/v1/diff/topic/?topic= (insurance, "
                    "surrender, doubling, splitting, soft-17, decks, blackjack-odds) or "
                    "/api/v1/diff/wager/?wager=<catalog slug>"
                }
            )
        if attrs.get("provision") is None:
            missing = {
                k: "required unless provision is given"
                for k in ("jurisdiction", "citation")
                if not attrs.get(k)
            }
            if missing:
                raise serializers.ValidationError(missing)
        left, right = attrs.get("left"), attrs.get("right")
        if isinstance(left, dt.date) and isinstance(right, dt.date) and left > right:
            raise serializers.ValidationError(
                {"left": f"{left} is after right={right}: give the earlier date as left."}
            )
        return attrs


class ProposedDiffQuery(serializers.Serializer):
    jurisdiction = serializers.CharField(help_text="e.g. US-CO.")
    citation = serializers.CharField(help_text="The proposed or adopted label: 47.1-834.23.")
    as_of = serializers.DateField(
        required=False, help_text="The adopted text in force on this date; today if omitted."
    )
    output = serializers.ChoiceField(choices=["json", "html"], required=False, default="json")


class InstrumentDiffQuery(serializers.Serializer):
    jurisdiction = serializers.CharField(help_text="e.g. US-CO.")
    instrument = serializers.CharField(help_text='Name or slug: "Rule 8", rule-8.')
    start = serializers.DateField(help_text="Changes after this date (YYYY-MM-DD) …")
    end = serializers.DateField(help_text="… up to and including this date.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["start"] > attrs["end"]:
            raise serializers.ValidationError(
                {"start": f"{attrs['start']} is after end={attrs['end']}: give start <= end."}
            )
        return attrs


class ChangeSideSerializer(serializers.Serializer):
    citation = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)
    text = serializers.CharField(
        allow_null=True, help_text="The words that differ (a whole unit for an added one)."
    )
    state = serializers.CharField(help_text="in_force, proposed, not_on_file, not_in_force.")
    path = serializers.CharField()


class ChangeSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text=KINDS)
    substantive = serializers.BooleanField(
        help_text="False for differences only of case, whitespace, markdown or punctuation."
    )
    left = ChangeSideSerializer(allow_null=True)
    right = ChangeSideSerializer(allow_null=True)
    event = serializers.DictField(allow_null=True, help_text="The dated note behind the change.")
    editorial = serializers.ListField(child=serializers.CharField())
    note = serializers.CharField(help_text='"spelling", "editorial", or "(4) → (5)".')


class ProvisionSideSerializer(serializers.Serializer):
    version = serializers.CharField()
    citation = serializers.CharField()
    state = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)


class ProvisionDiffSerializer(serializers.Serializer):
    provision = serializers.DictField()
    left = ProvisionSideSerializer()
    right = ProvisionSideSerializer()
    changes = ChangeSerializer(many=True)
    events = serializers.ListField(child=serializers.DictField())
    not_on_file = serializers.ListField(child=serializers.DictField())
    redline = serializers.CharField(help_text="HTML: <ins>/<del>, rule text escaped.")


class InstrumentChangeSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text=KINDS)
    substantive = serializers.BooleanField(allow_null=True)
    provision = serializers.DictField()
    unit = serializers.CharField()
    left = serializers.DictField(allow_null=True)
    right = serializers.DictField(allow_null=True)
    date = serializers.DateField(allow_null=True)
    event = serializers.DictField(allow_null=True)
    link = serializers.CharField()
    not_on_file = serializers.BooleanField()
    remark = serializers.CharField()


class InstrumentDiffSerializer(serializers.Serializer):
    jurisdiction = serializers.CharField()
    instrument = serializers.CharField()
    start = serializers.DateField()
    end = serializers.DateField()
    changes = InstrumentChangeSerializer(many=True)
