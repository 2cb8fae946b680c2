"""The watch in the API (compliance.watch; docs/api.md, "Watch"): the caller's subscriptions (a
webhook's secret shown once, in the answer that makes it) and their deliveries; the changes of
the rules recorded, each with the floors it touches that the caller may see."""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance.models import Delivery, RecordedChange, Subscription
from compliance.selectors import floors_on_file
from compliance.watch import affected_for, subscription_create
from pitboss.api import paged_schema, paginated, shared_serializer
from pitboss.text import Text

from .requests import request_parse


class SubscriptionIn(serializers.Serializer):
    jurisdiction = Text(max_length=16, help_text='A jurisdiction\'s code, e.g. "US-CO".')
    channel = serializers.ChoiceField(
        choices=Subscription.Channel.choices,
        help_text="email: to your account's address; webhook: a signed POST to `url`.",
    )
    url = Text(required=False, default="", max_length=500, help_text="The webhook's address.")


class SubscriptionOut(serializers.ModelSerializer[Subscription]):
    class Meta:
        model = Subscription
        fields = ["id", "jurisdiction", "channel", "url", "created_at"]


class SubscriptionMadeOut(SubscriptionOut):
    secret = serializers.CharField(
        help_text="The webhook's HMAC-SHA256 key (hex), shown this once: check each delivery's "
        "X-Pitboss-Signature (sha256=<hex HMAC of the body>) with it. Empty for e-mail."
    )

    class Meta(SubscriptionOut.Meta):
        fields = [*SubscriptionOut.Meta.fields, "secret"]


class DeliveryOut(serializers.ModelSerializer[Delivery]):
    attempts = serializers.ListField(
        child=serializers.DictField(), help_text='Each attempt: {"at", "outcome"}.'
    )

    class Meta:
        model = Delivery
        fields = ["id", "change", "status", "affected", "attempts", "created_at", "delivered_at"]


class RecordedChangeOut(serializers.ModelSerializer[RecordedChange]):
    class Meta:
        model = RecordedChange
        fields = [
            "id",
            "jurisdiction",
            "recorded_from",
            "recorded_to",
            "reason",
            "status",
            "floors",
            "floors_done",
            "error",
            "created_at",
            "finished_at",
        ]


class OwnSubscriptions(APIView):
    # The caller's own subscriptions; another's is a 404. (A comment: the schema would show a
    # docstring for every view without its own.)

    permission_classes = [permissions.IsAuthenticated]

    def records(self, request: Request) -> QuerySet[Subscription]:
        return Subscription.objects.filter(user=cast(User, request.user))


class SubscriptionListApi(OwnSubscriptions):
    """Your watches: a jurisdiction whose recorded rule changes you are told of when they touch
    a floor on file you may see (e-mail to your address, or a signed webhook)."""

    @extend_schema(**paged_schema(SubscriptionOut, "subscriptions"))
    def get(self, request: Request) -> Response:
        return paginated(request, self, self.records(request), SubscriptionOut)

    @extend_schema(request=SubscriptionIn, responses={201: SubscriptionMadeOut})
    def post(self, request: Request) -> Response:
        asked = request_parse(SubscriptionIn, request.data)
        made = subscription_create(user=request.user, **asked)
        return Response(
            shared_serializer(SubscriptionMadeOut).to_representation(made),
            status=status.HTTP_201_CREATED,
        )


class SubscriptionDetailApi(OwnSubscriptions):
    """One of your watches; DELETE ends it (its deliveries' log with it)."""

    @extend_schema(responses=SubscriptionOut)
    def get(self, request: Request, pk: int) -> Response:
        found = get_object_or_404(self.records(request), pk=pk)
        return Response(shared_serializer(SubscriptionOut).to_representation(found))

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        get_object_or_404(self.records(request), pk=pk).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)


class SubscriptionDeliveriesApi(OwnSubscriptions):
    """What one of your watches delivered: a delivery per change, its every attempt logged."""

    @extend_schema(**paged_schema(DeliveryOut, "subscription_deliveries"))
    def get(self, request: Request, pk: int) -> Response:
        found = get_object_or_404(self.records(request), pk=pk)
        return paginated(request, self, found.deliveries.all(), DeliveryOut)


CHANGES_SCHEMA = paged_schema(RecordedChangeOut, "impact_changes")
CHANGES_SCHEMA["parameters"] = [
    *CHANGES_SCHEMA["parameters"],
    OpenApiParameter("jurisdiction", str, description='A jurisdiction\'s code, e.g. "US-CO".'),
]


class RecordedChangeListApi(APIView):
    """The changes of the rules recorded where someone watches, newest first, each judged as a
    job (`status`, `floors_done` of `floors`)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(**CHANGES_SCHEMA)
    def get(self, request: Request) -> Response:
        changes = RecordedChange.objects.all()
        if jurisdiction := request.query_params.get("jurisdiction"):
            changes = changes.filter(jurisdiction=jurisdiction)
        return paginated(request, self, changes, RecordedChangeOut)


class RecordedChangeDetailApi(APIView):
    """A change of the rules recorded, as judged: its parts (each amendment with the date it
    takes effect, each proposed text), what could not be judged, and the floors on file it
    touches that you may see, table by table, in the shape of POST impact/; `unaffected`
    counts your other floors of the jurisdiction on file now."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=dict[str, Any])
    def get(self, request: Request, pk: Any) -> Response:
        change = get_object_or_404(RecordedChange, pk=pk)
        return Response(change_shown(change, request.user))


def change_shown(change: RecordedChange, user: Any) -> dict[str, Any]:
    """A recorded change as `user` may see it (the API's and the desk page's)."""
    shown = dict(shared_serializer(RecordedChangeOut).to_representation(change))
    affected = affected_for(change, user)
    shown["change"] = change.change
    shown["affected"] = affected
    shown["unaffected"] = (
        len(floors_on_file(user, change.jurisdiction)) - len(affected)
        if change.status == RecordedChange.Status.DONE
        else None
    )
    return shown
