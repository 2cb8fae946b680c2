"""The compliance desk's web pages, by area (docs/desk.md): configurations.py (the configuration
form and upload), runs.py (a run's report and decision, the runs by licensee, the signs),
impact.py (who is affected by a change), watch.py (your watches, the changes recorded),
rounds.py (rounds played or replayed), simulations.py and paytable_simulations.py (jobs with
their progress). compliance/urls.py routes to the views named here."""

from __future__ import annotations

from .configurations import configurations
from .impact import impact, impact_job, impact_job_progress
from .paytable_simulations import (
    paytable_simulation,
    paytable_simulation_progress,
    paytable_simulations,
)
from .rounds import rounds
from .runs import run, run_decision, run_json, run_signs, runs, signs
from .simulations import simulation, simulation_progress, simulations
from .watch import impact_change, impact_changes, watch, watch_end

__all__ = [
    "configurations",
    "paytable_simulation",
    "paytable_simulation_progress",
    "paytable_simulations",
    "impact",
    "impact_job",
    "impact_job_progress",
    "impact_change",
    "impact_changes",
    "rounds",
    "run",
    "run_decision",
    "run_json",
    "run_signs",
    "runs",
    "signs",
    "simulation",
    "simulation_progress",
    "simulations",
    "watch",
    "watch_end",
]
