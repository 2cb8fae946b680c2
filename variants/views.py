"""The catalog's web pages: the wagers of each jurisdiction, a wager, and a paytable with its
exact analysis (variants.analysis, as GET /api/v1/paytables/{id}/analysis/ gives it)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from jurisdictions.selectors import jurisdiction_list
from jurisdictions.web import citation_url, page_as_of, paytable_url, wager_url
from pitboss.errors import DomainError
from pitboss.kbcache import cached_read
from variants import selectors
from variants.analysis import allowed_decks, paytable_analysis
from variants.api.views import AnalysisQuery
from variants.models import Paytable, Wager, WagerKind

CHART_WIDTH = 360
"""Width in SVG units of the longest bar of a chart."""
CHART_ROW = 26
"""Height in SVG units of one bar's row."""


@cached_read
def catalog(request: HttpRequest) -> HttpResponse:
    """The wagers of each jurisdiction in force on the page's date (?jurisdiction=&as_of=)."""
    as_of, date_message = page_as_of(request)
    jurisdictions = list(jurisdiction_list())
    codes = [j.code for j in jurisdictions]
    chosen = request.GET.get("jurisdiction", "").upper()
    if chosen and chosen not in codes:
        raise Http404(f"No jurisdiction {chosen}; known: {', '.join(codes)}.")
    citer = selectors.Citer(as_of)
    wagers = [w for w in selectors.wagers(jurisdiction=chosen or None) if citer.in_force(w)]
    groups = []
    for jurisdiction in jurisdictions:
        rows = [_wager_row(w, citer) for w in wagers if w.jurisdiction_id == jurisdiction.pk]
        if rows:
            groups.append({"jurisdiction": jurisdiction, "wagers": rows})
    return render(
        request,
        "variants/catalog.html",
        {
            "as_of": as_of,
            "date_message": date_message,
            "jurisdictions": jurisdictions,
            "chosen": chosen,
            "groups": groups,
            "kinds": WagerKind,
        },
    )


def _wager_row(wager: Wager, citer: selectors.Citer) -> dict[str, Any]:
    return {
        "wager": wager,
        "url": wager_url(wager.jurisdiction.code, wager.slug),
        "paytables": len(wager.paytables.all()),
        "cited": _cited(citer, wager),
    }


def _cited(citer: selectors.Citer, fact: Any) -> dict[str, Any]:
    """A fact's rule as of the citer's date, with the link to that provision on that date; a
    proposed text's fact by its proposed label."""
    ref = citer.cite(fact.provision_id, fact.unit_path)
    if getattr(fact, "proposed", False):
        ref = citer.cite_fact(fact, ref.jurisdiction)
    return {"ref": ref, "url": citation_url(ref.jurisdiction, ref.citation, citer.as_of)}


@cached_read
def wager(request: HttpRequest, jurisdiction: str, slug: str) -> HttpResponse:
    """A wager: its outcomes, its paytables, the rule authorising it, and every jurisdiction
    that approves the same slug, since when."""
    as_of, date_message = page_as_of(request)
    found = selectors.wagers(jurisdiction=jurisdiction.upper()).filter(slug=slug).first()
    if found is None:
        raise Http404(f"No wager {slug} in {jurisdiction.upper()}'s catalog.")
    citer = selectors.Citer(as_of)
    starts = selectors.provision_starts()
    approvals = []
    for each in selectors.wagers().filter(slug=slug):
        approvals.append(
            {
                "wager": each,
                "url": wager_url(each.jurisdiction.code, each.slug),
                "since": each.effective_from or starts.get(each.provision_id),
                "until": each.effective_to,
                "in_force": citer.in_force(each),
                "cited": _cited(citer, each),
            }
        )
    paytables = [
        {
            "paytable": p,
            "url": paytable_url(p.key),
            "in_force": citer.applies(p),
            "cited": _cited(citer, p),
        }
        for p in selectors.in_label_order(found.paytables.all())
    ]
    return render(
        request,
        "variants/wager.html",
        {
            "as_of": as_of,
            "date_message": date_message,
            "wager": found,
            "in_force": citer.in_force(found),
            "cited": _cited(citer, found),
            "paytables": paytables,
            "approvals": approvals,
        },
    )


