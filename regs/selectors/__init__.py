"""Reads of the rule text at a point in valid time.

Every selector takes `as_of` from its caller and never reads the clock. Results are frozen
dataclasses, ordered as the source orders them.

- records.py: the provisions read as plain rows, in a few queries (provision_records).
- state.py: what a provision said on a date, unit by unit (provision_state).
- citations.py: which provision a citation names (citation_resolve, provision_by_citation), the
  search of provisions, a provision's versions, a unit's annotations.
- history.py: who changed the rule text, and when (record time).

Import from here; the modules above are the package's own.
"""

from regs.selectors.citations import (
    Resolution,
    UnknownCitation,
    citation_resolve,
    normalise_label,
    provision_by_citation,
    provision_versions,
    provisions_search,
    shared_label_warned,
    unit_annotations,
)
from regs.selectors.history import Record, provision_record_history
from regs.selectors.records import ProvisionRecord, provision_records
from regs.selectors.state import (
    CitationState,
    ProvisionState,
    UnitState,
    UnknownSubsection,
    provision_state,
    unit_citation,
)

__all__ = [
    "CitationState",
    "ProvisionRecord",
    "ProvisionState",
    "Record",
    "Resolution",
    "UnitState",
    "UnknownCitation",
    "UnknownSubsection",
    "citation_resolve",
    "normalise_label",
    "provision_by_citation",
    "provision_record_history",
    "provision_records",
    "provision_state",
    "provision_versions",
    "provisions_search",
    "shared_label_warned",
    "unit_annotations",
    "unit_citation",
]
