"""The base game's exact value by combinatorial analysis (docs/engine.md).

- standard.py: the standard game (and Spanish 21's play): every hand enumerated over the finite
  shoe, composition-dependent or basic-strategy play, splits by Farmer's algorithm; built on
  contexts.py (each hand's values of standing, hitting and doubling, the dealer's odds computed
  once), hands.py (the hand table, the store of the dealer's odds) and assumptions.py (what the
  analysis assumes, in words, and BaseGameValue).
- variants.py: the games that change how hands are played against the dealer: face-up dealing,
  Blackjack Switch; double_up.py: Double Up Blackjack. Each is built on the standard analysis.
- value.py: the entry the apps use — the analysis the rules call for, the rules no analysis
  plays refused, a hand's values, each rule option's exact effect.

Import from here; the modules above are the package's own.
"""

from engine.basegame.assumptions import (
    MAX_SPLIT_HANDS,
    METHOD,
    NOT_ANALYSED,
    BaseGameValue,
    Play,
    conventions,
)
from engine.basegame.double_up import FIELDS as DOUBLE_UP_FIELDS
from engine.basegame.double_up import VERSION_1, VERSION_2, double_up_value
from engine.basegame.hands import add_card
from engine.basegame.value import (
    RuleEffect,
    analyse_together,
    base_game_value,
    check_analysable,
    hand_values,
    rule_effects,
)
from engine.basegame.variants import (
    check_variant,
    face_up_value,
    is_variant,
    shared_dealer_odds,
    switch_value,
)

__all__ = [
    "DOUBLE_UP_FIELDS",
    "MAX_SPLIT_HANDS",
    "METHOD",
    "NOT_ANALYSED",
    "VERSION_1",
    "VERSION_2",
    "BaseGameValue",
    "Play",
    "RuleEffect",
    "add_card",
    "analyse_together",
    "base_game_value",
    "check_analysable",
    "check_variant",
    "conventions",
    "double_up_value",
    "face_up_value",
    "hand_values",
    "is_variant",
    "rule_effects",
    "shared_dealer_odds",
    "switch_value",
]
