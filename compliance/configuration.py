"""A proposed table configuration as the domain reads it (docs/api.md, "The table configuration
(contract v1)"; docs/architecture.md, "Typed input"): frozen dataclasses, parsed once at the edge
(compliance.api.configuration.configuration_parse, which checks the shape and names each bad
field) and taken as they are by the validator, the signs, the rule sets and the engine adapters.

A field the configuration leaves out is None here (an empty tuple for a list, but `layouts`,
where "not stated" and "none" differ); money is Decimal, probabilities Fraction, odds the text
as printed ("3 to 2", read by `pays_parse`). Every value is immutable and hashable, so a table
(or a side wager) is itself the key of what is kept about it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from engine.odds import Pays

# Payouts as printed repeat from one configuration to the next ("3 to 2", a paytable's lines):
# each text is read once per process (a Pays is immutable; a text that is no payout raises each
# time). Bounded: unusual texts only push out others.
pays_parse = functools.lru_cache(maxsize=4096)(Pays.parse)


@dataclass(frozen=True)
class Limits:
    min: Decimal
    max: Decimal


@dataclass(frozen=True)
class Double:
    on: str  # any_two, 9_10_11, 10_11, any_time, none
    after_split: bool = True
    max_doubles: int | None = None
    card: str | None = None  # face_up, face_down, face_down_on_request (MA 10(c))


@dataclass(frozen=True)
class Split:
    max_hands: int
    resplit_aces: bool = False
    split_aces_one_card: bool = True


@dataclass(frozen=True)
class PaytableLine:
    """A line of an inline paytable: an outcome key of the wager and its payout as printed."""

    outcome: str
    pays: str
    column: str = ""


@dataclass(frozen=True)
class BonusPayout:
    """An amount a bonus system pays on a winning wager and the probability it pays it (MA 20)."""

    amount: Decimal
    probability: Fraction


@dataclass(frozen=True)
class Tips:
    accepted: bool = True
    max: Decimal | None = None


@dataclass(frozen=True)
class SideWager:
    wager: str  # catalog slug
    # a catalog paytable id, or the lines of an inline paytable
    paytable: str | tuple[PaytableLine, ...] | None = None
    aggregate_payout_limit: Decimal | None = None
    limits: Limits | None = None
    meter: Decimal | None = None
    column: str | None = None
    specified_suit: str | None = None
    bonus_payouts: tuple[BonusPayout, ...] | None = None

    @property
    def inline_lines(self) -> tuple[PaytableLine, ...] | None:
        """The lines of an inline paytable; None for a catalog id or none given."""
        return self.paytable if isinstance(self.paytable, tuple) else None

    @property
    def paytable_id(self) -> str | None:
        """The catalog paytable id given; None for inline lines or none given."""
        return self.paytable if isinstance(self.paytable, str) else None


@dataclass(frozen=True)
class Table:
    name: str
    game: str  # catalog slug of the base game or full variant
    decks: int | None = None
    player_spots: int | None = None
    dealing: str | None = None  # hand, shoe, csm, asd
    dealer_soft_17: str | None = None  # stand, hit
    hole_card: str | None = None  # peek, no_peek, none, face_up
    blackjack_pays: str | None = None
    game_version: int | None = None
    variation: str | None = None  # 6-to-5, none
    insurance_pays: str | None = None
    even_money: bool | None = None
    double: Double | None = None
    split: Split | None = None
    surrender: str | None = None  # none, late, early
    limits: Limits | None = None
    chip_unit: Decimal | None = None
    optional_payouts: tuple[str, ...] = ()
    designated_blackjack: tuple[str, ...] = ()
    side_wagers: tuple[SideWager, ...] = ()
    tips: Tips | None = None
    jokers: str | None = None
    layouts: tuple[str, ...] | None = None  # None: not stated

    def offered(self) -> set[str]:
        """The table's game and its side wagers, by slug."""
        return {side.wager for side in self.side_wagers} | {self.game}


def value_at(given: Any, path: str) -> Any:
    """The value at a field path of a table or side wager, as the catalog's parameters name one
    ("dealer_soft_17", "double.after_split", "limits.max"); None for a field left out, or one the
    contract does not have."""
    for name in path.split("."):
        if not dataclasses.is_dataclass(given) or name not in _FIELDS[type(given)]:
            return None
        given = getattr(given, name)
    return given


@dataclass(frozen=True)
class Configuration:
    """A floor of tables in one jurisdiction, judged by the rules in force on `as_of`."""

    jurisdiction: str
    as_of: dt.date
    tables: tuple[Table, ...]
    licensee: str = ""
    include_proposed: bool = False
    # The JSON as submitted, which a validation run stores; not part of what it means.
    source: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False, repr=False)
    # The knowledge base's state its shape was checked against (pitboss.kbcache.history_heads):
    # the validation reads the rules at the same state.
    heads: Mapping[str, int] | None = field(default=None, compare=False, hash=False, repr=False)

    def offered(self) -> set[str]:
        """Every game and side wager of the floor, by slug."""
        return set().union(*(table.offered() for table in self.tables))

    def floor_key(self) -> str:
        """Which floor this is, whatever the date or the options: a SHA-256 of the
        jurisdiction, the licensee and the table names (ValidationRun.floor)."""
        return floor_key(self.jurisdiction, self.licensee, [table.name for table in self.tables])

    def with_tables(self, *tables: Table) -> Configuration:
        return dataclasses.replace(self, tables=tables)


def floor_key(jurisdiction: str, licensee: str, tables: list[str]) -> str:
    """A SHA-256 of a floor's jurisdiction, licensee and table names (in any order): a vendor's
    newer run with the same key is a new filing of the same floor."""
    text = json.dumps([jurisdiction, licensee.strip(), sorted(tables)], ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def configuration_of(
    values: Mapping[str, Any],
    source: Mapping[str, Any],
    heads: Mapping[str, int] | None = None,
) -> Configuration:
    """The configuration of values already checked for shape (the API's serializer gives them):
    each nested object as its dataclass, each list as a tuple."""
    return Configuration(
        jurisdiction=values["jurisdiction"],
        as_of=values["as_of"],
        licensee=values.get("licensee", ""),
        include_proposed=values.get("include_proposed", False),
        tables=tuple(_table(table) for table in values["tables"]),
        source=source,
        heads=heads,
    )


def _table(values: Mapping[str, Any]) -> Table:
    nested = {
        "double": lambda v: Double(**v),
        "split": lambda v: Split(**v),
        "limits": lambda v: Limits(**v),
        "tips": lambda v: Tips(**v),
        "side_wagers": lambda v: tuple(_side_wager(side) for side in v),
        "optional_payouts": tuple,
        "designated_blackjack": tuple,
        "layouts": tuple,
    }
    given: dict[str, Any] = {
        name: nested[name](value) if name in nested and value is not None else value
        for name, value in values.items()
    }
    return Table(**given)


def _side_wager(values: Mapping[str, Any]) -> SideWager:
    given = dict(values)
    if isinstance(given.get("paytable"), list):
        given["paytable"] = tuple(PaytableLine(**dict(line)) for line in given["paytable"])
    if given.get("limits") is not None:
        given["limits"] = Limits(**given["limits"])
    if given.get("bonus_payouts") is not None:
        given["bonus_payouts"] = tuple(BonusPayout(**p) for p in given["bonus_payouts"])
    return SideWager(**given)


_FIELDS: dict[type, frozenset[str]] = {
    kind: frozenset(f.name for f in dataclasses.fields(kind))
    for kind in (Limits, Double, Split, PaytableLine, BonusPayout, Tips, SideWager, Table)
}
