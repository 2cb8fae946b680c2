"""Validation runs: a configuration, the findings, and the state of the knowledge base they used."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from simple_history.models import HistoricalRecords


class ValidationRun(models.Model):
    """One validation of a configuration, kept so it can be read again and re-run, and the
    decision on it: submitted, then approved or rejected by an officer of its jurisdiction, or
    superseded by the vendor's newer run of the same floor (docs/api.md, "Approval"). Every
    change of its status is kept in its record history."""

    class Status(models.TextChoices):
        SUBMITTED = "submitted"
        """Filed; no officer has decided on it."""
        APPROVED = "approved"
        """An officer of the jurisdiction approved it (a compliant run only)."""
        REJECTED = "rejected"
        """An officer of the jurisdiction rejected it."""
        SUPERSEDED = "superseded"
        """The vendor filed a newer run of the same floor (`floor`)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    configuration = models.JSONField(help_text="The configuration as submitted.")
    jurisdiction = models.CharField(max_length=16)
    as_of = models.DateField(help_text="Valid-time date the rules were applied at.")
    compliant = models.BooleanField()
    findings = models.JSONField(default=list, blank=True)
    knowledge_base = models.JSONField(
        default=dict,
        help_text="Revision of the rule text and catalog used: re-running at it gives the "
        "same findings.",
    )
    tables = models.JSONField(
        default=list,
        blank=True,
        help_text="Each table's base game as computed for the run (compliance.basegame "
        "table_base_games): its exact house edge, or why the analysis cannot give one; the "
        "house advantage of each bonus wager MA 20(k) bounds.",
    )
    created_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the run.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    floor = models.CharField(
        max_length=64,
        blank=True,
        db_index=True,
        help_text="Which floor the run is of: a SHA-256 of the jurisdiction, the licensee and the "
        "table names (compliance.services.floor_key). A vendor's newer run of the same floor "
        "supersedes its older ones.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    decided_on = models.DateField(
        null=True, blank=True, help_text="The date of the officer's decision (approved, rejected)."
    )
    decision_note = models.TextField(blank=True, help_text="The officer's note on the decision.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="decided_runs",
    )
    superseded_by = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="supersedes",
        help_text="The vendor's newer run of the same floor, for a superseded run.",
    )
    # The status and the decision, each change with who made it and when; not the configuration,
    # findings and tables, which a run never changes.
    history = HistoricalRecords(
        excluded_fields=["configuration", "findings", "knowledge_base", "tables"]
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["submitted", "approved", "rejected", "superseded"]),
                name="compliance_validationrun_status_known",
            ),
            models.CheckConstraint(
                condition=~models.Q(status="approved") | models.Q(compliant=True),
                name="compliance_validationrun_approved_is_compliant",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.jurisdiction} {self.as_of} {'compliant' if self.compliant else 'not compliant'}"
        )


class BaseGameEdge(models.Model):
    """The exact base-game value of one rule set (engine.basegame.base_game_value), kept so each
    distinct rule set is analysed once (about half a second), not at every validation."""

    key = models.CharField(
        max_length=64,
        unique=True,  # the lookup of a validation's rule sets: key IN (...)
        help_text="SHA-256 of the rule fields the analysis reads, the play, and the engine "
        "source the value came from (compliance.basegame.analysis_key).",
    )
    rules = models.TextField(help_text="The rule fields of the key, in words (for a reader).")
    play = models.CharField(max_length=16, help_text="engine.basegame.Play: composition or basic.")
    expected_value = models.FloatField(help_text="Per initial wager; double precision, exact sums.")
    by_up_card = models.JSONField(help_text="The expected value given each up card, ace first.")
    stated = models.JSONField(
        default=list,
        help_text="A variant's conventions in words (BaseGameValue.stated); empty for the "
        "standard game, whose conventions follow from its rules.",
    )
    seconds = models.FloatField(help_text="How long the analysis took when it was computed.")
    created_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the analysis.")

    def __str__(self) -> str:
        return f"{self.play} {self.key[:12]}: {-self.expected_value:.6%}"


