"""The benchmarks of a floor: validating it with each table's house edge, its sign set as PDF, its
validation report page."""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks import ROOT, percentile


def bench_validation(runs: int = 200) -> None:
    """Validating a 12-table floor with four side wagers a table, in-process: parse, validate,
    and each table's exact base-game house edge (compliance.basegame.table_base_games). Warm:
    the floor's rule set analysed and kept; cold: the first validation after the kept values are
    gone (the analysis of its one rule set, in a process that has analysed others)."""
    from compliance.api.configuration import configuration_parse
    from compliance.basegame import base_game_memory_clear, table_base_games
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

    def validate() -> tuple[list[dict[str, Any]], float]:
        """The floor validated as compliance.services.validation_run_create does it (what it
        reads kept per knowledge-base revision); and the seconds of its tables' house edges and
        side wagers alone."""
        heads = kbcache.history_heads()
        revision = kbcache.revision_of(heads)
        parsed = configuration_parse(config, heads=heads)
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
        f"{percentile(samples, 0.99):.1f} ms  (target p50 < 50 ms); the first validation of a "
        f"rule set not analysed before: {cold:.2f} s, once"
    )


def bench_signage(runs: int = 5) -> None:
    """Sign sets as PDF (letter): validate, build the signs, store them, render with WeasyPrint;
    one table (the sample Colorado floor's BJ-01, two side wagers), then a 12-table floor of
    that floor's two tables alternately (12 table signs and a wall sign). Median of `runs`, after
    one warm-up that loads WeasyPrint's fonts."""
    import json

    from compliance.api.configuration import configuration_parse
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
        pdf = sign_set_pdf(sign_set_create(configuration=configuration_parse(config)))
        return (time.perf_counter() - start) * 1000, len(pdf)

    timed(one)  # warm-up: WeasyPrint loads Pango and the fonts once per process
    for label, config, target in (("one table", one, "1 s"), ("a 12-table floor", twelve, "5 s")):
        samples = [timed(config) for _ in range(runs)]
        print(
            f"sign set as PDF, {label}: p50 {statistics.median(s for s, _ in samples):.0f} ms "
            f"over {runs} runs, {samples[0][1] // 1024} KB  (target < {target})"
        )


def bench_pages_desk(renders: int = 200) -> None:
    """The validation report page of the sample house-rules configuration (six findings, each
    cited), rendered in-process by the test client as a logged-in vendor."""
    import json

    from django.test import Client

    from compliance.api.configuration import configuration_parse
    from compliance.services import validation_run_create
    from jurisdictions.services import api_user_create

    vendor, _ = api_user_create(username="bench-vendor")
    config = json.loads((ROOT / "fixtures/configs/casino-house-rules-co.json").read_text())
    run = validation_run_create(configuration=configuration_parse(config), user=vendor)
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
        f"p50 {statistics.median(samples):.1f} ms, p99 {percentile(samples, 0.99):.1f} ms  "
        f"(target p50 < 100 ms)"
    )


