"""Analysis of catalog and inline paytables (GET paytables/{id}/analysis/, POST analysis/): the
engine's exact analysis per pay column and deck count (engine/analysis/; engine/playtree/ for a
wager decided by how the hand is played); a seeded simulation with the basic strategy and its
standard error only for a wager no exact method covers (no catalog wager now)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from engine.analysis import (
    DEALER_HAND,
    DEALER_HAND_REMOVALS,
    GO_FISH,
    HANDS,
    PER_UNIT,
    THIRD_CARD,
    Analysis,
    NotAnalysable,
    analyse,
    analyse_dealer_hand,
    refusal,
    simulate,
    third_card,
)
from engine.gc_paused import gc_paused
from engine.hold_em import HOLD_EM
from engine.odds import Pays
from engine.playtree import PLAY_TREE, RAISE_COLUMN, analyse_play_tree
from engine.readings import Reading, readings_of
from engine.rules import PaytableLine, RuleSet
from engine.sidewagers import READING_EVALUATORS, Stage, sided, stage
from engine.streak import STREAK_WAGERS, StreakCounts, streak_analyses, streak_rules
from pitboss.errors import DomainError

from .analysed import Analysed, shown_analysed
from .models import Cited, Constraint, ConstraintKind, Paytable, PlayRule
from .stakes import at_stake, meter_win, optional_amount

DEFAULT_DECKS = (1, 2, 4, 6, 8)
"""Deck counts analysed for a paytable approved for any."""
SIMULATED_ROUNDS = 20_000


def paytable_analysis(
    paytable: Paytable,
    decks: int | None = None,
    *,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
    simulate_play: bool = True,
    stake: Decimal | None = None,
    meters: Mapping[str, Decimal] | None = None,
    removal: str | None = None,
) -> dict[str, Any]:
    """The analysis of each odds column of a catalog paytable at `decks`, or at every deck count
    it is approved for; `removal`: the card-removal convention of a dealer-hand wager
    (`removal_checked`).

    :raises DomainError: the engine cannot analyse the wager; decks the paytable is not approved
        for; a `removal` the wager does not take.
    """
    analysed = paytable_analysed(
        paytable,
        decks,
        rounds=rounds,
        seed=seed,
        simulate_play=simulate_play,
        stake=stake,
        meters=meters,
        removal=removal,
    )
    body = shown_analysed(analysed, stake, meters)
    return {"paytable": paytable.key, "label": paytable.label, **body}


def paytable_analysed(
    paytable: Paytable,
    decks: int | None = None,
    *,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
    simulate_play: bool = True,
    stake: Decimal | None = None,
    meters: Mapping[str, Decimal] | None = None,
    removal: str | None = None,
) -> Analysed:
    """`paytable_analysis`'s analyses, as the engine gives them.

    :raises DomainError: as `paytable_analysis`.
    """
    if decks is not None:
        decks_checked(paytable, decks)
    if paytable.wager.slug in STREAK_WAGERS:
        raise DomainError(
            "simulated_only",
            f"{refusal(paytable.wager.slug)}. No exact method gives its return: it is estimated "
            f"by simulation, as a job (POST /api/v1/paytable-simulations/ with "
            f'{{"paytable": "{paytable.key}"}}, then GET the job for its progress and result)',
        )
    lines = paytable_lines(paytable)
    jurisdiction = paytable.wager.jurisdiction.code
    if simulated_only(paytable.wager.slug, jurisdiction) and not simulate_play:
        raise DomainError("not_analysable", f"{paytable.key} is analysed by simulation")
    played = stage(paytable.wager.slug, jurisdiction) is Stage.ROUND
    # the dealer's soft-17 rule matters only to a wager decided by how the round plays out
    soft_17, dealing_rule = _dealer_soft_17(paytable) if played else ("stand", "")
    analysed = lines_analysed(
        paytable.wager.slug,
        lines,
        [decks] if decks else allowed_decks(paytable),
        jurisdiction,
        dealer_hits_soft_17=soft_17 == "hit",
        rounds=rounds,
        seed=seed,
        stake=stake,
        meters=meters,
        removal=removal,
    )
    if dealing_rule:
        analysed = replace(analysed, method=f"{analysed.method}; {dealing_rule}")
    return analysed


def paytable_lines(paytable: Paytable) -> list[PaytableLine]:
    """The paytable's lines as the engine reads them, in order."""
    return [
        PaytableLine(e.outcome, Pays.parse(e.pays), e.label, e.column)
        for e in paytable.entries.all()
    ]


