"""The requests of the engine's endpoints (POST rounds/, rounds/replay/, analysis/base-game/,
simulations/, paytable-simulations/) checked for shape: DRF serializers that name each bad field,
and `request_parse`, which gives their values with the configuration parsed
(compliance.api.configuration) or raises pitboss.errors.InvalidInput. The services below take
the values as typed arguments (docs/architecture.md, "Typed input")."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.round import MAIN
from engine.sidewagers import SIDES
from engine.streak import MIN_ROUNDS
from pitboss.errors import InvalidInput
from pitboss.text import Slug, Text

from ..basegame import QUERY_FIELDS
from ..jobs import MAX_SEED
from ..paytable_simulations import MAX_ROUNDS as MAX_PAYTABLE_ROUNDS
from ..paytable_simulations import MIN_REQUEST_ROUNDS
from ..rounds import Seat
from ..simulations import MAX_ROUNDS
from .configuration import configuration_parse

MAX_INLINE_CONFIGURATIONS = 100


def _amount() -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)


class SidedWagerIn(serializers.Serializer):
    """A wager placed on one side of several (engine.sidewagers.SIDES): its stake and the side."""

    stake = _amount()
    side = serializers.CharField()


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "format": "decimal", "example": "5"},
            {
                "type": "object",
                "properties": {
                    "stake": {"type": "string", "format": "decimal"},
                    "side": {"type": "string", "example": "over"},
                },
                "required": ["stake", "side"],
            },
        ]
    }
)
class WagerField(serializers.Field):
    """A seat's wager: an amount ("5"), or for a wager placed on one side of several
    {"stake": "5", "side": "under"} (MA 17(b)(1), (2): over or under 13)."""

    def to_internal_value(self, data: Any) -> tuple[Decimal, str | None]:
        if isinstance(data, dict):
            sided = SidedWagerIn(data=data)
            sided.is_valid(raise_exception=True)
            return sided.validated_data["stake"], sided.validated_data["side"]
        return _amount().run_validation(data), None

    def to_representation(self, value: Any) -> Any:
        return value


class SeatIn(serializers.Serializer):
    wagers = serializers.DictField(
        child=WagerField(),
        help_text='{"main": "10", "<side wager slug>": "5"}; a wager placed on one side of '
        'several names it: {"over-under-13": {"stake": "5", "side": "over"}} (or "under").',
    )
    actions = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        allow_null=True,
        default=None,
        help_text="The seat's actions in order of play; absent: basic strategy for the rules.",
    )

    def validate_wagers(
        self, value: dict[str, tuple[Decimal, str | None]]
    ) -> dict[str, tuple[Decimal, str | None]]:
        if not value.get(MAIN, (0, None))[0]:
            raise serializers.ValidationError('a main wager is required: {"main": "10"}')
        for wager, (stake, side) in value.items():
            names = [s.name for s in SIDES.get(wager, ())]
            if names and side not in names:
                choices = " or ".join(f'"{n}"' for n in names)
                raise serializers.ValidationError(
                    {
                        wager: {
                            "side": f"{wager} is a wager on one side: {choices}, as "
                            f'{{"stake": "{stake}", "side": "{names[0]}"}}'
                        }
                    }  # fmt: skip
                )
            if not names and side is not None:
                raise serializers.ValidationError(
                    {wager: {"side": f"{wager} has no sides: give its amount alone"}}
                )
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """The wagers as amounts, and the side of each wager placed on one (`sides`)."""
        placed = attrs["wagers"]
        attrs["wagers"] = {wager: stake for wager, (stake, _) in placed.items()}
        attrs["sides"] = {wager: side for wager, (_, side) in placed.items() if side is not None}
        return attrs


class RoundsIn(serializers.Serializer):
    configuration = serializers.JSONField()
    table = Text(
        required=False,
        max_length=80,
        help_text="Name of the configuration's table to play; default the first.",
    )
    shoe = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        allow_empty=False,
        help_text='Cards in dealing order, e.g. ["7H", "TC", …].',
    )
    seed = serializers.IntegerField(required=False, min_value=0)
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=1000, default=1)
    seats = SeatIn(many=True, allow_empty=False, max_length=14)  # type: ignore[call-arg]  # many=True: ListSerializer takes max_length

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("shoe" in attrs) == ("seed" in attrs):
            raise serializers.ValidationError({"shoe": "give either shoe (cards) or seed"})
        if "shoe" in attrs and attrs["rounds"] != 1:
            raise serializers.ValidationError({"rounds": "a scripted shoe plays one round"})
        return attrs


class SeatReplayIn(SeatIn):
    actions = serializers.ListField(child=serializers.CharField(), default=list)
    paid = serializers.DictField(
        child=serializers.DecimalField(max_digits=12, decimal_places=2),
        help_text='What the seat was paid per wager, net of its stakes: {"main": "15", '
        '"insurance": "-5"}; a loss is negative.',
    )


class ReplayIn(serializers.Serializer):
    configuration = serializers.JSONField()
    table = Text(required=False, max_length=80)
    cards = serializers.ListField(
        child=serializers.CharField(), allow_empty=False, help_text="The cards in dealing order."
    )
    seats = SeatReplayIn(many=True, allow_empty=False, max_length=14)  # type: ignore[call-arg]  # many=True: ListSerializer takes max_length


class SimulationIn(serializers.Serializer):
    configuration = serializers.JSONField()
    table = Text(
        required=False,
        max_length=80,
        help_text="Name of the configuration's table; default the first.",
    )
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS)
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="Default: a random seed, reported so the run can be repeated.",
    )
    effects = serializers.BooleanField(
        default=False,
        help_text="Also the change each rule option makes to the house edge (about ten times "
        "the work).",
    )


class PaytableSimulationIn(serializers.Serializer):
    paytable = Text(help_text="The catalog paytable's key.")
    decks = serializers.IntegerField(
        required=False, min_value=1, help_text="One deck count; default every one it allows."
    )
    rounds = serializers.IntegerField(
        min_value=MIN_REQUEST_ROUNDS,
        max_value=MAX_PAYTABLE_ROUNDS,
        default=MIN_ROUNDS,
        help_text="Rounds at each deck count (at least, every wager counted being settled).",
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="Default: a random seed, reported so the run can be repeated.",
    )
    continuous_shuffler = serializers.BooleanField(
        default=False,
        help_text="Deal every round from all the cards; default a shoe cut at three quarters.",
    )


class DecisionIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=["approved", "rejected"])
    date = serializers.DateField(
        required=False, help_text="The date of the decision; default today."
    )
    note = Text(required=False, allow_blank=True, default="", multiline=True, max_length=4000)


class ChangeIn(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=["window", "proposed", "record"],
        help_text="window: the adopted rules on `from` against those on `to` (dates), of the "
        "whole jurisdiction or of one `instrument`; proposed: the proposed text `citation` "
        "against the adopted rules on `as_of` (default today); record: the writes of the rules "
        "recorded between the record times `from` and `to` (ISO 8601 date-times), judged as the "
        "amendments and proposed texts they record.",
    )
    citation = Text(
        required=False, max_length=40, help_text='A proposed text\'s label, e.g. "47.1-834.23".'
    )
    as_of = serializers.DateField(required=False)
    instrument = Slug(required=False, help_text='An instrument\'s slug, e.g. "rule-8".')
    # "from" is a Python keyword: declared as start and end, named from and to by get_fields;
    # a date or a date-time by the kind (validate).
    start = Text(
        required=False,
        max_length=40,
        help_text="The window's first date (window), or the first record time (record).",
    )
    end = Text(
        required=False,
        max_length=40,
        help_text="The window's last date (window), or the last record time (record).",
    )

    def get_fields(self) -> dict[str, Any]:
        fields = super().get_fields()
        fields["from"], fields["to"] = fields.pop("start"), fields.pop("end")
        return fields

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["kind"] == "proposed":
            if "citation" not in attrs:
                raise serializers.ValidationError({"citation": ["This field is required."]})
            return attrs
        missing = {
            name: ["This field is required."] for name in ("from", "to") if name not in attrs
        }
        if missing:
            raise serializers.ValidationError(missing)
        field: serializers.Field = (
            serializers.DateTimeField() if attrs["kind"] == "record" else serializers.DateField()
        )
        errors, read = {}, {}
        for name in ("from", "to"):
            try:
                read[name] = field.to_internal_value(attrs[name])
            except serializers.ValidationError as exc:
                errors[name] = exc.detail
        if errors:
            raise serializers.ValidationError(errors)
        return {**attrs, **read}


class ImpactIn(serializers.Serializer):
    jurisdiction = Text(max_length=16)
    change = ChangeIn()
    configurations = serializers.ListField(
        child=serializers.JSONField(),
        required=False,
        max_length=MAX_INLINE_CONFIGURATIONS,
        help_text="Configurations to judge instead of the stored ones the caller may see.",
    )
    job = serializers.BooleanField(
        default=False,
        help_text="Judge it as a job (202, then GET impact/jobs/{id}/) however few the floors; "
        "more than IMPACT_INLINE_FLOORS floors are always judged as a job.",
    )


class BaseGameIn(serializers.Serializer):
    configuration = serializers.JSONField()
    table = Text(
        required=False,
        max_length=80,
        help_text="Name of the configuration's table; default the first.",
    )
    effects = serializers.BooleanField(
        default=True,
        help_text="Also the change each rule option makes to the house edge (about ten analyses, "
        "each kept once made: the first request for a standard table takes a few seconds, for a "
        "face-up table about 3 s, for a Switch table about 5 s).",
    )


_INTEGERS = {"decks", "max_hands", "game_version"}
_BOOLEANS = {"double_after_split", "resplit_aces", "split_aces_one_card"}


def base_game_query(params: Any) -> dict[str, Any]:
    """A GET's query (?jurisdiction=&as_of=&game=&decks=&dealer_soft_17=…&effects=) as the body
    POST takes: a configuration of one table.

    :raises InvalidInput: a number or yes/no that is not one.
    """
    table: dict[str, Any] = {"name": "table", "game": params.get("game", "blackjack")}
    for name, path in QUERY_FIELDS.items():
        if name not in params:
            continue
        value: Any = params[name]
        if name in _INTEGERS:
            try:
                value = int(value)
            except ValueError:
                raise InvalidInput({name: "a whole number"}) from None
        elif name in _BOOLEANS:
            if value.lower() not in ("true", "false"):
                raise InvalidInput({name: "true or false"})
            value = value.lower() == "true"
        where = table
        *parents, leaf = path.split(".")
        for parent in parents:
            where = where.setdefault(parent, {})
        where[leaf] = value
    configuration = {
        "jurisdiction": params.get("jurisdiction", ""),
        "as_of": params.get("as_of", ""),
        "tables": [table],
    }
    return {"configuration": configuration, "effects": params.get("effects", "true")}


def request_parse(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request checked, its values as the services take them: a configuration parsed (its
    errors under "configuration"), each seat a compliance.rounds.Seat.

    :raises InvalidInput: naming the first bad field.
    """
    try:
        values = dict(serializer_class().run_validation(data))
    except serializers.ValidationError as exc:
        raise InvalidInput(exc.detail) from exc
    if "configuration" in values:
        try:
            values["configuration"] = configuration_parse(values["configuration"])
        except InvalidInput as exc:
            raise InvalidInput({"configuration": exc.detail}) from exc
    if "seats" in values:
        values["seats"] = tuple(Seat(**seat) for seat in values["seats"])
    return values