def bench_impact(floors: int = 1000) -> None:
    """The impact of Rule 8 from 2016-01-01 to 2022-01-01 over `floors` stored configurations
    (issue #26; target < 10 s): each the latest run of its floor, parsed again from what was
    submitted and judged on both dates (findings, signs' needs, base games, side wagers, signs).
    The floors: the sample Colorado floors, each under its own licensee with its own table limits
    (so no two floors are alike), filed as of a date from 2016 to 2024; their runs stored as a
    validation stores them (the findings of the first of each kind, copied: what the impact reads
    is the configuration). The base games' rule sets are those of the samples, analysed once and
    kept, as on a server that has validated them before."""
    import datetime as dt
    import json

    from django.contrib.auth.models import User

    from compliance import selectors
    from compliance.api.configuration import configuration_parse
    from compliance.api.impact import stored_floors
    from compliance.impact import Window, impact
    from compliance.models import ValidationRun
    from compliance.services import validation_run_create
    from jurisdictions.services import api_user_create
    from pitboss import kbcache

    vendor, _ = api_user_create(username="bench-impact-vendor")
    bases = [
        json.loads((ROOT / "tests/compliance/data/signage-floor-co.json").read_text()),
        json.loads((ROOT / "fixtures/configs/casino-house-rules-co.json").read_text()),
        json.loads((ROOT / "fixtures/configs/variant-games-co.json").read_text()),
    ]
    dates = [f"{year}-06-01" for year in range(2016, 2025)]
    models = [
        validation_run_create(configuration=configuration_parse(b), user=vendor) for b in bases
    ]
    runs = []
    for n in range(floors):
        model = models[n % len(models)]
        base = bases[n % len(bases)]
        low = 5 * (1 + n % 40)
        tables = [
            dict(t, limits={"min": str(low), "max": str(low * (20 + n % 30))})
            for t in base["tables"]
        ]
        data = dict(base, tables=tables, licensee=f"Casino {n:04d}", as_of=dates[n % len(dates)])
        config = configuration_parse(data)
        runs.append(ValidationRun(
            configuration=data, jurisdiction="US-CO", as_of=config.as_of, compliant=model.compliant,
            findings=model.findings, knowledge_base=model.knowledge_base, tables=model.tables,
            created_by=vendor, floor=config.floor_key(),
        ))  # fmt: skip
    ValidationRun.objects.bulk_create(runs)
    administrator = User(username="bench", is_superuser=True, is_active=True)
    window = Window("US-CO", dt.date(2016, 1, 1), dt.date(2022, 1, 1), "rule-8")
    on_file = selectors.floors_on_file(administrator, "US-CO")
    impact(window, stored_floors(on_file[:3], kbcache.history_heads()))  # the rule sets analysed
    start, cpu = time.perf_counter(), time.process_time()
    heads = kbcache.history_heads()
    on_file = selectors.floors_on_file(administrator, "US-CO")
    answer = impact(window, stored_floors(on_file, heads), heads=heads)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"impact of Rule 8 2016-01-01 to 2022-01-01 over {len(on_file)} stored floors: "
        f"{seconds:.2f} s, CPU {cpu:.2f} s ({1000 * seconds / len(on_file):.1f} ms a floor; "
        f"{len(answer['affected'])} affected, {answer['unaffected']} not)  (target < 10 s)"
    )


def bench_packet(runs: int = 3) -> None:
    """The submission packet of a 12-table floor (issue #27; target < 5 s): the sample Colorado
    floor's two tables alternately, validated and stored, then its packet built (rule effects,
    par sheets, cited provisions, signs) and written as a PDF and a ZIP. The first build (its
    rule effects and par sheets analysed) and the median of `runs` more."""
    import json

    from compliance.api.configuration import configuration_parse
    from compliance.packet import packet_build
    from compliance.services import validation_run_create

    floor = json.loads((ROOT / "tests/compliance/data/signage-floor-co.json").read_text())
    twelve = dict(
        floor,
        tables=[dict(floor["tables"][n % 2], name=f"BJ-{n + 1:02d}") for n in range(12)],
    )
    run = validation_run_create(configuration=configuration_parse(twelve))

    def timed() -> tuple[float, int, int]:
        start = time.perf_counter()
        packet = packet_build(run, configuration_parse(run.configuration))
        pdf, archive = packet.pdf(), packet.zip()
        return time.perf_counter() - start, len(pdf), len(archive)

    first = timed()
    samples = [timed() for _ in range(runs)]
    print(
        f"submission packet of a 12-table floor (PDF and ZIP): first {first[0]:.2f} s, then p50 "
        f"{statistics.median(s for s, _, _ in samples):.2f} s over {runs} runs; PDF "
        f"{first[1] // 1024} KB, ZIP {first[2] // 1024} KB  (target < 5 s)"
    )
