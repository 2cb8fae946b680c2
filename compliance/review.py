"""The review of readings' base games (issue #23; variants/review.py holds the review of the
catalog's paytables and calls this, registered in compliance/apps.py): the base game the
validator values for each sample configuration (fixtures/configs/) that gives the player the
edge, with the annotation that explains it, if any."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

from django.conf import settings

from regs.models import Annotation
from variants.models import Wager
from variants.review import CONFIGURATIONS, Reading, Review

from .api.configuration import configuration_parse
from .basegame import table_base_games


def base_games_review(found: Review) -> None:
    """The base games the validator values for the sample configurations: any whose exact value
    gives the player the edge, explained where an annotation on the game's rule records that
    edge (as a percentage to three places)."""
    for name in CONFIGURATIONS:
        path = Path(settings.BASE_DIR) / "fixtures" / "configs" / name
        config = configuration_parse(json.loads(path.read_text()))
        for table, entry in zip(config.tables, table_base_games(config), strict=True):
            if entry["house_edge"] is None:
                continue
            found.analysed += 1
            if Decimal(entry["house_edge"]) >= 0:
                continue
            edge = -Decimal(entry["house_edge_percent"])
            annotations = _game_annotations(config.jurisdiction, table.game)
            recorded = [text for text in annotations if f"{edge:.3f}%" in text]
            found.readings.append(
                Reading(
                    f"base game: {name} {entry['table']}",
                    "",
                    int(table.decks or 0),
                    entry["house_edge"],
                    (f"gives the player an edge of {edge}%",),
                    f"{entry['method']}; " + "; ".join(entry["conventions"]),
                    "\n".join(recorded or annotations),
                    f"an annotation on {table.game}'s rule records it" if recorded else "",
                )
            )


def _game_annotations(jurisdiction: str, game: str) -> list[str]:
    """The annotations on every unit of the rule that authorises the game, each with its kind."""
    wager = Wager.objects.filter(jurisdiction__code=jurisdiction, slug=game).first()
    if wager is None:
        return []
    return [
        f"[{a.kind}] {a.text}" for a in Annotation.objects.filter(unit__provision=wager.provision)
    ]
