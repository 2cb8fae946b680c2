"""Exact analysis of the wagers decided by how the round is played (Stage.ROUND wagers that are
neither the dealer's hand alone nor the player's third card): the play tree of one seat's first
hand enumerated card by card under the basic strategy the engine plays (engine/strategy.py),
then the dealer's whole hand from what is left, as combinatorial blackjack analysers do.

Card removal: the player's first two cards, the dealer's up card and every card of the seat's
first hand (hits, doubles, the card dealt to the first hand of a split, a split-off card) are
drawn from the full shoe; where the dealer peeks (an ace or ten-value card up) the hole card
makes a blackjack or not as the shoe then holds. The cards dealt after the first hand is played
(the seat's later split hands, other seats) are unseen by the wager: in a shuffled shoe the cards
after a stopping time are exchangeable with the rest (optional skipping), so the dealer's hole
card and draws are distributed as the shoe less the cards seen, and nothing else is removed.
Push Your Luck and 21 Magic read the first hand and the dealer's total together: the dealer's
hand is counted from the shoe each way the first hand ends leaves, exactly, by sums over the
dealer's hands taken once a shoe (`Enumeration._ties`). Raise the Roof reads the
dealer's hand alone, which the first hand's later cards change by nothing (they end at a
stopping time): it is counted from the shoe less the first three cards, the same fractions.

Suits: a wager's evaluator reads suits only for a few hands (aces of one suit, a suited 4-5-6-7
bust, …: `SUITS_READ`); given the ranks drawn, the suits of the cards of one rank are a draw
without replacement from that rank's cards and independent across ranks, so those hands are
expanded over every suit assignment with its exact weight. Every probability is exact: an integer
numerator over one denominator while the rounds are enumerated (`Enumeration`), a Fraction after.

By subject: readings.py (what each wager reads of a round), state.py, first_hand.py and
enumeration.py (one enumeration of every round: its state, the first hand's play, the rounds),
dealer.py (the dealer's hands from a shoe), tree.py (the play tree and analyse_play_tree).
"""

from __future__ import annotations

from .readings import PLAY_TREE
from .tree import (
    PLAY_TREE_REMOVAL,
    RAISE_COLUMN,
    PlayTree,
    analyse_play_tree,
    play_tree,
    state_tree,
)

__all__ = [
    "PLAY_TREE",
    "PLAY_TREE_REMOVAL",
    "RAISE_COLUMN",
    "PlayTree",
    "analyse_play_tree",
    "play_tree",
    "state_tree",
]
