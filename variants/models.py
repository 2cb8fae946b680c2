"""The structured facts read from the rules: wagers, paytables and constraints, each cited to the
provision (and unit) that authorises it, with its own effective period.

Loaded from the reviewed catalog in fixtures/catalog/ (see variants/catalog.py); every edit is
kept in record history.
"""

from __future__ import annotations

from django.db import models
from simple_history.models import HistoricalRecords

from pitboss.periods import Period


class WagerKind(models.TextChoices):
    BASE_GAME = "base_game", "Base game"
    """The jurisdiction's blackjack."""
    VARIANT = "variant", "Full variant"
    """A game that changes how hands are played (Spanish 21, Blackjack Switch, Face Up …)."""
    SIDE_WAGER = "side_wager", "Side wager"
    """A wager on top of standard blackjack, even where the rules call it a variation game."""
    PROGRESSIVE = "progressive", "Progressive side wager"
    """A side wager paying shares of a progressive meter."""


class Soft17(models.TextChoices):
    ANY = "any", "Either"
    STAND = "stand", "Dealer stands on soft 17"
    HIT = "hit", "Dealer hits soft 17"


class Severity(models.TextChoices):
    ERROR = "error", "Error"
    """The configuration breaks the rule."""
    WARNING = "warning", "Warning"
    """The configuration may break the rule, or a fact the rule needs is missing."""
    INFO = "info", "Info"
    """Worth knowing; not a breach."""


class Cited(Period):
    """Cited to a unit of a provision, with its own effective period: null at the start, since
    the provision took effect; null at the end, while the fact holds."""

    provision = models.ForeignKey("regs.Provision", on_delete=models.PROTECT, related_name="+")
    unit_path = models.CharField(
        max_length=60,
        blank=True,
        help_text='Unit of the provision that says it: "" (the section) or (3)(b).',
    )
    source_line = models.PositiveIntegerField(
        null=True, blank=True, help_text="Line of the source text form the fact was read from."
    )

    class Meta(Period.Meta):
        abstract = True


class Wager(Cited):
    """A game or wager a jurisdiction authorises, by its catalog slug."""

    jurisdiction = models.ForeignKey(
        "jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="wagers"
    )
    slug = models.SlugField(
        max_length=80,
        help_text="Catalog slug, e.g. kings-bounty; the same game keeps it everywhere.",
    )
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20, choices=WagerKind.choices)
    owner = models.CharField(
        max_length=200, blank=True, help_text="Holder of the rights, where the rule names one."
    )
    outcomes = models.JSONField(
        default=list, blank=True, help_text='[{"key": …, "label": …}]: the outcomes paytables pay.'
    )
    history = HistoricalRecords()

    class Meta(Cited.Meta):
        ordering = ["jurisdiction", "slug"]
        constraints = [
            *Cited.Meta.constraints,
            models.UniqueConstraint(fields=["jurisdiction", "slug"], name="wager_slug_once"),
        ]

    def __str__(self) -> str:
        return f"{self.jurisdiction.code} {self.slug}"


class Paytable(Cited):
    """An approved pay table, under the label the rule gives it; one table even where it is
    printed with several pay columns (each entry carries its column)."""

    key = models.CharField(
        max_length=160, unique=True, help_text="Stable id, e.g. us-co/kings-bounty/kb03."
    )
    wager = models.ForeignKey(Wager, on_delete=models.CASCADE, related_name="paytables")
    label = models.CharField(
        max_length=200, help_text='As the rule labels it: "KB03", "Pay Table 1".'
    )
    decks = models.JSONField(
        default=list, blank=True, help_text="Deck counts it may be used with; [] for any."
    )
    dealer_soft_17 = models.CharField(max_length=8, choices=Soft17.choices, default=Soft17.ANY)
    base_wager = models.DecimalField(
        max_digits=10,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="The wager its dollar amounts are for (30-2107: 'based on a $1 wager'); a "
        "progressive configured with another wager multiplies them accordingly.",
    )
    footnotes = models.JSONField(
        default=list,
        blank=True,
        help_text="The notes printed under the table that its marks refer to, as printed: "
        '"*Dealer Bust total hand. The order in which cards are received does not matter."',
    )
    proposed = models.BooleanField(
        default=False,
        help_text="Drawn from a proposed text: never in force; with include_proposed, a floor's "
        "pay table of the wager must be one of its proposed tables; cited by the proposed label.",
    )
    history = HistoricalRecords()

    class Meta(Cited.Meta):
        ordering = ["wager", "key"]

    def __str__(self) -> str:
        return self.key