def allowed_decks(paytable: Paytable) -> list[int]:
    """The deck counts a paytable is analysed at: those of its own approval that its wager's (or
    its game's) deck rule allows (decks_allowed: a Buffalo Blackjack Bonus 2 table of 30-2113
    printed for one deck is not analysed there, 30-2107(1) playing 21+3 on 2 and 4-8 decks); with
    no approval of its own, those the rule names (Blackjack Burnout's two or six decks,
    30-899.25(1)), or of 1, 2, 4, 6, 8 those a rule of a least number allows (War Blackjack's six
    or more, 30-899.17(2)); with no rule either, 1, 2, 4, 6, 8."""
    rule = deck_rule(paytable)
    if paytable.decks:
        return [n for n in paytable.decks if rule is None or rule.allows_decks(n)]
    if rule is None:
        return list(DEFAULT_DECKS)
    if "decks" in rule.params:
        return [int(n) for n in rule.params["decks"]]
    return [n for n in DEFAULT_DECKS if rule.allows_decks(n)]


PLAYED_AT = {"burnout-bonus": "blackjack-burnout"}
"""A side wager offered only at one game's tables (30-899.25 Bonus Wager (1)): that game."""


def deck_rule(paytable: Paytable) -> Constraint | None:
    """The rule of the deck counts the paytable's wager (or the one game it is offered at) is
    played with (decks_allowed), if any."""
    if not hasattr(paytable, "_deck_rule"):  # read once for the paytable object
        wagers = [paytable.wager.slug, PLAYED_AT.get(paytable.wager.slug, "")]
        paytable._deck_rule = (  # type: ignore[attr-defined]
            Constraint.objects.filter(
                kind=ConstraintKind.DECKS_ALLOWED,
                jurisdiction_id=paytable.wager.jurisdiction_id,
                wager__slug__in=wagers,
            )
            .select_related("provision")
            .order_by("code")
            .first()
        )
    return paytable._deck_rule  # type: ignore[attr-defined]


def decks_checked(paytable: Paytable, decks: int) -> None:
    """:raises DomainError: `decks` is not a deck count the paytable is approved for, or that its
    wager's deck rule allows (a 400 naming `decks` and the rule)."""
    if paytable.decks and decks not in paytable.decks:
        approved = ", ".join(map(str, paytable.decks))
        raise DomainError(
            "decks_not_approved",
            f"{paytable.key} is approved for {approved} decks, not {decks}",
            fields={"decks": f"one of {approved}"},
        )
    rule = deck_rule(paytable)
    if rule is not None and not rule.allows_decks(decks):
        allowed = ", ".join(map(str, allowed_decks(paytable)))
        raise DomainError(
            "decks_not_allowed",
            f"{paytable.key} is not played with {decks} decks: {rule.message} ({cited(rule)})",
            fields={"decks": f"{rule.message} ({cited(rule)}); analysed at {allowed}"},
        )


def cited(fact: Cited) -> str:
    """A catalog fact's citation as the rules print it ("30-899.17(2)")."""
    section = fact.provision.citations.filter(effective_to__isnull=True).first()
    return f"{section.label if section else fact.provision.key}{fact.unit_path}"


def streak_soft_17(paytable: Paytable) -> bool:
    """Whether the dealer hits soft 17 in a consecutive-wins wager's simulation
    (`_dealer_soft_17`: the paytable's own rule, else the wager's, else standing)."""
    return _dealer_soft_17(paytable)[0] == "hit"


def streak_shown(
    paytable_key: str,
    wager: str,
    lines: Sequence[PaytableLine],
    counts: Mapping[int, StreakCounts],
    *,
    hits_soft_17: bool,
    seed: int,
    continuous: bool,
) -> dict[str, Any]:
    """A consecutive-wins paytable's simulated counts shown as an analysis is (`_shown`): each
    spot its own wager per deck count, decimals and standard errors, no fractions.

    :raises DomainError: a line the simulation cannot settle (not_analysable)."""
    results = []
    for decks, n in counts.items():
        rules = streak_rules(wager, decks, hits_soft_17)
        try:
            results += streak_analyses(
                wager, list(lines), n, rules, seed=seed, continuous=continuous
            )
        except NotAnalysable as exc:
            raise DomainError("not_analysable", str(exc)) from exc
    fewest = min(n.rounds for n in counts.values())
    method = (
        f"simulation: no exact method gives the return of a wager won over consecutive rounds "
        f"(engine/streak.py); each spot a wager of its own, {fewest:,} rounds or more a deck "
        f"count, the dealer {'hitting' if hits_soft_17 else 'standing on'} soft 17; an estimate "
        f"with its standard error, never a fraction"
    )
    body = shown_analysed(Analysed(wager, method, results, [], []), None, None)
    return {"paytable": paytable_key, **body}


