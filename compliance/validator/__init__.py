"""The validator: a parsed configuration checked against the rules in force on its as-of date,
every finding cited (docs/validation.md).

By subject: findings.py (what a validation reports and the catalog facts it reads), floor.py (the
walk over the floor, `configuration_validate`), paytables.py (a side wager and its paytable),
checks.py (the catalog's constraints as checks, one per kind, and the tables of checks).
"""

from __future__ import annotations

from .checks import CHECKED_IN_PLACE, FLOOR_CHECKS, SIDE_CHECKS, TABLE_CHECKS, bonus_house_advantage
from .findings import FINDING_CODES, Catalog, Context, Finding, catalog_read
from .floor import configuration_validate
from .paytables import paytable_offered

__all__ = [
    "CHECKED_IN_PLACE",
    "FINDING_CODES",
    "FLOOR_CHECKS",
    "SIDE_CHECKS",
    "TABLE_CHECKS",
    "Catalog",
    "Context",
    "Finding",
    "bonus_house_advantage",
    "catalog_read",
    "configuration_validate",
    "paytable_offered",
]
