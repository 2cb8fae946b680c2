"""Validation runs: a configuration, the findings, and the state of the knowledge base they used."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class ValidationRun(models.Model):
    """One validation of a configuration, kept so it can be read again and re-run."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    configuration = models.JSONField(help_text="The configuration as submitted.")
    jurisdiction = models.CharField(max_length=16)
    as_of = models.DateField(help_text="Valid-time date the rules were applied at.")
    compliant = models.BooleanField()
    findings = models.JSONField(default=list, blank=True)
    knowledge_base = models.JSONField(
        default=dict,
        help_text="Revision of the rule text and catalog used: re-running at it gives the same findings.",
    )
    created_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the run.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return (
            f"{self.jurisdiction} {self.as_of} {'compliant' if self.compliant else 'not compliant'}"
        )
