"""What the rule text tells the apps above it (they cannot be imported from here): `rules_recorded`
after a write of a jurisdiction's rules commits, with

- `jurisdiction`: its code (US-CO);
- `start`, `end`: the record times between which the write's history rows lie;
- `reason`: what wrote it (the file ingested), for a person to read.

Ingestion sends it (regs.services.ingestion), and so does a catalog edit (variants.recording).
compliance.watch receives it to judge the change's impact and tell the subscribers it touches
(docs/architecture.md, "The watch")."""

from __future__ import annotations

from django.dispatch import Signal

rules_recorded = Signal()
