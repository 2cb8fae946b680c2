"""Load on a running Pitboss (`make soak` starts one): the read API, validations, web pages.

Each user class is one scenario; `benchmarks.soak` runs them one at a time, headless, on
loopback, for a bounded time. Validations need a token in PITBOSS_TOKEN.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from locust import FastHttpUser, constant, task

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"

# Point-in-time reads a vendor or an officer makes: old and new labels, several dates.
CITATIONS = [
    ("US-CO", "30-899.23", "2017-01-01"),
    ("US-CO", "30-834.23", "2017-01-01"),
    ("US-CO", "30-803", "2024-06-01"),
    ("US-CO", "30-832", "2016-06-01"),
    ("US-CO", "30-2107", "2023-01-01"),
    ("US-MA", "29", "2024-06-01"),
]
PAYTABLES = ["us-co/kings-bounty/kb03", "us-co/blazing-7s/b7p2", "us-ma/kings-bounty/table-1"]


class ReadUser(FastHttpUser):
    """Reads the rules and the catalog through the API."""

    wait_time = constant(0)

    @task(4)
    def provision_as_of(self) -> None:
        jurisdiction, citation, as_of = random.choice(CITATIONS)
        self.client.get(
            f"/api/v1/provisions/?jurisdiction={jurisdiction}&citation={citation}&as_of={as_of}",
            name="/api/v1/provisions/?citation=&as_of=",
        )

    @task(2)
    def resolve(self) -> None:
        jurisdiction, citation, as_of = random.choice(CITATIONS)
        self.client.get(
            f"/api/v1/citations/resolve/?jurisdiction={jurisdiction}&citation={citation}"
            f"&as_of={as_of}",
            name="/api/v1/citations/resolve/",
        )

    @task(1)
    def paytable(self) -> None:
        self.client.get(
            f"/api/v1/paytables/{random.choice(PAYTABLES)}/", name="/api/v1/paytables/{id}/"
        )


class ValidationUser(FastHttpUser):
    """Submits the sample house-rules configurations for validation."""

    wait_time = constant(0)

    def on_start(self) -> None:
        self.headers = {
            "Authorization": f"Token {os.environ['PITBOSS_TOKEN']}",
            "Content-Type": "application/json",
        }
        self.bodies = [
            (FIXTURES / "configs" / name).read_text()
            for name in ("casino-house-rules-co.json", "casino-house-rules-ma.json")
        ]
        for body in self.bodies:
            json.loads(body)  # a broken fixture fails here, not as load errors

    @task
    def validate(self) -> None:
        self.client.post(
            "/api/v1/validations/",
            data=random.choice(self.bodies),
            headers=self.headers,
            name="/api/v1/validations/",
        )


class PageUser(FastHttpUser):
    """Opens the web pages an officer reads."""

    wait_time = constant(0)

    @task(1)
    def home(self) -> None:
        self.client.get("/", name="/")

    @task(4)
    def provision(self) -> None:
        jurisdiction, citation, as_of = random.choice(CITATIONS)
        self.client.get(
            f"/{jurisdiction.lower()}/cite/{citation}@{as_of}", name="/<jurisdiction>/cite/<label>"
        )

    @task(2)
    def paytable(self) -> None:
        self.client.get(
            f"/catalog/paytables/{random.choice(PAYTABLES)}/", name="/catalog/paytables/<id>/"
        )
