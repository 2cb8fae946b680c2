"""Exact analysis of side-wager paytables: the probability and return of every line and the house
edge as an exact fraction, with the card removal each analysis states (docs/engine.md).

By subject: lines.py (the records, and what every analysis does with a paytable's lines),
first_cards.py (wagers decided on the first cards, the entry `analyse`), dealer.py (wagers on the
dealer's hand), hands.py (one hand of several cards, Go Fish 21, 21 Hold'em), simulated.py (a
figure by simulation where the engine cannot enumerate).
"""

from __future__ import annotations

from .dealer import (
    DEALER_HAND,
    DEALER_HAND_REMOVALS,
    DEALER_SUMMARY_READ,
    REMOVAL_NONE,
    REMOVAL_PLAYER_CARDS,
    analyse_dealer_hand,
)
from .first_cards import (
    DOWN_CARD_REMOVAL,
    HOLE_CARD_REMOVAL,
    REMOVAL,
    THIRD_CARD,
    THIRD_CARD_REMOVAL,
    analyse,
    third_card,
)
from .hands import GO_FISH, HANDS, analyse_21_hold_em, analyse_go_fish, analyse_hand
from .lines import (
    NOT_ANALYSED_YET,
    PER_UNIT,
    Analysis,
    LineResult,
    NotAnalysable,
    line_results,
    line_win,
    net_counts,
    refusal,
    refuse_unless_odds,
    tally,
)
from .simulated import simulate

__all__ = [
    "DEALER_HAND",
    "DEALER_HAND_REMOVALS",
    "DEALER_SUMMARY_READ",
    "DOWN_CARD_REMOVAL",
    "GO_FISH",
    "HANDS",
    "HOLE_CARD_REMOVAL",
    "NOT_ANALYSED_YET",
    "PER_UNIT",
    "REMOVAL",
    "REMOVAL_NONE",
    "REMOVAL_PLAYER_CARDS",
    "THIRD_CARD",
    "THIRD_CARD_REMOVAL",
    "Analysis",
    "LineResult",
    "NotAnalysable",
    "analyse",
    "analyse_21_hold_em",
    "analyse_dealer_hand",
    "analyse_go_fish",
    "analyse_hand",
    "line_results",
    "line_win",
    "net_counts",
    "refusal",
    "refuse_unless_odds",
    "simulate",
    "tally",
    "third_card",
]
