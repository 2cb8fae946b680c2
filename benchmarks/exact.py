"""The benchmarks of the exact analyses: the base game and its variants, a face-up table's first
request, every catalog paytable's analysis, the review of readings."""

from __future__ import annotations

import importlib
import pkgutil
import time
from dataclasses import replace


def bench_basegame() -> None:
    """The base game's exact house edge by combinatorial analysis (engine.basegame), 6 decks, S17,
    DAS, late surrender, resplits to 4 hands: first in this process (the dealer's odds computed),
    then again (the odds reused), then the effects of the rule options. CPU time."""
    from engine.basegame import base_game_value, rule_effects
    from engine.rules import RuleSet, Surrender

    rules = RuleSet(decks=6, surrender=Surrender.LATE)
    start = time.process_time()
    value = base_game_value(rules)
    first = time.process_time() - start
    start = time.process_time()
    base_game_value(rules)
    again = time.process_time() - start
    start = time.process_time()
    effects = rule_effects(rules, value)
    effects_time = time.process_time() - start
    print(
        f"exact base-game edge of 6D S17 DAS LS: {first:.2f} s first in the process, {again:.2f} s "
        f"again  (target < 1 s; house edge {100 * value.house_edge:.9f} %, Farmer's analyzer "
        f"0.330268037 %); the {len(effects)} rule effects: {effects_time:.2f} s"
    )
    bench_basegame_spanish_21()
    bench_basegame_variants()


def bench_basegame_spanish_21() -> None:
    """The catalog's Spanish 21 (30-899.16) by the same analysis, its RuleSet built from a
    configuration as the API builds it: 6 decks, S17, late surrender; then 6 decks H17 with
    double-double down. CPU time, the dealer's odds of the Spanish shoe computed on the first."""
    from compliance.api.configuration import configuration_parse
    from compliance.rounds import configuration_table
    from engine.basegame import Play, base_game_value

    table = {"name": "S21", "game": "spanish-21", "decks": 6, "dealer_soft_17": "stand",
             "surrender": "late"}  # fmt: skip
    configuration = {"jurisdiction": "US-CO", "as_of": "2024-06-01", "tables": [table]}
    rules = configuration_table(configuration_parse(configuration), None)[2].rules
    start = time.process_time()
    value = base_game_value(rules)
    first = time.process_time() - start
    start = time.process_time()
    basic = base_game_value(rules, Play.BASIC)
    basic_time = time.process_time() - start
    start = time.process_time()
    h17 = base_game_value(replace(rules, dealer_hits_soft_17=True, max_doubles=3))
    h17_time = time.process_time() - start
    print(
        f"exact Spanish 21 (the catalog's, 6D S17 LS): {first:.2f} s (house edge "
        f"{100 * value.house_edge:.4f} %, Wizard of Odds 0.37 %); its basic strategy "
        f"{basic_time:.2f} s ({100 * basic.house_edge:.4f} %); 6D H17 double-double down "
        f"{h17_time:.2f} s ({100 * h17.house_edge:.4f} %, Wizard 0.42 %)"
    )


def bench_basegame_variants() -> None:
    """The variants' exact analyses (engine.basegame.variants), CPU time each, beside the
    published figures the tests pin loosely (tests/engine/test_basegame_*.py)."""
    from dataclasses import replace
    from fractions import Fraction
    from functools import partial

    from engine.basegame import (
        VERSION_1,
        VERSION_2,
        Play,
        double_up_value,
        face_up_value,
        switch_value,
    )
    from engine.rules import DoubleOn, RuleSet

    face_up = RuleSet(decks=6, dealer_hits_soft_17=True, dealer_face_up=True, ties_lose=True,
                      blackjack_pays=Fraction(1))  # fmt: skip
    switch = RuleSet(decks=6, dealer_hits_soft_17=True, blackjack_pays=Fraction(1),
                     spots_per_seat=2, switch=True, switched_blackjack_pushes_22=True,
                     dealer_22_pushes=True)  # fmt: skip
    wizard = replace(face_up, blackjack_beats_dealer_blackjack=True,
                     double_on=DoubleOn.NINE_TEN_ELEVEN)  # fmt: skip
    cases = [
        ("Face Up 21, Colorado 30-899.02 (6D H17)", lambda: face_up_value(face_up), ""),
        (
            "Double Exposure, Wizard's Stratosphere game",
            lambda: face_up_value(wizard),
            "Wizard of Odds 0.68 %",
        ),  # fmt: skip
        (
            "Blackjack Switch, Colorado 30-2105 as read: dealer 22 pushes (6D H17)",
            lambda: switch_value(switch),
            "Wizard of Odds 0.58 %",
        ),
        (
            "Blackjack Switch, 30-2105(8)(e) read literally: a dealer 22 busts",
            lambda: switch_value(replace(switch, dealer_22_pushes=False)),
            "",
        ),  # fmt: skip
    ]
    cases += [  # the best play, then the engine's basic strategy (what its rounds play)
        (
            f"Double Up Blackjack Version {number}, Colorado 30-899.10 (6D S17){how}",
            partial(double_up_value, replace(RuleSet(decks=6), **fields), play),
            "",
        )
        for number, fields in ((1, VERSION_1), (2, VERSION_2))
        for play, how in ((Play.COMPOSITION, ""), (Play.BASIC, ", the engine's basic strategy"))
    ]
    for name, analyse, published in cases:
        start = time.process_time()
        value = analyse()
        seconds = time.process_time() - start
        beside = f"; {published}" if published else ""
        print(f"exact base-game edge, {name}: {seconds:.2f} s  (house edge "
              f"{100 * value.house_edge:.6f} %{beside})")  # fmt: skip
    bench_face_up_first_request()