@cached_read
def paytable(request: HttpRequest, key: str) -> HttpResponse:
    """A paytable's lines as printed, its citation, and its analysis at a deck count it allows
    (?decks=): the house edge, and each line's probability and share of the return as a chart."""
    as_of, date_message = page_as_of(request)
    found = selectors.paytables().filter(key=key).first()
    if found is None:
        raise Http404(f"No paytable {key} in the catalog.")
    allowed = allowed_decks(found)
    decks, decks_message = _decks(request, allowed)
    citer = selectors.Citer(as_of)
    terms, terms_message = _stake_terms(request)
    analysis, refused, simulate_url = None, "", ""
    try:
        analysis = paytable_analysis(
            found, decks, stake=terms.get("stake"), meters=terms.get("meter")
        )
    except DomainError as exc:
        refused = exc.message
        if exc.code == "simulated_only":
            query = urlencode({"paytable": found.key})
            simulate_url = f"{reverse('compliance:paytable-simulations')}?{query}"
    charts = [_chart(a) for a in analysis["analyses"]] if analysis else []
    edge_charts = [_chart(a) for a in analysis["player_edge_analyses"]] if analysis else []
    columns, rows = _grid(found)
    return render(
        request,
        "variants/paytable.html",
        {
            "as_of": as_of,
            "date_message": date_message,
            "decks_message": decks_message,
            "terms_message": terms_message,
            "stake": request.GET.get("stake", ""),
            "meter": request.GET.get("meter", ""),
            "paytable": found,
            "wager_url": wager_url(found.wager.jurisdiction.code, found.wager.slug),
            "in_force": citer.applies(found),
            "cited": _cited(citer, found),
            "columns": columns,
            "rows": rows,
            "allowed_decks": allowed,
            "decks": decks,
            "analysis": analysis,
            "charts": charts,
            "edge_charts": edge_charts,
            "refused": refused,
            "simulate_url": simulate_url,
            "par_sheet_url": _par_sheet_url(found.key, decks, request),
        },
    )


def _par_sheet_url(key: str, decks: int, request: HttpRequest) -> str:
    """The par sheet of the paytable at `decks` (and the stake and meter asked), less its format."""
    query = {"decks": decks} | {
        name: request.GET[name] for name in ("stake", "meter") if request.GET.get(name)
    }
    return f"{reverse('paytable-par-sheet', kwargs={'pk': key})}?{urlencode(query)}"


def _decks(request: HttpRequest, allowed: list[int]) -> tuple[int, str]:
    """The deck count asked (?decks=), if the paytable allows it; else its default, and why."""
    default = 6 if 6 in allowed else allowed[0]
    raw = request.GET.get("decks", "").strip()
    if not raw:
        return default, ""
    if raw.isdigit() and int(raw) in allowed:
        return int(raw), ""
    choices = ", ".join(map(str, allowed))
    return default, f"“{raw}” decks: this paytable is analysed at {choices}; showing {default}."


def _stake_terms(request: HttpRequest) -> tuple[dict[str, Any], str]:
    """The stake and meters a dollar or meter line is analysed at (?stake=&meter=), read as
    the API reads them; a value it refuses is left out, with the reason."""
    given = {k: request.GET[k] for k in ("stake", "meter") if request.GET.get(k, "").strip()}
    if not given:
        return {}, ""
    query = AnalysisQuery(data=given)
    if query.is_valid():
        return dict(query.validated_data), ""
    problems = "; ".join(f"{field}: {' '.join(map(str, e))}" for field, e in query.errors.items())
    return {}, f"Not analysed at a stake: {problems}"


def _grid(paytable: Paytable) -> tuple[list[str], list[dict[str, Any]]]:
    """The paytable as printed: a row per line (label), a column per pay column."""
    columns: list[str] = []
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for entry in paytable.entries.all():
        if entry.column not in columns:
            columns.append(entry.column)
        row = rows.setdefault(
            (entry.outcome, entry.label),
            {"label": entry.label, "outcome": entry.outcome, "pays": {}},
        )
        row["pays"][entry.column] = entry.pays
    return columns, [
        {**row, "cells": [row["pays"].get(c, "") for c in columns]} for row in rows.values()
    ]


def _chart(analysis: dict[str, Any]) -> dict[str, Any]:
    """One analysed column's lines as bars: probability, and share of the total return (the
    return of a line over the return of all lines), scaled to the largest of each."""
    lines = analysis["lines"]
    returns = [Decimal(line["return"]) for line in lines]
    probabilities = [Decimal(line["probability"]) for line in lines]
    total = sum(returns, Decimal(0))
    top_p = max(probabilities, default=Decimal(0)) or Decimal(1)
    shares = [r / total if total else Decimal(0) for r in returns]
    top_s = max(shares, default=Decimal(0)) or Decimal(1)
    bars = []
    for n, line in enumerate(lines):
        bars.append(
            {
                **line,
                "y": n * CHART_ROW,
                "text_y": n * CHART_ROW + 17,
                "share": f"{shares[n] * 100:.2f}%",
                "p_width": _width(probabilities[n], top_p),
                "s_width": _width(shares[n], top_s),
            }
        )
    return {
        "analysis": analysis,
        "bars": bars,
        "height": max(len(bars), 1) * CHART_ROW + 4,
        "bar_x": 250,
        "value_x": 250 + CHART_WIDTH + 8,
    }


def _width(value: Decimal, top: Decimal) -> int:
    """A bar's width: at least one unit for anything above nought, so it shows."""
    if value <= 0:
        return 0
    return max(1, int(value / top * CHART_WIDTH))