def simulated_only(wager: str, jurisdiction: str | None) -> bool:
    """Whether the wager depends on how the round is played and no exact method covers it:
    analysed only by simulation (no catalog wager now: the simulator stays as the cross-check)."""
    return (
        stage(wager, jurisdiction) is Stage.ROUND
        and wager not in DEALER_HAND
        and wager not in PLAY_TREE
        and not third_card(wager, jurisdiction)
    )


def _dealer_soft_17(paytable: Paytable) -> tuple[str, str]:
    """How the dealer plays soft 17 for this paytable's analysis, and the rule that says so: the
    paytable's own ("6 Decks Dealer Stands on Soft 17"), else the wager's own section (MA 27(f)(3):
    with a Buster Blackjack Wager in play the dealer draws to a soft 18), else standing."""
    if paytable.dealer_soft_17 != "any":
        return paytable.dealer_soft_17, ""
    rule = (
        PlayRule.objects.filter(wager=paytable.wager, key="dealer-soft-17")
        .select_related("provision")
        .first()
    )
    if rule is None:
        return "stand", ""
    draw = str(rule.params.get("draw", "stand"))
    return draw, (
        f"the dealer {'hits' if draw == 'hit' else 'stands on'} soft 17 as the wager's own rule "
        f"says, {cited(rule)}: {rule.summary}"
    )


def lines_analysis(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: Sequence[int],
    jurisdiction: str | None = None,
    *,
    dealer_hits_soft_17: bool = False,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
    stake: Decimal | None = None,
    meters: Mapping[str, Decimal] | None = None,
    removal: str | None = None,
) -> dict[str, Any]:
    """Each odds column at each deck count: exact where the first cards or the dealer's hand
    decide the wager, else simulated (the dealer hitting soft 17 where the rules say so); a
    dealer-hand wager under the card-removal convention `removal` (`removal_checked`).

    With a `stake` (and `meters`, by meter name, "" for any), a fixed-dollar line pays its amount
    and a meter share its part of the meter, as odds on that stake: the house edge then holds for
    that stake and those meters, and `at_stake` gives the terms it is a function of."""
    analysed = lines_analysed(
        wager,
        lines,
        decks,
        jurisdiction,
        dealer_hits_soft_17=dealer_hits_soft_17,
        rounds=rounds,
        seed=seed,
        stake=stake,
        meters=meters,
        removal=removal,
    )
    return shown_analysed(analysed, stake, meters)


