"""The table configuration's shape check (docs/api.md, "The table configuration (contract v1)"):
DRF serializers that name each bad field, and `configuration_parse`, the one door into the domain,
which gives a compliance.configuration.Configuration or raises pitboss.errors.InvalidInput (a
400 naming the field, wherever it is caught: the API, the desk, a command)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from contextvars import ContextVar
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.cards import InvalidCard, parse_cards
from engine.odds import Basis, InvalidPays
from jurisdictions.models import Jurisdiction
from pitboss import kbcache
from pitboss.api import shared_serializer
from pitboss.errors import InvalidInput
from pitboss.text import Slug, Text, check_text_tree
from variants.api.serializers import PaytableLineSerializer
from variants.models import Wager

from ..configuration import Configuration, configuration_of, pays_parse
from ..rulesets import game_versions, version_problem

EARLIEST = dt.date(1990, 1, 1)
LATEST = dt.date(2100, 12, 31)
# A floor of more tables than any casino has is refused before any table is read; so is a
# table offering more side wagers than a layout holds.
MAX_TABLES = 200
MAX_SIDE_WAGERS = 20


class OddsField(Text):
    """Odds as printed: "3 to 2", "2 for 1" (not a meter share or a dollar amount)."""

    def to_internal_value(self, data: Any) -> str:
        text = super().to_internal_value(data)
        try:
            pays = pays_parse(text)
        except InvalidPays as exc:
            raise serializers.ValidationError(str(exc)) from exc
        if pays.basis not in (Basis.TO, Basis.FOR):
            raise serializers.ValidationError(
                f"{text!r} is not odds; write odds as '3 to 2' or '2 for 1'."
            )
        return text


class LimitsSerializer(serializers.Serializer):
    min = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    max = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["min"] > attrs["max"]:
            raise serializers.ValidationError({"max": f"is below min ({attrs['min']})."})
        return attrs


class DoubleSerializer(serializers.Serializer):
    on = serializers.ChoiceField(choices=["any_two", "9_10_11", "10_11", "any_time", "none"])
    after_split = serializers.BooleanField(default=True)
    max_doubles = serializers.IntegerField(
        min_value=1,
        max_value=3,
        required=False,
        help_text="Doubles a hand may take (Spanish 21's double-double down: up to 3).",
    )
    card = serializers.ChoiceField(
        choices=["face_up", "face_down", "face_down_on_request"],
        required=False,
        help_text="How the one card on a double is dealt (MA 10(c)): face up (the rule), face "
        "down at this table, or face down when a player asks; the last two are posted.",
    )


class SplitSerializer(serializers.Serializer):
    max_hands = serializers.IntegerField(min_value=1, max_value=16)
    resplit_aces = serializers.BooleanField(default=False)
    split_aces_one_card = serializers.BooleanField(default=True)


class PaytableLineIn(PaytableLineSerializer):
    """A line of an inline paytable, as variants.api reads one, its payout read by pays_parse."""

    def validate_pays(self, value: str) -> str:
        try:
            pays_parse(value)
        except InvalidPays as exc:
            raise serializers.ValidationError(str(exc)) from exc
        return value


_PAYTABLE_ID = Text()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "description": "Catalog paytable id, e.g. us-co/kings-bounty/kb03"},
            {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "outcome": {"type": "string"},
                        "pays": {"type": "string", "example": "25 to 1"},
                        "column": {"type": "string"},
                    },
                    "required": ["outcome", "pays"],
                },
            },
        ]
    }
)
class PaytableField(serializers.Field):
    """A catalog paytable id, or the lines of an inline paytable."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, str) and data:
            return _PAYTABLE_ID.run_validation(data)
        if isinstance(data, list) and data:
            return list(shared_serializer(PaytableLineIn, many=True).run_validation(data))
        raise serializers.ValidationError(
            'Give a catalog paytable id ("us-co/kings-bounty/kb03") or a list of lines '
            '[{"outcome": …, "pays": "25 to 1"}].'
        )

    def to_representation(self, value: Any) -> Any:
        return value


class BonusPayoutSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    probability = Text(max_length=100, help_text='A fraction "1/4" or a decimal "0.25".')

    def validate_probability(self, value: str) -> Fraction:
        try:
            probability = Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise serializers.ValidationError(
                f"{value!r} is not a probability; write a fraction like 1/4 or a decimal like 0.25."
            ) from None
        if not 0 <= probability <= 1:
            raise serializers.ValidationError("must be between 0 and 1.")
        return probability


class TipsSerializer(serializers.Serializer):
    accepted = serializers.BooleanField(default=True)
    max = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        min_value=0,
        required=False,
        help_text="The most a dealer tip wager may be (30-803(3)(i): a restriction to post).",
    )


class SideWagerSerializer(serializers.Serializer):
    wager = Slug()
    aggregate_payout_limit = serializers.DecimalField(
        max_digits=14,
        decimal_places=2,
        min_value=0,
        required=False,
        help_text="The most the wager pays all winners together in a round, where the licensee "
        "sets one (30-899.12(2), 30-2107(3), MA 24(h)); it is posted.",
    )
    paytable = PaytableField(required=False, allow_null=True, default=None)
    limits = LimitsSerializer(required=False)
    meter = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    column = Text(
        required=False,
        max_length=80,
        help_text='Which pay column of a paytable printed with alternatives ("Table B", "D").',
    )
    specified_suit = serializers.ChoiceField(
        choices=["C", "D", "H", "S"],
        required=False,
        help_text="The suit a suit-specific line names at this table (21+3 Progressive).",
    )
    bonus_payouts = BonusPayoutSerializer(
        many=True,
        required=False,
        allow_empty=False,
        help_text="Where a bonus system draws the payout (MA 20 blackjack bonus): each amount "
        "paid on a winning wager and the probability the system pays it; they add up to 1.",
    )

    def validate_bonus_payouts(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        total = sum((payout["probability"] for payout in value), Fraction(0))
        if total != 1:
            raise serializers.ValidationError(f"the probabilities add up to {total}, not 1.")
        return value

    def validate_wager(self, value: str) -> str:
        return _catalog_slug(value)


# The catalog facts read for the configuration being checked (in this thread), and the
# knowledge base's revision they are read at, if known: configuration_parse sets it.
_reads: ContextVar[dict[str, Any]] = ContextVar("configuration_reads")


def _catalog(key: Any, read: Callable[[], Any]) -> Any:
    """A catalog fact the checks need, `read()` once per configuration; with the revision known
    (pitboss.kbcache's stamp), once per revision of the knowledge base and shared between
    configurations (so never changed by its users)."""
    reads = _reads.get(None)
    if reads is None:  # a serializer of this module used on its own, not by configuration_parse
        return read()
    if key not in reads:
        revision = reads["revision"]
        reads[key] = (
            read() if revision is None else kbcache.remember(revision, ("configuration", key), read)
        )
    return reads[key]


def _catalog_slug(value: str) -> str:
    """`value`, if it is a catalog slug of any jurisdiction (GET /api/v1/wagers/ lists them)."""
    slugs = _catalog("slugs", lambda: sorted(set(Wager.objects.values_list("slug", flat=True))))
    if value not in slugs:
        raise serializers.ValidationError(
            f"{value!r} is no wager in the catalog; valid slugs: {', '.join(slugs)}."
        )
    return value


class LayoutField(Slug):
    """The catalog slug of the game or wager whose approved layout a table displays."""

    def to_internal_value(self, data: Any) -> str:
        return _catalog_slug(super().to_internal_value(data))


class TableSerializer(serializers.Serializer):
    name = Text(max_length=80)
    game = Slug()
    decks = serializers.IntegerField(min_value=1, max_value=12, required=False, allow_null=True)
    player_spots = serializers.IntegerField(min_value=1, max_value=14, required=False)
    dealing = serializers.ChoiceField(choices=["hand", "shoe", "csm", "asd"], required=False)
    dealer_soft_17 = serializers.ChoiceField(choices=["stand", "hit"], required=False)
    hole_card = serializers.ChoiceField(
        choices=["peek", "no_peek", "none", "face_up"],
        required=False,
        help_text="peek: checked under an ace or ten; no_peek; none: dealt after the players "
        "(MA 6(h)); face_up: dealt face up before the players act (MA 6(k)).",
    )
    blackjack_pays = OddsField(required=False)
    game_version = serializers.IntegerField(
        min_value=1,
        max_value=99,
        required=False,
        help_text="Which version of the game the table deals, where its rule has several: "
        "Double Up Blackjack's Version 1 or Version 2 (30-899.10; Version 2 the \"Alternate "
        'rules/Pay table"). Left out at such a game: Version 1. A game with one version takes '
        "none.",
    )
    variation = serializers.ChoiceField(
        choices=["6-to-5", "none"],
        required=False,
        help_text="The jurisdiction's blackjack variation the table deals: 6-to-5 (MA's 6 to 5 "
        "blackjack variation, whose rules 2(a)(1), 3(d), 3(e), 8(c), 12(d) then bind as errors) "
        "or none (a table paying 6 to 5 outside it under 7(d), whose rules go on the layout). "
        "Left out: the variation's rules are warnings where blackjack pays 6 to 5.",
    )
    insurance_pays = OddsField(required=False)
    even_money = serializers.BooleanField(required=False)
    double = DoubleSerializer(required=False)
    split = SplitSerializer(required=False)
    surrender = serializers.ChoiceField(choices=["none", "late", "early"], required=False)
    limits = LimitsSerializer(required=False)
    chip_unit = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=0, required=False
    )
    optional_payouts = serializers.ListField(
        child=serializers.ChoiceField(
            choices=["678-suited", "777", "5-card", "designated-blackjack"]
        ),
        required=False,
        help_text="Optional payouts the table offers on winning hands (MA 3(e)(1)-(4)).",
    )
    designated_blackjack = serializers.ListField(
        child=Text(max_length=10),
        required=False,
        min_length=2,
        max_length=2,
        help_text='The designated ace and face card of MA 3(e)(3), e.g. ["AS", "JS"].',
    )
    # many=True hands max_length to the ListSerializer it makes, which DRF's stubs do not know
    side_wagers = SideWagerSerializer(  # type: ignore[call-arg]
        many=True, required=False, default=list, max_length=MAX_SIDE_WAGERS
    )
    tips = TipsSerializer(
        required=False,
        help_text='Dealer tip wagers: {"accepted": false} or {"max": "25"}; restrictions are '
        "posted (30-803(3)(i)).",
    )
    jokers = Text(
        required=False,
        multiline=True,
        max_length=300,
        help_text="Where jokers are in use, their card value or usage as approved; posted "
        "(30-806(3)).",
    )
    layouts = serializers.ListField(
        child=LayoutField(),
        required=False,
        help_text="The approved layouts the table displays (the felt, or for an electronic game "
        "the terminals' screens), each named by the catalog slug of the game or wager whose "
        'layout it is: ["spanish-21"], ["blackjack", "kings-bounty"]. A game or wager whose '
        "rule says it may be played only on tables displaying its layout (30-899.16(1), "
        "30-2115, ...) needs its slug here; where a wager's betting area is part of the layout "
        '(MA 28(d): "the appropriate area of the blackjack layout"), its slug names that area. '
        "Leaving the field out means the layouts are not stated: the rules that need them say "
        "so (fact-missing) instead of finding a breach.",
    )

    def validate_designated_blackjack(self, value: list[str]) -> list[str]:
        try:
            cards = parse_cards(value)
        except InvalidCard as exc:
            raise serializers.ValidationError(str(exc)) from exc
        if sorted(card.is_ace for card in cards) != [False, True] or not any(
            card.is_face for card in cards
        ):
            raise serializers.ValidationError("must be an ace and a face card (J, Q or K).")
        return [str(card) for card in cards]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        pays = attrs.get("blackjack_pays")
        if (
            attrs.get("variation") == "6-to-5"
            and pays
            and not pays_parse(pays).same_payout(pays_parse("6 to 5"))
        ):
            raise serializers.ValidationError(
                {"variation": f"the 6 to 5 variation pays blackjack 6 to 5, not {pays}."}
            )
        if "designated-blackjack" in attrs.get("optional_payouts", []) and not attrs.get(
            "designated_blackjack"
        ):
            raise serializers.ValidationError(
                {
                    "designated_blackjack": "name the designated ace and face card, "
                    'e.g. ["AS", "JS"].'
                }
            )
        return attrs


