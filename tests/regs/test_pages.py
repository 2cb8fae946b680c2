"""The reader's pages of the rule text, through Django's test client: jurisdictions, instruments
and provisions as of a date, citations, search, what changed, and officers' annotation edits."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from regs.models import Annotation, Unit, UnitVersion
from regs.selectors import provision_by_citation
from regs.services import annotation_add

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert('x')</script>"


def text_of(response: Any) -> str:
    """The page's main content as a reader sees it: tags dropped, whitespace collapsed."""
    html = response.content.decode()
    main = html[html.index("<main") :]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def alert_of(response: Any) -> str:
    return " ".join(re.findall(r'role="alert">(.*?)</p>', response.content.decode(), re.S))


# ---------------------------------------------------------------------------------------------
# Jurisdictions and instruments


def test_a_jurisdiction_page_lists_its_instruments(client: Client) -> None:
    page = client.get("/us-co/")
    assert page.status_code == 200
    assert 'href="/us-co/rule-8/"' in page.content.decode()
    assert "Rule 21" in text_of(page)


def test_an_instruments_contents_cite_each_provision_by_its_label_of_the_date(
    client: Client,
) -> None:
    before = text_of(client.get("/us-co/rule-8/?as_of=2017-01-01"))
    after = text_of(client.get("/us-co/rule-8/?as_of=2020-01-01"))
    assert "30-834.23 now 30-899.23 The play – Raise The Roof." in before
    assert "30-899.23 The play – Raise The Roof." in after
    page = client.get("/us-co/rule-8/?as_of=2017-01-01").content.decode()
    assert 'href="/us-co/rule-8/30-834.23@2017-01-01"' in page
    assert 'name="as_of" value="2017-01-01"' in page


def test_a_malformed_date_is_said_and_today_shown(client: Client) -> None:
    page = client.get("/us-co/rule-8/?as_of=2017-02-30")
    assert page.status_code == 200
    assert "“2017-02-30” is not a date" in alert_of(page)


# ---------------------------------------------------------------------------------------------
# A provision as of a date


def test_a_provision_shows_each_unit_with_its_citation_period_and_state(client: Client) -> None:
    page = client.get("/us-co/rule-8/30-899.23@2017-01-01")
    assert page.status_code == 200
    text = text_of(page)
    assert "30-834.23 The play – Raise The Roof." in text
    assert "30-834.23(1) in force since 2016-10-30" in text
    # (3) was amended 5/1/21 and its 2016 words are in no source: said, not replaced by today's.
    assert "30-834.23(3) not on file 2016-10-30 – 2021-05-01" in text
    assert "The text in force on 2017-01-01 is not on file" in text
    assert "30-834.23(3): the text in force on 2017-01-01 is not on file." in text  # warning
    assert 'id="u-(3)"' in page.content.decode()


def test_the_as_of_control_moves_the_date_in_the_address(client: Client) -> None:
    page = client.get("/us-co/rule-8/30-834.23@2017-01-01").content.decode()
    assert re.search(r'<form class="inline" method="get" action="/us-co/rule-8/30-834.23">', page)
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    moved = client.get(f"/us-co/rule-8/30-834.23?provision={provision.pk}&as_of=2022-01-01")
    assert moved.status_code == 302
    assert moved["Location"] == "/us-co/rule-8/30-899.23@2022-01-01"
    later = text_of(client.get(moved["Location"]))
    assert "30-899.23(3) in force since 2021-05-01" in later


def test_the_as_of_control_keeps_the_provision_of_a_reused_label(client: Client) -> None:
    # 30-832 was Multiple Action Blackjack in 2016 and is Blackjack tournaments now.
    page = text_of(client.get("/us-co/rule-8/30-832@2016-06-01"))
    assert "30-832 The play - Multiple Action Blackjack." in page
    assert "30-832 has also named other provisions" in page
    assert "Blackjack tournaments." in page
    # From today's 30-832 (tournaments) back to 2016: the tournaments' rule under its 2016 label.
    tournaments = provision_by_citation(jurisdiction="US-CO", label="30-832")
    moved = client.get(f"/us-co/rule-8/30-832?provision={tournaments.pk}&as_of=2016-06-01")
    assert moved.status_code == 302
    assert moved["Location"] != "/us-co/rule-8/30-832@2016-06-01"
    assert "Blackjack tournaments." in text_of(client.get(moved["Location"]))
    # An edited address with no such provision falls back to what the label names.
    assert "Blackjack tournaments." in text_of(client.get("/us-co/rule-8/30-832?provision=999999"))
    assert client.get("/us-co/rule-8/30-832?provision=999999&as_of=2020-01-01").status_code == 404


