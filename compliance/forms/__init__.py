"""The desk's forms (docs/desk.md): configuration.py builds a floor's configuration table by
table and reads one back into the form; desk.py holds the small forms of the other desk pages
(upload, signs, rounds, simulations)."""

from __future__ import annotations

from .configuration import (
    Catalog,
    ConfigurationForm,
    SideWagerForm,
    SideWagerFormSet,
    TableForm,
    TableFormSet,
    blank_form_data,
    catalog_choices,
    configuration_from_forms,
    flat_name,
    form_data_from_configuration,
    side_prefix,
)
from .desk import (
    SEATS,
    DecisionForm,
    ImpactForm,
    PlayForm,
    ReplayForm,
    RoundForm,
    SignsForm,
    SimulationForm,
    SourceForm,
    UploadForm,
    WatchForm,
)

__all__ = [
    "SEATS",
    "Catalog",
    "ConfigurationForm",
    "PlayForm",
    "ReplayForm",
    "RoundForm",
    "SideWagerForm",
    "SideWagerFormSet",
    "DecisionForm",
    "ImpactForm",
    "SignsForm",
    "SimulationForm",
    "SourceForm",
    "TableForm",
    "TableFormSet",
    "UploadForm",
    "WatchForm",
    "blank_form_data",
    "catalog_choices",
    "configuration_from_forms",
    "flat_name",
    "form_data_from_configuration",
    "side_prefix",
]
