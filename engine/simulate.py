"""Fast simulation of the base game: one seat, one hand, the basic strategy computed for the rule
set (engine.strategy.BasicStrategy), compiled with numba.

Each round is played as engine.round.play_round plays it for such a seat — the same deal order,
decisions, splits, doubles, surrender, peek or no hole card, and settlement — but without a log,
on card values in a numpy array. Shoes are shuffled with a cut card after 3/4 of the cards and
reshuffled after the round that reaches it (or during a round that runs out of cards); a
continuous shuffler deals every round from all the cards.

Exact sums: every round's net result is an integer number of units of 1/`units_per_wager` of the
wager (tenths for 3 to 2 and 6 to 5), and the sums of the results and of their squares are
integers, so the house edge is an exact fraction of the sums and the standard error is computed
from exact sums.

Speed (issue #15; benchmarks/reference_sim.c is a plain C simulation of the same game, timed
beside it): the functions a round runs are compiled without numba's reference counting
(`_nrt=False`: they make no arrays), which otherwise costs two atomic operations per array per
call and more than the round itself; `_round` is inlined into the loop over rounds, the shuffle
keeps the random state in registers, and each decision is one lookup in a table of the action for
each hand and set of allowed actions (decision_array), not a walk down the ranked actions.
Arrays are indexed with unsigned integers in the kernel: numba checks a signed index for a
negative value (Python's a[-1]) on every access, which C does not; unsigned, it cannot be negative
and the check goes (about 12 % of the simulator's time).

Reproducible: a simulation is split into chunks of `chunk_rounds` rounds; chunk i draws its
shuffles from numpy's SeedSequence([seed, i]), so the same seed and chunk size give the same
result however the chunks are run (in-process or by Celery workers) and in whatever order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from engine.cards import Card, EngineError, parse_cards
from engine.hands import bonus_21_kinds
from engine.odds import decimal_string
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender
from engine.strategy import Action, BasicStrategy

CHUNK_ROUNDS = 1_000_000
"""Rounds per seeded chunk, unless a caller asks for another size."""
PENETRATION = Fraction(3, 4)
"""Where the cut card sits, as in engine.shoe.Shoe.shuffled."""
MAX_HANDS = 16
"""The most hands a seat may split to (the configuration's split.max_hands allows 16)."""
METHOD = "simulation, basic strategy computed for the rules"

# Action codes in the compiled strategy table; the bit of each in an "allowed" mask is 1 << code.
_HIT, _STAND, _DOUBLE, _SPLIT, _SURRENDER = 0, 1, 2, 3, 4
_ACTION_CODES = {
    Action.HIT: _HIT,
    Action.STAND: _STAND,
    Action.DOUBLE: _DOUBLE,
    Action.SPLIT: _SPLIT,
    Action.SURRENDER: _SURRENDER,
}
_HOLE = {HoleCard.PEEK: 0, HoleCard.NO_PEEK: 1, HoleCard.NONE: 2}
_PEEK, _NONE = 0, 2
_SURRENDER_RULE = {Surrender.NONE: 0, Surrender.LATE: 1, Surrender.EARLY: 2}
_LATE, _EARLY = 1, 2
_DOUBLE_RULE = {
    DoubleOn.ANY_TWO: 0,
    DoubleOn.NINE_TEN_ELEVEN: 1,
    DoubleOn.TEN_ELEVEN: 2,
    DoubleOn.ANY_TIME: 3,
    DoubleOn.NONE: 4,
}
# Indices into a rule set's parameter row.
(
    _P_STAKE,
    _P_BLACKJACK,
    _P_H17,
    _P_HOLE,
    _P_DOUBLE_ON,
    _P_DAS,
    _P_MAX_HANDS,
    _P_RSA,
    _P_SA1,
    _P_SURRENDER,
    _P_OBO,
    _P_TWO21,
    _P_21_WINS,
    _P_BLACKJACK_BEATS,
    _P_RESCUE,
    _P_MAX_DOUBLES,
    _P_BONUS_DOUBLED,
) = range(17)
_PARAMS = 17
REFERENCE_PARAMS = 12
"""The standard game's parameters, the first of a row: those benchmarks/reference_sim.c reads
(the others are Spanish 21's)."""
# Hand states at settlement.
_LIVE, _BUST, _SURRENDERED, _BLACKJACK, _RESCUED, _TWENTY_ONE = 0, 1, 2, 3, 4, 5
# A card in the kernel: its value (ace 1) in the low four bits, its suit's index in SUITS above.
SUITS = "SHDC"
"""Suit codes: spades 0 (Bonus 21 pays more in spades)."""
_VALUE = 15
BONUS_HANDS = (
    "", "2C 3C 4C 5C 7C", "AC 2C 3C 4C 5C 6D", "AC AD 2C 3C 4C 5C 5D",
    "6S 7H 8D", "6H 7H 8H", "6S 7S 8S", "7S 7H 7D", "7H 7H 7H", "7S 7S 7S",
)  # fmt: skip
"""Bonus 21 codes (30-899.16(11)) and a hand of each, for engine.hands.bonus_21_kinds to name its
kinds: no bonus kind; 5, 6, 7 cards; 6-7-8 mixed, suited, in spades; 7-7-7 the same."""
_FIVE_CARDS, _678, _777 = 1, 4, 7
# What a draw does at the end of the cards.
_SHUFFLE, _WRAP, _SCRIPTED = 0, 1, 2

SIMULATED_RULES = (
    "decks",
    "spanish_decks",
    "dealer_hits_soft_17",
    "hole_card",
    "blackjack_pays",
    "double_on",
    "double_after_split",
    "max_split_hands",
    "resplit_aces",
    "split_aces_one_card",
    "surrender",
    "original_bets_only",
    "two_card_21_beats_dealer_21",
)
"""The RuleSet fields a base-game simulation depends on (no insurance: basic strategy declines
it; no side wagers), besides Spanish 21's (SPANISH_RULES)."""
SPANISH_RULES = (
    "player_21_wins",
    "blackjack_beats_dealer_blackjack",
    "bonus_21",
    "bonus_on_doubled",
    "rescue",
    "max_doubles",
)
"""Spanish 21's rules the simulator plays (30-899.16): 21s and blackjacks that win, Bonus 21
odds, doubling again, rescue. The Super and Envy Bonus, dollar amounts, are not paid (a job says
so in its assumptions)."""

NOT_SIMULATED = {
    "dealer_face_up": "the dealer's cards face up (Face Up Blackjack)",
    "ties_lose": "pushes that lose",
    "switch": "switching cards (Blackjack Switch)",
    "spots_per_seat": "two hands a seat",
    "designated_blackjack": "a designated blackjack",
    "double_up": "the double up (Double Up Blackjack)",
    "dealer_stops_on_16": "a dealer who stops on 16 (Double Up Blackjack)",
    "blackjack_paid_at_once": "blackjacks paid at once whatever the dealer holds",
    "split_aces_21_pays": "a split ace and a ten paid at once",
}
"""RuleSet fields the simulator does not play: a rule set using any of them is refused, never
simulated as the plain game."""


class NotSimulable(EngineError):
    """The rules use what the simulator does not play."""


def check_simulable(rules: RuleSet) -> None:
    """:raises NotSimulable: naming what the simulator does not play (the logged engine does)."""
    default = RuleSet()
    missing = [
        what
        for name, what in NOT_SIMULATED.items()
        if getattr(rules, name) != getattr(default, name)
    ]
    if missing:
        raise NotSimulable(
            "the fast simulator plays the standard game only, not "
            + ", ".join(missing)
            + "; play these rules through POST rounds/ (seeded rounds) instead"
        )


# --- results -----------------------------------------------------------------------------------


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


# --- rule sets as arrays -----------------------------------------------------------------------


def units_per_wager(rules: RuleSet) -> int:
    """Units a wager is split into so that every result is a whole number of them: tenths, or
    finer where the blackjack or Bonus 21 odds need it (4 to 3 needs thirtieths)."""
    odds = [rules.blackjack_pays, *(pays for _, pays in rules.bonus_21)]
    return math.lcm(10, *(o.denominator for o in odds))


def _params(rules: RuleSet, units: int) -> npt.NDArray[np.int64]:
    check_simulable(rules)
    blackjack = rules.blackjack_pays * units
    if blackjack.denominator != 1:
        raise ValueError(f"blackjack odds {rules.blackjack_odds} are not whole units of 1/{units}")
    if not 1 <= rules.max_split_hands <= MAX_HANDS:
        raise ValueError(f"max_split_hands must be 1 to {MAX_HANDS}, not {rules.max_split_hands}")
    row = np.zeros(_PARAMS, dtype=np.int64)
    row[_P_STAKE] = units
    row[_P_BLACKJACK] = blackjack.numerator
    row[_P_H17] = rules.dealer_hits_soft_17
    row[_P_HOLE] = _HOLE[rules.hole_card]
    row[_P_DOUBLE_ON] = _DOUBLE_RULE[rules.double_on]
    row[_P_DAS] = rules.double_after_split
    row[_P_MAX_HANDS] = rules.max_split_hands
    row[_P_RSA] = rules.resplit_aces
    row[_P_SA1] = rules.split_aces_one_card
    row[_P_SURRENDER] = _SURRENDER_RULE[rules.surrender]
    row[_P_OBO] = rules.original_bets_only
    row[_P_TWO21] = rules.two_card_21_beats_dealer_21
    row[_P_21_WINS] = rules.player_21_wins
    row[_P_BLACKJACK_BEATS] = rules.blackjack_beats_dealer_blackjack
    row[_P_RESCUE] = rules.rescue
    row[_P_MAX_DOUBLES] = rules.max_doubles if rules.rescue else 1  # as engine.round deals them
    row[_P_BONUS_DOUBLED] = rules.bonus_on_doubled
    return row


def bonus_array(rules: RuleSet, units: int) -> npt.NDArray[np.int64]:
    """What a winning 21 of each Bonus 21 code (BONUS_HANDS) wins on a wager of `units`: the odds
    of the first of the rules' Bonus 21 kinds the hand makes (engine.round._settle_win), even
    money where it makes none."""
    out = np.full(len(BONUS_HANDS), units, dtype=np.int64)
    for code, hand in enumerate(BONUS_HANDS):
        kinds = bonus_21_kinds(parse_cards(hand.split())) if hand else set()
        odds = next((odds for kind, odds in rules.bonus_21 if kind in kinds), None)
        if odds is not None:
            win = odds * units
            if win.denominator != 1:
                raise ValueError(f"bonus odds {odds} are not whole units of 1/{units}")
            out[code] = win.numerator
    return out


_DOUBLE_AGAIN, _RESCUE_IT = 1, 2


def doubled_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """What the basic strategy does with a doubled hand that may go on (Spanish 21's rescue,
    30-899.16(7)), by [total, soft, up value]: _DOUBLE_AGAIN where its first choice for the total
    is to double (taken where the rules allow another double), _RESCUE_IT where standing is worth
    less than half the wager lost (BasicStrategy.decide)."""
    out = np.zeros((22, 2, 11), dtype=np.int8)
    if not rules.rescue:
        return out
    strategy = BasicStrategy(rules)
    for (total, soft, pair, up, two), ranked in strategy.table.items():
        if pair == 0 and not two and total <= 21 and ranked[0] is Action.DOUBLE:
            out[total, int(soft), up] |= _DOUBLE_AGAIN
    for (total, up), value in strategy.stands.items():
        if isinstance(up, int) and total <= 21 and value < -0.5:
            out[total, :, up] |= _RESCUE_IT
    return out


def _strategy_key(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """What BasicStrategy reads of a rule set, hashable (Spanish 21's extras change no play of the
    table: doubled_array reads them)."""
    data = rules_as_dict(rules)
    return tuple((name, data[name]) for name in SIMULATED_RULES)


def strategy_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """BasicStrategy(rules).table as an array [total, soft, pair value, up value, two cards,
    rank] of action codes, best first, -1 past the last."""
    return _strategy_array(_strategy_key(rules)).copy()


@lru_cache(maxsize=64)
def _strategy_array(key: tuple[tuple[str, Any], ...]) -> npt.NDArray[np.int8]:
    out = np.full((22, 2, 11, 11, 2, 5), -1, dtype=np.int8)
    table = BasicStrategy(rules_from_dict(dict(key))).table
    for (total, soft, pair, up, two), ranked in table.items():
        for rank, action in enumerate(ranked):
            out[total, int(soft), pair, up, int(two), rank] = _ACTION_CODES[action]
    return out


_OPTIONS = 16
"""Option masks of a decision: 1 may double, 2 may split, 4 may surrender, 8 a split ace that
may take no more cards (it may only be split again or stand)."""


def decision_array(rules: RuleSet) -> npt.NDArray[np.int8]:
    """The action the basic strategy takes for each hand and option mask (_OPTIONS), flattened:
    strategy_array's first ranked action among those allowed (stand where none is), looked up
    once here rather than ranked in every round."""
    return _decision_array(_strategy_key(rules)).copy()


@lru_cache(maxsize=64)
def _decision_array(key: tuple[tuple[str, Any], ...]) -> npt.NDArray[np.int8]:
    ranked = _strategy_array(key)
    out = np.full(ranked.shape[:-1] + (_OPTIONS,), _STAND, dtype=np.int8)
    for options in range(_OPTIONS):
        allowed = (1 << _HIT) | (1 << _STAND)
        allowed |= (1 << _DOUBLE) * (options & 1) + (1 << _SPLIT) * (options >> 1 & 1)
        allowed |= (1 << _SURRENDER) * (options >> 2 & 1)
        if options & 8:
            allowed &= (1 << _SPLIT) | (1 << _STAND)
        chosen = np.full(ranked.shape[:-1], -1, dtype=np.int8)
        for rank in range(ranked.shape[-1]):
            choice = ranked[..., rank]
            ok = (choice >= 0) & ((allowed >> np.maximum(choice, 0)) & 1 == 1) & (chosen < 0)
            chosen[ok] = choice[ok]
        out[..., options] = np.where(chosen < 0, _STAND, chosen)
    return out


def composition(rules: RuleSet) -> npt.NDArray[np.int8]:
    """The cards of the rule set's shoe as the kernel holds them, in no particular order: their
    values (ace 1), and where Spanish 21's rules may pay by suit the suit's code above the value
    (see SUITS)."""
    tens = 3 if rules.spanish_decks else 4
    suits = range(len(SUITS)) if _spanish(rules) else [0] * len(SUITS)
    per_deck = [value | suit << 4 for value in range(1, 10) for suit in suits]
    per_deck += [10 | suit << 4 for suit in suits for _ in range(tens)]
    return np.array(per_deck * rules.decks, dtype=np.int8)


def card_code(card: Card) -> int:
    """A card as the kernel holds it (composition)."""
    return card.value | SUITS.index(card.suit.value) << 4


def _check_same_shoe(variants: list[RuleSet]) -> None:
    shoes = {(r.decks, r.spanish_decks) for r in variants}
    if len(shoes) > 1:
        raise ValueError("variations played on the same cards need the same shoe")


# --- the compiled kernel -----------------------------------------------------------------------


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _next(s: npt.NDArray[np.uint64]) -> np.uint64:
    """xoshiro256**: the next 64 random bits from the state `s` (four words, not all zero)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3
    return result


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _reseed(target: npt.NDArray[np.uint64], source: npt.NDArray[np.uint64]) -> None:
    """A fresh xoshiro state in `target` from the next output of `source` (splitmix64, the
    seeding xoshiro's authors recommend)."""
    z = _next(source)
    for i in range(4):
        z += np.uint64(0x9E3779B97F4A7C15)
        x = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        target[i] = x ^ (x >> np.uint64(31))
    if not target.any():
        target[0] = 1


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _below(s: npt.NDArray[np.uint64], n: int) -> int:
    """A uniform integer in [0, n), n < 2**32, unbiased (Lemire's multiply and reject)."""
    bound = np.uint64(n)
    m = (_next(s) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(s) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return int(m >> np.uint64(32))


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _shuffle(cards: npt.NDArray[np.int8], s: npt.NDArray[np.uint64]) -> None:
    """Fisher-Yates, drawing with _below from `s`: the same numbers, with the state held in
    registers for the whole shuffle (the hottest loop of a simulation)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    for i in range(cards.size - 1, 0, -1):
        bound = np.uint64(i + 1)
        while True:  # _below(s, i + 1)
            result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
            t = s1 << np.uint64(17)
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = _rotl(s3, 45)
            m = (result >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
            if low >= bound or low >= (np.uint64(0x100000000) - bound) % bound:
                break
        j = m >> np.uint64(32)  # unsigned indices: no check for a negative index
        u = np.uint64(i)
        cards[u], cards[j] = cards[j], cards[u]
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _shuffler_step(
    cards: npt.NDArray[np.int8], pos: int, s: npt.NDArray[np.uint64], dealt: npt.NDArray[np.int64]
) -> None:
    """A continuous shuffler's next card: one drawn from those not yet dealt this round."""
    if pos >= cards.size:
        return
    j = pos + _below(s, cards.size - pos)
    cards[pos], cards[j] = cards[j], cards[pos]
    dealt[0] = pos + 1


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _draw(
    cards: npt.NDArray[np.int8],
    pos: int,
    s: npt.NDArray[np.uint64],
    mode: int,
    dealt: npt.NDArray[np.int64] | None,
) -> tuple[int, int]:
    """The card at `pos` and the next position. At the end of the cards the shoe is reshuffled
    and the round completed (30-828(11), MA 15(g)), or, for a variation replaying the base's
    cards, read again from the start.

    A continuous shuffler (`dealt`, None for a shoe: dealt[0] cards at the front already drawn this
    round) deals
    every round from all the cards: the card at a new position is drawn uniformly from those not
    yet dealt this round (a Fisher-Yates step) with the round's own random state `s`, so the
    round's cards are the same whichever of the variations replaying it reaches a position first."""
    if dealt is not None:  # known when compiled: a shoe's draw has no such step
        if pos >= dealt[0]:
            _shuffler_step(cards, pos, s, dealt)
    if pos >= cards.size:
        if mode == _SCRIPTED:
            raise ValueError("the scripted cards ran out")
        if mode == _SHUFFLE:
            _shuffle(cards, s)
        pos = 0
    return int(cards[np.uint64(pos)]), pos + 1


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _at(k: int, total: int, soft: bool, pair: int, up: int, two: bool, options: int) -> np.uint64:
    """The index in the flattened decision arrays (decision_array, rule set after rule set) of
    rule set k's action with these options (unsigned: see the module's note on speed)."""
    index = (((((k * 22 + total) * 2 + soft) * 11 + pair) * 11 + up) * 2 + two) * 16 + options
    return np.uint64(index)


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _value(card: int, bonus: npt.NDArray[np.int64] | None) -> int:
    """A card's value: with Spanish 21's rules (`bonus`) cards carry their suit (composition)."""
    if bonus is not None:
        return card & _VALUE
    return card


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _round(
    cards: npt.NDArray[np.int8],
    pos: int,
    s: npt.NDArray[np.uint64],
    mode: int,
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    k: int,
    h_total: npt.NDArray[np.int64],
    h_cards: npt.NDArray[np.int64],
    h_stake: npt.NDArray[np.int64],
    h_state: npt.NDArray[np.int64],
    h_bonus: npt.NDArray[np.int64],
    h_first: npt.NDArray[np.int64],
    dealt: npt.NDArray[np.int64] | None,
) -> tuple[int, int, int]:
    """One round under rule set k, from the cards at `pos`: (the seat's net in units, the next
    position, the hands won less the hands lost: engine.streak). Mirrors engine.round._Round
    for one seat of a BasicStrategy without side wagers.
    `bonus` and `doubled` are None where no rule set played has Spanish 21's rules: numba compiles
    that kernel apart, without them (and with cards that are only values: composition), so the
    standard game pays nothing for them."""
    row = np.uint64(k)
    stake = params[row, _P_STAKE]
    hole_rule = params[row, _P_HOLE]
    surrender_rule = params[row, _P_SURRENDER]
    double_on = params[row, _P_DOUBLE_ON]
    das = params[row, _P_DAS] != 0
    max_hands = params[row, _P_MAX_HANDS]
    rsa = params[row, _P_RSA] != 0
    sa1 = params[row, _P_SA1] != 0

    # The deal (30-820, MA 6(e)): player, dealer up, player, hole card unless none.
    first_code, pos = _draw(cards, pos, s, mode, dealt)
    up, pos = _draw(cards, pos, s, mode, dealt)
    second_code, pos = _draw(cards, pos, s, mode, dealt)
    first, up, second = _value(first_code, bonus), _value(up, bonus), _value(second_code, bonus)
    hole = 0
    if hole_rule != _NONE:
        hole, pos = _draw(cards, pos, s, mode, dealt)
        hole = _value(hole, bonus)

    hard = first + second
    ace = first == 1 or second == 1
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    surrendered = False
    if surrender_rule == _EARLY and total != 21:
        pair = first if first == second else 0
        if strategies[_at(k, total, soft, pair, up, True, 7)] == _SURRENDER:  # the best action
            surrendered = True
    peeked = hole_rule == _PEEK and (up == 1 or up == 10)
    if peeked and up + hole == 11:  # the peek finds a blackjack: original wager only
        if surrendered:
            return -(stake // 2), pos, -1
        if total == 21:
            if bonus is not None:
                if params[row, _P_BLACKJACK_BEATS]:
                    return params[row, _P_BLACKJACK], pos, 1
            return 0, pos, 0
        return -stake, pos, -1

    # The player's hands. Every hand of a seat starts with a card of the first card's value, so
    # the split hands waiting for their second card are alike but for that card's suit: their
    # first cards wait in h_first, the last split's played first (engine.round inserts it next).
    hands = 1
    waiting = 0
    done = 0
    hand_stake = stake
    last_double = 0
    doubles = 0
    third_code = 0
    from_split = False
    split_aces = False
    cards_in_hand = 2
    finished = surrendered
    while True:
        while not finished:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if total >= 21:
                break
            two = cards_in_hand == 2
            options = 0  # see _OPTIONS
            if das or not from_split:
                if double_on == 3:  # any time
                    options = 1
                elif two and double_on != 4:
                    if (
                        double_on == 0
                        or (not soft and (total == 10 or total == 11))
                        or (double_on == 1 and not soft and total == 9)
                    ):
                        options = 1
            pair = 0
            if two and first == second:
                pair = first
                if hands < max_hands and not (split_aces and not rsa):
                    options |= 2
            if surrender_rule == _LATE and two and not from_split and hands == 1:
                options |= 4
            if split_aces and sa1:
                options |= 8
            action = strategies[_at(k, total, soft, pair, up, two, options)]
            if action == _STAND:
                finished = True
            elif action == _HIT:
                code, pos = _draw(cards, pos, s, mode, dealt)
                card = _value(code, bonus)
                hard += card
                ace = ace or card == 1
                cards_in_hand += 1
                if bonus is not None:
                    if cards_in_hand == 3:
                        third_code = code
            elif action == _DOUBLE:
                # One card; where a double may be rescued (30-899.16(7)) the hand goes on:
                # double again (the whole wager, 30-899.16(8)), rescue or stand.
                while True:
                    last_double = hand_stake
                    hand_stake += last_double
                    doubles += 1
                    code, pos = _draw(cards, pos, s, mode, dealt)
                    card = _value(code, bonus)
                    hard += card
                    ace = ace or card == 1
                    cards_in_hand += 1
                    if doubled is None:
                        break
                    if cards_in_hand == 3:
                        third_code = code
                    if not params[row, _P_RESCUE] or hard > 21:
                        break
                    soft = ace and hard <= 11
                    total = hard + 10 if soft else hard
                    play = doubled[row, np.uint64(total), np.uint64(soft), np.uint64(up)]
                    again = doubles < params[row, _P_MAX_DOUBLES] and total < 21
                    if not (again and (play & _DOUBLE_AGAIN) != 0):
                        surrendered = (play & _RESCUE_IT) != 0  # a rescue, settled below
                        break
                finished = True
            elif action == _SURRENDER:
                surrendered = True
                finished = True
            else:  # split: this hand keeps its first card and takes a new second one
                if bonus is not None:
                    h_first[np.uint64(waiting)] = second_code
                from_split = True
                split_aces = first == 1
                waiting += 1
                hands += 1
                second_code, pos = _draw(cards, pos, s, mode, dealt)
                second = _value(second_code, bonus)
                hard = first + second
                ace = first == 1 or second == 1
                cards_in_hand = 2
                if split_aces and sa1 and not (rsa and second == 1 and hands < max_hands):
                    finished = True
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        at = np.uint64(done)
        h_total[at] = total
        h_cards[at] = cards_in_hand
        h_stake[at] = hand_stake
        if surrendered and doubles:
            h_state[at] = _RESCUED
            h_stake[at] = hand_stake - last_double  # what a rescue forfeits
        elif surrendered:
            h_state[at] = _SURRENDERED
        elif total > 21:
            h_state[at] = _BUST
        elif total == 21 and cards_in_hand == 2 and not from_split:
            h_state[at] = _BLACKJACK
        else:
            h_state[at] = _LIVE
            if bonus is not None:
                h_bonus[at] = 0
                if total == 21:
                    if params[row, _P_21_WINS]:
                        h_state[at] = _TWENTY_ONE
                    if doubles == 0 or params[row, _P_BONUS_DOUBLED]:
                        code = _bonus_code(first_code, second_code, third_code, cards_in_hand)
                        h_bonus[at] = code
        done += 1
        if waiting == 0:
            break
        waiting -= 1
        if bonus is not None:
            first_code = h_first[np.uint64(waiting)]
        second_code, pos = _draw(cards, pos, s, mode, dealt)
        second = _value(second_code, bonus)
        hard = first + second
        ace = first == 1 or second == 1
        cards_in_hand = 2
        hand_stake = stake
        doubles = 0
        surrendered = False
        finished = split_aces and sa1 and not (rsa and second == 1 and hands < max_hands)

    # The dealer (30-826, MA 12): no card that cannot change the outcome.
    if hole_rule == _NONE:
        hole, pos = _draw(cards, pos, s, mode, dealt)
        hole = _value(hole, bonus)
    dealer_hard = up + hole
    dealer_ace = up == 1 or hole == 1
    dealer_cards = 2
    dealer_blackjack = dealer_ace and dealer_hard == 11
    live = False
    for i in range(np.uint64(done)):
        if h_state[i] == _LIVE:
            live = True
    hits_soft_17 = params[row, _P_H17] != 0
    dealer_total = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
    if live and not dealer_blackjack:
        while dealer_total < 17 or (
            dealer_total == 17 and hits_soft_17 and dealer_ace and dealer_hard == 7
        ):
            card, pos = _draw(cards, pos, s, mode, dealt)
            card = _value(card, bonus)
            dealer_hard += card
            dealer_ace = dealer_ace or card == 1
            dealer_cards += 1
            dealer_total = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard

    # Settlement (engine.round._Round._settle_all).
    original_only = params[row, _P_OBO] != 0
    two_card_21 = params[row, _P_TWO21] != 0
    net = 0
    score = 0  # hands won less hands lost
    collected = False
    for i in range(np.uint64(done)):
        state = h_state[i]
        wager = h_stake[i]
        if state == _SURRENDERED:
            score -= 1
            if dealer_blackjack and not peeked and surrender_rule != _EARLY:
                net -= wager
            else:
                net -= wager // 2
        elif state == _RESCUED:
            score -= 1
            net -= wager
        elif state == _BUST and not (dealer_blackjack and original_only):
            score -= 1
            net -= wager
        elif dealer_blackjack and not (
            state == _BLACKJACK and bonus is not None and params[row, _P_BLACKJACK_BEATS]
        ):
            # a broken hand too where it takes the original wager only
            if state != _BLACKJACK:
                score -= 1
                if not original_only or not collected:
                    net -= stake if original_only else wager
                    collected = True
        elif state == _BLACKJACK:
            score += 1
            net += params[row, _P_BLACKJACK]
        elif state == _TWENTY_ONE or dealer_total > 21 or h_total[i] > dealer_total:
            score += 1
            if bonus is not None:
                code = h_bonus[i]
                net += wager if code == 0 else bonus[row, np.uint64(code)] * (wager // stake)
            else:
                net += wager
        elif h_total[i] < dealer_total:
            score -= 1
            net -= wager
        elif h_total[i] == 21 and h_cards[i] == 2 and dealer_cards > 2 and two_card_21:
            score += 1
            net += wager
    return net, pos, score


@numba.njit(cache=True, error_model="numpy", _nrt=False, inline="always")
def _bonus_code(first: int, second: int, third: int, cards_in_hand: int) -> int:
    """A 21's Bonus 21 code (BONUS_HANDS) from its cards (codes) and how many it holds."""
    if 5 <= cards_in_hand <= 7:
        return _FIVE_CARDS + cards_in_hand - 5
    if cards_in_hand != 3:
        return 0
    a, b, c = first & _VALUE, second & _VALUE, third & _VALUE
    if a == b == c == 7:
        kind = _777
    elif a != b and b != c and a != c and min(a, b, c) == 6 and max(a, b, c) == 8:
        kind = _678
    else:
        return 0
    suit = first >> 4
    if second >> 4 != suit or third >> 4 != suit:
        return kind
    return kind + (2 if suit == 0 else 1)


@numba.njit(cache=True)
def _run(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    shoe: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    out: npt.NDArray[np.int64],
) -> None:
    """Play `rounds` rounds from a freshly shuffled shoe. Rule set 0 deals: the shoe advances by
    its cards and reshuffles at the cut card, or, from a continuous shuffler, every round is dealt
    from all the cards (`_draw`; `dealt` is None for a shoe, which numba compiles apart, so the
    shoe pays nothing for the shuffler). Rule sets 1… replay each round from the cards rule set 0
    started from. out[k] += (sum, sum of squares, sum of k's net less 0's, its square)."""
    cards = shoe.copy()
    _shuffle(cards, s)
    deal_s = s
    if dealt is not None:
        deal_s = s.copy()  # a continuous shuffler: each round's own random state
    h_total = np.zeros(MAX_HANDS, dtype=np.int64)
    h_cards = np.zeros(MAX_HANDS, dtype=np.int64)
    h_stake = np.zeros(MAX_HANDS, dtype=np.int64)
    h_state = np.zeros(MAX_HANDS, dtype=np.int64)
    h_bonus = np.zeros(MAX_HANDS, dtype=np.int64)
    h_first = np.zeros(MAX_HANDS, dtype=np.int64)
    nets = np.zeros(params.shape[0], dtype=np.int64)
    hands = (h_total, h_cards, h_stake, h_state, h_bonus, h_first)
    rules = (params, strategies, bonus, doubled)
    _rounds(*rules, shoe, cards, s, deal_s, rounds, cut, dealt, out, *hands, nets)


@numba.njit(cache=True, error_model="numpy", _nrt=False)
def _rounds(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    shoe: npt.NDArray[np.int8],
    cards: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    deal_s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    out: npt.NDArray[np.int64],
    h_total: npt.NDArray[np.int64],
    h_cards: npt.NDArray[np.int64],
    h_stake: npt.NDArray[np.int64],
    h_state: npt.NDArray[np.int64],
    h_bonus: npt.NDArray[np.int64],
    h_first: npt.NDArray[np.int64],
    nets: npt.NDArray[np.int64],
) -> None:
    """_run's rounds, compiled without reference counting (no arrays made here): numba's
    reference counts on the arrays a call passes cost more than the round itself."""
    variants = params.shape[0]
    pos = 0
    base_total = base_squares = 0  # rule set 0's sums, kept in registers
    for _ in range(rounds):
        if dealt is not None:  # the cards of the last round are back in the shuffler
            for i in range(shoe.size):  # each round's cards depend on its own random state
                cards[i] = shoe[i]
            pos = 0
            dealt[0] = 0
            _reseed(deal_s, s)
        start = pos
        for k in range(1, variants):
            net, _unused, _score = _round(
                cards,
                start,
                deal_s,
                _WRAP,
                params,
                strategies,
                bonus,
                doubled,
                k,
                h_total,
                h_cards,
                h_stake,
                h_state,
                h_bonus,
                h_first,
                dealt,
            )
            nets[k] = net
        base, pos, _score = _round(
            cards,
            start,
            deal_s,
            _SHUFFLE,
            params,
            strategies,
            bonus,
            doubled,
            0,
            h_total,
            h_cards,
            h_stake,
            h_state,
            h_bonus,
            h_first,
            dealt,
        )
        base_total += base
        base_squares += base * base
        for k in range(1, variants):
            net = nets[k]
            out[k, 0] += net
            out[k, 1] += net * net
            out[k, 2] += net - base
            out[k, 3] += (net - base) * (net - base)
        if dealt is None and pos >= cut:
            _shuffle(cards, s)
            pos = 0
    out[0, 0] += base_total
    out[0, 1] += base_squares


# --- the Python interface ----------------------------------------------------------------------


def chunk_sizes(rounds: int, chunk_rounds: int = CHUNK_ROUNDS) -> list[int]:
    """The rounds of each chunk of a simulation of `rounds` rounds."""
    if rounds < 1 or chunk_rounds < 1:
        raise ValueError("rounds and chunk_rounds must be at least 1")
    full, rest = divmod(rounds, chunk_rounds)
    return [chunk_rounds] * full + ([rest] if rest else [])


def _state(seed: int, chunk_index: int) -> npt.NDArray[np.uint64]:
    state = np.random.SeedSequence([seed, chunk_index]).generate_state(4, dtype=np.uint64)
    if not state.any():  # xoshiro's one forbidden state; SeedSequence never gives it in practice
        state[0] = 1
    return state


def _play(
    variants: list[RuleSet], rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> npt.NDArray[np.int64]:
    _check_same_shoe(variants)
    units = max(units_per_wager(r) for r in variants)
    rules = _arrays(variants, units)
    shoe = composition(variants[0])
    out = np.zeros((len(variants), 4), dtype=np.int64)
    cut = int(shoe.size * PENETRATION)
    dealt = np.zeros(1, dtype=np.int64) if continuous else None
    _run(*rules, shoe, _state(seed, chunk_index), rounds, cut, dealt, out)
    return out


def _arrays(variants: list[RuleSet], units: int) -> tuple[npt.NDArray[Any], ...]:
    """What the kernel reads of the rule sets played: parameters, decisions, and where any has
    Spanish 21's rules Bonus 21 wins and doubled hands' plays (else None), rule set after rule
    set."""
    params = np.stack([_params(r, units) for r in variants])
    decisions = np.stack([decision_array(r) for r in variants]).ravel()
    if not any(_spanish(r) for r in variants):
        return params, decisions, None, None
    bonus = np.stack([bonus_array(r, units) for r in variants])
    return params, decisions, bonus, np.stack([doubled_array(r) for r in variants])


def _spanish(rules: RuleSet) -> bool:
    """Whether the rule set plays any of Spanish 21's rules (SPANISH_RULES)."""
    default = RuleSet()
    return any(getattr(rules, name) != getattr(default, name) for name in SPANISH_RULES)


def simulate_chunk(
    rules: RuleSet, rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> SimulationResult:
    """Chunk `chunk_index` of a seeded simulation: `rounds` rounds from a fresh shoe (or from a
    continuous shuffler)."""
    out = _play([rules], rounds, seed, chunk_index, continuous)
    return SimulationResult(
        rounds, int(out[0, 0]), int(out[0, 1]), Fraction(1, units_per_wager(rules))
    )


def combine(results: Iterable[SimulationResult]) -> SimulationResult:
    """The sums of chunks' results (in any order: addition of integers)."""
    total: SimulationResult | None = None
    for result in results:
        total = result if total is None else total + result
    if total is None:
        raise ValueError("no results to combine")
    return total


def simulate(
    rules: RuleSet,
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    continuous: bool = False,
) -> SimulationResult:
    """The base game's house edge under `rules` by simulating `rounds` rounds, in-process, dealt
    from a shoe with a cut card or from a continuous shuffler."""
    return combine(
        simulate_chunk(rules, n, seed, i, continuous)
        for i, n in enumerate(chunk_sizes(rounds, chunk_rounds))
    )


def variations(rules: RuleSet) -> list[Variation]:
    """Each rule option the simulation can change, changed one at a time from `rules`."""
    out = []

    def add(option: str, base: Any, changed: Any, **change: Any) -> None:
        out.append(Variation(option, _text(base), _text(changed), replace(rules, **change)))

    bj = rules.blackjack_pays
    other = Fraction(6, 5) if bj == Fraction(3, 2) else Fraction(3, 2)
    add("blackjack_pays", rules.blackjack_odds, f"{other.numerator} to {other.denominator}",
        blackjack_pays=other)  # fmt: skip
    h17 = rules.dealer_hits_soft_17
    add("dealer_soft_17", "hit" if h17 else "stand", "stand" if h17 else "hit",
        dealer_hits_soft_17=not h17)  # fmt: skip
    surrender = Surrender.LATE if rules.surrender is Surrender.NONE else Surrender.NONE
    add("surrender", rules.surrender.value, surrender.value, surrender=surrender)
    das = rules.double_after_split
    add("double.after_split", das, not das, double_after_split=not das)
    double_on = DoubleOn.TEN_ELEVEN if rules.double_on is DoubleOn.ANY_TWO else DoubleOn.ANY_TWO
    add("double.on", rules.double_on.value, double_on.value, double_on=double_on)
    hands = 2 if rules.max_split_hands > 2 else 4
    add("split.max_hands", rules.max_split_hands, hands, max_split_hands=hands)
    if max(rules.max_split_hands, hands) > 2:
        rsa = rules.resplit_aces
        add("split.resplit_aces", rsa, not rsa, resplit_aces=not rsa)
    sa1 = rules.split_aces_one_card
    add("split.split_aces_one_card", sa1, not sa1, split_aces_one_card=not sa1)
    hole = HoleCard.NONE if rules.hole_card is HoleCard.PEEK else HoleCard.PEEK
    add("hole_card", rules.hole_card.value, hole.value, hole_card=hole)
    two21 = rules.two_card_21_beats_dealer_21
    add("two_card_21_beats_dealer_21", two21, not two21, two_card_21_beats_dealer_21=not two21)
    return out


def _text(value: Any) -> str:
    """An option's value as the configuration writes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


@dataclass(frozen=True)
class EffectsResult:
    base: SimulationResult
    effects: tuple[EffectResult, ...]

    def __add__(self, other: EffectsResult) -> EffectsResult:
        return EffectsResult(
            self.base + other.base,
            tuple(a + b for a, b in zip(self.effects, other.effects, strict=True)),
        )


def effects_chunk(
    rules: RuleSet, rounds: int, seed: int, chunk_index: int, continuous: bool = False
) -> EffectsResult:
    """Chunk `chunk_index` of the base rules and each variation, played on the same cards. The
    base's sums equal simulate_chunk's for the same arguments."""
    changes = variations(rules)
    variants = [rules] + [v.rules for v in changes]
    out = _play(variants, rounds, seed, chunk_index, continuous)
    common, own = max(units_per_wager(r) for r in variants), units_per_wager(rules)
    scale = Fraction(own, common)  # the base's sums in its own units, as simulate_chunk gives
    total, squares = int(out[0, 0]) * scale, int(out[0, 1]) * scale**2
    assert total.denominator == squares.denominator == 1
    base = SimulationResult(rounds, int(total), int(squares), Fraction(1, own))
    unit = Fraction(1, common)
    return EffectsResult(
        base,
        tuple(
            EffectResult(
                change,
                SimulationResult(rounds, int(row[0]), int(row[1]), unit),
                int(row[2]),
                int(row[3]),
            )
            for change, row in zip(changes, out[1:], strict=True)
        ),
    )


def rule_effects(
    rules: RuleSet,
    rounds: int,
    seed: int,
    chunk_rounds: int = CHUNK_ROUNDS,
    continuous: bool = False,
) -> EffectsResult:
    """The house edge under `rules` and the change each rule option makes to it, with standard
    errors, all played on the same cards (common random numbers)."""
    total: EffectsResult | None = None
    for i, n in enumerate(chunk_sizes(rounds, chunk_rounds)):
        chunk = effects_chunk(rules, n, seed, i, continuous)
        total = chunk if total is None else total + chunk
    assert total is not None
    return total


def scripted_round(rules: RuleSet, values: list[int | Card]) -> tuple[Fraction, int]:
    """One round dealt from the cards given in order, as Cards or as values (ace 1, ten-value 10;
    read as spades): the player's net in wagers and how many cards the round took. For checking
    the kernel against engine.round.play_round on the same cards.

    :raises ValueError: the cards ran out.
    """
    net, used, _score = scripted(rules, values)
    return net, used


def scripted(rules: RuleSet, values: list[int | Card]) -> tuple[Fraction, int, int]:
    """`scripted_round`, and the hands the seat won less the hands it lost (engine.streak)."""
    units = units_per_wager(rules)
    arrays = _arrays([rules], units)
    hands = [np.zeros(MAX_HANDS, dtype=np.int64) for _ in range(6)]
    suited = _spanish(rules)
    codes = [(card_code(v) if suited else v.value) if isinstance(v, Card) else v for v in values]
    cards = np.array(codes, dtype=np.int8)
    state = np.ones(4, dtype=np.uint64)
    net, used, score = _round(cards, 0, state, _SCRIPTED, *arrays, 0, *hands, None)
    return Fraction(int(net), units), int(used), int(score)


def rules_as_dict(rules: RuleSet) -> dict[str, Any]:
    """The simulated fields of a rule set as JSON values (for a stored job); Spanish 21's only
    where they differ from the standard game's."""
    out: dict[str, Any] = {}
    default = RuleSet()
    for name in SIMULATED_RULES + SPANISH_RULES:
        value = getattr(rules, name)
        if name in SPANISH_RULES and value == getattr(default, name):
            continue
        if isinstance(value, Fraction):
            value = str(value)
        elif isinstance(value, StrEnum):
            value = value.value
        elif name == "bonus_21":
            value = [[kind, str(odds)] for kind, odds in value]
        out[name] = value
    return out


def rules_from_dict(data: dict[str, Any]) -> RuleSet:
    """The RuleSet that rules_as_dict described (other fields take their defaults)."""
    values = {name: data[name] for name in SIMULATED_RULES + SPANISH_RULES if name in data}
    values["blackjack_pays"] = Fraction(values["blackjack_pays"])
    values["hole_card"] = HoleCard(values["hole_card"])
    values["double_on"] = DoubleOn(values["double_on"])
    values["surrender"] = Surrender(values["surrender"])
    if "bonus_21" in values:
        values["bonus_21"] = tuple((kind, Fraction(odds)) for kind, odds in values["bonus_21"])
    return RuleSet(**values)
