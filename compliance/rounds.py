"""Rounds played by the engine under a configuration's rules (POST rounds/), and rounds as they
happened at a table checked against what the approved rules pay (POST rounds/replay/)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from engine.cards import EngineError, parse_cards
from engine.round import RoundLog, SeatSpec, play_round
from engine.shoe import Shoe
from engine.strategy import BasicStrategy, Scripted, Strategy
from pitboss.errors import DomainError

from .configuration import Configuration, Table
from .rulesets import TableRules, table_rules
from .validator import configuration_validate


@dataclass(frozen=True)
class Seat:
    """A seat of a round: its stake on each wager ("main" and side wagers by slug), the side of
    each wager placed on one of several (over-under-13: "over"), its actions in order of play
    (None: basic strategy for the rules) and, for a replay, what it was paid per wager, net."""

    wagers: Mapping[str, Decimal]
    sides: Mapping[str, str] = field(default_factory=dict)
    actions: Sequence[str] | None = None
    paid: Mapping[str, Decimal] = field(default_factory=dict)


def configuration_table(
    configuration: Configuration, name: str | None, path: str = "configuration"
) -> tuple[int, Table, TableRules]:
    """The table a request names (default the first), its index and its rules.

    :raises DomainError: no table of that name; rules the engine cannot play."""
    tables = configuration.tables
    index = next((i for i, t in enumerate(tables) if t.name == name), None) if name else 0
    if index is None:
        raise DomainError(
            "table_unknown",
            f"the configuration has no table {name!r}",
            fields={"table": f"one of {', '.join(t.name for t in tables)}"},
        )
    table = tables[index]
    return index, table, table_rules(configuration, table, f"{path}.tables[{index}]")


def _engine_error(exc: EngineError) -> DomainError:
    return DomainError("round_invalid", str(exc))


def rounds_play(
    *,
    configuration: Configuration,
    seats: Sequence[Seat],
    table: str | None = None,
    shoe: Sequence[str] | None = None,
    seed: int | None = None,
    rounds: int = 1,
) -> dict[str, Any]:
    """Play rounds as POST rounds/ asks (at the named table, default the first; from a scripted
    `shoe`, or one shuffled by `seed`) and return their logs.

    :raises DomainError: a round that cannot be played (a card that does not exist, more of a card
        than the shoe holds, an action the rules do not allow at that point).
    """
    if (shoe is None) == (seed is None):
        raise DomainError("invalid", "give either shoe (cards) or seed", fields={"shoe": "or seed"})
    _, dealt, found = configuration_table(configuration, table)
    rules = found.rules
    findings = configuration_validate(configuration.with_tables(dealt))
    try:
        if shoe is not None:
            cards = Shoe.scripted(parse_cards(list(shoe)), rules.decks, spanish=rules.spanish_decks)
        else:
            cards = Shoe.shuffled(
                rules.decks,
                seed or 0,
                spanish=rules.spanish_decks,
                continuous=dealt.dealing == "csm",
            )
        logs: list[RoundLog] = []
        for _ in range(rounds):
            specs = [
                SeatSpec(dict(seat.wagers), _strategy(seat.actions, n + 1, rules), dict(seat.sides))
                for n, seat in enumerate(seats)
            ]
            logs.append(play_round(rules, cards, specs))
            cards.end_round()
    except EngineError as exc:
        raise _engine_error(exc) from exc
    return {
        "table": dealt.name,
        "assumed": found.assumed,
        "compliant": not any(f.severity == "error" for f in findings),
        "findings": [f.as_dict() for f in findings],
        "rounds": [log.to_dict() for log in logs],
    }


def _strategy(actions: Sequence[str] | None, seat: int, rules: Any) -> Strategy:
    return BasicStrategy(rules) if actions is None else Scripted(list(actions), seat)


def round_replay(
    *,
    configuration: Configuration,
    cards: Sequence[str],
    seats: Sequence[Seat],
    table: str | None = None,
) -> dict[str, Any]:
    """Replay a round as it happened at a table (the named one, default the first; `cards` in
    dealing order) and report each payment that differs from what the approved rules pay, as
    findings citing the rules the engine applied.

    :raises DomainError: a round that cannot be played as given."""
    _, dealt, found = configuration_table(configuration, table)
    rules = found.rules
    try:
        shoe = Shoe.scripted(parse_cards(list(cards)), rules.decks, spanish=rules.spanish_decks)
        log = play_round(
            rules,
            shoe,
            [
                SeatSpec(
                    dict(seat.wagers), Scripted(list(seat.actions or []), n + 1), dict(seat.sides)
                )  # fmt: skip
                for n, seat in enumerate(seats)
            ],
        )
    except EngineError as exc:
        raise _engine_error(exc) from exc
    findings = []
    for n, seat in enumerate(seats):
        owed: dict[str, Decimal] = {}
        for s in log.settlements:
            if s.seat == n + 1:
                owed[s.wager] = owed.get(s.wager, Decimal(0)) + s.net
        for wager in sorted(set(owed) | set(seat.paid)):
            paid, due = seat.paid.get(wager), owed.get(wager, Decimal(0))
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
                    "table": dealt.name,
                    "path": f"seats[{n}].paid.{wager}",
                    "citations": _citations(applied),
                }
            )
    return {
        "table": dealt.name,
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
