"""Rounds played or replayed from a configuration (compliance.rounds), shown card by card with
each settlement's rule.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from compliance.api.requests import ReplayIn, RoundsIn, request_parse
from compliance.forms import (
    PlayForm,
    ReplayForm,
)
from compliance.rounds import round_replay, rounds_play
from jurisdictions.web import citation_url
from pitboss.errors import DomainError

from .refusals import errors_beside, seat_words

SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def _card(code: str) -> str:
    """7H as 7♥, TC as 10♣."""
    rank, suit = code[:-1], code[-1:]
    return f"{'10' if rank == 'T' else rank}{SUITS.get(suit, suit)}"


def _round_view(log: dict[str, Any], as_of: Any) -> dict[str, Any]:
    """A round log as the page shows it: cards with suit signs, each settlement's citation
    linked to the provision on the configuration's date."""
    dealer = log["dealer"] | {"shown": [_card(c) for c in log["dealer"]["cards"]]}
    seats = [
        seat
        | {"hands": [hand | {"shown": [_card(c) for c in hand["cards"]]} for hand in seat["hands"]]}
        for seat in log["seats"]
    ]
    events = [e | {"shown": _card(e["card"]) if e.get("card") else ""} for e in log["events"]]
    settlements = []
    for s in log["settlements"]:
        cited = s.get("citation")
        url = citation_url(cited["jurisdiction"], cited["citation"], as_of) if cited else ""
        settlements.append(s | {"url": url})
    return {"dealer": dealer, "seats": seats, "events": events, "settlements": settlements}


@login_required
def rounds(request: HttpRequest) -> HttpResponse:
    """Play a round under a configuration's rules, or replay one as it happened (?action=play
    or replay; the request lives in the URL, nothing is stored)."""
    action = request.GET.get("action", "")
    data = request.GET if action else None
    play = PlayForm(data if action == "play" else None, user=request.user, prefix="play")
    replay = ReplayForm(data if action == "replay" else None, user=request.user, prefix="replay")
    result, problems, status = None, [], 200
    form = play if action == "play" else replay if action == "replay" else None
    if form is not None:
        if form.is_valid():
            body = form.request_body()
            try:
                if action == "play":
                    answer = rounds_play(**request_parse(RoundsIn, body))
                else:
                    answer = round_replay(**request_parse(ReplayIn, body))
            except DomainError as exc:
                problems, status = errors_beside(form, exc), 400
            else:
                as_of = body["configuration"].get("as_of")
                logs = answer["rounds"] if action == "play" else [answer["round"]]
                result = answer | {
                    "logs": [_round_view(log, _date(as_of)) for log in logs],
                    "findings": _linked(answer["findings"], _date(as_of)),
                }
        else:
            status = 400
    return render(
        request,
        "compliance/rounds.html",
        {
            "play": play,
            "replay": replay,
            "action": action,
            "result": result,
            "problems": problems,
            "as_of": _date(body["configuration"].get("as_of")) if result else None,
        },
        status=status,
    )


def _date(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _linked(findings: list[dict[str, Any]], as_of: dt.date | None) -> list[dict[str, Any]]:
    """Findings with each citation's link to the provision on the date, and where each is, as
    the form says it."""
    return [
        f
        | {
            "where": seat_words(f.get("path", "")),
            "cited": [
                c | {"url": citation_url(c["jurisdiction"], c["citation"], as_of)}
                for c in f.get("citations", [])
            ],
        }
        for f in findings
    ]
