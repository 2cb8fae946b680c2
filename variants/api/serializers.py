"""Shapes of the catalog API."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from engine.odds import InvalidPays, Pays
from pitboss.text import Text
from variants.models import Paytable, PaytableEntry, Wager


class CatalogQuery(serializers.Serializer):
    jurisdiction = serializers.CharField(required=False, help_text="Jurisdiction code, e.g. US-CO.")
    wager = serializers.CharField(required=False, help_text="Wager slug, e.g. kings-bounty.")
    owner = serializers.CharField(required=False, help_text="Words of the rights holder's name.")
    as_of = serializers.DateField(required=False, help_text="Only facts in force on this date.")


class EntrySerializer(serializers.ModelSerializer[PaytableEntry]):
    class Meta:
        model = PaytableEntry
        fields = ["outcome", "label", "column", "pays"]


class PaytableSerializer(serializers.ModelSerializer[Paytable]):
    id = serializers.CharField(source="key")
    wager = serializers.CharField(source="wager.slug")
    jurisdiction = serializers.CharField(source="wager.jurisdiction.code")
    entries = EntrySerializer(many=True)
    citations = serializers.SerializerMethodField()

    class Meta:
        model = Paytable
        fields = [
            "id",
            "label",
            "wager",
            "jurisdiction",
            "decks",
            "dealer_soft_17",
            "effective_from",
            "effective_to",
            "proposed",
            "entries",
            "citations",
        ]

    def get_citations(self, paytable: Paytable) -> list[dict[str, Any]]:
        """The rule that prints it; a proposed text's paytable by its proposed label."""
        citer = self.context["citer"]
        ref = citer.cite(paytable.provision_id, paytable.unit_path)
        return [citer.cite_fact(paytable, ref.jurisdiction).as_dict()]


class WagerSerializer(serializers.ModelSerializer[Wager]):
    jurisdiction = serializers.CharField(source="jurisdiction.code")
    paytables = serializers.SerializerMethodField()
    citations = serializers.SerializerMethodField()

    class Meta:
        model = Wager
        fields = [
            "slug",
            "name",
            "kind",
            "owner",
            "jurisdiction",
            "effective_from",
            "effective_to",
            "outcomes",
            "paytables",
            "citations",
        ]

    def get_paytables(self, wager: Wager) -> list[str]:
        return [p.key for p in wager.paytables.all()]

    def get_citations(self, wager: Wager) -> list[dict[str, Any]]:
        citer = self.context["citer"]
        return [citer.cite(wager.provision_id, wager.unit_path).as_dict()]


class PaytableLineSerializer(serializers.Serializer):
    outcome = Text(max_length=100)
    pays = Text(max_length=100)
    column = Text(required=False, allow_blank=True, default="", max_length=80)

    def validate_pays(self, value: str) -> str:
        try:
            Pays.parse(value)
        except InvalidPays as exc:
            raise serializers.ValidationError(str(exc)) from exc
        return value
