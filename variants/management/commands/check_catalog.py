"""python manage.py check_catalog — report inconsistencies in the loaded catalog; exit 1 if any."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand

from variants.selectors import catalog_problems


class Command(BaseCommand):
    help = "Check the loaded catalog: facts within their provisions' periods, no orphan lines."

    def handle(self, *args: Any, **options: Any) -> None:
        problems = catalog_problems()
        for problem in problems:
            self.stdout.write(problem)
        self.stdout.write(f"{len(problems)} problem(s)")
        if problems:
            sys.exit(1)
