"""The Celery app. Its broker is CELERY_BROKER_URL; with none set, tasks run in-process
(settings: CELERY_TASK_ALWAYS_EAGER). Start a worker with `celery -A pitboss worker`."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pitboss.settings")

app = Celery("pitboss")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
