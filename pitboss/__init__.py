"""The Pitboss Django project. The Celery app loads with Django so that tasks find it."""

from __future__ import annotations

from pitboss.celery import app as celery_app

__all__ = ["celery_app"]