class ChunkedJob(models.Model):
    """A simulation run as seeded chunks, by Celery workers or in-process, each adding its exact
    sums to the job's; the same seed and chunk size give the same result however it is run."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        """Created; no chunk has started."""
        RUNNING = "running"
        """At least one chunk has started."""
        DONE = "done"
        """Every chunk's sums are in."""
        FAILED = "failed"
        """A chunk failed; `error` says why."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    seed = models.BigIntegerField()
    chunk_rounds = models.PositiveIntegerField(help_text="Rounds per seeded chunk.")
    chunks = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    continuous_shuffler = models.BooleanField(
        default=False,
        help_text="Dealt from a continuous shuffler: every round from all the cards; else from a "
        "shoe with a cut card at three quarters.",
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    sums = models.JSONField(
        default=dict,
        blank=True,
        help_text="Exact running sums of the chunks done, integers as strings, and which chunks.",
    )
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the request.")
    started_at = models.DateTimeField(
        null=True, blank=True, help_text="When the first chunk started; null until then."
    )
    finished_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="When the last chunk finished or one failed; null until then.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        abstract = True
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(chunks_done__lte=models.F("chunks")),
                name="%(class)s_chunks_done_at_most_chunks",
            ),
            models.CheckConstraint(condition=models.Q(seed__gte=0), name="%(class)s_seed_min"),
        ]

    @property
    def over(self) -> bool:
        """Done or failed: no chunk will change it."""
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def progress(self) -> float:
        """The share of chunks done, 0 to 1."""
        return self.chunks_done / self.chunks if self.chunks else 0.0


class SimulationJob(ChunkedJob):
    """A base-game simulation (engine.simulate); `result` holds the house edge once done."""

    configuration = models.JSONField(help_text="The configuration as submitted.")
    table = models.CharField(max_length=80, help_text="Name of the configuration's table.")
    rules = models.JSONField(
        help_text="The rules simulated (engine.simulate.rules_as_dict), resolved from the "
        "configuration when the job was created."
    )
    assumed = models.JSONField(default=list, blank=True, help_text="Options taken by default.")
    rounds = models.PositiveIntegerField()
    effects = models.BooleanField(
        default=False, help_text="Also the effect of each rule option (common random numbers)."
    )
    result = models.JSONField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.table} {self.rounds} rounds, seed {self.seed}: {self.status}"


class SignSet(models.Model):
    """The signs printed for a configuration, stored with the validation run they rest on, so a
    sign set can be printed again identically (compliance.signage)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    validation = models.ForeignKey(
        ValidationRun, on_delete=models.PROTECT, related_name="sign_sets"
    )
    draft = models.BooleanField(
        default=False,
        help_text="Printed from a configuration with findings: every page is marked NOT APPROVED.",
    )
    signs = models.JSONField(help_text="The signs as built: table, placement, text, notices.")
    findings = models.JSONField(
        default=list, blank=True, help_text="The validation's findings and the signs' own."
    )
    created_at = models.DateTimeField(auto_now_add=True, help_text="Record time of the set.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{len(self.signs)} signs for {self.validation}{' (draft)' if self.draft else ''}"


class PaytableSimulationJob(ChunkedJob):
    """A catalog paytable that no exact method settles (STREAK, Burnout Bonus: engine.streak),
    simulated at each deck count it is played at; `sums` holds each deck count's counts."""

    paytable = models.CharField(max_length=200, help_text="The catalog paytable's key.")
    jurisdiction = models.CharField(max_length=16, help_text="The paytable's jurisdiction code.")
    wager = models.SlugField(max_length=80, help_text="The catalog wager's slug.")
    lines = models.JSONField(
        help_text="The paytable's lines as simulated (outcome, pays, label, column), kept so the "
        "result reads the same if the catalog changes."
    )
    decks = models.JSONField(help_text="The deck counts simulated, in order.")
    dealer_hits_soft_17 = models.BooleanField()
    rounds = models.PositiveBigIntegerField(help_text="Rounds at each deck count, at least.")

    def __str__(self) -> str:
        return f"{self.paytable} {self.rounds} rounds, seed {self.seed}: {self.status}"


class Subscription(models.Model):
    """A user's watch on a jurisdiction (docs/api.md, "Watch"): when a change of its rules is
    recorded and touches a floor on file the user may see, the user is told once, an officer by
    e-mail, a vendor by a webhook whose body is signed with the subscription's secret."""

    class Channel(models.TextChoices):
        EMAIL = "email"
        """To the user's e-mail address, through Django's e-mail backend."""
        WEBHOOK = "webhook"
        """A POST to `url`, signed HMAC-SHA256 with `secret`."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="subscriptions"
    )
    jurisdiction = models.CharField(max_length=16)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    url = models.URLField(max_length=500, blank=True, help_text="Where a webhook is sent.")
    secret = models.CharField(
        max_length=64,
        blank=True,
        help_text="The webhook's HMAC-SHA256 key, shown to the user once, when it is made.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "jurisdiction", "channel", "url"], name="subscription_once"
            ),
            models.CheckConstraint(
                condition=models.Q(channel="email", url="")
                | models.Q(channel="webhook") & ~models.Q(url="") & ~models.Q(secret=""),
                name="compliance_subscription_channel_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} watches {self.jurisdiction} ({self.channel})"


class RecordedChange(models.Model):
    """A change of a jurisdiction's rules recorded in the knowledge base between two record times
    (an ingested text, a proposed text added), its impact on every floor on file, judged as a
    job, and the subscribers told of it (`deliveries`)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    jurisdiction = models.CharField(max_length=16)
    recorded_from = models.DateTimeField(help_text="Record time the change began.")
    recorded_to = models.DateTimeField(help_text="Record time the change was committed.")
    reason = models.TextField(help_text="What recorded it: the file ingested, and by whom.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    change = models.JSONField(
        default=dict, blank=True, help_text="The change as judged: its parts, what is not judged."
    )
    impact = models.JSONField(
        default=dict, blank=True, help_text="The impact over every floor on file (all vendors)."
    )
    floors = models.PositiveIntegerField(default=0, help_text="Floors on file to judge.")
    floors_done = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "running", "done", "failed"]),
                name="compliance_recordedchange_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.jurisdiction} change recorded {self.recorded_to:%Y-%m-%d %H:%M}"


