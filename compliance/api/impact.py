"""POST impact/: the impact of a change of the rules on the floors on file (compliance.impact)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance import selectors
from compliance.impact import Change, Floor, Proposed, Window, change_check, impact
from compliance.impact_jobs import impact_job_create, impact_jobs_of
from compliance.models import ImpactJob, ValidationRun
from compliance.recorded import recorded
from pitboss import kbcache
from pitboss.api import shared_serializer
from pitboss.errors import InvalidInput

from .configuration import configuration_parse
from .permissions import SubmitsOrReadsVisible
from .requests import ImpactIn, request_parse


def stored_floors(runs: Iterable[ValidationRun], heads: dict[str, int]) -> list[Floor]:
    """Each stored run's floor: its configuration as submitted, parsed again at `heads`."""
    return [Floor(configuration_parse(run.configuration, heads=heads), run) for run in runs]


def inline_floors(jurisdiction: str, given: list[Any], heads: dict[str, int]) -> list[Floor]:
    """Configurations given with the request, each parsed (its errors under
    configurations[n]) and of the change's jurisdiction.

    :raises InvalidInput: naming the configuration and its field."""
    floors = []
    for n, data in enumerate(given):
        try:
            config = configuration_parse(data, heads=heads)
        except InvalidInput as exc:
            raise InvalidInput({"configurations": {n: exc.detail}}) from exc
        if config.jurisdiction != jurisdiction:
            raise InvalidInput(
                {"configurations": {n: {"jurisdiction": [f"the change is of {jurisdiction}"]}}}
            )
        floors.append(Floor(config, name=f"configurations[{n}]"))
    return floors


@dataclass(frozen=True)
class Asked:
    """A request of POST impact/ read: the change (checked) and the floors to judge."""

    jurisdiction: str
    change: Change
    floors: list[Floor]
    heads: dict[str, int]
    job: bool


def impact_read(data: Any, user: Any) -> Asked:
    """A request of POST impact/ (ImpactIn) read: its change, checked, and its floors: the
    inline configurations, else the latest run of each floor of the jurisdiction the user may
    see (approved ones first).

    :raises InvalidInput: a field of the request; DomainError: the change cannot be judged (a
        window running backwards, an unknown instrument or proposed text)."""
    asked = request_parse(ImpactIn, data)
    given, jurisdiction = asked["change"], asked["jurisdiction"]
    change: Change
    if given["kind"] == "proposed":
        as_of = given.get("as_of") or timezone.localdate()
        change = Proposed(jurisdiction, given["citation"], as_of)
    elif given["kind"] == "record":
        as_of = given.get("as_of") or timezone.localdate()
        change = recorded(jurisdiction, given["from"], given["to"], as_of=as_of)
    else:
        change = Window(jurisdiction, given["from"], given["to"], given.get("instrument"))
    change_check(change)
    heads = kbcache.history_heads()
    if "configurations" in asked:
        floors = inline_floors(jurisdiction, asked["configurations"], heads)
    else:
        floors = stored_floors(selectors.floors_on_file(user, jurisdiction), heads)
    return Asked(jurisdiction, change, floors, heads, asked["job"])


def impact_asked(
    data: Any, user: Any, *, progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """The impact a request asks for, judged now (impact_read, then compliance.impact)."""
    asked = impact_read(data, user)
    return impact(asked.change, asked.floors, heads=asked.heads, progress=progress)


def as_job(asked: Asked) -> bool:
    """Whether a request is judged as a job: asked so, or more floors than a request judges."""
    return asked.job or len(asked.floors) > settings.IMPACT_INLINE_FLOORS


class ImpactJobOut(serializers.ModelSerializer[ImpactJob]):
    result = serializers.SerializerMethodField(
        help_text="Once done, the impact as POST impact/ answers it; null until then."
    )

    class Meta:
        model = ImpactJob
        fields = [
            "id",
            "jurisdiction",
            "status",
            "floors",
            "floors_done",
            "error",
            "created_at",
            "finished_at",
            "result",
        ]

    def get_result(self, job: ImpactJob) -> dict[str, Any] | None:
        return job.result if job.status == ImpactJob.Status.DONE else None


class ImpactApi(APIView):
    """The impact of a change of the rules: each configuration on file the caller may see (an
    officer: its jurisdictions'; a vendor: its own), or those given, judged before and after;
    for each table it touches, the findings that appear and clear, the house edges that move
    and the signs to reprint. Configurations it does not touch are counted."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.view_validationrun"  # stores at most the request (a job)

    @extend_schema(request=ImpactIn, responses={200: dict[str, Any], 202: ImpactJobOut})
    def post(self, request: Request) -> Response:
        asked = impact_read(request.data, request.user)
        if not as_job(asked):
            return Response(impact(asked.change, asked.floors, heads=asked.heads))
        job = impact_job_create(
            user=request.user,
            jurisdiction=asked.jurisdiction,
            asked=dict(request.data),
            floors=len(asked.floors),
        )
        shown = shared_serializer(ImpactJobOut).to_representation(job)
        url = reverse("impact-job", args=[job.pk])
        return Response(shown, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


class ImpactJobApi(APIView):
    """An impact judged as a job: its progress (`floors_done` of `floors`), then its result.
    Only the user who asked sees it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=ImpactJobOut)
    def get(self, request: Request, pk: Any) -> Response:
        job = get_object_or_404(impact_jobs_of(request.user), pk=pk)
        return Response(shared_serializer(ImpactJobOut).to_representation(job))