class PaytableEntry(models.Model):
    """One line of a pay table in one column."""

    paytable = models.ForeignKey(Paytable, on_delete=models.CASCADE, related_name="entries")
    order = models.PositiveIntegerField()
    outcome = models.CharField(max_length=80, help_text="Outcome key of the wager.")
    label = models.CharField(max_length=200, help_text="The line's label as printed.")
    column = models.CharField(
        max_length=80, blank=True, help_text='Pay column, e.g. "Dealer Envy"; "" for the only one.'
    )
    pays = models.CharField(
        max_length=40, help_text='As printed: "25 to 1", "2 for 1", "10%", "$100".'
    )
    history = HistoricalRecords()

    class Meta:
        ordering = ["paytable", "order"]
        constraints = [
            models.UniqueConstraint(fields=["paytable", "outcome", "column"], name="entry_once")
        ]

    def __str__(self) -> str:
        return f"{self.label}: {self.pays}"


class ConstraintKind(models.TextChoices):
    MIN_BLACKJACK_PAYS = "min_blackjack_pays", "Blackjack pays at least"
    ALLOWED_BLACKJACK_PAYS = "allowed_blackjack_pays", "Blackjack pays one of"
    INSURANCE_PAYS = "insurance_pays", "Insurance pays exactly"
    NO_INSURANCE = "no_insurance", "No insurance and no even money"
    MAX_SPLIT_HANDS = "max_split_hands", "At most this many hands from splitting"
    SHOE_MIN_DECKS = "shoe_min_decks", "A shoe holds at least this many decks"
    DECKS_ALLOWED = "decks_allowed", "Deck counts a wager may be played with"
    DECKS_REQUIRED = "decks_required", "Deck counts required when a wager is offered"
    EXCLUDES = "excludes", "May not be offered at a table which offers"
    SIDE_LIMITS_WITHIN_TABLE = "side_limits_within_table", "Wager limits within the table's limits"
    SIDE_MAX = "side_max", "Wager at most this amount"
    SIDE_MIN = "side_min", "Wager at least this amount (with a given paytable)"
    SIDE_MAX_WITHIN_BASE_WAGER = (
        "side_max_within_base_wager",
        "Wager at most the player's blackjack wager",
    )
    SIDE_MAX_WITHIN_TABLE_MAX = "side_max_within_table_max", "Wager at most the table maximum"
    NO_EVEN_MONEY_AT_6_TO_5 = "no_even_money_at_6_to_5", "No even money where blackjack pays 6 to 5"
    LIMITS_MULTIPLE_OF = "limits_multiple_of", "Table limits in multiples of this amount"
    HOUSE_ADVANTAGE_BETWEEN = "house_advantage_between", "House advantage within bounds"
    OPTION_REQUIRED = "option_required", "Where a condition holds, an option takes these values"
    NO_OPTIONAL_PAYOUTS_AT_6_TO_5 = (
        "no_optional_payouts_at_6_to_5",
        "No optional payouts where blackjack pays 6 to 5",
    )
    SAME_HOUSE_ADVANTAGE = (
        "same_house_advantage",
        "The same house advantage on every table, per denomination",
    )
    SAME_ON_EVERY_TABLE = "same_on_every_table", "The same option on every table offering the wager"
    REQUIRES_WAGERS = "requires_wagers", "Offered only at a table which also offers one of"
    LAYOUT_REQUIRED = "layout_required", "Played only at a table displaying its layout"


class KindField(models.CharField):
    """A CharField whose choices apply to forms, the admin and `full_clean` but stay out of
    migrations: `deconstruct()` leaves `choices` out, so adding a constraint kind needs no
    migration (see docs/migrations.md)."""

    def deconstruct(self) -> tuple:
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("choices", None)
        return name, path, args, kwargs


class Constraint(Cited):
    """A rule a configuration must keep, as data: what kind of check, its parameters, its
    severity and the rule that says it."""

    code = models.CharField(
        max_length=120, unique=True, help_text="Stable finding code, e.g. us-co/kings-bounty/decks."
    )
    jurisdiction = models.ForeignKey(
        "jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="constraints"
    )
    kind = KindField(max_length=40, choices=ConstraintKind.choices)
    wager = models.ForeignKey(
        Wager, on_delete=models.CASCADE, null=True, blank=True, related_name="constraints"
    )
    params = models.JSONField(default=dict, blank=True)
    severity = models.CharField(max_length=8, choices=Severity.choices, default=Severity.ERROR)
    message = models.CharField(max_length=300, help_text="What the rule requires, in a sentence.")
    proposed = models.BooleanField(
        default=False,
        help_text="Drawn from a proposed text: never in force; applied only when a configuration "
        "asks for include_proposed, and cited by the proposed label.",
    )
    history = HistoricalRecords()

    class Meta(Cited.Meta):
        ordering = ["jurisdiction", "code"]

    def __str__(self) -> str:
        return self.code

    @property
    def subject(self) -> Wager:
        """The wager a constraint on one wager is about (a deck rule, a limit, an exclusion …).

        :raises ValueError: the constraint is on the table, not on a wager.
        """
        if self.wager is None:
            raise ValueError(f"{self.code} is on the table, not on a wager")
        return self.wager

    def allows_decks(self, decks: int) -> bool:
        """A deck rule (decks_allowed): whether it allows `decks`, named (params "decks": [2,
        6]) or from a least number ("at_least": 6, 30-899.17(2)'s "six or more decks")."""
        if "decks" in self.params:
            return decks in self.params["decks"]
        return decks >= int(self.params.get("at_least", 1))