def test_an_old_label_lands_on_the_provision_with_its_labels_now_and_formerly(
    client: Client,
) -> None:
    old = text_of(client.get("/us-co/rule-8/30-834.23@2017-01-01"))
    assert "now 30-899.23 (since 2017-12-15)" in old
    assert "formerly 30-834.23 (2016-10-30 – 2017-12-15)" in old
    followed = text_of(client.get("/us-co/rule-8/30-834.23@2024-06-01"))
    assert "You followed 30-834.23 : on 2024-06-01 this provision is cited as 30-899.23" in followed


def test_the_proposed_label_shows_the_proposed_text(client: Client) -> None:
    page = client.get("/us-co/rule-8/47.1-834.23")
    text = text_of(page)
    assert "47.1-834.23 is a proposed text, not in force" in text
    assert "US-CO Rule 8 as of" in text and ": proposed text" in text
    assert "proposed" in text and "$100" in text


def test_a_citation_address_redirects_to_the_provision_at_the_unit(client: Client) -> None:
    found = client.get("/us-co/cite/30-899.23(4)@2017-01-01")
    assert found.status_code == 302
    assert found["Location"] == "/us-co/rule-8/30-899.23@2017-01-01#u-(4)"
    assert client.get("/us-co/cite/30-2107").status_code == 302


def test_a_subsection_in_the_address_shows_the_provision_with_that_unit_marked(
    client: Client,
) -> None:
    page = client.get("/us-co/rule-8/30-803(3)(b)@2024-06-01")
    assert page.status_code == 200
    assert re.search(r'class="unit depth-2 target" id="u-\(3\)\(b\)"', page.content.decode())
    # A label of the other instrument is sent to it.
    assert client.get("/us-co/rule-8/30-2107")["Location"] == "/us-co/rule-21/30-2107"


@pytest.mark.parametrize(
    ("address", "says"),
    [
        ("/xx-yy/", "There is no jurisdiction “xx-yy”. Jurisdictions: us-co, us-ma."),
        ("/us-co/rule-9/", "its instruments are: rule-8, rule-21."),
        ("/us-co/rule-8/99-999", "Cite a section as printed, e.g. 30-899.23"),
        ("/us-co/rule-8/30-803(77)", "30-803 has no subsection (77)"),
        ("/us-co/rule-8/30-899.23@2017-13-01", "LABEL@YYYY-MM-DD"),
        ("/us-co/cite/99-999", "Cite a section as printed"),
    ],
)
def test_an_unknown_address_is_a_404_page_saying_what_is_accepted(
    client: Client, address: str, says: str
) -> None:
    page = client.get(address)
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")
    assert says in alert_of(page).replace("&#x27;", "'")


def test_a_provision_lists_its_legal_history_as_a_timeline(client: Client) -> None:
    text = text_of(client.get("/us-co/rule-8/30-899.23"))
    assert "Legal history" in text
    assert re.search(r"2017-12-15 Renumbered .*30-834.23 renumbered as 30-899.23", text)
    assert "2021-05-01 Amended" in text
    timeline = text[text.index("Legal history") :]
    assert (
        timeline.index("2016-10-30") < timeline.index("2017-12-15") < timeline.index("2021-05-01")
    )


