"""Writes to the rule text. Every write saves one object at a time so django-simple-history
records who made it and why.

- writer.py: HistoryWriter (saves only what changed, with its user and reason) and IngestReport.
- ingestion.py: a regulation file ingested (source_ingest), the instrument it is filed under.
- annotations.py: annotations applied from the reviewed file, added and edited.

Import from here; the modules above are the package's own.
"""

from regs.services.annotations import (
    REVIEWED,
    annotation_add,
    annotation_update,
    annotations_apply,
)
from regs.services.ingestion import IngestError, instrument_for, source_ingest
from regs.services.writer import INGEST_USERNAME, HistoryWriter, IngestReport, ingest_user

__all__ = [
    "INGEST_USERNAME",
    "REVIEWED",
    "HistoryWriter",
    "IngestError",
    "IngestReport",
    "annotation_add",
    "annotation_update",
    "annotations_apply",
    "ingest_user",
    "instrument_for",
    "source_ingest",
]
