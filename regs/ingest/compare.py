"""Compare what two source forms of one regulation say, unit by unit (text form against PDF)."""

from __future__ import annotations

from .structure import ParsedDocument
from .timeline import kind_of, section_timeline

Fingerprint = dict[tuple[str, str], tuple[str, tuple[tuple[str, str, str, str], ...]]]


def fingerprint(doc: ParsedDocument) -> Fingerprint:
    """(section, unit) → (text, dated events) for every unit of the document."""
    out: Fingerprint = {}
    for section in doc.sections:
        for tl in section_timeline(section).units:
            events = tuple(
                (kind_of(e.event), str(e.event.date), e.event.subject, e.event.new_label)
                for e in tl.events
            )
            out[(section.label, tl.unit.label)] = (tl.unit.text, events)
    return out


def differences(a: ParsedDocument, b: ParsedDocument) -> list[str]:
    """What differs between two parses, one line per unit; empty when they say the same."""
    fa, fb = fingerprint(a), fingerprint(b)
    lines = [f"only in first: {k}" for k in fa if k not in fb]
    lines += [f"only in second: {k}" for k in fb if k not in fa]
    for key in fa.keys() & fb.keys():
        (text_a, events_a), (text_b, events_b) = fa[key], fb[key]
        if text_a != text_b:
            at = next(
                (i for i, (x, y) in enumerate(zip(text_a, text_b, strict=False)) if x != y),
                min(len(text_a), len(text_b)),
            )
            lines.append(
                f"text differs in {key} at {at}: {text_a[at - 20 : at + 40]!r} vs "
                f"{text_b[at - 20 : at + 40]!r}"
            )
        if events_a != events_b:
            lines.append(f"events differ in {key}: {events_a} vs {events_b}")
    return sorted(lines)
