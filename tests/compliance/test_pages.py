"""The configuration desk's pages: the form builds the contract's configuration and validates it
through the same service as the API; the report links every citation as of the run's date; a
vendor reads only its own runs; signs print from a run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from compliance.api.configuration import configuration_parse
from compliance.forms import form_data_from_configuration
from compliance.models import SignSet, ValidationRun
from compliance.services import validation_run_create
from jurisdictions.services import api_user_create
from jurisdictions.web import citation_url

pytestmark = pytest.mark.django_db

URL = "/configurations/"
SAMPLE = json.loads(
    (Path(settings.BASE_DIR) / "fixtures" / "configs" / "casino-house-rules-co.json").read_text()
)
FLOOR = json.loads(
    (
        Path(settings.BASE_DIR) / "tests" / "compliance" / "data" / "signage-floor-co.json"
    ).read_text()
)


@pytest.fixture
def vendor_page(client: Client, vendor: User) -> Client:
    client.force_login(vendor)
    return client


def _post_form(client: Client, config: dict[str, Any], **changes: str) -> Any:
    data = form_data_from_configuration(config) | {"action": "validate"} | changes
    return client.post(URL, data)


def _flat(value: Any) -> Any:
    """Findings without the run-specific parts, for comparing two runs."""
    return [{k: v for k, v in f.items()} for f in value]


def test_the_desk_asks_for_a_login(client: Client) -> None:
    response = client.get(URL)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_form_offers_the_catalogs_choices_and_a_csrf_token(vendor_page: Client) -> None:
    page = vendor_page.get(URL).content.decode()
    assert "csrfmiddlewaretoken" in page
    assert (
        '<option value="kings-bounty">King&#x27;s Bounty Dealer Envy (kings-bounty)</option>'
        in page
    )
    assert 'value="us-co/kings-bounty/kb03"' in page  # paytables
    assert '<label for="id_tables-0-layouts">' in page  # layouts, labelled
    massachusetts = vendor_page.post(
        URL,
        form_data_from_configuration({"jurisdiction": "US-MA", "as_of": "2024-06-01"})
        | {"action": "refresh"},
    ).content.decode()
    assert (
        'value="us-ma/kings-bounty/' in massachusetts
        and "us-co/kings-bounty/kb03" not in massachusetts
    )


def test_the_sample_built_in_the_form_validates_as_the_api_validates_it(
    vendor_page: Client, vendor: User
) -> None:
    response = _post_form(vendor_page, SAMPLE)
    assert response.status_code == 302
    run = ValidationRun.objects.get(pk=response["Location"].rstrip("/").rsplit("/", 1)[1])
    assert run.created_by == vendor
    same = validation_run_create(configuration=configuration_parse(SAMPLE))
    assert _flat(run.findings) == _flat(same.findings) and not run.compliant
    assert run.configuration["tables"][0]["side_wagers"] == SAMPLE["tables"][0]["side_wagers"]
    assert run.configuration["tables"][0]["split"] == SAMPLE["tables"][0]["split"]


def test_a_field_the_form_refuses_shows_its_error_beside_it(vendor_page: Client) -> None:
    response = _post_form(vendor_page, SAMPLE, **{"tables-0-decks": "0"})
    page = response.content.decode()
    assert response.status_code == 400
    decks = page.split('for="id_tables-0-decks"')[1].split('class="field')[0]
    assert "greater than or equal to 1" in decks
    assert not ValidationRun.objects.exists()


def test_an_error_the_validator_finds_in_the_contract_is_put_on_its_field(
    vendor_page: Client,
) -> None:
    bad_pays = _post_form(vendor_page, SAMPLE, **{"tables-0-blackjack_pays": "10%"})
    pays = bad_pays.content.decode().split('for="id_tables-0-blackjack_pays"')[1]
    assert bad_pays.status_code == 400 and "is not odds" in pays.split('class="field')[0]
    lines = "no-such-outcome = 9 to 1"
    bad_line = _post_form(vendor_page, SAMPLE, **{"tables-0-sides-0-lines": lines})
    field = (
        bad_line.content.decode()
        .split('for="id_tables-0-sides-0-lines"')[1]
        .split('class="field')[0]
    )
    assert "&#x27;no-such-outcome&#x27; is no outcome of kings-bounty" in field


def test_a_double_up_table_built_in_the_form_names_its_version(vendor_page: Client) -> None:
    """30-899.10's two versions: the form's version reaches the run (Version 2 gives the player
    the edge at a stand-on-soft-17 table: the report says so); a version the game lacks is put
    on the field."""
    config = {**SAMPLE, "jurisdiction": "US-CO", "tables": [
        {"name": "DU-2", "game": "double-up-blackjack", "game_version": 2, "decks": 6,
         "dealer_soft_17": "stand", "hole_card": "peek", "surrender": "none"}]}  # fmt: skip
    response = _post_form(vendor_page, config)
    assert response.status_code == 302
    run = ValidationRun.objects.get(pk=response["Location"].rstrip("/").rsplit("/", 1)[1])
    assert run.configuration["tables"][0]["game_version"] == 2
    assert run.tables[0]["house_edge_percent"].startswith("-0.1137")
    page = vendor_page.get(response["Location"]).content.decode()
    assert "Version 2" in page and "the player has the edge" in page
    again = form_data_from_configuration(run.configuration)
    assert again["tables-0-game_version"] == "2"  # "Edit as a new configuration" keeps it
    bad = _post_form(vendor_page, config, **{"tables-0-game_version": "3"})
    field = bad.content.decode().split('for="id_tables-0-game_version"')[1].split('class="field')[0]
    assert bad.status_code == 400 and "errorlist" in field


def test_adding_a_table_or_a_side_wager_keeps_what_was_typed_and_shows_no_errors(
    vendor_page: Client,
) -> None:
    data = form_data_from_configuration(SAMPLE) | {"tables-0-name": "BJ-99"}
    page = vendor_page.post(URL, data | {"action": "add_table"}).content.decode()
    assert 'name="tables-1-name"' in page and 'value="BJ-99"' in page
    assert "errorlist" not in page
    more = vendor_page.post(URL, data | {"action": "add_side-0"}).content.decode()
    assert 'name="tables-0-sides-4-wager"' in more  # three sample wagers, one blank, one added


def test_a_json_file_is_validated_and_a_bad_one_is_refused_naming_the_field(
    vendor_page: Client,
) -> None:
    good = SimpleUploadedFile("floor.json", json.dumps(SAMPLE).encode(), "application/json")
    response = vendor_page.post(URL, {"action": "upload", "file": good})
    assert response.status_code == 302 and "/configurations/runs/" in response["Location"]
    broken = SimpleUploadedFile("floor.json", b"{not json", "application/json")
    assert (
        "The file is not JSON"
        in vendor_page.post(URL, {"action": "upload", "file": broken}).content.decode()
    )
    wrong = dict(SAMPLE, jurisdiction="US-XX")
    upload = SimpleUploadedFile("floor.json", json.dumps(wrong).encode(), "application/json")
    refused = vendor_page.post(URL, {"action": "upload", "file": upload})
    assert refused.status_code == 400
    assert "jurisdiction: unknown jurisdiction &#x27;US-XX&#x27;" in refused.content.decode()


def test_the_report_links_each_citation_as_of_the_runs_date(
    vendor_page: Client, vendor: User
) -> None:
    run = validation_run_create(configuration=configuration_parse(SAMPLE), user=vendor)
    page = vendor_page.get(f"/configurations/runs/{run.pk}/").content.decode()
    assert "not compliant" in page
    assert '<span class="state state-error">error</span>' in page
    assert "paytable-not-approved" in page and "tables[0].side_wagers[0].paytable" in page
    assert f'href="{citation_url("US-CO", "30-899.20(7)", run.as_of)}"' in page
    assert page.count('class="cite"') == sum(len(f["citations"]) for f in run.findings)


def test_the_configuration_and_the_run_download_as_json(vendor_page: Client, vendor: User) -> None:
    run = validation_run_create(configuration=configuration_parse(SAMPLE), user=vendor)
    config = vendor_page.get(f"/configurations/runs/{run.pk}/configuration.json")
    assert config["Content-Disposition"].startswith("attachment")
    assert json.loads(config.content) == SAMPLE
    body = json.loads(vendor_page.get(f"/configurations/runs/{run.pk}/run.json").content)
    assert body["id"] == str(run.pk) and body["findings"] == run.findings


def test_a_vendor_reads_only_its_own_runs_and_an_officer_reads_its_jurisdictions(
    client: Client, vendor: User
) -> None:
    officer, _ = api_user_create(username="otto", officer=True, jurisdictions=["US-CO"])
    other, _ = api_user_create(username="wanda")
    mine = validation_run_create(configuration=configuration_parse(SAMPLE), user=vendor)
    theirs = validation_run_create(
        configuration=configuration_parse(dict(SAMPLE, licensee="Wanda's casino")), user=other
    )
    client.force_login(vendor)
    assert client.get(f"/configurations/runs/{mine.pk}/").status_code == 200
    for address in ("/", "/run.json", "/configuration.json"):
        assert client.get(f"/configurations/runs/{theirs.pk}{address}").status_code == 404
    assert client.get(f"{URL}?run={theirs.pk}").status_code == 404
    history = client.get("/configurations/runs/").content.decode()
    assert str(mine.pk) in history and str(theirs.pk) not in history
    client.force_login(officer)
    assert client.get(f"/configurations/runs/{theirs.pk}/").status_code == 200
    everyone = client.get("/configurations/runs/").content.decode()
    assert "Wanda&#x27;s casino" in everyone and str(mine.pk) in everyone


def test_the_history_is_grouped_and_filtered_by_licensee(vendor_page: Client, vendor: User) -> None:
    a = validation_run_create(
        configuration=configuration_parse(dict(SAMPLE, licensee="Alpha Casino")), user=vendor
    )
    b = validation_run_create(
        configuration=configuration_parse(dict(SAMPLE, licensee="Beta Casino")), user=vendor
    )
    page = vendor_page.get("/configurations/runs/").content.decode()
    assert page.index("Alpha Casino</h2>") < page.index("Beta Casino</h2>")
    only = vendor_page.get("/configurations/runs/?licensee=Beta+Casino").content.decode()
    assert str(b.pk) in only and str(a.pk) not in only


def test_user_text_is_escaped_in_the_report_and_the_history(
    vendor_page: Client, vendor: User
) -> None:
    evil = "<script>alert(1)</script>"
    run = validation_run_create(
        configuration=configuration_parse(
            dict(SAMPLE, licensee=evil, tables=[dict(SAMPLE["tables"][0], name=evil)])
        ),
        user=vendor,
    )
    for address in (f"/configurations/runs/{run.pk}/", "/configurations/runs/"):
        page = vendor_page.get(address).content.decode()
        assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page


def test_a_compliant_run_prints_its_signs_as_a_preview_and_a_pdf(
    vendor_page: Client, vendor: User
) -> None:
    run = validation_run_create(configuration=configuration_parse(FLOOR), user=vendor)
    assert run.compliant
    response = vendor_page.post(
        f"/configurations/runs/{run.pk}/signs/", {"format": "html", "size": "tent"}
    )
    assert response.status_code == 302 and "format=html&size=tent" in response["Location"]
    preview = vendor_page.get(response["Location"])
    assert preview["Content-Type"].startswith("text/html") and b"30-803" in preview.content
    sign_set = SignSet.objects.get()
    pdf = vendor_page.get(f"/configurations/signs/{sign_set.pk}/?format=pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    # the signs rest on the run printed from: no second run in the history
    assert sign_set.validation_id == run.pk and ValidationRun.objects.count() == 1


def test_signs_printed_after_the_rules_changed_rest_on_a_new_run(
    vendor_page: Client, vendor: User
) -> None:
    run = validation_run_create(configuration=configuration_parse(FLOOR), user=vendor)
    ValidationRun.objects.filter(pk=run.pk).update(knowledge_base={"Provision": 0})
    vendor_page.post(f"/configurations/runs/{run.pk}/signs/", {"format": "html"})
    assert SignSet.objects.get().validation_id != run.pk


def test_signs_of_a_run_with_errors_are_refused_unless_a_draft(
    vendor_page: Client, vendor: User
) -> None:
    run = validation_run_create(configuration=configuration_parse(SAMPLE), user=vendor)
    refused = vendor_page.post(
        f"/configurations/runs/{run.pk}/signs/", {"format": "html"}, follow=True
    )
    assert "No sign is printed: the configuration breaks the rules (" in refused.content.decode()
    assert not SignSet.objects.exists()
    draft = vendor_page.post(
        f"/configurations/runs/{run.pk}/signs/", {"format": "html", "draft": "on"}, follow=True
    )
    assert b"NOT APPROVED" in draft.content


def test_another_vendors_signs_are_not_found(client: Client, vendor: User) -> None:
    other, _ = api_user_create(username="wanda")
    client.force_login(other)
    run = validation_run_create(configuration=configuration_parse(FLOOR), user=other)
    client.post(f"/configurations/runs/{run.pk}/signs/", {"format": "html"})
    sign_set = SignSet.objects.get()
    client.force_login(vendor)
    assert client.get(f"/configurations/signs/{sign_set.pk}/").status_code == 404
    assert (
        client.post(f"/configurations/runs/{run.pk}/signs/", {"format": "html"}).status_code == 404
    )


def test_a_tampered_form_is_refused_with_a_message_not_an_error_page(vendor_page: Client) -> None:
    bare = vendor_page.post(URL, {"action": "validate"})
    assert bare.status_code == 400 and b"The configuration was not validated" in bare.content
    odd = vendor_page.post(URL, {"action": "add_table", "tables-TOTAL_FORMS": "many"})
    assert odd.status_code == 200 and b'name="tables-0-name"' in odd.content
    data = form_data_from_configuration(SAMPLE) | {"tables-TOTAL_FORMS": "5000"}
    assert vendor_page.post(URL, data | {"action": "validate"}).status_code == 400
    sides = form_data_from_configuration(SAMPLE) | {"tables-0-sides-TOTAL_FORMS": "500"}
    too_many = vendor_page.post(URL, sides | {"action": "validate"})
    assert (
        too_many.status_code == 400 and b"Side wagers: Please submit at most 20" in too_many.content
    )
    assert vendor_page.get(f"{URL}?run=not-a-run").status_code == 404
    assert not ValidationRun.objects.exists()


def test_the_history_lists_runs_that_name_no_licensee_under_their_own_filter(
    vendor_page: Client, vendor: User
) -> None:
    unnamed = {k: v for k, v in SAMPLE.items() if k != "licensee"}
    nameless = validation_run_create(configuration=configuration_parse(unnamed), user=vendor)
    named = validation_run_create(
        configuration=configuration_parse(dict(SAMPLE, licensee="Gamma Casino")), user=vendor
    )
    page = vendor_page.get("/configurations/runs/").content.decode()
    assert "(no licensee given)</h2>" in page and '<option value="">(none given)</option>' in page
    only = vendor_page.get("/configurations/runs/?licensee=").content.decode()
    assert str(nameless.pk) in only and str(named.pk) not in only


def test_a_paytable_of_another_side_wager_is_refused_in_the_form_s_words(
    vendor_page: Client,
) -> None:
    """Issue #27: the paytable list groups each wager's paytables under the wager's name as the
    wager list gives it (the page's script shows the chosen wager's group only:
    tests/browser/test_catalog_desk.py); one of another wager, sent anyway, is this form's error
    beside the paytable, naming both."""
    floor = json.loads(json.dumps(FLOOR))
    floor["tables"][0]["side_wagers"] = [
        {"wager": "kings-bounty", "paytable": "us-co/kings-bounty/kb03"}
    ]
    page = vendor_page.get(URL).content.decode()
    assert '<optgroup label="King&#x27;s Bounty Dealer Envy (kings-bounty)">' in page
    refused = _post_form(
        vendor_page, floor, **{"tables-0-sides-0-paytable": "us-co/royal-match-21/pay-table-1"}
    )
    assert refused.status_code == 400
    beside = refused.content.decode().split('for="id_tables-0-sides-0-paytable"')[1][:1500]
    assert (
        "us-co/royal-match-21/pay-table-1 is no paytable of King&#x27;s Bounty Dealer Envy "
        "(kings-bounty): choose one of its own, or give its lines inline." in beside
    )


def test_every_error_of_the_form_shows_at_once_beside_its_field(vendor_page: Client) -> None:
    """Issue #27: a word in a money field (the form's own check) and a 13-digit table maximum
    (the contract's) are both reported on the first submit, each beside its field."""
    floor = json.loads(json.dumps(FLOOR))
    refused = _post_form(
        vendor_page,
        floor,
        **{"tables-0-tips_max": "banana", "tables-0-limits_max": "1234567890123"},
    )
    assert refused.status_code == 400
    page = refused.content.decode()

    def beside(field: str) -> str:
        return page.split(f'for="id_{field}"')[1][:1200]

    assert "Enter a number." in beside("tables-0-tips_max")
    too_big = beside("tables-0-limits_max")
    assert "errorlist" in too_big and "digits" in too_big.lower()
    assert ValidationRun.objects.count() == 0
