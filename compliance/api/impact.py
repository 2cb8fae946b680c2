"""POST impact/: the impact of a change of the rules on the floors on file (compliance.impact)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from compliance import selectors
from compliance.impact import Change, Floor, Proposed, Window, impact
from compliance.models import ValidationRun
from compliance.recorded import recorded
from pitboss import kbcache
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


def impact_asked(data: Any, user: Any) -> dict[str, Any]:
    """The impact a request asks for (ImpactIn): over its inline configurations, else over the
    latest run of each floor of the jurisdiction the user may see (approved ones first)."""
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
    heads = kbcache.history_heads()
    if "configurations" in asked:
        floors = inline_floors(jurisdiction, asked["configurations"], heads)
    else:
        floors = stored_floors(selectors.floors_on_file(user, jurisdiction), heads)
    return impact(change, floors, heads=heads)


class ImpactApi(APIView):
    """The impact of a change of the rules: each configuration on file the caller may see (an
    officer: its jurisdictions'; a vendor: its own), or those given, judged before and after;
    for each table it touches, the findings that appear and clear, the house edges that move
    and the signs to reprint. Configurations it does not touch are counted."""

    permission_classes = [SubmitsOrReadsVisible]
    submit_permission = "compliance.view_validationrun"  # nothing is stored

    @extend_schema(request=ImpactIn, responses=dict[str, Any])
    def post(self, request: Request) -> Response:
        return Response(impact_asked(request.data, request.user))
