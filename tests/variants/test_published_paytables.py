"""The catalog paytables tests/engine/test_published_side_wagers.py names beside each published
analysis print the pays that test analyses (issue #13): a published figure pinned there is the
figure of these catalog paytables, less any line named here as left out."""

from __future__ import annotations

import pytest

from engine.odds import Pays
from tests.engine.test_published_side_wagers import (
    BUST_BONUS,
    BUSTER_PAY_TABLE_1,
    IN_BETWEEN,
    ROYAL_MATCH,
)
from variants.models import Paytable

pytestmark = pytest.mark.django_db

OPTIONAL = {"crown-treasure"}
"""Royal Match 21's optional dollar line, which the published tables do not have."""


@pytest.mark.parametrize(
    ("paytable", "pays"),
    [
        ("us-ma/buster-blackjack/paytable-c", BUSTER_PAY_TABLE_1),
        ("us-co/buffalo-bust-bonus/6-decks", BUST_BONUS),
        ("us-co/royal-match-21/pay-table-4", ROYAL_MATCH[1]),
        ("us-co/royal-match-21/pay-table-1", ROYAL_MATCH[2]),
        ("us-ma/in-between/table-a", IN_BETWEEN["a"]),
        ("us-ma/in-between/table-b", IN_BETWEEN["b"]),
        ("us-co/bet-the-set-21/bts-06", [("regular-pair", "10 to 1"), ("suited-pair", "20 to 1")]),
        ("us-co/bet-the-set-21/bts-02", [("regular-pair", "10 to 1"), ("suited-pair", "25 to 1")]),
        ("us-co/bet-the-set-21/bts-01", [("regular-pair", "15 to 1")]),
    ],
)
def test_the_catalog_paytable_prints_the_published_pays(
    paytable: str, pays: list[tuple[str, str]]
) -> None:
    entries = Paytable.objects.get(key=paytable).entries.exclude(outcome__in=OPTIONAL)
    printed = {e.outcome: Pays.parse(e.pays) for e in entries}
    assert printed.keys() == dict(pays).keys()
    for outcome, odds in pays:
        assert printed[outcome].same_payout(Pays.parse(odds)), outcome
