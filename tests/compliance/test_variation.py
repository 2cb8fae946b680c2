"""Massachusetts' 6 to 5 blackjack variation told apart from paying 6 to 5 outside it (7(d))."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.services import sign_set_create

DATA = Path(__file__).parent / "data"
VARIATION_RULES = {
    "us-ma/blackjack/decks-1-or-2-at-6-to-5",
    "us-ma/blackjack/dealer-hits-soft-17-at-6-to-5",
}
pytestmark = pytest.mark.django_db


def six_to_five_table(**options: Any) -> dict[str, Any]:
    """The sample Massachusetts floor's BJ-2 (6 to 5 on six decks, dealer stands on soft 17)."""
    floor = json.loads((DATA / "signage-floor-ma.json").read_text())
    table = floor["tables"][1] | options
    return floor | {"tables": [table]}


def findings(client: APIClient, config: dict[str, Any]) -> dict[str, str]:
    response = client.post("/api/v1/validations/", config, format="json")
    assert response.status_code == 201, response.json()
    return {f["code"]: f["severity"] for f in response.json()["findings"]}


def test_without_the_field_the_variations_rules_stay_warnings(vendor_client: APIClient) -> None:
    found = findings(vendor_client, six_to_five_table())
    assert {code: found[code] for code in VARIATION_RULES} == dict.fromkeys(
        VARIATION_RULES, "warning"
    )


def test_at_a_variation_table_its_rules_bind_as_errors(vendor_client: APIClient) -> None:
    found = findings(vendor_client, six_to_five_table(variation="6-to-5"))
    assert {code: found[code] for code in VARIATION_RULES} == dict.fromkeys(
        VARIATION_RULES, "error"
    )
    kept = findings(
        vendor_client, six_to_five_table(variation="6-to-5", decks=2, dealer_soft_17="hit")
    )
    assert not VARIATION_RULES & set(kept)


def test_outside_the_variation_its_rules_do_not_bind_and_7d_goes_on_the_layout(
    vendor_client: APIClient,
) -> None:
    assert not VARIATION_RULES & set(findings(vendor_client, six_to_five_table(variation="none")))
    outside = sign_set_create(
        configuration=configuration_parse(six_to_five_table(variation="none"))
    )
    layout = outside.signs[0]["layout_notices"]
    assert [c["citation"] for n in layout for c in n["citations"]] == ["7(d)"]
    inside = sign_set_create(
        configuration=configuration_parse(
            six_to_five_table(variation="6-to-5", decks=2, dealer_soft_17="hit")
        )
    )
    assert inside.signs[0]["layout_notices"] == []


def test_a_variation_that_pays_3_to_2_or_is_not_the_jurisdictions_is_refused(
    vendor_client: APIClient,
) -> None:
    config = six_to_five_table(variation="6-to-5", blackjack_pays="3 to 2")
    response = vendor_client.post("/api/v1/validations/", config, format="json")
    assert response.status_code == 400
    assert "tables[0].variation" in json.dumps(response.json())
    colorado = copy.deepcopy(six_to_five_table(variation="6-to-5")) | {"jurisdiction": "US-CO"}
    colorado["tables"][0]["side_wagers"] = []
    assert findings(vendor_client, colorado)["option-not-authorised"] == "error"