@gc_paused()
def lines_analysed(
    wager: str,
    lines: Sequence[PaytableLine],
    decks: Sequence[int],
    jurisdiction: str | None = None,
    *,
    dealer_hits_soft_17: bool = False,
    rounds: int = SIMULATED_ROUNDS,
    seed: int = 1,
    stake: Decimal | None = None,
    meters: Mapping[str, Decimal] | None = None,
    removal: str | None = None,
) -> Analysed:
    """`lines_analysis`'s analyses, as the engine gives them (the garbage collector paused while
    they are counted: engine/gc_paused.py).

    :raises DomainError: the engine cannot analyse the wager; a `removal` it does not take."""
    removal = removal_checked(wager, removal)
    meter_wins = {}
    if stake is not None:
        meter_wins = {
            (line.column, line.outcome): win
            for line in lines
            if (win := meter_win(line, stake, meters or {}))
        }
        lines = [at_stake(line, stake, meters or {}) for line in lines]
    dealer_hand = wager in DEALER_HAND
    played = wager in PLAY_TREE and stage(wager, jurisdiction) is Stage.ROUND
    simulated = simulated_only(wager, jurisdiction)
    columns: dict[str, list[PaytableLine]] = {}
    for line in sided(wager, lines):  # a wager with sides: each side a column (a bet) of its own
        columns.setdefault(line.column, []).append(line)
    results, skipped, set_aside = [], [], []
    alternatives: list[tuple[Reading, list[Analysis]]] = [
        (reading, [])
        for reading in readings_of(wager, jurisdiction)
        if (reading.jurisdiction, wager, reading.key) in READING_EVALUATORS
    ]
    for column, column_lines in columns.items():
        optional = [line for line in column_lines if optional_amount(line)]
        column_lines = [line for line in column_lines if line not in optional]
        if any(line.pays.basis not in PER_UNIT for line in column_lines):
            skipped.append(
                f"column {column!r}: pays a meter share (alone or on top of odds) or a dollar "
                f"amount, so it has no house edge per unit staked"
            )
            continue
        for line in optional:
            note = (
                f"{line.label} pays {line.pays}, a dollar amount on an optional line: left out, "
                f"and the rest of the paytable analysed (a casino that offers it returns more)"
            )
            if note not in set_aside:
                set_aside.append(note)
        for n in decks:
            try:
                if simulated:
                    rules = RuleSet(decks=n, dealer_hits_soft_17=dealer_hits_soft_17)
                    result = simulate(wager, column_lines, rules, rounds, seed, jurisdiction)
                elif played:
                    result = analyse_play_tree(
                        wager,
                        column_lines,
                        n,
                        hits_soft_17=dealer_hits_soft_17,
                        jurisdiction=jurisdiction,
                        ante_lines=_ante_lines(columns, column),
                    )
                elif dealer_hand:
                    result = analyse_dealer_hand(
                        wager,
                        column_lines,
                        n,
                        hits_soft_17=dealer_hits_soft_17,
                        jurisdiction=jurisdiction,
                        removal=removal,
                    )
                else:
                    result = analyse(wager, column_lines, n, jurisdiction)
                    for reading, figures in alternatives:
                        figures.append(analyse(wager, column_lines, n, jurisdiction, reading.key))
            except NotAnalysable as exc:
                raise DomainError("not_analysable", str(exc)) from exc
            results.append(result)
    method = (
        f"simulation with the basic strategy ({rounds:,} rounds, seed {seed}): the wager "
        f"depends on how the hand is played"
        if simulated
        else "exact: the play tree enumerated under the basic strategy the engine plays (the "
        "seat's first hand card by card, hits, doubles and splits as the strategy decides, then "
        "the dealer's whole hand); probabilities are fractions"
        if played
        else "exact: every final dealer hand enumerated from the shoe"
        if dealer_hand
        else f"exact, the player's third card enumerated from the shoe; {THIRD_CARD[wager]}"
        if third_card(wager, jurisdiction)
        else f"exact: every hand of {HANDS[wager].size} cards the wager is decided on counted "
        "from the shoe, whatever the play"
        if wager in HANDS
        else "exact: the player's and the dealer's first two cards counted from the shoe, then "
        "the Go Fish card from the specialty deck"
        if wager == GO_FISH
        else "exact: every community pair and every ordered deal of the player's three cards, "
        "the player folding or going on as maximises the expected return; per unit of the PK "
        "wager"
        if wager == HOLD_EM
        else "exact"
    )
    return Analysed(
        wager,
        method,
        results,
        skipped,
        set_aside,
        alternatives=alternatives,
        hits_soft_17=dealer_hits_soft_17,
        meter_wins=meter_wins,
    )


def removal_checked(wager: str, removal: str | None) -> str:
    """The card-removal convention asked for (`removal`), where the wager takes one: only a
    wager decided by the dealer's hand (engine.analysis.DEALER_HAND_REMOVALS: "none", the
    default, or "player-cards"); any other wager states its own convention in `card_removal`.

    :raises DomainError: an unknown convention, or one asked of a wager that takes none (a 400
        naming `removal`)."""
    if removal is None:
        return DEALER_HAND_REMOVALS[0]
    choices = ", ".join(DEALER_HAND_REMOVALS)
    if removal not in DEALER_HAND_REMOVALS:
        raise DomainError(
            "bad_removal",
            f"removal={removal!r} is no card-removal convention: one of {choices}",
            fields={"removal": f"one of {choices}"},
        )
    if wager not in DEALER_HAND:
        raise DomainError(
            "removal_not_applicable",
            f"removal applies to the wagers decided by the dealer's hand only "
            f"({', '.join(sorted(DEALER_HAND))}); {wager} is analysed under the one convention "
            f"its card_removal states: leave removal out",
            fields={"removal": "only for a wager decided by the dealer's hand"},
        )
    return removal


def _ante_lines(columns: Mapping[str, list[PaytableLine]], column: str) -> list[PaytableLine]:
    """Raise the Roof: for the "Ante+ Raise The Roof" column, the column paying the Ante alone
    (what the player keeps by not raising); nothing for any other column."""
    if RAISE_COLUMN not in column.lower():
        return []
    others = [c for c in columns if RAISE_COLUMN not in c.lower()]
    return list(columns[others[0]]) if others else []
