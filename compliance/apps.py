from __future__ import annotations

from django.apps import AppConfig


class ComplianceConfig(AppConfig):
    """Table configurations, validation runs and findings, signage, round checks."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "compliance"

    def ready(self) -> None:
        # Register the Celery tasks, which compliance.jobs sends by name.
        from compliance import tasks  # noqa: F401

        # The review of readings judges the sample configurations' base games here.
        from compliance.review import base_games_review
        from compliance.watch import rules_recorded_receive
        from regs.signals import rules_recorded
        from variants.review import base_game_reviewer_register

        base_game_reviewer_register(base_games_review)
        # A write of the rules recorded: judged for the watch (compliance/watch.py).
        rules_recorded.connect(rules_recorded_receive, dispatch_uid="compliance.watch")
