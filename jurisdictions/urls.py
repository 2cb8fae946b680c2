"""The desk's front page (jurisdictions.web.home), included by pitboss/urls.py."""

from __future__ import annotations

from django.urls import path

from . import web

urlpatterns = [path("", web.home, name="home")]
