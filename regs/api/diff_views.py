"""GET /api/v1/diff/…: what changed in the rule text. Views parse the query and call regs.diff."""

from __future__ import annotations

import dataclasses
import datetime as dt
from html import escape
from typing import Any

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pitboss.errors import DomainError
from regs.api import diff_serializers as s
from regs.diff import selectors as diffs
from regs.diff.redline import html_redline
from regs.selectors import UnknownCitation, UnknownSubsection


def _query(serializer: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    query = serializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def _record(query: dict[str, Any], as_of: dt.date) -> Any:
    """The provision named by the query, restricted to the subsection its citation names.

    Unknown citations are a 400 here (a parameter of the diff is wrong), saying what is accepted.
    """
    try:
        record, path = diffs.provision_record(
            jurisdiction=query.get("jurisdiction"),
            citation=query.get("citation"),
            provision=query.get("provision"),
            as_of=as_of,
            today=timezone.localdate(),
        )
    except (UnknownCitation, UnknownSubsection) as error:
        raise DomainError(error.code, error.message, fields={"citation": error.message}) from None
    return diffs.restrict(record, path)


def _provision_response(diff: diffs.ProvisionDiff, output: str) -> Response | HttpResponse:
    redline = html_redline(diff.text, changed_only=True)
    if output == "html":
        title = escape(
            f"{diff.left.citation} ({diff.left.version}) → "
            f"{diff.right.citation} ({diff.right.version})"
        )
        page = (
            f'<!doctype html><meta charset="utf-8"><title>{title}</title>'
            f"<style>ins{{background:#cfc}}del{{background:#fcc}}.editorial{{opacity:.6}}"
            f".unit{{margin:.5em 0}}.cite{{font-weight:bold}}</style><h1>{title}</h1>{redline}"
        )
        return HttpResponse(page, content_type="text/html; charset=utf-8")
    data = {**{f.name: getattr(diff, f.name) for f in dataclasses.fields(diff)}, "redline": redline}
    return Response(s.ProvisionDiffSerializer(data).data)


_EXAMPLE_CHANGE = {
    "kind": "deletion",
    "substantive": True,
    "left": {
        "citation": "47.1-834.23(3)",
        "effective_from": None,
        "text": "$100",
        "state": "proposed",
        "path": "(3)",
    },
    "right": {
        "citation": "30-899.23(3)",
        "effective_from": "2021-05-01",
        "text": "",
        "state": "in_force",
        "path": "(3)",
    },
    "event": {"unit": "(3)", "kind": "amended", "date": "2021-05-01", "raw": "Amended 5/1/21"},
    "editorial": [],
    "note": "",
}


# ?output=json (the default) or html, the redline as a page: both documented, so that the page
# is not a content type the schema does not know.
_REDLINE = {
    (200, "application/json"): s.ProvisionDiffSerializer,
    (200, "text/html"): str,
}


class ProvisionDiffView(APIView):
    """A provision's text on two sides, unit by unit and word by word: two dates (versions), or
    its proposed text against a date's."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[s.ProvisionDiffQuery],
        responses=_REDLINE,
        examples=[
            OpenApiExample(
                "Raise the Roof, proposed against adopted",
                description="GET /api/v1/diff/provision/?jurisdiction=US-CO&citation=47.1-834.23"
                "&left=proposed&right=2025-01-01",
                value={"changes": [_EXAMPLE_CHANGE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response | HttpResponse:
        query = _query(s.ProvisionDiffQuery, request)
        right = query.get("right") or timezone.localdate()
        as_of = right if isinstance(right, dt.date) else timezone.localdate()
        record = _record(query, as_of)
        diff = diffs.provision_diff(record=record, left=query["left"], right=right)
        return _provision_response(diff, query["output"])


class ProposedDiffView(APIView):
    """A proposed text against the adopted text in force on `as_of` (Colorado prints proposed
    text in capitals: case is editorial, spelling is not)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[s.ProposedDiffQuery],
        responses=_REDLINE,
        examples=[
            OpenApiExample(
                "47.1-834.23 against 30-899.23",
                description="GET /api/v1/diff/proposed/?jurisdiction=US-CO&citation=47.1-834.23",
                value={"changes": [_EXAMPLE_CHANGE]},
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response | HttpResponse:
        query = _query(s.ProposedDiffQuery, request)
        as_of = query.get("as_of") or timezone.localdate()
        record = _record(query, as_of)
        diff = diffs.provision_diff(record=record, left=diffs.PROPOSED, right=as_of)
        return _provision_response(diff, query["output"])


class InstrumentDiffView(APIView):
    """What changed in an instrument after `start` up to `end`: provisions and units added,
    amended, renumbered, moved or repealed, each with its date and a link to its diff."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[s.InstrumentDiffQuery],
        responses=s.InstrumentDiffSerializer,
        examples=[
            OpenApiExample(
                "Rule 8, 2016 to 2022",
                description="GET /api/v1/diff/instrument/?jurisdiction=US-CO&instrument=Rule 8"
                "&start=2016-01-01&end=2022-01-01",
                value={
                    "changes": [
                        {
                            "kind": "renumbered",
                            "substantive": True,
                            "provision": {"id": 66, "citation": "30-899.23"},
                            "unit": "",
                            "left": {"citation": "30-834.23"},
                            "right": {"citation": "30-899.23", "effective_from": "2017-12-15"},
                            "date": "2017-12-15",
                            "event": {
                                "kind": "renumbered",
                                "raw": "30-834.23 renumbered as 30-899.23, effective 12/15/17",
                            },
                            "link": "/api/v1/diff/provision/?provision=66&left=2016-01-01"
                            "&right=2022-01-01",
                            "not_on_file": False,
                            "remark": "",
                        }
                    ]
                },
                response_only=True,
            )
        ],
    )
    def get(self, request: Request) -> Response:
        query = _query(s.InstrumentDiffQuery, request)
        diff = diffs.instrument_diff(
            jurisdiction=query["jurisdiction"],
            instrument=query["instrument"],
            start=query["start"],
            end=query["end"],
        )
        return Response(s.InstrumentDiffSerializer(diff).data)
