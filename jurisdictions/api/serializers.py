from __future__ import annotations

from rest_framework import serializers

from jurisdictions.models import Instrument, Jurisdiction


class InstrumentSummarySerializer(serializers.ModelSerializer):
    class Meta:
        model = Instrument
        fields = ["slug", "name", "title"]


class JurisdictionSerializer(serializers.ModelSerializer):
    instruments = InstrumentSummarySerializer(many=True, read_only=True)

    class Meta:
        model = Jurisdiction
        fields = ["code", "name", "regulator", "instruments"]


class InstrumentSerializer(serializers.ModelSerializer):
    jurisdiction = serializers.SlugRelatedField(
        slug_field="code", queryset=Jurisdiction.objects.all(), help_text="Jurisdiction code."
    )

    class Meta:
        model = Instrument
        fields = ["id", "jurisdiction", "slug", "name", "title", "citation_scheme", "source_url"]