class ConfigurationSerializer(serializers.Serializer):
    jurisdiction = Text(max_length=16)
    as_of = serializers.DateField()
    licensee = Text(required=False, allow_blank=True, default="")
    include_proposed = serializers.BooleanField(required=False, default=False)
    tables = TableSerializer(many=True, allow_empty=False)

    def validate_jurisdiction(self, value: str) -> str:
        codes = _catalog(
            "jurisdictions",
            lambda: list(Jurisdiction.objects.order_by("code").values_list("code", flat=True)),
        )
        if value not in codes:
            raise serializers.ValidationError(
                f"unknown jurisdiction {value!r}; known: {', '.join(codes)}."
            )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Inline paytable lines must name outcomes of the wager, as GET wagers/{slug}/ lists
        them; a game_version must be one of the game's versions (a game with one takes none)."""
        outcomes = _catalog(
            ("outcomes", attrs["jurisdiction"]),
            lambda: {
                slug: {o["key"] for o in wager_outcomes}
                for slug, wager_outcomes in Wager.objects.filter(
                    jurisdiction__code=attrs["jurisdiction"]
                ).values_list("slug", "outcomes")
            },
        )
        versions = _catalog(
            ("versions", attrs["jurisdiction"]), lambda: game_versions(attrs["jurisdiction"])
        )
        for t, table in enumerate(attrs["tables"]):
            chosen, have = table.get("game_version"), versions.get(table["game"], (1,))
            if chosen is not None and (len(have) == 1 or chosen not in have):
                problem = version_problem(table["game"], chosen, have)
                raise serializers.ValidationError({f"tables[{t}].game_version": [problem]})
            for s, side in enumerate(table.get("side_wagers", [])):
                known, lines = outcomes.get(side["wager"]), side.get("paytable")
                if known is None or not isinstance(lines, list):
                    continue
                for n, line in enumerate(lines):
                    if line["outcome"] not in known:
                        path = f"tables[{t}].side_wagers[{s}].paytable[{n}].outcome"
                        raise serializers.ValidationError(
                            {
                                path: [
                                    f"{line['outcome']!r} is no outcome of {side['wager']}; "
                                    f"outcomes: {', '.join(sorted(known))}."
                                ]
                            }
                        )
        return attrs

    def validate_as_of(self, value: dt.date) -> dt.date:
        if not EARLIEST <= value <= LATEST:
            raise serializers.ValidationError(f"must be between {EARLIEST} and {LATEST}.")
        return value


