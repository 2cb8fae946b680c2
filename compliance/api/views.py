"""The compliance API: validations, signage, rounds and simulations."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    inline_serializer,
)
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance import selectors
from compliance.basegame import BaseGameIn, base_game_analysis, base_game_query
from compliance.configuration import ConfigurationSerializer
from compliance.models import PaytableSimulationJob, SignSet, SimulationJob, ValidationRun
from compliance.paytable_simulations import (
    PaytableSimulationIn,
    paytable_simulation_create,
    paytable_simulation_result,
)
from compliance.rounds import ReplayIn, RoundsIn, round_replay, rounds_play
from compliance.services import NotCompliant, sign_set_create, validation_run_create
from compliance.signage_render import SIZES, sign_set_html, sign_set_pdf
from compliance.simulations import SimulationIn, simulation_job_create
from compliance.validator import FINDING_CODES
from pitboss.api import FormatIsTheView, Pagination, shared_serializer
from pitboss.errors import DomainError, error_body


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


class ValidationOut(serializers.ModelSerializer[ValidationRun]):
    findings = FindingOut(many=True)
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
        ]


class SubmitsOrReadsVisible(permissions.IsAuthenticated):
    """Logged in (token or session); a POST also needs the view's `submit_permission`, which
    vendors, compliance officers and admins hold. What a GET finds is narrowed by
    compliance.selectors, so another's submission is a 404."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False
        required = getattr(view, "submit_permission", None)  # None: a read-only view (405)
        if request.method in permissions.SAFE_METHODS or required is None:
            return True
        return holds_permission(request.user, required)


# Whether a user holds a permission, directly or through a group (Django's auth tables). Plain
# SQL: the same question through the ORM, an OR across two many-to-many joins, takes five times
# its CPU to compile (about a millisecond).
_HOLDS_PERMISSION = """
SELECT EXISTS (
    SELECT 1 FROM auth_permission p JOIN django_content_type t ON t.id = p.content_type_id
    WHERE t.app_label = %s AND p.codename = %s AND (
        p.id IN (SELECT permission_id FROM auth_user_user_permissions WHERE user_id = %s)
        OR p.id IN (
            SELECT g.permission_id FROM auth_group_permissions g
            JOIN auth_user_groups u ON u.group_id = g.group_id WHERE u.user_id = %s
        )
    )
)"""


def holds_permission(user: Any, perm: str) -> bool:
    """`user.has_perm(perm)` as Django's ModelBackend (the project's only authentication backend)
    answers it: an active superuser holds every permission, an active user its own and its
    groups'. In one query, where ModelBackend reads all the user's and all its groups'
    permissions in two (kept on the user object, which is new at every request)."""
    if not user.is_active:
        return False
    if user.is_superuser:
        return True
    app_label, codename = perm.split(".", 1)
    with connection.cursor() as cursor:
        cursor.execute(_HOLDS_PERMISSION, [app_label, codename, user.pk, user.pk])
        return bool(cursor.fetchone()[0])


def _page(request: Request, view: APIView, queryset: QuerySet, serializer: Any) -> Response:
    paginator = Pagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer(page, many=True).data)


def _paged(serializer: type[serializers.Serializer], name: str) -> dict[str, Any]:
    """extend_schema arguments of a list answered by _page."""
    return {
        "operation_id": f"{name}_list",
        "parameters": [
            OpenApiParameter("page", int, description="Page number, from 1."),
            OpenApiParameter("page_size", int, description="Items a page, up to 1000 (50)."),
        ],
        "responses": inline_serializer(
            f"{serializer.__name__.removesuffix('Out')}Page",
            {
                "count": serializers.IntegerField(),
                "next": serializers.URLField(allow_null=True),
                "previous": serializers.URLField(allow_null=True),
                "results": serializer(many=True),
            },
        ),
    }


