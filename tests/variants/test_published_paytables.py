"""The catalog paytables engine/published.yaml names beside each published analysis print the pays
that analysis analyses (issue #13): a published figure pinned there is the figure of these catalog
paytables, less any line named here as left out. Also Galaxy Gaming's Bust Bonus, pinned by up
card in tests/engine/test_published_side_wagers.py."""

from __future__ import annotations

import pytest

from engine.odds import Pays
from engine.published import cases
from tests.engine.test_published_side_wagers import BUST_BONUS
from variants.models import Paytable

pytestmark = pytest.mark.django_db

OPTIONAL = {"crown-treasure"}
"""Royal Match 21's optional dollar line, which the published tables do not have."""

PRINTED = [(paytable, list(case.pays)) for case in cases() for paytable in case.paytables] + [
    ("us-co/buffalo-bust-bonus/6-decks", BUST_BONUS)
]


@pytest.mark.parametrize(("paytable", "pays"), PRINTED, ids=[p for p, _ in PRINTED])
def test_the_catalog_paytable_prints_the_published_pays(
    paytable: str, pays: list[tuple[str, str]]
) -> None:
    entries = Paytable.objects.get(key=paytable).entries.exclude(outcome__in=OPTIONAL)
    printed = {e.outcome: Pays.parse(e.pays) for e in entries}
    assert printed.keys() == dict(pays).keys()
    for outcome, odds in pays:
        assert printed[outcome].same_payout(Pays.parse(odds)), outcome


def test_the_published_cases_name_catalog_paytables() -> None:
    assert len(PRINTED) >= 18
