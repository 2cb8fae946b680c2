"""The rule text: provisions, their units, dated versions, citations, events and annotations.

Two times are kept apart. Valid time (when a text is legally in force) is the explicit
`effective_from`/`effective_to`/`status` fields. Record time (when the knowledge base was edited,
and by whom) is django-simple-history on every model here.
"""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords

from pitboss.periods import Period


class SourceKind(models.TextChoices):
    PDF = "pdf", "PDF"
    """The regulator's PDF, read with pdfplumber."""
    TEXT = "text", "Text"
    """The markdown conversion of the PDF."""


class Status(models.TextChoices):
    PROPOSED = "proposed", "Proposed"
    """Published for comment, not in force; applied only when a caller asks for proposed text."""
    ADOPTED = "adopted", "Adopted"
    """In force over its period and not yet replaced."""
    TEMPORARY = "temporary", "Temporary"
    """In force by a temporary (emergency) adoption, until the permanent adoption replaced it."""
    SUPERSEDED = "superseded", "Superseded"
    """Was in force; a later version replaced it."""
    REPEALED = "repealed", "Repealed"
    """No longer in force and not replaced."""


class SourceDocument(models.Model):
    """One ingested file: a regulation's PDF or text form, or a proposed text."""

    instrument = models.ForeignKey(
        "jurisdictions.Instrument", on_delete=models.PROTECT, related_name="sources"
    )
    name = models.CharField(
        max_length=200, help_text="File name as ingested, e.g. co-rule-8-blackjack.pdf."
    )
    kind = models.CharField(max_length=8, choices=SourceKind.choices)
    status = models.CharField(
        max_length=12,
        choices=Status.choices,
        default=Status.ADOPTED,
        help_text="Adopted for a regulation as published; proposed for a proposed text.",
    )
    sha256 = models.CharField(max_length=64)
    pages = models.PositiveIntegerField(
        null=True, blank=True, help_text="Page count; null for the text form."
    )
    ingested_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the ingestion.")
    report = models.JSONField(
        default=dict, blank=True, help_text="Units found, dates parsed, lines not placed."
    )
    history = HistoricalRecords()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["instrument", "sha256"], name="source_once_per_instrument"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Provision(models.Model):
    """A section with a stable identity, whatever it is numbered: Raise the Roof is one provision
    whether cited as 47.1-834.23, 30-834.23 or 30-899.23."""

    instrument = models.ForeignKey(
        "jurisdictions.Instrument", on_delete=models.PROTECT, related_name="provisions"
    )
    key = models.SlugField(
        max_length=120,
        unique=True,
        help_text="Stable id: jurisdiction, instrument and the label the provision had when "
        "first ingested.",
    )
    title = models.CharField(
        max_length=300, help_text="Title as the latest adopted source prints it."
    )
    order = models.PositiveIntegerField(default=0, help_text="Position in the instrument.")
    history = HistoricalRecords()

    class Meta:
        ordering = ["instrument", "order"]

    def __str__(self) -> str:
        return f"{self.key} {self.title}"


class Citation(Period):
    """A label a provision went by over a period: 30-834.23 from 2016-10-30 to 2017-12-15. Its
    period starts null when no source says when the label first applied (unknown), and ends null
    while the label is in use."""

    provision = models.ForeignKey(Provision, on_delete=models.CASCADE, related_name="citations")
    label = models.CharField(
        max_length=40, db_index=True, help_text="Section label as printed, e.g. 30-899.23."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ADOPTED)
    basis = models.TextField(blank=True, help_text="The note the period was read from, verbatim.")
    history = HistoricalRecords()

    class Meta(Period.Meta):
        ordering = ["provision", "effective_from"]
        constraints = [
            *Period.Meta.constraints,
            models.UniqueConstraint(
                fields=["provision", "label", "status"], name="citation_label_once"
            ),
        ]

    def __str__(self) -> str:
        return self.label


