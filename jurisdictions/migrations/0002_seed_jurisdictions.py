"""Seed Colorado and Massachusetts and their blackjack instruments, each with a "+" history row."""

from __future__ import annotations

from typing import Any

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.utils import timezone

SEED = [
    {
        "code": "US-CO",
        "name": "Colorado",
        "regulator": "Colorado Limited Gaming Control Commission",
        "instruments": [
            {"name": "Rule 8", "title": "Rules for Blackjack", "slug": "rule-8"},
            {
                "name": "Rule 21",
                "title": "Rules for Blackjack-Poker Combination Games",
                "slug": "rule-21",
            },
        ],
        "citation_scheme": "co_section",
    },
    {
        "code": "US-MA",
        "name": "Massachusetts",
        "regulator": "Massachusetts Gaming Commission",
        "instruments": [{"name": "205 CMR Blackjack", "title": "Blackjack", "slug": "blackjack"}],
        "citation_scheme": "ma_section",
    },
]
CODES = [j["code"] for j in SEED]


def _create_with_history(apps: Apps, model_name: str, **fields: Any) -> Any:
    # Migrations don't fire simple-history's signals, so write the creation record by hand.
    obj = apps.get_model("jurisdictions", model_name).objects.create(**fields)
    apps.get_model("jurisdictions", f"Historical{model_name}").objects.create(
        id=obj.pk,
        **fields,
        history_date=timezone.now(),
        history_type="+",
        history_change_reason="Seeded by migration 0002_seed_jurisdictions.",
    )
    return obj


def seed(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for j in SEED:
        jurisdiction = _create_with_history(
            apps, "Jurisdiction", code=j["code"], name=j["name"], regulator=j["regulator"]
        )
        for instrument in j["instruments"]:
            _create_with_history(
                apps,
                "Instrument",
                jurisdiction=jurisdiction,
                citation_scheme=j["citation_scheme"],
                source_url="",
                **instrument,
            )


def unseed(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for model_name in ["Instrument", "HistoricalInstrument"]:
        model = apps.get_model("jurisdictions", model_name)
        model.objects.filter(jurisdiction__code__in=CODES).delete()
    for model_name in ["Jurisdiction", "HistoricalJurisdiction"]:
        apps.get_model("jurisdictions", model_name).objects.filter(code__in=CODES).delete()


class Migration(migrations.Migration):
    dependencies = [("jurisdictions", "0001_initial")]

    operations = [migrations.RunPython(seed, unseed)]
