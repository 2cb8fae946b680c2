from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from simple_history.models import HistoricalRecords


class Jurisdiction(models.Model):
    """A state or country whose regulator writes gaming rules."""

    code = models.CharField(
        max_length=16,
        unique=True,
        validators=[RegexValidator(r"^[A-Z]{2}(-[A-Z0-9]{1,3})?$", "Use an ISO 3166 code.")],
        help_text='ISO 3166 code of the jurisdiction, e.g. "US-CO".',
    )
    name = models.CharField(max_length=100, help_text='Name of the jurisdiction, e.g. "Colorado".')
    regulator = models.CharField(
        max_length=200,
        help_text='Body that makes its gaming rules, e.g. "Colorado Limited Gaming Control '
        'Commission".',
    )
    officers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="officer_of",
        help_text="Compliance officers who see every submission made for this jurisdiction "
        "(validation runs, sign sets, simulations). Set by an administrator.",
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class CitationScheme(models.TextChoices):
    """How an instrument's units are cited."""

    CO_SECTION = "co_section", "Colorado section and subsection path"
    """Section label plus subsection path, e.g. 30-803(3)(b)(i)."""
    MA_SECTION = "ma_section", "Massachusetts section number and subsection"
    """Section number plus subsection, e.g. 28(g)."""


class Instrument(models.Model):
    """A regulation a jurisdiction publishes as one document, e.g. Colorado's Rule 8."""

    jurisdiction = models.ForeignKey(
        Jurisdiction,
        on_delete=models.PROTECT,
        related_name="instruments",
        help_text="Jurisdiction whose regulator publishes the instrument.",
    )
    name = models.CharField(max_length=100, help_text='Short name, e.g. "Rule 8".')
    title = models.CharField(max_length=200, help_text='Title, e.g. "Rules for Blackjack".')
    slug = models.SlugField(
        max_length=100, help_text='Identifier unique within the jurisdiction, e.g. "rule-8".'
    )
    citation_scheme = models.CharField(
        max_length=20, choices=CitationScheme.choices, help_text="How its units are cited."
    )
    source_url = models.URLField(
        blank=True, help_text="Where the regulator publishes it, if known."
    )
    history = HistoricalRecords()

    class Meta:
        # pk keeps the seeded order (Rule 8 before Rule 21).
        ordering = ["jurisdiction__code", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["jurisdiction", "slug"], name="instrument_slug_unique_in_jurisdiction"
            ),
            models.UniqueConstraint(
                fields=["jurisdiction", "name"], name="instrument_name_unique_in_jurisdiction"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.jurisdiction.code} {self.name}"
