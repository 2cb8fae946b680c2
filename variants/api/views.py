"""Read-only catalog API: wagers and approved paytables, each with the rule that authorises it."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.http import Http404, HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.odds import Pays
from engine.rules import PaytableLine
from jurisdictions.models import Jurisdiction
from pitboss.api import FormatIsTheView
from pitboss.errors import DomainError
from pitboss.kbcache import CachedReads
from pitboss.text import Slug, Text
from variants import selectors
from variants.analysis import (
    DEALER_HAND_REMOVALS,
    SIMULATED_ROUNDS,
    lines_analysis,
    paytable_analysis,
)
from variants.api.serializers import (
    CatalogQuery,
    PaytableLineSerializer,
    PaytableSerializer,
    WagerSerializer,
)
from variants.models import Paytable, Wager
from variants.par_sheet import par_sheet_csv, par_sheet_pdf, paytable_par_sheet

_PARAMS = [
    OpenApiParameter("jurisdiction", str),
    OpenApiParameter("wager", str),
    OpenApiParameter("owner", str),
    OpenApiParameter("as_of", str, description="YYYY-MM-DD: only what is in force that day."),
]


def _query(request: Request) -> dict[str, Any]:
    query = CatalogQuery(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


class _Catalog(CachedReads, viewsets.GenericViewSet):
    permission_classes = [permissions.AllowAny]

    def _respond(self, rows: list[Any], query: dict[str, Any], serializer: Any) -> Response:
        citer = selectors.Citer(query.get("as_of") or timezone.localdate())
        if query.get("as_of"):  # a proposed text's fact is in force on no date
            rows = [r for r in rows if citer.applies(r)]
        page = self.paginate_queryset(rows)
        data = serializer(page, many=True, context={"citer": citer}).data
        return self.get_paginated_response(data)


class WagerViewSet(_Catalog):
    """Games and wagers of each jurisdiction, by catalog slug, with outcomes and paytables."""

    serializer_class = WagerSerializer
    queryset = Wager.objects.none()
    lookup_field = "slug"

    @extend_schema(parameters=_PARAMS[:1] + _PARAMS[2:])
    def list(self, request: Request) -> Response:
        query = _query(request)
        rows = list(
            selectors.wagers(jurisdiction=query.get("jurisdiction"), owner=query.get("owner"))
        )
        return self._respond(rows, query, WagerSerializer)

    @extend_schema(parameters=_PARAMS[:1] + _PARAMS[3:])
    def retrieve(self, request: Request, slug: str) -> Response:
        query = _query(request)
        found = list(selectors.wagers(jurisdiction=query.get("jurisdiction")).filter(slug=slug))
        if not found:
            raise Http404
        if len(found) > 1:
            codes = ", ".join(w.jurisdiction.code for w in found)
            raise DomainError(
                "jurisdiction_required", f"{slug} exists in {codes}; add ?jurisdiction=."
            )
        citer = selectors.Citer(query.get("as_of") or timezone.localdate())
        return Response(WagerSerializer(found[0], context={"citer": citer}).data)


class PaytableViewSet(_Catalog):
    """Approved paytables, every line exact, cited to the rule that prints them."""

    serializer_class = PaytableSerializer
    queryset = Paytable.objects.none()
    lookup_value_regex = r"[\w./-]+"

    @extend_schema(parameters=_PARAMS)
    def list(self, request: Request) -> Response:
        query = _query(request)
        rows = list(
            selectors.paytables(
                jurisdiction=query.get("jurisdiction"),
                wager=query.get("wager"),
                owner=query.get("owner"),
            )
        )
        return self._respond(rows, query, PaytableSerializer)

    def retrieve(self, request: Request, pk: str) -> Response:
        paytable = selectors.paytables().filter(key=pk).first()
        if paytable is None:
            raise Http404
        citer = selectors.Citer(_query(request).get("as_of") or timezone.localdate())
        return Response(PaytableSerializer(paytable, context={"citer": citer}).data)


class StakeQuery(serializers.Serializer):
    stake = serializers.DecimalField(
        required=False, max_digits=12, decimal_places=2, min_value=Decimal("0.01")
    )
    meter = serializers.CharField(
        required=False,
        help_text='The progressive meter in dollars ("25000"), or by name '
        '("Mega:250000,Major:25000").',
    )

    def validate_meter(self, value: str) -> dict[str, Decimal]:
        meters: dict[str, Decimal] = {}
        for part in value.split(","):
            name, _, amount = part.rpartition(":")
            try:
                meters[name.strip().lower()] = Decimal(amount.replace("$", "").strip())
            except InvalidOperation:
                raise serializers.ValidationError(
                    f"{part!r} is not a meter amount: give dollars, e.g. 25000 or Major:25000"
                ) from None
        return meters


REMOVAL_HELP = (
    "Card removal, for a wager decided by the dealer's hand only: none (the default: the "
    "dealer's whole hand from a full shoe, as the published analyses give it) or player-cards "
    "(the player's first hand played out with the basic strategy first, the dealer's hand from "
    "what is left; the same fractions). Any other value, or the option on another wager, is a "
    "400 naming `removal`."
)


class RemovalQuery(serializers.Serializer):
    removal = serializers.CharField(required=False, help_text=REMOVAL_HELP)


class AnalysisQuery(StakeQuery, RemovalQuery):
    decks = serializers.IntegerField(required=False, min_value=1, max_value=12)
    rounds = serializers.IntegerField(
        required=False, min_value=1000, max_value=200_000, default=SIMULATED_ROUNDS
    )
    seed = serializers.IntegerField(required=False, min_value=0, default=1)


class PaytableAnalysisApi(APIView):
    """Exact analysis of a catalog paytable: probability and return of each line and the house
    edge, per pay column, at `decks` or at every deck count the paytable is analysed at (those of
    its approval its wager's deck rule allows). An analysis giving the player the edge is no house
    edge: a catalog finding (`catalog_findings`) where a published analysis agrees or the meter
    makes it so, else a reading under review (`readings_under_review`)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("decks", int),
            OpenApiParameter("rounds", int, description="Simulated rounds, where play decides."),
            OpenApiParameter("seed", int),
            OpenApiParameter(
                "stake", str, description="The stake, for dollar-amount and meter lines."
            ),
            OpenApiParameter(
                "meter", str, description="The meter in dollars, or Name:amount pairs."
            ),
            OpenApiParameter(
                "removal", str, enum=list(DEALER_HAND_REMOVALS), description=REMOVAL_HELP
            ),
        ],
        responses=dict[str, Any],
    )
    def get(self, request: Request, pk: str) -> Response:
        query = AnalysisQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        paytable = selectors.paytables().filter(key=pk).first()
        if paytable is None:
            raise Http404
        q = query.validated_data
        return Response(
            paytable_analysis(
                paytable,
                q.get("decks"),
                rounds=q["rounds"],
                seed=q["seed"],
                stake=q.get("stake"),
                meters=q.get("meter"),
                removal=q.get("removal"),
            )
        )