class ValidationListApi(APIView):
    """Validate a table configuration (vendor token or officer login); GET lists the runs the
    caller may see (a vendor its own, an officer its jurisdictions', newest first)."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_validationrun"

    @extend_schema(request=ConfigurationSerializer, responses={201: ValidationOut})
    def post(self, request: Request) -> Response:
        run = validation_run_create(data=request.data, user=request.user)
        out = shared_serializer(ValidationOut).to_representation(run)
        return Response(out, status=status.HTTP_201_CREATED)

    @extend_schema(**_paged(ValidationOut, "validations"))
    def get(self, request: Request) -> Response:
        return _page(
            request, self, selectors.validation_runs_visible_to(request.user), ValidationOut
        )


class ValidationDetailApi(APIView):
    permission_classes = [SubmitsOrReadsVisible]

    @extend_schema(responses=ValidationOut)
    def get(self, request: Request, pk: Any) -> Response:
        run = get_object_or_404(selectors.validation_runs_visible_to(request.user), pk=pk)
        return Response(shared_serializer(ValidationOut).to_representation(run))


class FindingCodesApi(APIView):
    """The documented finding codes (catalog constraints add their own, e.g.
    us-co/kings-bounty/decks)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=dict[str, str])
    def get(self, request: Request) -> Response:
        return Response(FINDING_CODES)


