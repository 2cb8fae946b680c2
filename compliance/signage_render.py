"""A stored sign set as HTML (preview) or print-ready PDF (WeasyPrint), in a sign size."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from compliance.models import SignSet
from compliance.signage import pay_grid

# Page size, margins and type sizes of each sign size: large enough to read at arm's length.
SIZES: dict[str, dict[str, str]] = {
    "tent": {
        "page": "5in 7in",
        "margin": "0.45in 0.35in",
        "base": "12pt",
        "title": "20pt",
        "small": "6.5pt",
    },  # fmt: skip
    "letter": {
        "page": "letter",
        "margin": "0.7in 0.6in",
        "base": "17pt",
        "title": "30pt",
        "small": "8pt",
    },  # fmt: skip
    "a4": {"page": "A4", "margin": "18mm 15mm", "base": "17pt", "title": "30pt", "small": "8pt"},
}


def sign_set_html(sign_set: SignSet, *, size: str = "letter", sign: int | None = None) -> str:
    """The sign set (or its sign number `sign`, 0-based) as one HTML document."""
    signs = sign_set.signs if sign is None else [sign_set.signs[sign]]
    for each in signs:  # a paytable printed as a grid: a row per line, a pay per column
        for notice in each["notices"]:
            if notice.get("lines"):
                notice["columns"], notice["rows"] = pay_grid(notice["lines"])
    first = sign_set.signs[0]["provenance"] if sign_set.signs else {}
    context: dict[str, Any] = {
        "signs": signs,
        "draft": sign_set.draft,
        "findings": sign_set.findings,
        "size": SIZES[size],
        "licensee": first.get("licensee", ""),
        "kb_items": sorted(first.get("knowledge_base", {}).items()),
        "sign_set_id": sign_set.pk,
    }
    return render_to_string("signage/signs.html", context)


def sign_set_pdf(sign_set: SignSet, *, size: str = "letter", sign: int | None = None) -> bytes:
    """The sign set as a print-ready PDF: each sign from a new page."""
    from weasyprint import HTML  # imported here: loading Pango costs time at startup

    return HTML(string=sign_set_html(sign_set, size=size, sign=sign)).write_pdf()
