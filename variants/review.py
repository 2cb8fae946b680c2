"""The review of readings (issue #23): every exact analysis of the catalog, at every deck count a
paytable is analysed at (and at a $5 stake, every meter at $0, for columns paying dollars or meter
shares), and the base games the validator values for the sample configurations
(fixtures/configs/), that gives the player an edge or differs from a published figure the
repository pins (engine/published.yaml), each with its reading (the method and card-removal
convention) and its annotation (fixtures/annotations.yaml, on the unit the paytable cites).

An approved wager that favours the player, or a figure far from a published analysis, means the
reading is wrong until proven otherwise. A reading is explained where a published analysis agrees
with the player's edge, where a progressive's meter makes it so (variants.analysis.edge_explained),
or where an annotation on the cited unit records the figure (its fraction); unexplained otherwise.
Also counted: the paytable columns × deck counts without an exact figure, besides the wagers the
cards do not decide (STREAK and Burnout Bonus, simulated as jobs; Dead Man's Hand).

`python manage.py review_readings` prints the list; `python -m benchmarks analysis` the counts."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from engine.analysis import Analysis
from engine.odds import Pays, decimal_string
from engine.published import disagreements, published_for
from engine.sidewagers import NOT_DECIDED_BY_CARDS, sided
from pitboss.errors import DomainError
from regs.models import Annotation

from .analysed import Analysed, edge_explained, fraction_text, player_edge
from .analysis import allowed_decks, cited, paytable_analysed, paytable_lines
from .models import Paytable

STAKE = Decimal(5)
METER = Decimal(0)
"""The terms a column paying dollar amounts or meter shares is analysed at for the review: a $5
wager, every meter at $0 (the least a meter share returns: what the wager returns whatever the
meter, so a player's edge there is no meter's doing)."""

CONFIGURATIONS = (
    "casino-house-rules-co.json",
    "casino-house-rules-ma.json",
    "variant-games-co.json",
)
"""The sample configurations (fixtures/configs/) whose base games the review values: the house
rules in both jurisdictions, and a floor of the full variants the engine values (Face Up 21,
Blackjack Switch, Spanish 21, Double Up Blackjack in both versions)."""


@dataclass(frozen=True)
class Reading:
    """An analysis listed for review."""

    subject: str
    """The paytable's key, or "base game: <configuration> <table>"."""
    column: str
    decks: int
    house_edge: str
    """A decimal string (negative: the player's edge)."""
    why: tuple[str, ...]
    """Why it is listed: the player's edge, each published figure it differs from."""
    reading: str
    """How it was analysed: the method and card-removal convention (and the stake and meter)."""
    annotation: str
    """The annotations on the unit the paytable cites, "" if none."""
    explained: str
    """Why it stands (a published analysis agrees, the meter makes it so, an annotation records
    it); "" for a reading no one has explained."""


@dataclass
class Review:
    readings: list[Reading] = field(default_factory=list)
    without_exact: list[str] = field(default_factory=list)
    """Paytable columns × deck counts without an exact figure ("key column @ N decks: why"),
    besides the wagers set aside."""
    set_aside: set[str] = field(default_factory=set)
    """Wagers the cards do not decide, so with no exact figure by design."""
    analysed: int = 0
    """Exact analyses reviewed (paytable columns × deck counts, at a stake or not; base games)."""

    @property
    def unexplained(self) -> list[Reading]:
        return [r for r in self.readings if not r.explained]


def review(paytables: Iterable[Paytable] | None = None, *, base_games: bool = True) -> Review:
    """The review of every catalog paytable (or those given) and, with `base_games`, of the
    sample configurations' base games."""
    found = Review()
    if paytables is None:
        paytables = (
            Paytable.objects.select_related("wager__jurisdiction", "provision")
            .prefetch_related("entries")
            .order_by("key")
        )
    for paytable in paytables:
        _review_paytable(paytable, found)
    if base_games:
        for reviewer in _base_game_reviewers:
            reviewer(found)
    return found


