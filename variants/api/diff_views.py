"""GET /api/v1/diff/wager/ and /diff/topic/: the structured facts on two sides (two dates, or
two jurisdictions on a date), aligned by catalog slug or rule topic."""

from __future__ import annotations

import dataclasses
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from jurisdictions.models import Jurisdiction
from variants import diff as facts
from variants.edits import knowledge_base_edits


class SidesQuery(serializers.Serializer):
    jurisdiction = serializers.CharField(help_text="The left side's jurisdiction, e.g. US-CO.")
    other_jurisdiction = serializers.CharField(
        required=False, help_text="The right side's (e.g. US-MA); the same if omitted."
    )
    as_of = serializers.DateField(required=False, help_text="Both sides' date; today if omitted.")
    left = serializers.DateField(required=False, help_text="The left side's date (else as_of).")
    right = serializers.DateField(required=False, help_text="The right side's date (else as_of).")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        codes = set(Jurisdiction.objects.values_list("code", flat=True))
        for name in ("jurisdiction", "other_jurisdiction"):
            if name in attrs and attrs[name] not in codes:
                known = ", ".join(sorted(codes))
                raise serializers.ValidationError(
                    {name: f"{attrs[name]!r} is not a jurisdiction; one of {known}."}
                )
        as_of = attrs.get("as_of") or timezone.localdate()
        left, right = attrs.get("left") or as_of, attrs.get("right") or as_of
        if left > right:
            raise serializers.ValidationError(
                {"left": f"{left} is after right={right}: give the earlier date as left."}
            )
        attrs["sides"] = (
            facts.Side(attrs["jurisdiction"], left),
            facts.Side(attrs.get("other_jurisdiction") or attrs["jurisdiction"], right),
        )
        return attrs


class WagerDiffQuery(SidesQuery):
    wager = serializers.SlugField(help_text="Catalog slug: kings-bounty, 21-plus-3, blazing-7s.")


class TopicDiffQuery(SidesQuery):
    topic = serializers.CharField(
        help_text="insurance, surrender, doubling, splitting, soft-17, decks, blackjack-odds."
    )


class FactSideSerializer(serializers.Serializer):
    jurisdiction = serializers.CharField()
    citation = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)
    text = serializers.CharField(help_text="A line's pays, a fact's parameters.")
    fact = serializers.CharField(help_text="Paytable id, constraint code or play rule.")


class FactChangeSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="insertion, deletion or replacement.")
    substantive = serializers.BooleanField()
    subject = serializers.CharField(
        help_text="paytable, paytable_line, paytable_column, constraint, play_rule, wager, text."
    )
    key = serializers.CharField(help_text="Outcome key (and column), constraint kind, rule key.")
    label = serializers.CharField()  # type: ignore[assignment]  # a field named as a DRF attribute (stubs)
    left = FactSideSerializer(allow_null=True)
    right = FactSideSerializer(allow_null=True)
    event = serializers.DictField(allow_null=True)
    note = serializers.CharField()


class DiffSideSerializer(serializers.Serializer):
    jurisdiction = serializers.CharField()
    as_of = serializers.DateField()


class FactDiffSerializer(serializers.Serializer):
    left = DiffSideSerializer()
    right = DiffSideSerializer()
    subject = serializers.DictField()
    changes = FactChangeSerializer(many=True)
    pairs = serializers.ListField(child=serializers.DictField())
    text = serializers.DictField(help_text="For a topic: each side's units with their text.")
    redline = serializers.CharField(help_text="HTML: <del>/<ins> per fact, all text escaped.")