def bench_face_up_first_request() -> None:
    """GET analysis/base-game/ of a Colorado Face Up 21 table (6 decks) with its rule effects,
    as a compliance officer's first request: nothing kept in memory or in the BaseGameEdge
    table (the dealer's hands already enumerated by the figures above). CPU time."""
    from compliance.api.requests import BaseGameIn, base_game_query, request_parse
    from compliance.basegame import base_game_analysis, base_game_memory_clear
    from compliance.models import BaseGameEdge

    for hits in ("stand", "hit"):
        params = {"jurisdiction": "US-CO", "as_of": "2024-06-01", "game": "face-up-blackjack",
                  "decks": "6", "dealer_soft_17": hits, "effects": "true"}  # fmt: skip
        base_game_memory_clear()
        BaseGameEdge.objects.filter(rules__contains="dealer_face_up=True").delete()
        start = time.process_time()
        body = base_game_analysis(**request_parse(BaseGameIn, base_game_query(params)))
        seconds = time.process_time() - start
        print(
            f"face-up first request with effects (Face Up 21, 6D, {hits} soft 17): {seconds:.2f} s "
            f"(target < 5 s; {len(body['effects'])} rule effects and the basic strategy, 12 "
            f"analyses; house edge {body['house_edge_percent'][:8]} %)"
        )


def bench_analysis() -> None:
    """Exact analysis of every catalog paytable the engine can analyse, at every deck count it
    is approved for (1, 2, 4, 6, 8 where any)."""
    import engine.analysis
    import engine.dealer_hands
    import engine.hold_em
    import engine.playtree
    from engine.sidewagers import NOT_DECIDED_BY_CARDS
    from pitboss.errors import DomainError
    from variants.analysis import paytable_analysis
    from variants.models import Paytable

    modules = [engine.dealer_hands, engine.hold_em]
    for package in (engine.analysis, engine.playtree):  # and each module of the two packages
        modules += [
            importlib.import_module(f"{package.__name__}.{info.name}")
            for info in pkgutil.iter_modules(package.__path__)
        ]
    for module in modules:
        for name in dir(module):  # cold: nothing computed before, whatever the module keeps
            cache_clear = getattr(getattr(module, name), "cache_clear", None)
            if callable(cache_clear) and getattr(module, name).__module__ == module.__name__:
                cache_clear()
    done, findings, partial, skipped = 0, 0, 0, 0
    unanalysed: set[str] = set()
    simulated: set[str] = set()
    start, cpu = time.perf_counter(), time.process_time()
    paytables = Paytable.objects.select_related("wager__jurisdiction").prefetch_related("entries")
    for paytable in paytables:
        try:
            body = paytable_analysis(paytable, simulate_play=False)
        except DomainError as exc:
            skipped += 1
            (simulated if exc.code == "simulated_only" else unanalysed).add(paytable.wager.slug)
            continue
        done += len(body["analyses"])
        findings += len(body["catalog_findings"]) + len(body["readings_under_review"])
        partial += bool(body["not_analysed"]) and not body["analyses"]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    real = sorted(w for w in unanalysed if w in NOT_DECIDED_BY_CARDS)
    not_yet = sorted(w for w in unanalysed if w not in NOT_DECIDED_BY_CARDS)
    gaps = (
        [f"no exact method, simulated as a job ({', '.join(sorted(simulated))}: see streak)"]
        if simulated
        else []
    )
    gaps += ([f"not decided by the cards ({', '.join(real)})"] if real else []) + (
        [f"not analysed yet ({', '.join(not_yet)})"] if not_yet else []
    )
    without = (
        "no paytable without an exact figure"
        if not skipped
        else f"{skipped} paytables have no exact analysis: {'; '.join(gaps)}"
    )
    print(
        f"exact analysis of the catalog: {done} paytable columns × deck counts in {seconds:.2f} s "
        f"({cpu:.2f} s CPU; target < 5 s), {findings} more found giving the player an edge "
        f"(catalog findings or readings under review); "
        f"{without}; {partial} pay only meter shares or dollar amounts (exact for a stake and "
        f"meter: ?stake=&meter=)"
    )
    bench_review()


def bench_review() -> None:
    """The review of readings (variants/review.py, manage.py review_readings): the analyses giving
    the player an edge or differing from a published figure, and how many no one has explained;
    the paytable columns × deck counts with no exact figure, at a stake or not, besides the wagers
    the cards do not decide."""
    from variants.review import review

    start = time.perf_counter()
    found = review()
    seconds = time.perf_counter() - start
    aside = ", ".join(sorted(found.set_aside)) or "none"
    print(
        f"readings under review: {len(found.readings)} ({len(found.unexplained)} unexplained; "
        f"target 0) of {found.analysed} exact analyses in {seconds:.2f} s; paytable columns × "
        f"deck counts without an exact figure besides the wagers the cards do not decide "
        f"({aside}): {len(found.without_exact)} (target 0)"
    )
    for reading in found.unexplained:
        where = f"{reading.subject} {reading.column!r} at {reading.decks} decks"
        print(f"  unexplained: {where}: {reading.why[0]}")