def test_the_legal_history_names_each_event_by_the_label_of_its_date(client: Client) -> None:
    """co-rule-8 line 1474: "30-899.23 The play – Raise The Roof. Effective 10/30/16" — on
    2016-10-30 the section was 30-834.23 (line 1565: "30-834.23 renumbered as 30-899.23,
    effective 12/15/17"), so the history names the event 30-834.23, not today's 30-899.23."""
    text = text_of(client.get("/us-co/rule-8/30-899.23"))
    timeline = text[text.index("Legal history") :]
    assert "2016-10-30 Effective 30-834.23 Effective 10/30/16" in timeline
    assert "2016-10-30 Effective 30-899.23" not in timeline
    assert "2021-05-01 Amended 30-899.23" in timeline


def test_a_temporary_adoption_is_marked_on_the_page(client: Client) -> None:
    """co-rule-8 line 444: "(30-833 temp. 5/13/93, perm. 6/30/93 …)": the page of 1993-06-01
    says in force, temporary adoption, and that the temporary words are not on file."""
    text = text_of(client.get("/us-co/rule-8/30-833@1993-06-01"))
    assert "as of 1993-06-01 : in force in force from 1993-05-13 temporary adoption" in text
    assert "30-833 not on file temporary 1993-05-13 – 1993-06-30" in text
    assert "In force on 1993-06-01 by a temporary adoption, whose words are not on file" in text


def test_a_provision_lists_the_catalog_facts_citing_it_with_links(client: Client) -> None:
    page = client.get("/us-co/rule-8/30-899.20@2024-06-01").content.decode()
    assert '<a href="/catalog/us-co/kings-bounty/">King&#x27;s Bounty Dealer Envy</a>' in page
    assert 'href="/catalog/paytables/us-co/kings-bounty/kb03/"' in page
    assert "us-co/kings-bounty/decks" in page


def test_a_provision_shows_its_annotations_and_record_history(client: Client) -> None:
    text = text_of(client.get("/us-co/rule-8/30-899.23"))
    assert "Record history" in text
    records = text[text.index("Record history") :]
    assert "pitboss-ingest" in records, records[:1000]
    assert "ingested from co-raise-the-roof-proposed.md" in records
    # Units are named by their path, not by the provision's internal key.
    assert re.search(r"version created (¶\d+|\(\d+\)) from ", records)
    assert "us-co-rule-8-30-89923" not in records


def test_rule_text_and_annotations_are_escaped(client: Client, officer: User) -> None:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    annotation_add(provision=provision, unit_path="(1)", kind="editorial", text=SCRIPT)
    version = UnitVersion.objects.get(unit__provision=provision, unit__path="(2)", status="adopted")
    version.text = f"{SCRIPT} six decks"
    version.save()
    page = client.get("/us-co/rule-8/30-899.23").content.decode()
    assert SCRIPT not in page
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in page
    found = client.get("/search/?q=six+decks+alert").content.decode()
    assert SCRIPT not in found
    if connection.vendor == "sqlite":  # PostgreSQL's parser drops the tag: no match on "alert"
        assert "&lt;script&gt;" in found
    diff = client.get(
        "/diff/provision/?jurisdiction=US-CO&citation=30-899.23&left=proposed"
    ).content.decode()
    assert SCRIPT not in diff and "&lt;script&gt;" in diff


def test_the_provision_page_reads_the_database_a_bounded_number_of_times(
    client: Client, django_assert_max_num_queries: Any
) -> None:
    with django_assert_max_num_queries(30):
        assert client.get("/us-co/rule-8/30-899.23@2024-06-01").status_code == 200
    with django_assert_max_num_queries(30):
        assert client.get("/us-co/rule-8/30-803@2024-06-01").status_code == 200


# ---------------------------------------------------------------------------------------------
# Search


def test_search_highlights_the_matching_words_and_links_at_the_date(client: Client) -> None:
    page = client.get("/search/?q=surrender&as_of=2024-06-01").content.decode()
    assert "<mark>surrender" in page.lower()
    assert 'href="/us-co/rule-8/30-829@2024-06-01"' in page
    assert 'value="surrender"' in page


