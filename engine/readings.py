"""Readings of rule text the engine takes where the text admits more than one, each with the
reading it sets aside (issue #23).

A reading under which an approved wager or game favours the player is a question about the
reading first: where published analyses of the game exist and the text admits their reading, the
engine plays that reading, and the other is kept here, so the analyses can show its figure beside
the one they rest on (variants.analysis `alternative_readings`, compliance.basegame) and the rule's
annotation (fixtures/annotations.yaml) states both. Each record names the unit read, the words, the
reading taken and why, and the one set aside; its figure is computed, never stored, by the engine
where it plays the wager: `alternative` is the key the engine takes for it (a sevens evaluator,
engine.sidewagers.READING_EVALUATORS; a RuleSet field for Blackjack Switch).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.rules import RuleSet


@dataclass(frozen=True)
class Reading:
    key: str
    """The reading set aside, as the engine names it."""
    jurisdiction: str
    citation: str
    """The unit read, as the knowledge base labels it ("17(e)(3)")."""
    subject: str
    """The wager or game slug it decides."""
    words: str
    """The words read, as printed."""
    taken: str
    """The reading the engine plays."""
    why: str
    """Why: the published analyses and the text that admit it."""
    alternative: str
    """The reading set aside."""

    def as_dict(self) -> dict[str, str]:
        return {
            "reading": self.key,
            "jurisdiction": self.jurisdiction,
            "citation": self.citation,
            "words": self.words,
            "taken": self.taken,
            "why": self.why,
            "alternative": self.alternative,
        }


SEVENS_EITHER_CARD = Reading(
    key="either-first-two-cards",
    jurisdiction="US-MA",
    citation="17(e)(3)",
    subject="sevens",
    words="One seven (initial card) 3 to 1",
    taken="the player's first card is a seven: the initial card, the first dealt to the player",
    why="the published analyses of the wager (the Wizard of Odds' Super Sevens, whose pays "
    "17(e)(3) prints) pay it on the first card: 2,142,720 of 312·311·310 ordered deals at 6 "
    "decks, a house edge of 11.40 %, which the engine's count matches exactly (14288/125333); "
    "(e)(3) pays "
    '"only ... the highest winning payout below", and no line names a seven dealt second',
    alternative="a seven in either of the player's first two cards (17(b)(4): \"one or more of "
    'the initial three cards ... is a seven")',
)

SWITCH_DEALER_22 = Reading(
    key="dealer-22-busts",
    jurisdiction="US-CO",
    citation="30-2105(8)(e)",
    subject="blackjack-switch",
    words="If the player has a switched blackjack (considered 21) they lose against a dealer "
    "blackjack and pushes against a dealer 21 or 22.",
    taken="a dealer's 22 does not bust: it pushes every player hand still standing but a "
    'blackjack (paid 1 to 1: "If the player has a blackjack, and the dealer does not"), the '
    "Blackjack Switch rule",
    why="a switched blackjack's push against a dealer 22 makes sense only if a 22 does not bust "
    "(against a bust every standing hand wins); the game's maker and the published analyses of it "
    "(the Wizard of Odds, 0.58 % at 6 decks) have a dealer's 22 push every hand but a blackjack",
    alternative="a dealer's 22 busts, as (9) plays the dealer's hand \"in the same manner as in "
    'standard blackjack", and only a switched blackjack pushes it',
)

READINGS: tuple[Reading, ...] = (SEVENS_EITHER_CARD, SWITCH_DEALER_22)
"""Every reading set aside, for whoever lists them (a review of readings, a report)."""


def readings_of(subject: str, jurisdiction: str | None) -> list[Reading]:
    """The readings set aside of a wager or game in a jurisdiction."""
    return [r for r in READINGS if r.subject == subject and r.jurisdiction == jurisdiction]


def rules_read_otherwise(rules: RuleSet) -> list[tuple[Reading, RuleSet]]:
    """The readings set aside that a base game's rules rest on, each with the rules as that
    reading has them (to value the game both ways)."""
    if rules.switch and rules.dealer_22_pushes:
        return [(SWITCH_DEALER_22, replace(rules, dealer_22_pushes=False))]
    return []