def configuration_parse(data: Any, *, heads: dict[str, int] | None = None) -> Configuration:
    """The configuration, checked for shape (at most MAX_TABLES tables, checked first) against
    the knowledge base as it is now, or at `heads` (pitboss.kbcache.history_heads, read once for
    many configurations); the catalog facts the checks read (jurisdictions, wager slugs and
    outcomes) are read once per revision of the knowledge base. The configuration keeps the heads,
    so that its validation reads the rules at the same state.

    :raises InvalidInput: the first problem, naming its field.
    """
    heads = kbcache.history_heads() if heads is None else heads
    try:
        return configuration_of(_checked(data, kbcache.revision_of(heads)), data, heads)
    except serializers.ValidationError as exc:
        raise InvalidInput(exc.detail) from exc


def _checked(data: Any, revision: str | None) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise serializers.ValidationError(
            {"non_field_errors": ["A configuration is a JSON object."]}
        )
    check_text_tree(data)  # the desk's upload and a stored run come here without the API's parser
    tables = data.get("tables")
    if isinstance(tables, list) and len(tables) > MAX_TABLES:
        raise serializers.ValidationError(
            {
                "tables": [
                    f"{len(tables)} tables; a configuration holds at most {MAX_TABLES}. "
                    "Send the floor in parts."
                ]
            }
        )
    reads = _reads.set({"revision": revision})
    try:
        return dict(shared_serializer(ConfigurationSerializer).run_validation(data))
    finally:
        _reads.reset(reads)
