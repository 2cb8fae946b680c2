"""Issue #27, the submission packet: for a validation run, one PDF (and a ZIP of the same content
as JSON and CSV) a testing lab can review without Pitboss: the report and its findings, each
table's base game and rule effects, each side wager's par sheet, every cited provision's text as
of the run's date, the signs and the provenance (the knowledge base's revision, the run's id, a
SHA-256 of each part). The same run gives the same packet but for the generation time it
states."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from compliance.api.configuration import configuration_parse
from compliance.models import ValidationRun
from compliance.packet import packet_build
from compliance.services import validation_run_create
from jurisdictions.services import api_user_create
from regs import selectors as regs
from tests.compliance.test_impact import FLOOR_CO

pytestmark = pytest.mark.django_db

SAMPLE = json.loads(
    (Path(settings.BASE_DIR) / "fixtures" / "configs" / "casino-house-rules-co.json").read_text()
)
AT = dt.datetime(2026, 11, 29, 10, 0, tzinfo=dt.UTC)


def _run(data: dict[str, Any], user: User) -> ValidationRun:
    return validation_run_create(configuration=configuration_parse(data), user=user)


def _members(content: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return {name.removeprefix("packet/"): archive.read(name) for name in archive.namelist()}


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_the_sample_s_packet_holds_every_part_and_the_texts_of_its_date(
    vendor: User, vendor_client: APIClient
) -> None:
    run = _run(SAMPLE, vendor)
    pdf = vendor_client.get(f"/api/v1/validations/{run.pk}/packet/?format=pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert pdf["Content-Disposition"] == f'attachment; filename="packet-{run.pk}.pdf"'
    with pdfplumber.open(io.BytesIO(pdf.content)) as document:
        text = _words(" ".join(page.extract_text() or "" for page in document.pages))
    for heading in (
        "Submission packet",
        "Findings",
        "Each table's base game",
        "Each side wager's par sheet",
        "The cited provisions, as of 2024-06-01",
        "The signs",
        "Provenance",
        "SHA-256 of each part of the ZIP",
    ):
        assert heading in text, heading
    assert str(run.pk) in text
    unspaced = text.replace(" ", "")
    for finding in run.findings:  # each finding's code and path (the PDF's text, spaces aside)
        assert finding["code"] + finding["path"] in unspaced

    members = _members(
        vendor_client.get(f"/api/v1/validations/{run.pk}/packet/?format=zip").content
    )
    assert {"manifest.json", "report.json", "tables.json", "provisions.json", "signs.json"} <= set(
        members
    )
    manifest = json.loads(members["manifest.json"])
    assert manifest["run"] == str(run.pk) and manifest["as_of"] == "2024-06-01"
    assert manifest["knowledge_base"]["at_the_run"] == run.knowledge_base
    assert manifest["knowledge_base"]["same"] is True
    for name, digest in manifest["parts"].items():  # each part as its digest says
        assert hashlib.sha256(members[name]).hexdigest() == digest
        assert digest in text  # and the PDF states it
    assert json.loads(members["report.json"])["findings"] == run.findings

    # every provision the findings cite, as the knowledge base holds its text on 2024-06-01
    provisions = json.loads(members["provisions.json"])
    cited = {(c["jurisdiction"], c["citation"]) for f in run.findings for c in f["citations"]}
    assert cited <= {(p["jurisdiction"], p["citation"]) for p in provisions}
    for entry in provisions:
        found = regs.citation_resolve(
            jurisdiction=entry["jurisdiction"],
            citation=entry["citation"],
            as_of=dt.date(2024, 6, 1),
            today=dt.date.today(),
        )
        state = regs.provision_state(
            regs.provision_records([found.provision.pk])[0],
            as_of=dt.date(2024, 6, 1),
            path=found.path,
        )
        assert [u["text"] for u in entry["units"]] == [u.text for u in state.units]
        for unit in entry["units"]:
            if unit["text"]:
                assert _words(unit["text"])[:60] in text, unit["citation"]


def test_the_same_run_gives_the_same_packet_but_for_its_generation_time(vendor: User) -> None:
    run = _run(FLOOR_CO, vendor)
    first = packet_build(run, configuration_parse(run.configuration), generated_at=AT)
    again = packet_build(run, configuration_parse(run.configuration), generated_at=AT)
    assert first.pdf() == again.pdf()
    assert first.zip() == again.zip()
    later = packet_build(
        run, configuration_parse(run.configuration), generated_at=AT + dt.timedelta(hours=3)
    )
    one, other = _members(first.zip()), _members(later.zip())
    assert {n: b for n, b in one.items() if n != "manifest.json"} == {
        n: b for n, b in other.items() if n != "manifest.json"
    }
    a, b = json.loads(one["manifest.json"]), json.loads(other["manifest.json"])
    assert a.pop("generated_at") != b.pop("generated_at") and a == b


def test_each_side_wager_s_par_sheet_is_the_catalog_s_at_the_table_s_deck_count(
    vendor: User, vendor_client: APIClient
) -> None:
    run = _run(FLOOR_CO, vendor)
    packet = packet_build(run, configuration_parse(run.configuration))
    members = _members(packet.zip())
    sheets = sorted(n for n in members if n.startswith("par-sheets/"))
    assert sheets == [
        "par-sheets/us-co-21-plus-3-xtreme-xtreme-6d.csv",
        "par-sheets/us-co-21-plus-3-xtreme-xtreme-6d.json",
        "par-sheets/us-co-kings-bounty-kb03-6d.csv",
        "par-sheets/us-co-kings-bounty-kb03-6d.json",
    ]
    # Blazing 7's pays meter shares: no exact sheet without a stake and a meter, and it says so
    [blazing] = [s for s in packet.shown["sheets"] if s["wager"] == "blazing-7s"]
    assert "body" not in blazing and blazing["none"]
    csv = members["par-sheets/us-co-kings-bounty-kb03-6d.csv"].decode()
    served = vendor_client.get(
        "/api/v1/paytables/us-co/kings-bounty/kb03/par-sheet/?decks=6&format=csv"
    )
    assert csv == served.content.decode()


def test_another_vendor_cannot_read_a_packet_and_a_bad_format_is_named(
    vendor: User, vendor_client: APIClient
) -> None:
    run = _run(FLOOR_CO, vendor)
    other, _ = api_user_create(username="wanda")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {other.auth_token.key}")
    assert client.get(f"/api/v1/validations/{run.pk}/packet/").status_code == 404
    bad = vendor_client.get(f"/api/v1/validations/{run.pk}/packet/?format=docx")
    assert bad.status_code == 400 and "format" in bad.json()["error"]["fields"]


def test_manage_py_packet_writes_the_zip(vendor: User, tmp_path: Path) -> None:
    run = _run(FLOOR_CO, vendor)
    out = tmp_path / "packet.zip"
    call_command("packet", str(run.pk), "--format", "zip", "--out", str(out))
    assert "manifest.json" in _members(out.read_bytes())
