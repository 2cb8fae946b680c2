"""Rounds played by the engine under a configuration's rules (POST rounds/), and rounds as they
happened at a table checked against what the approved rules pay (POST rounds/replay/)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.cards import EngineError, parse_cards
from engine.round import MAIN, RoundLog, SeatSpec, play_round
from engine.shoe import Shoe
from engine.sidewagers import SIDES
from engine.strategy import BasicStrategy, Scripted, Strategy
from pitboss.errors import DomainError
from pitboss.text import Text

from .configuration import configuration_parse
from .rulesets import TableRules, table_rules
from .validator import configuration_validate


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


def request_parse(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    """A request holding a configuration, checked: the configuration's errors are under
    "configuration"."""
    request = serializer_class(data=data)
    request.is_valid(raise_exception=True)
    values = dict(request.validated_data)
    try:
        values["configuration"] = configuration_parse(values["configuration"])
    except serializers.ValidationError as exc:
        raise serializers.ValidationError({"configuration": exc.detail}) from exc
    return values


def request_table(values: dict[str, Any]) -> tuple[dict[str, Any], TableRules]:
    """The table a parsed request names (default the first) and its rules."""
    config = values["configuration"]
    tables = config["tables"]
    name = values.get("table")
    index = next((i for i, t in enumerate(tables) if t["name"] == name), None) if name else 0
    if index is None:
        raise DomainError(
            "table_unknown",
            f"the configuration has no table {name!r}",
            fields={"table": f"one of {', '.join(t['name'] for t in tables)}"},
        )
    return tables[index], table_rules(config, tables[index], f"configuration.tables[{index}]")


def _engine_error(exc: EngineError) -> DomainError:
    return DomainError("round_invalid", str(exc))


def rounds_play(data: Any) -> dict[str, Any]:
    """Play rounds as POST rounds/ asks and return their logs.

    :raises ValidationError: a malformed request (the field is named).
    :raises DomainError: a round that cannot be played (a card that does not exist, more of a card
        than the shoe holds, an action the rules do not allow at that point).
    """
    values = request_parse(RoundsIn, data)
    table, found = request_table(values)
    rules = found.rules
    findings = configuration_validate({**values["configuration"], "tables": [table]})
    try:
        if "shoe" in values:
            shoe = Shoe.scripted(
                parse_cards(values["shoe"]), rules.decks, spanish=rules.spanish_decks
            )
        else:
            shoe = Shoe.shuffled(
                rules.decks,
                values["seed"],
                spanish=rules.spanish_decks,
                continuous=table.get("dealing") == "csm",
            )
        logs: list[RoundLog] = []
        for _ in range(values["rounds"]):
            seats = [
                SeatSpec(
                    seat["wagers"], _strategy(seat.get("actions"), n + 1, rules), seat["sides"]
                )
                for n, seat in enumerate(values["seats"])
            ]
            logs.append(play_round(rules, shoe, seats))
            shoe.end_round()
    except EngineError as exc:
        raise _engine_error(exc) from exc
    return {
        "table": table["name"],
        "assumed": found.assumed,
        "compliant": not any(f.severity == "error" for f in findings),
        "findings": [f.as_dict() for f in findings],
        "rounds": [log.to_dict() for log in logs],
    }


def _strategy(actions: list[str] | None, seat: int, rules: Any) -> Strategy:
    return BasicStrategy(rules) if actions is None else Scripted(actions, seat)


def round_replay(data: Any) -> dict[str, Any]:
    """Replay a round as it happened at a table and report each payment that differs from what the
    approved rules pay, as findings citing the rules the engine applied."""
    values = request_parse(ReplayIn, data)
    table, found = request_table(values)
    rules = found.rules
    try:
        shoe = Shoe.scripted(parse_cards(values["cards"]), rules.decks, spanish=rules.spanish_decks)
        log = play_round(
            rules,
            shoe,
            [
                SeatSpec(seat["wagers"], Scripted(seat["actions"], n + 1), seat["sides"])
                for n, seat in enumerate(values["seats"])
            ],
        )
    except EngineError as exc:
        raise _engine_error(exc) from exc
    findings = []
    for n, seat in enumerate(values["seats"]):
        owed: dict[str, Decimal] = {}
        for s in log.settlements:
            if s.seat == n + 1:
                owed[s.wager] = owed.get(s.wager, Decimal(0)) + s.net
        for wager in sorted(set(owed) | set(seat["paid"])):
            paid, due = seat["paid"].get(wager), owed.get(wager, Decimal(0))
            if paid is None or paid == due:
                continue
            applied = [s for s in log.settlements if s.seat == n + 1 and s.wager == wager]
            why = "; ".join(
                f"{'hand ' + str(s.hand) + ': ' if s.hand else ''}{s.rule} ({_signed(s.net)})"
                for s in applied
            )
            findings.append(
                {
                    "severity": "error",
                    "code": "payment-differs",
                    "message": f"Seat {n + 1}, {wager}: paid {_signed(paid)}, the approved rules "
                    f"pay {_signed(due)}: {why or 'no such wager was settled'}.",
                    "table": table["name"],
                    "path": f"seats[{n}].paid.{wager}",
                    "citations": _citations(applied),
                }
            )
    return {
        "table": table["name"],
        "assumed": found.assumed,
        "correct": not findings,
        "findings": findings,
        "round": log.to_dict(),
    }


def _signed(amount: Decimal) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def _citations(settlements: list[Any]) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    for s in settlements:
        if s.citation is None:
            continue
        ref = {
            "jurisdiction": s.citation.jurisdiction,
            "citation": s.citation.citation,
            "effective_from": s.citation.effective_from,
        }
        if ref not in seen:
            seen.append(ref)
    return seen