def test_search_finds_only_the_text_in_force_on_the_date(client: Client) -> None:
    before = text_of(client.get("/search/?q=raise+roof&as_of=2015-06-01"))
    assert "No provision in force on 2015-06-01 matches" in before
    during = client.get("/search/?q=raise+roof&as_of=2017-06-01").content.decode()
    assert 'href="/us-co/rule-8/30-834.23@2017-06-01"' in during
    only_ma = client.get("/search/?q=surrender&as_of=2024-06-01&jurisdiction=US-MA")
    results = only_ma.content.decode().split('class="results"')[1]
    assert 'href="/us-ma/' in results and 'href="/us-co/' not in results


def test_search_leaves_common_words_out_and_says_so(client: Client) -> None:
    """Issue #27: "the surrender" searches and highlights "surrender", not "the", and the page
    says which words it left out and what a query may say."""
    page = client.get("/search/?q=the+surrender&as_of=2024-06-01").content.decode()
    results = page.split('class="results"')[1]
    assert "<mark>surrender" in results.lower() and "<mark>the</mark>" not in results.lower()
    assert "Not searched, being common: the." in page
    assert "Common words (the, of, and…) are not searched." in page
    only_common = text_of(client.get("/search/?q=the+of&as_of=2024-06-01"))
    assert "Not searched, being common: the, of." in only_common
    assert "No provision in force on 2024-06-01 matches" in only_common


def test_search_on_a_date_before_any_rule_says_why_undated_rules_are_listed(
    client: Client,
) -> None:
    """Issue #27: on 1800-01-01 the rules that match are those whose text on file bears no
    date (Massachusetts's, undated; Colorado sections whose text before the first dated note is
    not on file): each hit says why, rather than seeming in force in 1800."""
    page = client.get("/search/?q=surrender&as_of=1800-01-01").content.decode()
    hits = page.split('class="results"')[1].split("</ol>")[0].split("<li>")[1:]
    assert hits and any('href="/us-ma/' in hit for hit in hits)
    for hit in hits:
        assert (
            "The source on file gives no date this text took effect" in hit
            or "the text in force on 1800-01-01 is not on file" in hit
        ), hit


@pytest.mark.postgres
@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="full-text search runs on PostgreSQL only"
)
def test_on_postgresql_search_finds_a_word_in_its_other_forms(client: Client) -> None:
    page = client.get("/search/?q=doubled&jurisdiction=US-CO&as_of=2024-06-01").content.decode()
    assert 'href="/us-co/rule-8/30-813@2024-06-01"' in page  # "Doubling down."
    assert "<mark>Doubling</mark>" in page or "<mark>doubling</mark>" in page


def test_search_escapes_before_highlighting(client: Client) -> None:
    version = UnitVersion.objects.filter(
        unit__provision__key__contains="30-829", effective_to__isnull=True
    ).first()
    assert version is not None
    version.text = "<b>surrender</b> & more"
    version.save()
    page = client.get("/search/?q=surrender&jurisdiction=US-CO").content.decode()
    if connection.vendor == "postgresql":  # ts_headline leaves tags out of the snippet
        assert re.search(r"<mark>surrender</mark>\s+&amp; more", page)
        assert "<b>" not in page
    else:
        assert "&lt;b&gt;<mark>surrender</mark>&lt;/b&gt; &amp; more" in page


# ---------------------------------------------------------------------------------------------
# What changed


def test_the_diff_page_offers_each_comparison(client: Client) -> None:
    text = text_of(client.get("/diff/"))
    for heading in (
        "A provision between two dates",
        "Proposed against adopted",
        "An instrument's changes in a window",
        "Jurisdictions side by side",
    ):
        assert heading in text


def test_proposed_against_adopted_shows_the_100_dollar_deletion(client: Client) -> None:
    page = client.get(
        "/diff/provision/?jurisdiction=US-CO&citation=47.1-834.23&left=proposed&right=2025-01-01"
    )
    html = page.content.decode()
    assert "<del>$100</del>" in html
    text = text_of(page)
    assert "Substantive changes (7)" in text
    assert "Editorial changes (20)" in text
    assert "renumbered 47.1-834.23 30-899.23 47.1-834.23 → 30-899.23" in text
    assert "Amended 5/1/21" in text


