"""Shapes of the rule-text API. Output serializers read the frozen results of regs.selectors."""

from __future__ import annotations

from rest_framework import serializers


class PointInTimeQuery(serializers.Serializer):
    """Query parameters shared by the point-in-time reads."""

    jurisdiction = serializers.CharField(required=False, help_text="Jurisdiction code, e.g. US-CO.")
    instrument = serializers.CharField(
        required=False, help_text='Instrument name or slug, e.g. "Rule 8".'
    )
    citation = serializers.CharField(
        required=False, help_text="A label, old or new: 30-899.23, 30-834.23(3)."
    )
    as_of = serializers.DateField(
        required=False, help_text="Valid-time date (YYYY-MM-DD); today if omitted."
    )
    q = serializers.CharField(
        required=False, help_text="Words that must all appear in the title or text."
    )
    include_proposed = serializers.BooleanField(required=False, default=False)


class UnitStateSerializer(serializers.Serializer):
    path = serializers.CharField()
    citation = serializers.CharField()
    text = serializers.CharField(allow_null=True)
    state = serializers.ChoiceField(choices=["in_force", "not_on_file", "not_in_force", "proposed"])
    effective_from = serializers.DateField(allow_null=True)
    effective_to = serializers.DateField(allow_null=True)
    status = serializers.CharField()
    page = serializers.IntegerField(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField())


class CitationStateSerializer(serializers.Serializer):
    label = serializers.CharField()  # type: ignore[assignment]  # a field named as a DRF attribute (stubs)
    effective_from = serializers.DateField(allow_null=True)
    effective_to = serializers.DateField(allow_null=True)
    status = serializers.CharField()


class NoteSerializer(serializers.Serializer):
    unit = serializers.CharField()
    kind = serializers.CharField()
    date = serializers.DateField(allow_null=True)
    permanent = serializers.BooleanField(allow_null=True)
    subject = serializers.CharField()
    new_label = serializers.CharField()
    raw = serializers.CharField()
    ambiguous = serializers.BooleanField()


class AnnotationSerializer(serializers.Serializer):
    unit = serializers.CharField()
    kind = serializers.CharField()
    text = serializers.CharField()


class ProvisionStateSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    key = serializers.CharField()
    jurisdiction = serializers.CharField()
    instrument = serializers.CharField()
    citation = serializers.CharField(help_text="The label the provision went by on as_of.")
    current_citation = serializers.CharField()
    title = serializers.CharField()
    as_of = serializers.DateField()
    state = serializers.ChoiceField(choices=["in_force", "not_in_force", "proposed"])
    status = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)
    effective_to = serializers.DateField(allow_null=True)
    undated = serializers.BooleanField()
    text = serializers.CharField()
    units = UnitStateSerializer(many=True)
    citations = CitationStateSerializer(many=True)
    notes = NoteSerializer(many=True)
    annotations = AnnotationSerializer(many=True)
    warnings = serializers.ListField(child=serializers.CharField())
    temporary = serializers.BooleanField(
        help_text="In force on as_of by a temporary (emergency) adoption, before the permanent "
        "one; the units so adopted have status temporary and their words are not on file."
    )


class MeaningSerializer(serializers.Serializer):
    provision = serializers.IntegerField()
    title = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field named as a DRF attribute (stubs)
    effective_from = serializers.DateField(allow_null=True)
    effective_to = serializers.DateField(allow_null=True)
    status = serializers.CharField()


class ResolutionSerializer(serializers.Serializer):
    provision = serializers.IntegerField(source="provision.pk")
    title = serializers.CharField(source="provision.title")
    citation = serializers.CharField(
        help_text="Label on the date plus the subsection path asked for."
    )
    current_citation = serializers.CharField()
    as_of = serializers.DateField()
    meanings = MeaningSerializer(many=True)


class VersionSerializer(serializers.Serializer):
    unit = serializers.CharField(source="unit.path")
    text = serializers.CharField()
    on_file = serializers.BooleanField()
    effective_from = serializers.DateField(allow_null=True)
    effective_to = serializers.DateField(allow_null=True)
    status = serializers.CharField()
    ambiguous = serializers.CharField()
    source = serializers.CharField(source="source.name", allow_null=True, default=None)  # type: ignore[assignment]  # a field named as a DRF attribute (stubs)
    page = serializers.IntegerField(allow_null=True)


class RecordSerializer(serializers.Serializer):
    """One change to the knowledge base in record time."""

    model = serializers.CharField()
    object = serializers.CharField()
    change = serializers.CharField()
    date = serializers.DateTimeField()
    user = serializers.CharField(allow_null=True)
    reason = serializers.CharField(allow_null=True)
    fields = serializers.ListField(child=serializers.CharField())  # type: ignore[assignment]  # a field named as a DRF attribute (stubs)
