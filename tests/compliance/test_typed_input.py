"""Typed input (docs/architecture.md, "Typed input"): a configuration is parsed once, at the edge,
into frozen dataclasses the domain reads; a malformed one is a domain error (InvalidInput) that the
API, the desk and the commands each report by its fields; no DRF below the API layer."""

from __future__ import annotations

import ast
import dataclasses
import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from compliance.api.configuration import configuration_parse
from compliance.configuration import (
    Configuration,
    Limits,
    PaytableLine,
    SideWager,
    Table,
    value_at,
)
from compliance.rulesets import as_dealt, table_rules
from compliance.views.refusals import error_paths
from pitboss.errors import InvalidInput

ROOT = Path(settings.BASE_DIR)
CONFIGS = ROOT / "fixtures" / "configs"

pytestmark = pytest.mark.django_db


def _floor(**table: object) -> dict[str, object]:
    return {
        "jurisdiction": "US-CO",
        "as_of": "2024-06-01",
        "tables": [{"name": "BJ-1", "game": "blackjack", **table}],
    }


def test_a_parsed_configuration_is_frozen_typed_and_keeps_what_was_sent() -> None:
    sent = _floor(
        decks=6,
        limits={"min": "5", "max": "500"},
        side_wagers=[
            {"wager": "kings-bounty", "paytable": [{"outcome": "suited-kings", "pays": "30 to 1"}]},
            {
                "wager": "blazing-7s",
                "bonus_payouts": [
                    {"amount": "5", "probability": "1/4"},
                    {"amount": "10", "probability": "0.75"},
                ],
            },
        ],
    )
    config = configuration_parse(sent)

    assert isinstance(config, Configuration) and config.source == sent
    [table] = config.tables
    assert table.limits == Limits(Decimal("5.00"), Decimal("500.00"))
    assert isinstance(table.limits.min, Decimal)
    kings, blazing = table.side_wagers
    assert kings.inline_lines == (PaytableLine("suited-kings", "30 to 1"),)
    assert kings.paytable_id is None
    assert blazing.bonus_payouts is not None
    assert [p.probability for p in blazing.bonus_payouts] == [Fraction(1, 4), Fraction(3, 4)]
    # left out: None (a list: empty), but layouts, where "not stated" is not "none"
    assert (table.dealer_soft_17, table.split, table.optional_payouts) == (None, None, ())
    assert table.layouts is None
    assert configuration_parse(_floor(layouts=[])).tables[0].layouts == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.decks = 8  # type: ignore[misc]
    # a table is its own key: alike tables are equal and hash alike, whatever was sent
    again = configuration_parse(dict(sent, licensee="Another casino"))
    assert again.tables[0] == table and hash(again.tables[0]) == hash(table)
    assert again != config  # the licensee differs


def test_a_field_path_reads_down_the_dataclasses() -> None:
    table = Table(name="BJ-1", game="blackjack", limits=Limits(Decimal(5), Decimal(500)))
    assert value_at(table, "limits.max") == Decimal(500)
    assert value_at(table, "double.after_split") is None  # double left out
    assert value_at(table, "no_such_field") is None
    assert value_at(SideWager(wager="kings-bounty"), "limits.min") is None


def test_a_malformed_configuration_is_an_invalid_input_naming_every_field() -> None:
    with pytest.raises(InvalidInput) as refused:
        configuration_parse(_floor(decks=0, limits={"min": "50", "max": "5"}))
    assert refused.value.status == 400 and refused.value.code == "invalid"
    assert error_paths(refused.value.fields) == [
        ("tables[0].decks", "Ensure this value is greater than or equal to 1."),
        ("tables[0].limits.max", "is below min (50.00)."),
    ]
    assert refused.value.message == (
        "tables[0].decks: Ensure this value is greater than or equal to 1."
    )
    with pytest.raises(InvalidInput) as not_an_object:
        configuration_parse(["a", "list"])
    assert not_an_object.value.message == "A configuration is a JSON object."


def test_the_api_reports_an_invalid_input_as_it_always_has(vendor_client: object) -> None:
    response = vendor_client.post(  # type: ignore[attr-defined]
        "/api/v1/validations/", _floor(decks=0), format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": "invalid",
            "message": "tables[0].decks: Ensure this value is greater than or equal to 1.",
            "fields": {
                "tables": {"0": {"decks": ["Ensure this value is greater than or equal to 1."]}}
            },
        }
    }


def test_the_validate_command_names_the_bad_field(tmp_path: Path) -> None:
    path = tmp_path / "floor.json"
    path.write_text(json.dumps(_floor(decks=0)))
    with pytest.raises(CommandError, match="malformed configuration.*decks"):
        call_command("validate", str(path))


# Where DRF may be imported: the API packages, the project's infrastructure (pitboss/), and the
# API's token authentication (jurisdictions/tokens.py; jurisdictions/services.py makes a user's
# token, DRF's authtoken model).
DRF_ALLOWED = ("/api/", "pitboss/", "jurisdictions/tokens.py", "jurisdictions/services.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_no_drf_below_the_api_layer() -> None:
    """The domain (services, validator, signs, rule sets, engine adapters), the desk's views and
    forms and the commands take typed values: only the API's packages read a request with DRF."""
    below = []
    for app in ("compliance", "variants", "regs", "jurisdictions", "engine", "pitboss"):
        for path in sorted((ROOT / app).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if "/migrations/" in name or any(allowed in f"/{name}" for allowed in DRF_ALLOWED):
                continue
            drf = {
                m
                for m in _imports(path)
                if m.split(".")[0] in ("rest_framework", "drf_spectacular")
            }
            if drf:
                below.append(f"{name}: {', '.join(sorted(drf))}")
    assert below == []


def test_tables_alike_but_for_what_is_posted_share_their_rule_set() -> None:
    """compliance.rulesets.as_dealt keeps every field table_rules reads: a table's RuleSet is the
    same with its name, limits, tips, jokers, layouts, spots, variation and dealing cleared, so
    floors that differ only in those share one reading of the rules (kept per revision)."""
    data = json.loads((CONFIGS / "casino-house-rules-co.json").read_text())
    table = dict(
        data["tables"][0],
        player_spots=7,
        tips={"max": "25"},
        jokers="none",
        layouts=["blackjack"],
        variation="none",
    )
    config = configuration_parse(dict(data, tables=[table]))
    [parsed] = config.tables
    full = table_rules(config, parsed, "tables[0]")
    dealt = table_rules(config, as_dealt(parsed), "tables[0]")
    assert (dealt.rules, dealt.assumed) == (full.rules, full.assumed)
    assert as_dealt(parsed) == as_dealt(dataclasses.replace(parsed, name="Another", limits=None))