def test_a_bad_diff_request_is_said_next_to_its_field(client: Client) -> None:
    later_first = client.get(
        "/diff/provision/?jurisdiction=US-CO&citation=30-899.23&left=2022-01-01&right=2017-01-01"
    )
    assert later_first.status_code == 200
    assert "2022-01-01 is after 2017-01-01" in later_first.content.decode()
    no_proposal = client.get("/diff/provision/?jurisdiction=US-CO&citation=30-803&left=proposed")
    assert "has no proposed text on file" in no_proposal.content.decode()
    unknown = client.get("/diff/provision/?jurisdiction=US-CO&citation=99-999&left=2020-01-01")
    assert "has ever been cited as" in unknown.content.decode()


def test_an_instruments_changes_list_each_with_date_kind_and_a_link_to_its_diff(
    client: Client,
) -> None:
    page = client.get("/diff/instrument/?instrument=US-CO/rule-8&start=2016-01-01&end=2022-01-01")
    text = text_of(page)
    assert "88 dated changes." in text
    assert text.startswith("What changed US-CO Rule 8: changes after 2016-01-01 up to 2022-01-01")
    # Each change cites the unit by its label on the change's date, and links to that date.
    assert 'href="/us-co/rule-8/30-834.23@2016-10-30">30-834.23</a>' in page.content.decode()
    assert re.search(r"2017-12-15 renumbered 30-899.23 .* 30-834.23 → 30-899.23", text)
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    link = f"/diff/provision/?provision={provision.pk}&amp;left=2017-12-14&amp;right=2017-12-15"
    assert link in page.content.decode()
    followed = client.get(link.replace("&amp;", "&"))
    assert "30-834.23 (2017-12-14) → 30-899.23 (2017-12-15)" in text_of(followed)


# ---------------------------------------------------------------------------------------------
# Officers edit annotations


def _annotation() -> Annotation:
    provision = provision_by_citation(jurisdiction="US-CO", label="30-899.23")
    unit = Unit.objects.get(provision=provision, path="")
    return Annotation.objects.create(unit=unit, kind="editorial", text="A remark to correct.")


def test_an_officer_edits_an_annotation_and_the_record_history_names_her(
    client: Client, officer: User
) -> None:
    annotation = _annotation()
    client.force_login(officer)
    page = client.get("/us-co/rule-8/30-899.23").content.decode()
    edit = f"/annotations/{annotation.pk}/edit/"
    assert f'href="{edit}?next=' in page
    form = client.get(edit)
    assert form.status_code == 200 and "csrfmiddlewaretoken" in form.content.decode()
    saved = client.post(edit, {"text": "A corrected remark.", "next": "/us-co/rule-8/30-899.23"})
    assert saved.status_code == 302 and saved["Location"] == "/us-co/rule-8/30-899.23"
    after = text_of(client.get(saved["Location"]))
    assert "A corrected remark." in after
    assert re.search(r"olivia annotation changed A corrected remark\. text edited on the", after)


def test_an_empty_annotation_is_refused_next_to_the_field(client: Client, officer: User) -> None:
    annotation = _annotation()
    client.force_login(officer)
    refused = client.post(f"/annotations/{annotation.pk}/edit/", {"text": "  "})
    assert refused.status_code == 200
    assert "This field is required." in alert_of(refused)
    annotation.refresh_from_db()
    assert annotation.text == "A remark to correct."


def test_a_vendor_or_a_visitor_cannot_edit_an_annotation(client: Client, vendor: User) -> None:
    annotation = _annotation()
    edit = f"/annotations/{annotation.pk}/edit/"
    assert "/annotations/" not in client.get("/us-co/rule-8/30-899.23").content.decode()
    assert client.post(edit, {"text": "x"})["Location"].startswith("/accounts/login/")
    client.force_login(vendor)
    assert "/annotations/" not in client.get("/us-co/rule-8/30-899.23").content.decode()
    refused = client.post(edit, {"text": "x"})
    assert refused.status_code == 403
    assert "Only compliance officers may edit the knowledge base." in alert_of(refused)
    annotation.refresh_from_db()
    assert annotation.text == "A remark to correct."