class ImpactJob(models.Model):
    """An impact asked for over more floors than a request judges at once
    (settings.IMPACT_INLINE_FLOORS), judged as a job with its progress (compliance.impact_jobs;
    docs/api.md, "Impact of a change"). Only the user who asked sees it; the floors are those
    that user may see when the job runs."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="impact_jobs"
    )
    jurisdiction = models.CharField(max_length=16)
    asked = models.JSONField(help_text="The request as asked (POST impact/'s body).")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    floors = models.PositiveIntegerField(default=0, help_text="Floors to judge.")
    floors_done = models.PositiveIntegerField(default=0)
    result = models.JSONField(
        default=dict, blank=True, help_text="The impact, as POST impact/ answers it, once done."
    )
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=["queued", "running", "done", "failed"]),
                name="compliance_impactjob_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"impact over {self.jurisdiction}, asked {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def over(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)

    @property
    def percent(self) -> int:
        return round(100 * self.floors_done / self.floors) if self.floors else 100


class Delivery(models.Model):
    """A subscriber told of one change: at most one per subscription and change, every attempt
    logged with its outcome."""

    class Status(models.TextChoices):
        PENDING = "pending"
        """Not delivered yet; a webhook is retried with exponential backoff."""
        DELIVERED = "delivered"
        FAILED = "failed"
        """Every attempt failed."""

    subscription = models.ForeignKey(
        Subscription, on_delete=models.CASCADE, related_name="deliveries"
    )
    change = models.ForeignKey(RecordedChange, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    affected = models.JSONField(
        default=list, help_text="The ids of the subscriber's runs the change touches."
    )
    attempts = models.JSONField(
        default=list,
        blank=True,
        help_text='Each attempt: {"at", "outcome"} (an HTTP status, or the error).',
    )
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["subscription", "change"], name="delivery_once"),
            models.CheckConstraint(
                condition=models.Q(status__in=["pending", "delivered", "failed"]),
                name="compliance_delivery_status_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.subscription} of {self.change_id}: {self.status}"
