"""Names a vendor sends (licensee, table names) are printed as text on the signs' HTML, never
as markup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

FLOOR_CO = json.loads((Path(__file__).parent / "data" / "signage-floor-co.json").read_text())
SCRIPT = "<script>alert('x')</script>"


def test_a_licensee_and_table_named_with_markup_print_as_text(vendor_client: APIClient) -> None:
    tables = [FLOOR_CO["tables"][0] | {"name": f"BJ {SCRIPT}"}]
    body = FLOOR_CO | {"licensee": f"Casino {SCRIPT}", "tables": tables}

    response = vendor_client.post("/api/v1/signage/?format=html&draft=true", body, format="json")

    html = response.content.decode()
    assert response.status_code == 201
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert "<script>" not in html
    assert "Casino &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "BJ &lt;script&gt;" in html