def _query(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    query = serializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def _data(diff: facts.FactDiff) -> dict[str, Any]:
    data = {f.name: getattr(diff, f.name) for f in dataclasses.fields(diff)}
    return {**data, "redline": facts.fact_redline(diff)}


_LINE = {
    "kind": "replacement",
    "substantive": True,
    "subject": "paytable_line",
    "key": "two-kings-of-spades/Pays",
    "label": "Pair Kings (Spades) (Pays)",
    "left": {
        "jurisdiction": "US-CO",
        "citation": "30-899.20(7)",
        "effective_from": "2015-11-14",
        "text": "75 to 1",
        "fact": "us-co/kings-bounty/kb03",
    },
    "right": {
        "jurisdiction": "US-MA",
        "citation": "29(h)",
        "effective_from": None,
        "text": "100 to 1",
        "fact": "us-ma/kings-bounty/table-1",
    },
    "event": None,
    "note": "",
}


class WagerDiffView(APIView):
    """A wager's paytables (line by line), constraints and play rules on two sides, by slug."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[WagerDiffQuery],
        responses=FactDiffSerializer,
        examples=[
            OpenApiExample(
                "King's Bounty, Colorado against Massachusetts",
                description="GET /api/v1/diff/wager/?wager=kings-bounty&jurisdiction=US-CO"
                "&other_jurisdiction=US-MA&as_of=2024-06-01",
                value={"changes": [_LINE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = _query(WagerDiffQuery, request)
        left, right = query["sides"]
        diff = facts.wager_diff(slug=query["wager"], left=left, right=right)
        return Response(FactDiffSerializer(_data(diff)).data)


class TopicDiffView(APIView):
    """A base-game rule topic on two sides: each side's units (cited, with text) and the
    topic's catalog facts, aligned by topic (fixtures/topics.yaml), never by section number."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[TopicDiffQuery],
        responses=FactDiffSerializer,
        examples=[
            OpenApiExample(
                "Soft 17, Colorado against Massachusetts",
                description="GET /api/v1/diff/topic/?topic=soft-17&jurisdiction=US-CO"
                "&other_jurisdiction=US-MA&as_of=2024-06-01",
                value={
                    "subject": {"topic": "soft-17", "title": "The dealer's soft 17"},
                    "changes": [
                        {
                            "kind": "insertion",
                            "subject": "constraint",
                            "key": "option_required:dealer_soft_17 when {blackjack_pays: 6 to 5}",
                            "left": None,
                            "right": {"jurisdiction": "US-MA", "citation": "12(d)"},
                        }
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = _query(TopicDiffQuery, request)
        left, right = query["sides"]
        diff = facts.topic_diff(topic=query["topic"], left=left, right=right)
        return Response(FactDiffSerializer(_data(diff)).data)


class RecordsDiffQuery(serializers.Serializer):
    start = serializers.DateTimeField(help_text="Record time, ISO 8601: edits after this …")
    end = serializers.DateTimeField(required=False, help_text="… up to this; now if omitted.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs.setdefault("end", timezone.now())
        if attrs["start"] > attrs["end"]:
            raise serializers.ValidationError(
                {"start": f"{attrs['start']} is after end={attrs['end']}: give start <= end."}
            )
        return attrs


class EditSideSerializer(serializers.Serializer):
    citation = serializers.CharField()
    recorded_at = serializers.DateTimeField(allow_null=True)
    text = serializers.CharField(allow_null=True)


class EditSerializer(serializers.Serializer):
    kind = serializers.CharField(help_text="insertion (created), deletion, replacement (changed).")
    substantive = serializers.BooleanField()
    model = serializers.CharField()
    field = serializers.CharField()
    left = EditSideSerializer(allow_null=True)
    right = EditSideSerializer(allow_null=True)
    event = serializers.DictField(help_text="The last edit: kind, date, user, reason.")


class RecordsDiffSerializer(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    changes = EditSerializer(many=True)


class RecordsDiffView(APIView):
    """What the knowledge base's copy changed between two record times (who, when, what):
    rule text, citations, events, annotations, wagers, paytables, constraints, play rules."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[RecordsDiffQuery],
        responses=RecordsDiffSerializer,
        examples=[
            OpenApiExample(
                "A pay corrected",
                description="GET /api/v1/diff/records/?start=2026-11-24T00:00:00Z",
                value={
                    "start": "2026-11-24T00:00:00Z",
                    "end": "2026-11-25T09:00:00Z",
                    "changes": [
                        {
                            "kind": "replacement",
                            "substantive": True,
                            "model": "paytable line",
                            "field": "pays, label",
                            "left": {
                                "citation": "us-co/kings-bounty/kb03 suited-20 (Pays)",
                                "text": "7 to 1",
                            },
                            "right": {
                                "citation": "us-co/kings-bounty/kb03 suited-20 (Pays)",
                                "text": "8 to 1",
                            },
                            "event": {"kind": "changed", "user": "olivia", "reason": None},
                        }
                    ],
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = _query(RecordsDiffQuery, request)
        edits = knowledge_base_edits(start=query["start"], end=query["end"])
        return Response(
            {
                "start": query["start"],
                "end": query["end"],
                "changes": EditSerializer(edits, many=True).data,
            }
        )
