"""The compliance API's answers as serializers (what the OpenAPI schema publishes): a validation
run with its findings, citations and each table's analyses; simulation jobs; sign sets; the
signage query. What a request must send is parsed below this layer (compliance.configuration,
rounds, simulations, basegame).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import (
    extend_schema_field,
)
from rest_framework import serializers

from compliance.models import PaytableSimulationJob, SignSet, SimulationJob, ValidationRun
from compliance.paytable_simulations import (
    paytable_simulation_result,
)
from compliance.signage_render import SIZES


class CitationOut(serializers.Serializer):
    jurisdiction = serializers.CharField()
    citation = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)


class FindingOut(serializers.Serializer):
    severity = serializers.ChoiceField(choices=["error", "warning", "info"])
    code = serializers.CharField()
    message = serializers.CharField()
    table = serializers.CharField()
    path = serializers.CharField()
    citations = CitationOut(many=True)


class BonusWagerOut(serializers.Serializer):
    wager = serializers.CharField(help_text="Catalog slug of the bonus wager.")
    name = serializers.CharField()
    denomination = serializers.CharField(
        allow_null=True, help_text="The wager's amount (limits min = max); null where not given."
    )
    house_advantage = serializers.CharField(
        allow_null=True, help_text="Exact, as a decimal string (12 places); null where a fact "
        "the computation needs is missing."
    )  # fmt: skip
    house_advantage_fraction = serializers.CharField(allow_null=True, help_text='"p/q"')
    house_advantage_percent = serializers.CharField(allow_null=True)
    bounds = serializers.CharField(help_text='What the rule allows, e.g. "0 % to 30 %".')
    within_bounds = serializers.BooleanField(allow_null=True)
    missing = serializers.CharField(
        allow_null=True, help_text="The fact the computation needs and the table does not give."
    )
    code = serializers.CharField(help_text="The constraint's finding code.")
    citations = CitationOut(many=True)


class SideWagerAnalysisOut(serializers.Serializer):
    column = serializers.CharField(
        help_text='The pay column, or the side of a wager placed on one side ("Over 13").'
    )
    house_edge = serializers.CharField(help_text="Exact, as a decimal string.")
    house_edge_fraction = serializers.CharField(allow_null=True, help_text='"p/q"')
    method = serializers.CharField()


class SideWagerEdgeOut(serializers.Serializer):
    wager = serializers.CharField(help_text="Catalog slug of the side wager.")
    paytable = serializers.CharField(
        allow_null=True, help_text='The catalog paytable id offered, "inline", or null.'
    )
    decks = serializers.IntegerField(allow_null=True)
    analyses = SideWagerAnalysisOut(
        many=True,
        help_text="The paytable's exact house edge at the table's deck count and soft-17 rule, "
        "a column each (each side of over/under 13 a bet of its own), as "
        "GET paytables/{id}/analysis/ gives it.",
    )
    notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="Readings under review, catalog findings, columns needing a stake, readings "
        "set aside: as the analysis says them.",
    )
    not_analysed = serializers.CharField(allow_null=True, help_text="Why there is no figure.")
    paytable_url = serializers.CharField(allow_null=True)
    par_sheet = serializers.CharField(
        allow_null=True, help_text="The paytable's par sheet at the table's deck count (PDF)."
    )


class AlternativeReadingOut(serializers.Serializer):
    reading = serializers.CharField(help_text="The reading set aside (engine/readings.py).")
    jurisdiction = serializers.CharField()
    citation = serializers.CharField(help_text="The unit read.")
    words = serializers.CharField(help_text="The words read, as printed.")
    taken = serializers.CharField(help_text="The reading the house edge rests on.")
    why = serializers.CharField()
    alternative = serializers.CharField(help_text="The reading set aside.")
    house_edge = serializers.CharField(help_text="The base game's house edge read so.")
    house_edge_percent = serializers.CharField()
    favours = serializers.ChoiceField(choices=["house", "player"])
    annotations = serializers.ListField(
        child=serializers.CharField(), help_text="The rule's annotations stating both readings."
    )


class TableBaseGameOut(serializers.Serializer):
    table = serializers.CharField()
    game = serializers.CharField()
    house_edge = serializers.CharField(
        allow_null=True,
        help_text="The base game's exact house edge per initial wager, as a decimal string; null "
        "where the analysis cannot give one (then not_analysed says why).",
    )
    house_edge_percent = serializers.CharField(allow_null=True)
    play = serializers.CharField(
        allow_null=True, help_text="composition: each decision the best for the hand's cards."
    )
    method = serializers.CharField(allow_null=True)
    conventions = serializers.ListField(
        child=serializers.CharField(), help_text="What the analysis assumes, in words."
    )
    assumed = serializers.ListField(
        child=serializers.CharField(),
        help_text="Options the table leaves out, and the value the analysis took for each.",
    )
    not_analysed = serializers.CharField(
        allow_null=True, help_text="Why the exact analysis cannot value the table's game."
    )
    analysis = serializers.CharField(
        allow_null=True,
        help_text="GET analysis/base-game/ with the table's options: the same house edge, the "
        "engine's basic strategy's, and the change each rule option makes.",
    )
    alternative_readings = AlternativeReadingOut(
        many=True,
        default=list,  # runs made before readings were shown
        help_text="Each reading of the rules the house edge sets aside (a dealer's 22 at "
        "Blackjack Switch read as a bust, 30-2105(8)(e)), with the house edge read so.",
    )
    bonus_wagers = BonusWagerOut(
        many=True, help_text="Side by side: each bonus wager MA 20(k) bounds, its house advantage."
    )
    side_wagers = SideWagerEdgeOut(
        many=True,
        default=list,  # runs made before side wagers were valued
        help_text="Each side wager of the table, in order: its paytable's exact house edge at the "
        "table's deck count (or why there is none).",
    )


class DecisionOut(serializers.Serializer):
    date = serializers.DateField(source="decided_on")
    note = serializers.CharField(source="decision_note")
    by = serializers.CharField(source="decided_by.username", allow_null=True, default=None)


class ValidationOut(serializers.ModelSerializer[ValidationRun]):
    findings = FindingOut(many=True)
    decision = serializers.SerializerMethodField(
        help_text="The officer's decision (approved or rejected): its date, note and officer; "
        "null while the run is submitted, or superseded before any decision."
    )
    tables = TableBaseGameOut(
        many=True,
        help_text="Each table's base game: its exact house edge under the table's rules (or why "
        "there is none), beside the findings. Empty for runs made before it was computed.",
    )

    class Meta:
        model = ValidationRun
        fields = [
            "id",
            "jurisdiction",
            "as_of",
            "compliant",
            "knowledge_base",
            "findings",
            "tables",
            "created_at",
            "status",
            "decision",
            "superseded_by",
        ]

    @extend_schema_field(DecisionOut(allow_null=True))
    def get_decision(self, run: ValidationRun) -> dict[str, Any] | None:
        if run.decided_on is None:
            return None
        return dict(DecisionOut(run).data)


class SimulationOut(serializers.ModelSerializer[SimulationJob]):
    progress = serializers.FloatField(read_only=True, help_text="The share of chunks done, 0 to 1.")

    class Meta:
        model = SimulationJob
        fields = [
            "id",
            "status",
            "table",
            "rounds",
            "seed",
            "effects",
            "chunks",
            "chunks_done",
            "progress",
            "rules",
            "assumed",
            "result",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]


class SignOut(serializers.Serializer):
    table = serializers.CharField(allow_null=True)
    placement = serializers.ChoiceField(choices=["table", "wall"])
    title = serializers.CharField()
    text = serializers.CharField()
    notices = serializers.ListField(child=serializers.DictField())
    layout_notices = serializers.ListField(child=serializers.DictField())
    provenance = serializers.DictField()
    pdf = serializers.CharField()


class SignSetOut(serializers.ModelSerializer[SignSet]):
    signs = serializers.SerializerMethodField()
    validation = ValidationOut()

    class Meta:
        model = SignSet
        fields = ["id", "draft", "signs", "findings", "validation", "created_at"]

    def get_signs(self, sign_set: SignSet) -> list[dict[str, Any]]:
        """Each sign with the URL of its PDF."""
        base = reverse("sign-set", kwargs={"pk": sign_set.pk})
        return [
            sign | {"pdf": f"{base}?format=pdf&sign={n}"} for n, sign in enumerate(sign_set.signs)
        ]


class SignSetSummaryOut(serializers.ModelSerializer[SignSet]):
    validation = serializers.UUIDField(source="validation_id")
    jurisdiction = serializers.CharField(source="validation.jurisdiction")
    as_of = serializers.DateField(source="validation.as_of")
    signs = serializers.SerializerMethodField()

    class Meta:
        model = SignSet
        fields = ["id", "draft", "jurisdiction", "as_of", "validation", "signs", "created_at"]

    def get_signs(self, sign_set: SignSet) -> int:
        """How many signs the set holds."""
        return len(sign_set.signs)


class SignageQuery(serializers.Serializer):
    format = serializers.ChoiceField(choices=["json", "html", "pdf"], default="json")
    size = serializers.ChoiceField(choices=list(SIZES), default="letter")
    draft = serializers.BooleanField(default=False)
    wall_signs = serializers.BooleanField(default=True)
    sign = serializers.IntegerField(min_value=0, required=False)


_RESULT = (
    "Once done, the analysis as GET paytables/{id}/analysis/ shows one: each spot's house edge "
    "per deck count, a decimal with its standard error; null until then."
)


class PaytableSimulationOut(serializers.ModelSerializer[PaytableSimulationJob]):
    progress = serializers.FloatField(read_only=True, help_text="The share of chunks done, 0 to 1.")
    result = serializers.SerializerMethodField()

    class Meta:
        model = PaytableSimulationJob
        fields = [
            "id",
            "status",
            "paytable",
            "jurisdiction",
            "wager",
            "decks",
            "dealer_hits_soft_17",
            "continuous_shuffler",
            "rounds",
            "seed",
            "chunks",
            "chunks_done",
            "progress",
            "result",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]

    # Null until the job is done: the schema said an object, and schemathesis, as a vendor
    # reading its own queued job, found the null.
    @extend_schema_field(serializers.DictField(allow_null=True, help_text=_RESULT))
    def get_result(self, job: PaytableSimulationJob) -> dict[str, Any] | None:
        """The analysis once the job is done (_RESULT), else None."""
        return paytable_simulation_result(job)