class AnalysisIn(serializers.Serializer):
    wager = Slug()
    jurisdiction = Text(
        required=False,
        max_length=16,
        help_text="Where the wager's definition differs by jurisdiction: a jurisdiction code "
        "(US-CO) whose catalog holds the wager.",
    )
    paytable = serializers.ListField(child=serializers.DictField(), allow_empty=False)
    decks = serializers.IntegerField(min_value=1, max_value=12)
    removal = Text(required=False, max_length=40, help_text=REMOVAL_HELP)

    def validate_jurisdiction(self, value: str) -> str:
        codes = list(Jurisdiction.objects.order_by("code").values_list("code", flat=True))
        if value not in codes:
            raise serializers.ValidationError(
                f"unknown jurisdiction {value!r}; known: {', '.join(codes)}."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        lines = PaytableLineSerializer(data=attrs["paytable"], many=True)
        if not lines.is_valid():
            raise serializers.ValidationError({"paytable": lines.errors})
        wagers = Wager.objects.filter(slug=attrs["wager"])
        if "jurisdiction" in attrs:
            wagers = wagers.filter(jurisdiction__code=attrs["jurisdiction"])
        known = {o["key"] for w in wagers for o in w.outcomes}
        if not known:
            where = f" of {attrs['jurisdiction']}" if "jurisdiction" in attrs else ""
            raise serializers.ValidationError(
                {"wager": f"{attrs['wager']!r} is no wager in the catalog{where}"}
            )
        for n, line in enumerate(lines.validated_data):
            if line["outcome"] not in known:
                raise serializers.ValidationError(
                    {
                        f"paytable[{n}].outcome": f"{line['outcome']!r} is no outcome of "
                        f"{attrs['wager']}; outcomes: {', '.join(sorted(known))}"
                    }
                )
        attrs["lines"] = [
            PaytableLine(line["outcome"], Pays.parse(line["pays"]), column=line.get("column", ""))
            for line in lines.validated_data
        ]
        return attrs


class AnalysisApi(APIView):
    """Exact analysis of an inline paytable:
    {"wager", "paytable": [{"outcome", "pays"}], "decks"}."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(request=AnalysisIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        body = AnalysisIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        return Response(
            lines_analysis(
                data["wager"],
                data["lines"],
                [data["decks"]],
                data.get("jurisdiction"),
                removal=data.get("removal"),
            )
        )


PAR_SHEET_FORMATS = {"json": "application/json", "csv": "text/csv", "pdf": "application/pdf"}


class ParSheetQuery(StakeQuery, RemovalQuery):
    decks = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=12,
        help_text="Required unless the paytable is approved for one deck count only.",
    )
    format = serializers.ChoiceField(
        choices=list(PAR_SHEET_FORMATS),
        required=False,
        help_text="json (the default), csv or pdf; or send Accept: text/csv or application/pdf.",
    )


def _asked_format(request: Request, asked: str | None) -> str:
    if asked:
        return asked
    accept = request.META.get("HTTP_ACCEPT", "")
    return next(
        (f for f, media in PAR_SHEET_FORMATS.items() if f != "json" and media in accept), "json"
    )


class PaytableParSheetApi(APIView):
    """The par sheet of a catalog paytable at one deck count, as testing labs file it: each
    line's combinations, probability, pays and return; the hit frequency, house edge, variance
    and standard deviation per unit staked; the combinations of the cycle; the card-removal
    convention and the rule approving the paytable. ?format=csv or pdf (or Accept: text/csv,
    application/pdf) for a file."""

    permission_classes = [permissions.AllowAny]
    content_negotiation_class = FormatIsTheView

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "decks", int, description="Deck count; required unless only one is approved."
            ),
            OpenApiParameter("format", str, enum=list(PAR_SHEET_FORMATS)),
            OpenApiParameter(
                "stake", str, description="The stake, for dollar-amount and meter lines."
            ),
            OpenApiParameter(
                "meter", str, description="The meter in dollars, or Name:amount pairs."
            ),
            OpenApiParameter(
                "removal", str, enum=list(DEALER_HAND_REMOVALS), description=REMOVAL_HELP
            ),
        ],
        responses={
            (200, "application/json"): dict[str, Any],
            (200, "text/csv"): str,
            (200, "application/pdf"): bytes,
        },
        description="The par sheet of a catalog paytable at one deck count, as testing labs "
        "file it: per pay column each line's combinations, probability (fraction and decimal), "
        "pays and return, a lose row and the rules' push; the hit frequency, house edge, "
        "variance (exact) and standard deviation per unit staked; the combinations of the "
        "cycle, the card-removal convention and the citation of the approving rule. "
        "?format=csv or pdf, or Accept: text/csv or application/pdf. A 400 with `fields` "
        "names `decks` (missing, not an integer, not approved for the paytable or not allowed "
        "by its wager's deck rule), `format`, `paytable` (a wager without an exact analysis, "
        "one analysed only by simulation, or a paytable the player beats: a catalog finding "
        "or a reading under review), `stake` (a paytable of meter or "
        "dollar lines only) or `removal` (not none or player-cards, or given for a wager not "
        "decided by the dealer's hand).",
    )
    def get(self, request: Request, pk: str) -> HttpResponse:
        query = ParSheetQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        paytable = selectors.paytables().filter(key=pk).first()
        if paytable is None:
            raise Http404
        q = query.validated_data
        body = paytable_par_sheet(
            paytable,
            q.get("decks"),
            stake=q.get("stake"),
            meters=q.get("meter"),
            removal=q.get("removal"),
        )
        chosen = _asked_format(request, q.get("format"))
        if chosen == "json":
            return Response(body)
        name = f"par-sheet-{paytable.key.replace('/', '-')}-{body['decks']}d.{chosen}"
        content = par_sheet_csv(body) if chosen == "csv" else par_sheet_pdf(body)
        media = PAR_SHEET_FORMATS[chosen] + ("; charset=utf-8" if chosen == "csv" else "")
        response = HttpResponse(content, content_type=media)
        response["Content-Disposition"] = f'inline; filename="{name}"'
        return response
