"""What the base game's analysis assumes, in words, and the value it gives: the play (composition
or basic strategy), the conventions stated with every value, the rules no analysis here plays, and
BaseGameValue. The analysis itself: engine.basegame.standard."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.rules import RuleSet

MAX_SPLIT_HANDS = 4
"""The most hands the split algorithm values."""
METHOD = "combinatorial analysis (every hand enumerated over the finite shoe)"


class Play(StrEnum):
    COMPOSITION = "composition"
    """Every decision the best for the hand's cards and the up card (CDZ-)."""
    BASIC = "basic"
    """The engine's basic strategy (engine.strategy.BasicStrategy): total-dependent, computed for
    an infinite shoe; the strategy the simulator and the logged rounds play."""


def conventions(rules: RuleSet, play: Play = Play.COMPOSITION) -> list[str]:
    """What the analysis of `rules` assumes, in words, as published analyzers state it."""
    aces = "aces too" if rules.resplit_aces else "aces to 2 hands"
    if play is Play.COMPOSITION:
        how = (
            "composition-dependent play (CDZ-): each decision maximises the expected value for "
            "the hand's cards and the up card; a hand after a split is played as the same cards "
            "unsplit"
        )
    else:
        how = (
            "the engine's basic strategy: total-dependent, computed for an infinite shoe (the "
            "strategy the simulator plays), valued exactly over the finite shoe"
        )
    out = [
        "one player from a full shoe; only the round's own cards are removed (the up card, the "
        "player's cards, and every card dealt before each draw)",
        how,
        f"splits to {rules.max_split_hands} hands ({aces}), a pair card drawn to a split hand "
        "always resplit where allowed, valued exactly for that play by Eric Farmer's algorithm "
        "(blackjack_split.pdf)",
        "insurance and even money declined",
    ]
    if rules.peeks:
        out.append("the dealer peeks: decisions are taken knowing the dealer has no blackjack")
    else:
        taken = "the original wager only" if rules.original_bets_only else "every wager"
        out.append(
            f"no peek: decisions are taken not knowing whether the dealer has blackjack, which "
            f"takes {taken}"
        )
    if rules.late_surrender and not rules.peeks:
        out.append("late surrender with no peek: a dealer blackjack takes the whole wager")
    if rules.two_card_21_beats_dealer_21:
        out.append(
            "a split hand's 21 in two cards beats the dealer's 21 in three or more cards (MA "
            "3(a)(3)); a blackjack is paid as a blackjack"
        )
    out.extend(_spanish_conventions(rules))
    out.append(
        "double-precision sums over a complete enumeration (rounding error below 1e-12 of a "
        "wager), so no fraction is given"
    )
    return out


def _spanish_conventions(rules: RuleSet) -> list[str]:
    """What the analysis assumes of Spanish 21's rules (30-899.16), where the rules have them."""
    out = []
    if rules.spanish_decks:
        out.append("Spanish decks: 48 cards a deck, the four 10s removed")
    if rules.blackjack_beats_dealer_blackjack:
        out.append("a player's blackjack beats the dealer's")
    if rules.player_21_wins:
        out.append("a player's 21 beats the dealer's 21 (a dealer blackjack, seen first, still "
                   "takes the original wager)")  # fmt: skip
    if rules.bonus_21:
        doubled = "doubled hands too" if rules.bonus_on_doubled else "not on doubled hands"
        out.append(
            f"Bonus 21 odds on winning 21s ({doubled}): 5-, 6- and 7-card 21s as printed (an "
            "8-card 21 pays even money, as the engine pays it); a 6-7-8 or 7-7-7's suited and "
            "spades odds weighed by the exact probability of its suits given its ranks: play "
            "depends on the cards' ranks only, never on their suits"
        )
    if rules.doubles_any_time:
        out.append(
            "doubling on any number of cards (a soft 21 too, never a hard 21 or a blackjack)"
        )
    if rules.rescue:
        out.append(
            "after a double the player may rescue: the last doubled portion taken back, the rest "
            "forfeited"
        )
        if rules.max_doubles > 1:
            out.append(
                f"double-double down: up to {rules.max_doubles} doubles a hand, each doubling "
                "the whole wager, while the total is under 21"
            )
    if rules.super_bonus:
        out.append(
            "the Super Bonus and Envy Bonus (dollar amounts by the size of the wager, not odds) "
            "are not included"
        )
    return out


NOT_ANALYSED = {
    "designated_blackjack": "a designated blackjack",
}
"""RuleSet fields the analysis does not play: a rule set using any of them is refused. (Face-up
dealing and Blackjack Switch: engine.basegame.variants, Double Up Blackjack:
engine.basegame.double_up, which base_game_value calls.)"""


def unplayed(rules: RuleSet, played: Collection[str] = ()) -> list[str]:
    """The NOT_ANALYSED fields the rules use, but those a variant's analysis `played`, in words."""
    default = RuleSet()
    return [
        what
        for name, what in NOT_ANALYSED.items()
        if name not in played and getattr(rules, name) != getattr(default, name)
    ]


def beyond_limits(rules: RuleSet) -> list[str]:
    """The splits and deck counts every analysis here stops short of, in words."""
    out = []
    if rules.max_split_hands > MAX_SPLIT_HANDS:
        out.append(f"splits to more than {MAX_SPLIT_HANDS} hands")
    if not 1 <= rules.decks <= 8:
        out.append(f"{rules.decks} decks (1 to 8 are analysed)")
    return out


@dataclass(frozen=True)
class BaseGameValue:
    """The player's expected value per initial wager, playing as `conventions` says."""

    rules: RuleSet
    expected_value: float
    by_up_card: tuple[float, ...]
    """Given each up card (ace first, ten-value last)."""
    play: Play = Play.COMPOSITION
    stated: tuple[str, ...] = ()
    """The conventions in words where they are not `conventions(rules, play)` (a variant's)."""

    @property
    def house_edge(self) -> float:
        return -self.expected_value

    def as_dict(self) -> dict[str, Any]:
        return {
            "house_edge": f"{self.house_edge:.12f}",
            "house_edge_percent": f"{100 * self.house_edge:.9f}",
            "expected_value": f"{self.expected_value:.12f}",
            "expected_value_by_up_card": {
                _RANK_NAMES[rank]: f"{value:.12f}" for rank, value in enumerate(self.by_up_card)
            },
            "method": METHOD,
            "play": self.play.value,
            "conventions": list(self.stated) or conventions(self.rules, self.play),
        }


_RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")