# The base games the validator values are judged above the catalog (compliance): a reviewer of
# them registers here when its app starts (compliance/apps.py), so this module imports nothing
# above it.
_base_game_reviewers: list[Callable[[Review], None]] = []


def base_game_reviewer_register(reviewer: Callable[[Review], None]) -> None:
    """Add a reviewer of the sample configurations' base games to every `review`."""
    if reviewer not in _base_game_reviewers:
        _base_game_reviewers.append(reviewer)


def _review_paytable(paytable: Paytable, found: Review) -> None:
    wager = paytable.wager.slug
    # the columns analysed: the printed ones, or each side of a wager with sides (over/under 13)
    columns = list(dict.fromkeys(line.column for line in sided(wager, paytable_lines(paytable))))
    decks = allowed_decks(paytable)
    try:
        per_unit = paytable_analysed(paytable, simulate_play=False)
    except DomainError as exc:
        if exc.code == "simulated_only" or wager in NOT_DECIDED_BY_CARDS:
            found.set_aside.add(wager)
        else:
            found.without_exact += [
                f"{paytable.key} {c!r} @ {n} decks: {exc.message}" for c in columns for n in decks
            ]
        return
    runs: list[tuple[Analysed, str]] = [(per_unit, "")]
    if per_unit.not_analysed:
        terms = f"; at a ${STAKE} stake, every meter at ${METER}"
        try:
            runs.append(
                (
                    paytable_analysed(
                        paytable, simulate_play=False, stake=STAKE, meters={"": METER}
                    ),
                    terms,
                )
            )
        except DomainError as exc:
            found.without_exact.append(f"{paytable.key} at a stake: {exc.message}")
    got: set[tuple[str, int]] = set()
    annotations = _annotations(paytable)
    for analysed, terms in runs:
        for result in analysed.results:
            if (result.column, result.decks) in got:
                continue  # a column analysed per unit is reviewed per unit
            got.add((result.column, result.decks))
            found.analysed += 1
            reading = _reading(paytable, analysed, result, terms, annotations)
            if reading is not None:
                found.readings.append(reading)
    found.without_exact += [
        f"{paytable.key} {c!r} @ {n} decks: no exact figure, at a stake or not"
        for c in columns
        for n in decks
        if (c, n) not in got
    ]


def _reading(
    paytable: Paytable,
    analysed: Analysed,
    result: Analysis,
    terms: str,
    annotations: list[str],
) -> Reading | None:
    """The analysis as a reading to review, or None if it gives the house the edge and agrees
    with every published figure of its pays."""
    why = []
    if player_edge(result):
        edge = -result.house_edge
        why.append(
            f"gives the player an edge of {decimal_string(edge * 100, 6)}% "
            f"({fraction_text(edge)} per unit staked)"
        )
    lines = {line.outcome: Pays.parse(line.pays) for line in result.lines}
    differs = False
    for case, figure in published_for(result.wager, lines, result.decks, analysed.hits_soft_17):
        if found := disagreements(figure, result):
            differs = True
            why.append(f"differs from {case.source}: {'; '.join(found)}")
    if not why:
        return None
    explained = "" if differs else edge_explained(analysed, result)
    figures = {fraction_text(result.house_edge), fraction_text(-result.house_edge)}
    recorded = [text for text in annotations if any(f in text for f in figures)]
    if not explained and recorded:
        explained = f"an annotation on {cited(paytable)} records it"
    return Reading(
        paytable.key,
        result.column,
        result.decks,
        decimal_string(result.house_edge, 12),
        tuple(why),
        f"{analysed.method}; cards: {result.card_removal}{terms}",
        "\n".join(recorded or annotations),
        explained,
    )


def _annotations(paytable: Paytable) -> list[str]:
    """The annotations on the unit the paytable cites, each with its kind."""
    return [
        f"[{a.kind}] {a.text}"
        for a in Annotation.objects.filter(
            unit__provision=paytable.provision, unit__path=paytable.unit_path
        )
    ]
