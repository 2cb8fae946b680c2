"""What a simulation returns: exact integer sums of the player's net results, the house edge and
its standard error, and a rule variation's effect played on the same cards."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.odds import decimal_string
from engine.rules import RuleSet


@dataclass(frozen=True)
class SimulationResult:
    """Exact sums over simulated rounds of the player's net result, in units of `unit` wagers."""

    rounds: int
    total_units: int
    total_squares: int
    unit: Fraction
    chunks: int = 1

    def __add__(self, other: SimulationResult) -> SimulationResult:
        if self.unit != other.unit:
            raise ValueError(f"cannot add results in units of {self.unit} and {other.unit}")
        return SimulationResult(
            self.rounds + other.rounds,
            self.total_units + other.total_units,
            self.total_squares + other.total_squares,
            self.unit,
            self.chunks + other.chunks,
        )

    @property
    def house_edge(self) -> Fraction:
        """The player's average loss per round, as a fraction of the initial wager."""
        return -Fraction(self.total_units, self.rounds) * self.unit

    @property
    def variance(self) -> Fraction:
        """The sample variance of a round's result, in wagers squared (exact)."""
        n = self.rounds
        if n < 2:
            return Fraction(0)
        return Fraction(n * self.total_squares - self.total_units**2, n * (n - 1)) * self.unit**2

    @property
    def standard_error(self) -> float:
        """The standard error of the house edge."""
        return math.sqrt(self.variance / self.rounds) if self.rounds else math.inf

    def as_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "chunks": self.chunks,
            # A simulated figure is an estimate: a decimal with its standard error, never a
            # fraction (the exact integer sums below let anyone recompute it).
            "house_edge": decimal_string(self.house_edge),
            "standard_error": f"{self.standard_error:.9f}",
            "unit": f"{self.unit.numerator}/{self.unit.denominator}",
            "total_units": str(self.total_units),
            "total_squares": str(self.total_squares),
        }


@dataclass(frozen=True)
class Variation:
    """One rule option changed from the base rules."""

    option: str
    base: str
    changed: str
    rules: RuleSet


@dataclass(frozen=True)
class EffectResult:
    """A variation played on the same cards as the base rules, round by round (common random
    numbers): its own sums and the exact sums of its difference from the base."""

    variation: Variation
    result: SimulationResult
    diff_units: int
    diff_squares: int

    def __add__(self, other: EffectResult) -> EffectResult:
        return EffectResult(
            self.variation,
            self.result + other.result,
            self.diff_units + other.diff_units,
            self.diff_squares + other.diff_squares,
        )

    @property
    def house_edge_change(self) -> Fraction:
        """The variation's house edge less the base rules' (positive: it costs the player)."""
        return -Fraction(self.diff_units, self.result.rounds) * self.result.unit

    @property
    def standard_error(self) -> float:
        n, s, q = self.result.rounds, self.diff_units, self.diff_squares
        if n < 2:
            return math.inf
        variance = Fraction(n * q - s * s, n * (n - 1)) * self.result.unit**2
        return math.sqrt(variance / n)

    def as_dict(self) -> dict[str, Any]:
        change = self.house_edge_change
        return {
            "option": self.variation.option,
            "from": self.variation.base,
            "to": self.variation.changed,
            "house_edge_change": decimal_string(change),  # an estimate: no fraction
            "standard_error": f"{self.standard_error:.9f}",
            "house_edge": decimal_string(self.result.house_edge),
        }


@dataclass(frozen=True)
class EffectsResult:
    base: SimulationResult
    effects: tuple[EffectResult, ...]

    def __add__(self, other: EffectsResult) -> EffectsResult:
        return EffectsResult(
            self.base + other.base,
            tuple(a + b for a, b in zip(self.effects, other.effects, strict=True)),
        )
