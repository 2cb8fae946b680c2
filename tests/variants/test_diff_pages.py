"""The catalog's diff page: two jurisdictions side by side by wager or rule topic."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    html = response.content.decode()
    return " ".join(re.sub(r"<[^>]+>", " ", html[html.index("<main") :]).split())


def test_two_jurisdictions_side_by_side_by_wager_and_by_topic(client: Client) -> None:
    wager = client.get(
        "/diff/facts/?by=wager&wager=kings-bounty&jurisdiction=US-CO"
        "&other_jurisdiction=US-MA&as_of=2024-06-01"
    )
    html = wager.content.decode()
    assert "<h1>King&#x27;s Bounty Dealer Envy: US-CO and US-MA as of 2024-06-01</h1>" in html
    assert "<del>75 to 1</del>" in html and "<ins>100 to 1</ins>" in html
    assert 'href="/us-co/cite/30-899.20(7)@2024-06-01"' in html
    topic = _text(
        client.get(
            "/diff/facts/?by=topic&topic=soft-17&jurisdiction=US-CO"
            "&other_jurisdiction=US-MA&as_of=2024-06-01"
        )
    )
    assert "The rule text on each side" in topic and "12(d)" in topic
    missing = client.get("/diff/facts/?by=topic&jurisdiction=US-CO&other_jurisdiction=US-MA")
    assert "Choose a topic to compare." in missing.content.decode()


def test_a_script_in_a_pay_comes_out_inert(client: Client) -> None:
    from variants.models import PaytableEntry

    entry = PaytableEntry.objects.filter(paytable__key="us-co/kings-bounty/kb03").first()
    assert entry is not None
    entry.pays = "<script>alert(1)</script>"
    entry.save()
    html = client.get(
        "/diff/facts/?by=wager&wager=kings-bounty&jurisdiction=US-CO"
        "&other_jurisdiction=US-MA&as_of=2024-06-01"
    ).content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