class RoundsApi(APIView):
    """Play rounds under a configuration's rules (a seed or a scripted shoe) and return their logs:
    every card, decision and settlement with the rule applied and its citation."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_validationrun"  # rounds are not stored

    @extend_schema(request=RoundsIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(rounds_play(request.data))


class RoundReplayApi(APIView):
    """Check a round as it happened at a table: each payment that differs from what the approved
    rules pay is a finding citing the rule."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_validationrun"  # rounds are not stored

    @extend_schema(request=ReplayIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(round_replay(request.data))


class BaseGameAnalysisApi(APIView):
    """The exact house edge of a table's base game by combinatorial analysis, with its
    conventions and the change each rule option makes (POST: a configuration; GET: one table's
    options as query parameters, ?jurisdiction=&as_of=&decks=&dealer_soft_17=&…)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=BaseGameIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(base_game_analysis(data=request.data))

    @extend_schema(responses=dict[str, Any])
    def get(self, request: Request) -> Response:
        return Response(base_game_analysis(data=base_game_query(request.query_params)))


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


class SimulationListApi(APIView):
    """Start a simulation of a configuration's base game with basic strategy, as a job (vendor
    token or officer login); 202 with the job, then GET it for progress and the house edge.
    GET lists the jobs the caller may see, newest first."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_simulationjob"

    @extend_schema(request=SimulationIn, responses={202: SimulationOut})
    def post(self, request: Request) -> Response:
        job = simulation_job_create(data=request.data, user=request.user)
        return Response(SimulationOut(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(**_paged(SimulationOut, "simulations"))
    def get(self, request: Request) -> Response:
        return _page(
            request, self, selectors.simulation_jobs_visible_to(request.user), SimulationOut
        )


class SimulationDetailApi(APIView):
    permission_classes = [SubmitsOrReadsVisible]

    @extend_schema(responses=SimulationOut)
    def get(self, request: Request, pk: Any) -> Response:
        job = get_object_or_404(selectors.simulation_jobs_visible_to(request.user), pk=pk)
        return Response(SimulationOut(job).data)


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


def _signs(code: int) -> dict[tuple[int, str], Any]:
    """A sign set's answer in each ?format= (the schema said JSON only: schemathesis, reading a
    vendor's sign set as the vendor, found the undocumented PDF)."""
    return {
        (code, "application/json"): SignSetOut,
        (code, "text/html"): str,
        (code, "application/pdf"): bytes,
    }


def _sign_set_response(request: Request, sign_set: SignSet, code: int) -> HttpResponse:
    query = SignageQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    options = query.validated_data
    index = options.get("sign")
    if index is not None and index >= len(sign_set.signs):
        raise DomainError(
            "not_found", f"sign {index}: the set has {len(sign_set.signs)} signs", 404
        )
    if options["format"] == "pdf":
        pdf = sign_set_pdf(sign_set, size=options["size"], sign=index)
        response = HttpResponse(pdf, content_type="application/pdf", status=code)
        response["Content-Disposition"] = f'inline; filename="signs-{sign_set.pk}.pdf"'
        return response
    if options["format"] == "html":
        html = sign_set_html(sign_set, size=options["size"], sign=index)
        return HttpResponse(html, content_type="text/html; charset=utf-8", status=code)
    return Response(SignSetOut(sign_set).data, status=code)


class SignageApi(APIView):
    """Print the signs a configuration needs (vendor token or officer login): ?format=json (the
    default), html or pdf; ?size=letter, a4 or tent (5x7 in); ?draft=true prints a
    configuration with findings, every page marked NOT APPROVED. Without draft, a configuration
    with errors is a 400 with its findings. GET lists the sign sets the caller may see."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_signset"
    content_negotiation_class = FormatIsTheView

    @extend_schema(
        request=ConfigurationSerializer,
        parameters=[SignageQuery],
        responses={**_signs(201), 400: dict[str, Any]},
    )
    def post(self, request: Request) -> HttpResponse:
        query = SignageQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        body_draft = isinstance(request.data, dict) and request.data.get("draft") is True
        try:
            sign_set = sign_set_create(
                data=request.data,
                draft=query.validated_data["draft"] or body_draft,
                wall_signs=query.validated_data["wall_signs"],
                user=request.user,
                sign=query.validated_data.get("sign"),
            )
        except NotCompliant as exc:
            body = error_body(exc.code, exc.message)
            body |= {"validation": str(exc.run.id), "findings": exc.findings}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return _sign_set_response(request, sign_set, status.HTTP_201_CREATED)

    @extend_schema(**_paged(SignSetSummaryOut, "signage"))
    def get(self, request: Request) -> Response:
        return _page(request, self, selectors.sign_sets_visible_to(request.user), SignSetSummaryOut)


class SignSetApi(APIView):
    """A stored sign set, printed again identically (?format=, ?size=, ?sign=)."""

    permission_classes = [SubmitsOrReadsVisible]
    content_negotiation_class = FormatIsTheView

    @extend_schema(parameters=[SignageQuery], responses=_signs(200))
    def get(self, request: Request, pk: Any) -> HttpResponse:
        sign_set = get_object_or_404(selectors.sign_sets_visible_to(request.user), pk=pk)
        return _sign_set_response(request, sign_set, status.HTTP_200_OK)


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


class PaytableSimulationListApi(APIView):
    """Simulate a catalog paytable no exact method settles (STREAK, Burnout Bonus) at every deck
    count it allows (or `decks`), as a job (vendor token or officer login): 202 with the job, then
    GET it for progress and the result. GET lists the jobs the caller may see, newest first."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.add_paytablesimulationjob"

    @extend_schema(request=PaytableSimulationIn, responses={202: PaytableSimulationOut})
    def post(self, request: Request) -> Response:
        job = paytable_simulation_create(data=request.data, user=request.user)
        return Response(PaytableSimulationOut(job).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(**_paged(PaytableSimulationOut, "paytable_simulations"))
    def get(self, request: Request) -> Response:
        return _page(
            request,
            self,
            selectors.paytable_simulation_jobs_visible_to(request.user),
            PaytableSimulationOut,
        )


class PaytableSimulationDetailApi(APIView):
    permission_classes = [SubmitsOrReadsVisible]

    @extend_schema(responses=PaytableSimulationOut)
    def get(self, request: Request, pk: Any) -> Response:
        job = get_object_or_404(selectors.paytable_simulation_jobs_visible_to(request.user), pk=pk)
        return Response(PaytableSimulationOut(job).data)