class PlayRule(Cited):
    """How a game is played and settled, as the engine applies it: a rule key the engine knows
    ("dealer-blackjack-after-double", "two-card-21", …), what the rule says, and its citation.
    A settlement names the rule it applied through its key."""

    jurisdiction = models.ForeignKey(
        "jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="play_rules"
    )
    wager = models.ForeignKey(Wager, on_delete=models.CASCADE, related_name="play_rules")
    key = models.SlugField(max_length=80)
    params = models.JSONField(default=dict, blank=True)
    summary = models.CharField(max_length=300, help_text="What the rule says, in a sentence.")
    history = HistoricalRecords()

    class Meta(Cited.Meta):
        ordering = ["jurisdiction", "wager", "key"]
        constraints = [
            *Cited.Meta.constraints,
            models.UniqueConstraint(fields=["wager", "key"], name="play_rule_once"),
        ]

    def __str__(self) -> str:
        return f"{self.wager} {self.key}"


class Placement(models.TextChoices):
    TABLE = "table", "Table sign"
    """A sign at the table, visible to every player there."""
    LAYOUT = "layout", "Table layout"
    """Printed on the felt (or an EBT's screen): a sign cannot satisfy a layout-only rule."""
    WALL = "wall", "Wall sign"
    """A sign in the blackjack area for the whole floor."""


class NoticeKind(models.TextChoices):
    STATEMENT = "statement", "A statement filled from the table's facts"
    """`wording` (or its entry for the value of params `choose`) filled from the table's facts."""
    PAYTABLE = "paytable", "The pay schedule in use"
    """Each line of the wager's approved paytable, its pays exactly as printed."""
    WAGER_LIMITS = "wager_limits", "The wager's minimum and maximum"
    """`wording` filled with the side wager's name, minimum and maximum."""
    AGGREGATE_LIMIT = "aggregate_limit", "The wager's aggregate payout limit"
    """`wording` filled with the side wager's aggregate payout limit, where it has one."""
    PLAY_RULES = "play_rules", "The game's rules"
    """Each rule of the game in force (its play rules' summaries), each cited to its own unit:
    "Rule signs posting the Spanish 21 rules" (30-899.16(1))."""
    WALL_SIGNAGE = "wall_signage", "Permission to post table notices on a wall sign"
    """No notice of its own: the rule (30-803(4)) cited on every notice moved to the wall."""


class PostingRequirement(Cited):
    """A rule that something "shall be posted" or "shall appear on the layout or signage": what,
    when it applies (a condition on the table's facts), where it may go, and the reviewed wording
    a sign gives it, cited to its unit and dated like every catalog fact."""

    code = models.CharField(
        max_length=120, unique=True, help_text="Stable code, e.g. us-co/posting/soft-17."
    )
    jurisdiction = models.ForeignKey(
        "jurisdictions.Jurisdiction", on_delete=models.PROTECT, related_name="posting_requirements"
    )
    wager = models.ForeignKey(
        Wager,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="posting_requirements",
        help_text="The game or side wager whose rule it is; it applies where a table offers it. "
        "Null: every blackjack table (and, for a paytable or limits notice, every side wager).",
    )
    what = models.CharField(max_length=300, help_text="What the rule requires posted.")
    notice = models.CharField(max_length=20, choices=NoticeKind.choices)
    when = models.JSONField(
        default=dict, blank=True, help_text="Condition on the table's facts; {} always applies."
    )
    wording = models.JSONField(
        default=str,
        blank=True,
        help_text='The reviewed wording, "{field}"s filled from the facts; or a mapping from the '
        "value of params `choose` to a wording.",
    )
    params = models.JSONField(default=dict, blank=True)
    placements = models.JSONField(
        default=list, help_text='Where the notice may go: ["table", "layout", "wall"].'
    )
    wall_allowed_if_uniform = models.BooleanField(
        default=False,
        help_text="May go on a wall sign instead where the same at every blackjack table of the "
        "licensee (30-803(4)).",
    )
    proposed = models.BooleanField(
        default=False,
        help_text="Drawn from a proposed text: applies only when a configuration asks for "
        "include_proposed.",
    )
    history = HistoricalRecords()

    class Meta(Cited.Meta):
        ordering = ["jurisdiction", "code"]
        constraints = [
            *Cited.Meta.constraints,
            models.CheckConstraint(
                condition=~models.Q(placements=[]), name="posting_requirement_has_a_placement"
            ),
        ]

    def __str__(self) -> str:
        return self.code
