"""Run every benchmark and print its figures: python -m benchmarks (make bench).

Each benchmark runs on a fresh SQLite database in a temporary directory, so the figures do not
depend on what a developer's db.sqlite3 holds.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import ROOT, fresh_database


def _percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_ingest() -> None:
    """Ingesting the 79-page Rule 8 PDF into an empty knowledge base, then again (no change)."""
    from jurisdictions.models import Instrument
    from regs.services import source_ingest

    rule_8 = Instrument.objects.get(jurisdiction__code="US-CO", slug="rule-8")
    data = (ROOT / "fixtures/sources/pdf/co-rule-8-blackjack.pdf").read_bytes()
    for label in ("into an empty knowledge base", "again (nothing changes)"):
        start = time.perf_counter()
        report = source_ingest(instrument=rule_8, name="co-rule-8-blackjack.pdf", data=data)
        seconds = time.perf_counter() - start
        print(f"ingest Rule 8 PDF {label}: {seconds:.2f} s  (target < 10 s; {report.units} units)")


def bench_lookup(requests: int = 1000) -> None:
    """Point-in-time provision lookups through the WSGI app in-process (no server)."""
    from django.core.management import call_command
    from django.test import Client

    call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
    client = Client(HTTP_HOST="localhost")
    queries = [
        ("US-CO", "30-899.23", "2017-01-01"),
        ("US-CO", "30-832", "2016-06-01"),
        ("US-CO", "30-803", "1997-01-01"),
        ("US-CO", "30-2107", "2024-06-01"),
        ("US-MA", "28(g)", "2024-06-01"),
        ("US-CO", "47.1-834.23", "2018-01-01"),
    ]
    samples: list[float] = []
    for i in range(requests):
        jurisdiction, citation, as_of = queries[i % len(queries)]
        start = time.perf_counter()
        response = client.get(
            "/api/v1/provisions/",
            {"jurisdiction": jurisdiction, "citation": citation, "as_of": as_of},
        )
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, response.content
    print(
        f"point-in-time lookup GET /api/v1/provisions/?citation=&as_of= over {requests} requests: "
        f"p50 {statistics.median(samples):.2f} ms, p99 {_percentile(samples, 0.99):.2f} ms  "
        "(target p50 < 10 ms)"
    )


def bench_validation(runs: int = 200) -> None:
    """Validating a 12-table floor with four side wagers a table, in-process: parse, validate,
    and each table's exact base-game house edge (compliance.basegame.table_base_games). Warm:
    the floor's rule set analysed and kept; cold: the first validation after the kept values are
    gone (the analysis of its one rule set, in a process that has analysed others)."""
    from compliance.basegame import base_game_memory_clear, table_base_games
    from compliance.configuration import configuration_parse
    from compliance.models import BaseGameEdge
    from compliance.validator import configuration_validate
    from pitboss import kbcache

    sides = [
        {
            "wager": "kings-bounty",
            "paytable": "us-co/kings-bounty/kb03",
            "limits": {"min": "10", "max": "100"},
        },
        {"wager": "blazing-7s", "paytable": "us-co/blazing-7s/b7p2"},
        {"wager": "raise-the-roof", "paytable": "us-co/raise-the-roof/6d-s17-pay-table-1"},
        {
            "wager": "21-plus-3-xtreme",
            "paytable": [
                {"outcome": "flush", "pays": "5 to 1"},
                {"outcome": "straight", "pays": "10 to 1"},
                {"outcome": "three-of-a-kind", "pays": "20 to 1"},
                {"outcome": "straight-flush", "pays": "30 to 1"},
            ],
        },
    ]
    table = {
        "game": "blackjack",
        "decks": 6,
        "dealing": "shoe",
        "dealer_soft_17": "stand",
        "blackjack_pays": "3 to 2",
        "insurance_pays": "2 to 1",
        "split": {"max_hands": 4},
        "limits": {"min": "10", "max": "500"},
        "side_wagers": sides,
        # 30-899.20(1), 30-899.21(1), 30-899.23(1): each only at a table displaying its layout
        "layouts": ["kings-bounty", "blazing-7s", "raise-the-roof"],
    }
    config = {
        "jurisdiction": "US-CO",
        "as_of": "2024-06-01",
        "tables": [dict(table, name=f"BJ-{n:02d}") for n in range(1, 13)],
    }

    def validate() -> tuple[list[dict[str, object]], float]:
        """The floor validated as compliance.services.validation_run_create does it (what it
        reads kept per knowledge-base revision); and the seconds of its tables' house edges and
        side wagers alone."""
        revision = kbcache.revision_of(kbcache.history_heads())
        parsed = configuration_parse(config, revision=revision)
        configuration_validate(parsed, revision=revision)
        start = time.perf_counter()
        return table_base_games(parsed, revision=revision), time.perf_counter() - start

    table_base_games(configuration_parse(dict(config, tables=[dict(table, decks=8, name="x")])))
    BaseGameEdge.objects.all().delete()  # the engine warmed up on another rule set; none kept
    base_game_memory_clear()
    start = time.perf_counter()
    tables, _ = validate()
    cold = time.perf_counter() - start
    samples, edges, cpu = [], [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        _, edge = validate()
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        edges.append(edge * 1000)
    print(
        f"validate a 12-table floor, 4 side wagers a table, with each table's exact house edge "
        f"({tables[0]['house_edge_percent'][:6]} %), over {runs} runs: "
        f"p50 {statistics.median(samples):.1f} ms (the house edges {statistics.median(edges):.1f} "
        f"ms of it; CPU p50 {statistics.median(cpu):.1f} ms), p99 "
        f"{_percentile(samples, 0.99):.1f} ms  (target p50 < 50 ms); the first validation of a "
        f"rule set not analysed before: {cold:.2f} s, once"
    )


def bench_engine_rounds(rounds: int = 20_000) -> None:
    """The logged engine: one seat, one hand, basic strategy, 6 decks, no side wagers."""
    from decimal import Decimal

    from engine.round import SeatSpec, play_round
    from engine.rules import RuleSet
    from engine.shoe import Shoe
    from engine.strategy import BasicStrategy

    rules = RuleSet()
    shoe, seats = Shoe.shuffled(6, 1), [SeatSpec({"main": Decimal(10)}, BasicStrategy(rules))]
    start = time.perf_counter()
    for _ in range(rounds):
        play_round(rules, shoe, seats)
        shoe.end_round()
    rate = rounds / (time.perf_counter() - start)
    print(
        f"engine, logged rounds (1 seat, basic strategy, 6 decks) over {rounds} rounds: "
        f"{rate:,.0f} rounds/s on one core  (target 50,000)"
    )


def bench_simulation(rounds: int = 20_000_000) -> None:
    """The compiled simulator (engine.simulate): one seat, one hand, basic strategy, 6 decks,
    doubles and splits as the rules allow, no side wagers; after a warm-up that compiles it (or
    loads numba's cache). CPU time of this process, so another process's load does not count."""
    from engine.rules import RuleSet
    from engine.simulate import simulate

    rules = RuleSet()
    start = time.perf_counter()
    simulate(rules, 1000, seed=0)
    warm_up = time.perf_counter() - start
    start = time.process_time()
    result = simulate(rules, rounds, seed=1)
    rate = rounds / (time.process_time() - start)
    print(
        f"simulated base-game rounds (1 seat, basic strategy, 6 decks, S17, 3 to 2) over "
        f"{rounds:,} rounds: {rate:,.0f} rounds/s on one core  (target 5,000,000; warm-up "
        f"{warm_up:.1f} s; house edge {float(result.house_edge):.4%} ± "
        f"{result.standard_error:.4%})"
    )
    simulate(rules, 1000, seed=0, continuous=True)
    start = time.process_time()
    result = simulate(rules, rounds, seed=1, continuous=True)
    rate = rounds / (time.process_time() - start)
    print(
        f"  the same from a continuous shuffler: {rate:,.0f} rounds/s on one core; house edge "
        f"{float(result.house_edge):.4%} ± {result.standard_error:.4%}"
    )


def bench_streak(rounds: int = 20_000_000) -> None:
    """STREAK's Standard Schedule simulated (engine.streak): rounds a second on one core, after a
    warm-up, and the time a paytable job's 10⁸ rounds a deck count takes at that rate."""
    from engine.odds import Pays
    from engine.rules import PaytableLine
    from engine.streak import MIN_ROUNDS, streak_analyses, streak_rules, streak_simulate

    rules = streak_rules("streak", 6)
    lengths = (2, 3, 4, 5)
    start = time.perf_counter()
    streak_simulate(rules, lengths, 1000, seed=0)
    warm_up = time.perf_counter() - start
    start = time.process_time()
    counts = streak_simulate(rules, lengths, rounds, seed=1)
    rate = counts.rounds / (time.process_time() - start)
    pays = ("3 to 1", "7 to 1", "17 to 1", "37 to 1")
    keys = ("two-wins", "three-wins", "four-wins", "five-wins")
    lines = [PaytableLine(k, Pays.parse(p), k, "") for k, p in zip(keys, pays, strict=True)]
    spots = streak_analyses("streak", lines, counts, rules, seed=1)
    edges = ", ".join(f"{float(a.house_edge):.2%} ± {a.standard_error:.2%}" for a in spots)
    print(
        f"STREAK simulated (6 decks, S17, Standard Schedule) over {counts.rounds:,} rounds: "
        f"{rate:,.0f} rounds/s on one core (warm-up {warm_up:.1f} s); {MIN_ROUNDS:,} rounds a "
        f"deck count in {MIN_ROUNDS / rate:.1f} s; 2-5 win spots {edges}"
    )


def bench_simulation_vs_c(rounds: int = 5_000_000, runs: int = 5) -> None:
    """The compiled simulator against a plain C simulation of the same game (6 decks, S17, DAS,
    late surrender, split to 4 hands, basic strategy; benchmarks/reference_sim.c built with
    cc -O2), both on one core: this process is pinned to the first CPU it may use and the C
    program inherits it. Both play the same rounds from the same random numbers (the sums must be
    equal); `runs` alternating runs of each, CPU time of the simulation loop, medians."""
    from benchmarks import reference
    from engine.basegame import Play, base_game_value
    from engine.rules import RuleSet, Surrender
    from engine.simulate import simulate

    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules = RuleSet(decks=6, surrender=Surrender.LATE)
    simulate(rules, 1000, seed=0)  # compile or load numba's cache
    numba_rates, c_rates = [], []
    with tempfile.TemporaryDirectory() as directory:
        binary = reference.build(Path(directory))
        for seed in range(1, runs + 1):
            start = time.process_time()
            ours = simulate(rules, rounds, seed=seed, chunk_rounds=rounds)
            numba_rates.append(rounds / (time.process_time() - start) / 1e6)
            theirs = reference.run(binary, rules, rounds, seed, Path(directory))
            c_rates.append(rounds / theirs.seconds / 1e6)
            assert theirs.result == ours, "the C reference played other rounds"
    x, y = statistics.median(numba_rates), statistics.median(c_rates)
    exact = base_game_value(rules, Play.BASIC).house_edge  # the strategy both play
    print(
        f"simulator: {x:.2f} M rounds/s, C reference: {y:.2f} M rounds/s, ratio {x / y:.2f} "
        f"(target ≥ 1.0)  (6D S17 DAS LS, one core, medians of {runs} runs of {rounds:,} rounds; "
        f"both played the same rounds: house edge {float(ours.house_edge):.4%} ± "
        f"{ours.standard_error:.4%} in both; exact for that strategy {exact:.4%})"
    )


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
    from compliance.basegame import BaseGameIn
    from compliance.rounds import request_parse, request_table
    from engine.basegame import Play, base_game_value

    table = {"name": "S21", "game": "spanish-21", "decks": 6, "dealer_soft_17": "stand",
             "surrender": "late"}  # fmt: skip
    configuration = {"jurisdiction": "US-CO", "as_of": "2024-06-01", "tables": [table]}
    rules = request_table(request_parse(BaseGameIn, {"configuration": configuration}))[1].rules
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
    from compliance.basegame import base_game_analysis, base_game_memory_clear, base_game_query
    from compliance.models import BaseGameEdge

    for hits in ("stand", "hit"):
        params = {"jurisdiction": "US-CO", "as_of": "2024-06-01", "game": "face-up-blackjack",
                  "decks": "6", "dealer_soft_17": hits, "effects": "true"}  # fmt: skip
        base_game_memory_clear()
        BaseGameEdge.objects.filter(rules__contains="dealer_face_up=True").delete()
        start = time.process_time()
        body = base_game_analysis(data=base_game_query(params))
        seconds = time.process_time() - start
        print(
            f"face-up first request with effects (Face Up 21, 6D, {hits} soft 17): {seconds:.2f} s "
            f"(target < 5 s; {len(body['effects'])} rule effects and the basic strategy, 12 "
            f"analyses; house edge {body['house_edge_percent'][:8]} %)"
        )


def bench_first_simulation() -> None:
    """A fresh Python process's first simulation (1,000 rounds), numba's cache warm: this
    process runs one first, which compiles it or loads the cache."""
    import subprocess

    from engine.rules import RuleSet
    from engine.simulate import simulate

    simulate(RuleSet(), 1000, seed=0)
    child = (
        "import time; start = time.perf_counter()\n"
        "from engine.rules import RuleSet\n"
        "from engine.simulate import simulate\n"
        "imported = time.perf_counter()\n"
        "simulate(RuleSet(), 1000, seed=0)\n"
        "print(imported - start, time.perf_counter() - imported)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, check=True
    )
    imports, first = (float(x) for x in out.stdout.split())
    print(
        f"first simulation after start (a fresh process, numba's cache warm): {first:.2f} s  "
        f"(target < 1 s; importing the engine {imports:.2f} s before it)"
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

    for module in (engine.analysis, engine.dealer_hands, engine.hold_em, engine.playtree):
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


def bench_diff(runs: int = 200) -> None:
    """Rule 8 between two dates (whole instrument), and single provision diffs (selectors)."""
    import datetime as dt

    from django.core.management import call_command

    from regs.diff import selectors as diffs
    from regs.diff import text
    from regs.models import Provision

    if not Provision.objects.exists():
        call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
    window = {"start": dt.date(2016, 1, 1), "end": dt.date(2022, 1, 1)}
    whole: list[float] = []
    for _ in range(5):
        start = time.perf_counter()
        found = diffs.instrument_diff(jurisdiction="US-CO", instrument="Rule 8", **window)
        whole.append((time.perf_counter() - start) * 1000)
    print(
        f"diff of Rule 8 from 2016-01-01 to 2022-01-01 ({len(found.changes)} changes): "
        f"{statistics.median(whole):.0f} ms median of 5  (target < 1 s)"
    )
    today = dt.date(2025, 1, 1)
    cases = [
        ("47.1-834.23", diffs.PROPOSED, today),
        ("30-899.23", dt.date(2017, 1, 1), today),
        ("30-803", dt.date(2016, 1, 1), today),
        ("30-899.11", dt.date(2016, 1, 1), today),
    ]
    samples: list[float] = []
    for i in range(runs):
        citation, left, right = cases[i % len(cases)]
        text.tokens.cache_clear()  # cold: no words remembered from the run before
        text.normal_form.cache_clear()
        start = time.perf_counter()
        record, path = diffs.provision_record(
            jurisdiction="US-CO", citation=citation, as_of=today, today=today
        )
        diffs.provision_diff(record=diffs.restrict(record, path), left=left, right=right)
        samples.append((time.perf_counter() - start) * 1000)
    print(
        f"single provision diff (read + diff, cold, {runs} runs of {len(cases)} provisions): "
        f"p50 {statistics.median(samples):.2f} ms, p99 {_percentile(samples, 0.99):.2f} ms  "
        f"(target p50 < 20 ms)"
    )


def bench_signage(runs: int = 5) -> None:
    """Sign sets as PDF (letter): validate, build the signs, store them, render with WeasyPrint;
    one table (the sample Colorado floor's BJ-01, two side wagers), then a 12-table floor of
    that floor's two tables alternately (12 table signs and a wall sign). Median of `runs`, after
    one warm-up that loads WeasyPrint's fonts."""
    import json

    from compliance.services import sign_set_create
    from compliance.signage_render import sign_set_pdf

    floor = json.loads((ROOT / "tests/compliance/data/signage-floor-co.json").read_text())
    one = dict(floor, tables=floor["tables"][:1])
    twelve = dict(
        floor,
        tables=[dict(floor["tables"][n % 2], name=f"BJ-{n + 1:02d}") for n in range(12)],
    )

    def timed(config: dict[str, object]) -> tuple[float, int]:
        start = time.perf_counter()
        pdf = sign_set_pdf(sign_set_create(data=config))
        return (time.perf_counter() - start) * 1000, len(pdf)

    timed(one)  # warm-up: WeasyPrint loads Pango and the fonts once per process
    for label, config, target in (("one table", one, "1 s"), ("a 12-table floor", twelve, "5 s")):
        samples = [timed(config) for _ in range(runs)]
        print(
            f"sign set as PDF, {label}: p50 {statistics.median(s for s, _ in samples):.0f} ms "
            f"over {runs} runs, {samples[0][1] // 1024} KB  (target < {target})"
        )


def bench_pages_rules(renders: int = 200) -> None:
    """In-process render of provision pages (django test Client): text by unit, legal and record
    history, annotations, the catalog facts citing it."""
    from django.test import Client

    client = Client(HTTP_HOST="localhost")
    pages = [
        "/us-co/rule-8/30-899.23@2017-01-01",
        "/us-co/rule-8/30-834.23@2017-01-01",
        "/us-co/rule-8/30-803@2024-06-01",
        "/us-co/rule-8/30-899.20@2024-06-01",
        "/us-ma/blackjack/28@2024-06-01",
    ]
    for address in pages:  # warm the template cache and the database pages
        assert client.get(address).status_code == 200, address
    samples: list[float] = []
    for i in range(renders):
        start = time.perf_counter()
        response = client.get(pages[i % len(pages)])
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    print(
        f"provision page render over {renders} renders: p50 {statistics.median(samples):.1f} ms, "
        f"p99 {_percentile(samples, 0.99):.1f} ms  (target p50 < 100 ms)"
    )


def bench_pages_desk(renders: int = 200) -> None:
    """The validation report page of the sample house-rules configuration (six findings, each
    cited), rendered in-process by the test client as a logged-in vendor."""
    import json

    from django.test import Client

    from compliance.services import validation_run_create
    from jurisdictions.services import api_user_create

    vendor, _ = api_user_create(username="bench-vendor")
    config = json.loads((ROOT / "fixtures/configs/casino-house-rules-co.json").read_text())
    run = validation_run_create(data=config, user=vendor)
    client = Client(HTTP_HOST="localhost")
    client.force_login(vendor)
    address = f"/configurations/runs/{run.pk}/"
    samples = []
    for _ in range(renders):
        start = time.perf_counter()
        response = client.get(address)
        samples.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200 and b"paytable-not-approved" in response.content
    print(
        f"render a validation report page ({len(run.findings)} findings) over {renders} renders: "
        f"p50 {statistics.median(samples):.1f} ms, p99 {_percentile(samples, 0.99):.1f} ms  "
        f"(target p50 < 100 ms)"
    )


def bench_date_notes() -> None:
    """Every date printed in the shipped sources (text forms and PDFs), each accounted for by a
    version boundary, a label, an event or an annotation (regs/datenote_audit.py); target 0
    unaccounted."""
    from regs.datenote_audit import all_dated_notes

    start = time.perf_counter()
    notes = all_dated_notes()
    seconds = time.perf_counter() - start
    unaccounted = sum(not n.accounted for n in notes)
    print(
        f"dated notes: {len(notes)} found, {unaccounted} unaccounted  (target 0; "
        f"python manage.py date_notes --unaccounted lists them; {seconds:.1f} s)"
    )


BENCHMARKS = {
    "ingest": bench_ingest,
    "lookup": bench_lookup,
    "date-notes": bench_date_notes,
    "diff": bench_diff,
    "validation": bench_validation,
    "engine": bench_engine_rounds,
    "simulation": bench_simulation,
    "streak": bench_streak,
    "simulation-vs-c": bench_simulation_vs_c,
    "first-simulation": bench_first_simulation,
    "basegame": bench_basegame,
    "analysis": bench_analysis,
    "review": bench_review,
    "signage": bench_signage,
    "pages_rules": bench_pages_rules,
    "pages_desk": bench_pages_desk,
}


def main() -> None:
    """All benchmarks, or those named: python -m benchmarks diff signage."""
    chosen = sys.argv[1:] or list(BENCHMARKS)
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown:
        raise SystemExit(f"unknown benchmark {unknown[0]!r}; choose from {', '.join(BENCHMARKS)}")
    chosen = [name for name in BENCHMARKS if name in chosen]
    with tempfile.TemporaryDirectory() as directory:
        fresh_database(directory)
        loaded = False  # ingest wants an empty knowledge base; lookup loads it; the rest read it
        for name in chosen:
            if name not in ("ingest", "lookup") and not loaded:
                from django.core.management import call_command

                call_command("load_knowledge_base", verbosity=0, stdout=open(os.devnull, "w"))
            loaded = loaded or name != "ingest"
            BENCHMARKS[name]()


if __name__ == "__main__":
    main()