class Unit(models.Model):
    """An addressable part of a provision: the section itself (path ""), a subsection such as
    (3)(b)(i), or a further unnumbered paragraph (¶2)."""

    provision = models.ForeignKey(Provision, on_delete=models.CASCADE, related_name="units")
    path = models.CharField(
        max_length=60, blank=True, help_text='"" for the section, else e.g. (3)(b)(i) or ¶2.'
    )
    order = models.PositiveIntegerField(default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["provision", "order"]
        constraints = [models.UniqueConstraint(fields=["provision", "path"], name="unit_path_once")]

    def __str__(self) -> str:
        return f"{self.provision.key}{self.path}"


class UnitVersion(Period):
    """The text of a unit over a period of valid time. A version whose text is not in any source
    has `on_file` False: the knowledge base knows the period, not the words. Its period starts
    null when the text is undated or its first day unknown (see `undated`), and ends null while
    it is in force."""

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="versions")
    text = models.TextField(blank=True)
    on_file = models.BooleanField(
        default=True, help_text="False: the text then in force is in no source."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ADOPTED)
    ambiguous = models.TextField(
        blank=True,
        help_text="Why an earlier-date answer may be wrong (a note of uncertain reach); "
        "blank if none.",
    )
    ambiguous_until = models.DateField(
        null=True,
        blank=True,
        help_text="Answers for dates before this carry the `ambiguous` warning; null if none.",
    )
    source = models.ForeignKey(SourceDocument, on_delete=models.PROTECT, null=True, blank=True)
    page = models.PositiveIntegerField(
        null=True, blank=True, help_text="PDF page the unit starts on."
    )
    line = models.PositiveIntegerField(null=True, blank=True, help_text="Line of the text form.")
    history = HistoricalRecords()

    class Meta(Period.Meta):
        ordering = ["unit", "effective_from"]
        constraints = [
            *Period.Meta.constraints,
            models.UniqueConstraint(
                fields=["unit", "status", "effective_from"], name="version_once_per_start"
            ),
        ]
        indexes = [
            # Point-in-time lookup: versions of a unit in force on a date.
            models.Index(fields=["unit", "status", "effective_from"], name="version_in_force"),
        ]

    def __str__(self) -> str:
        return f"{self.unit} from {self.effective_from or 'unknown'}"


class EventKind(models.TextChoices):
    ADOPTED = "adopted", "Adopted"
    """Added or adopted permanently."""
    TEMPORARY = "temporary", "Temporary adoption"
    """Adopted temporarily: in force from its date until the permanent adoption (a version of
    status temporary, its words not on file)."""
    AMENDED = "amended", "Amended"
    """The text changed."""
    EFFECTIVE = "effective", "Effective"
    """Took effect (a new game's "Effective" date)."""
    RENUMBERED = "renumbered", "Renumbered"
    """Given a new label."""
    RELOCATED = "relocated", "Relocated and renumbered"
    """Moved and given a new label."""
    REPEALED = "repealed", "Repealed"
    """Removed."""
    REPEALED_READOPTED = "repealed_readopted", "Repealed and readopted"
    """Removed and adopted again under a label, usually with amendments."""


class Event(models.Model):
    """A dated event parsed from a note in the source, on the unit it belongs to."""

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=EventKind.choices)
    date = models.DateField(
        null=True, blank=True, help_text="Date the note gives; null when it gives none."
    )
    permanent = models.BooleanField(
        null=True, blank=True, help_text='True for "perm.", False for "temp.", null if not said.'
    )
    subject = models.CharField(
        max_length=80, blank=True, help_text='What the clause names: "30-1204", "(1)".'
    )
    new_label = models.CharField(max_length=80, blank=True)
    raw = models.TextField(help_text="The note exactly as printed.")
    ambiguous = models.BooleanField(
        default=False, help_text="The note's reach over units is uncertain."
    )
    order = models.PositiveIntegerField(default=0)
    history = HistoricalRecords()

    class Meta:
        ordering = ["unit", "order"]
        constraints = [models.UniqueConstraint(fields=["unit", "order"], name="event_order_once")]

    def __str__(self) -> str:
        return f"{self.kind} {self.date} {self.subject}".strip()


class AnnotationKind(models.TextChoices):
    SOURCE_DEFECT = "source_defect", "Source defect"
    """Typo, duplicated note, garbled contents, dangling reference, cut-off text."""
    AMBIGUITY = "ambiguity", "Ambiguity"
    """The source can be read more than one way."""
    EDITORIAL = "editorial", "Editorial"
    """A remark by the knowledge base's editors."""


class Annotation(models.Model):
    """A remark on a unit (the section's own unit for the whole section), e.g. a defect of the
    source, kept rather than fixed."""

    unit = models.ForeignKey(Unit, on_delete=models.CASCADE, related_name="annotations")
    kind = models.CharField(max_length=20, choices=AnnotationKind.choices)
    text = models.TextField()
    history = HistoricalRecords()

    class Meta:
        ordering = ["unit", "id"]
        constraints = [
            models.UniqueConstraint(fields=["unit", "kind", "text"], name="annotation_once"),
        ]

    def __str__(self) -> str:
        return self.text[:60]
