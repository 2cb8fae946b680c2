"""The reader's pages of the rule text (namespace `regs`). pitboss/urls.py includes these last:
the jurisdiction patterns below would otherwise catch other apps' addresses."""

from __future__ import annotations

from django.urls import path, re_path, register_converter

from regs import views


class JurisdictionConverter:
    """A jurisdiction code in an address, lower case: us-co, us-ma."""

    regex = "[a-z]{2}-[a-z0-9]{1,3}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value.lower()


register_converter(JurisdictionConverter, "jurisdiction")

app_name = "regs"

# A label may hold dots, parentheses, ¶ and an @date: 30-803(3)(b)@2017-01-01.
_LABEL = r"(?P<label>[^/]+?)/?$"

urlpatterns = [
    path("search/", views.search, name="search"),
    path("diff/", views.diff_index, name="diff"),
    path("diff/provision/", views.diff_provision, name="diff-provision"),
    path("diff/instrument/", views.diff_instrument, name="diff-instrument"),
    path("annotations/<int:pk>/edit/", views.annotation_edit, name="annotation-edit"),
    path("<jurisdiction:jurisdiction>/", views.jurisdiction_page, name="jurisdiction"),
    re_path(
        r"^(?P<jurisdiction>[a-z]{2}-[a-z0-9]{1,3})/cite/(?P<citation>[^/]+)$",
        views.cite,
        name="cite",
    ),
    path(
        "<jurisdiction:jurisdiction>/<slug:instrument>/", views.instrument_page, name="instrument"
    ),
    re_path(
        r"^(?P<jurisdiction>[a-z]{2}-[a-z0-9]{1,3})/(?P<instrument>[-a-z0-9_]+)/" + _LABEL,
        views.provision_page,
        name="provision",
    ),
]
