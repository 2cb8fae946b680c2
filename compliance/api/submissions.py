"""What the list and the detail view of one kind of submission share (validation runs, sign sets,
simulation jobs, paytable simulation jobs): who may call them, the records the caller may see and
how one is rendered, said once per kind in a class both views derive from."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import Model, QuerySet
from django.shortcuts import get_object_or_404
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from pitboss.api import paginated, shared_serializer

from .permissions import SubmitsOrReadsVisible


class Submissions(APIView):
    # A kind of submission: `visible` (a compliance.selectors function of the user: a vendor's own
    # records, an officer's jurisdictions') and `out`, its serializer. A list view answers
    # `listed()`, a page of them; a detail view `shown(pk)`, one, or a 404 for a record the caller
    # may not see as for one that does not exist. (A comment, not a docstring: the API's schema
    # shows a view's docstring, and would show this one for every view without its own.)

    permission_classes = [SubmitsOrReadsVisible]
    visible: ClassVar[staticmethod[[Any], QuerySet[Any]]]
    out: ClassVar[type[serializers.ModelSerializer[Any]]]

    def records(self, request: Request) -> QuerySet[Any]:
        return type(self).visible(request.user)

    def listed(self, request: Request) -> Response:
        return paginated(request, self, self.records(request), self.out)

    def found(self, request: Request, pk: Any) -> Model:
        return get_object_or_404(self.records(request), pk=pk)

    def shown(self, request: Request, pk: Any) -> Response:
        return Response(shared_serializer(self.out).to_representation(self.found(request, pk)))
