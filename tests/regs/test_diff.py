"""Diffs of the shipped rule text: Raise the Roof proposed against adopted, a provision at two
dates, and Rule 8 between two dates."""

from __future__ import annotations

import datetime as dt

import pytest

from regs.diff import selectors as diffs
from regs.diff.text import Change

pytestmark = pytest.mark.django_db

TODAY = dt.date(2025, 6, 1)


def record(citation: str, as_of: dt.date = TODAY) -> diffs.selectors.ProvisionRecord:
    found, _ = diffs.provision_record(
        jurisdiction="US-CO", citation=citation, as_of=as_of, today=TODAY
    )
    return found


def named(change: Change) -> tuple[str, str, str, str]:
    """(kind, unit citation on the right, words on the left, words on the right)."""
    return (
        change.kind,
        change.right.citation if change.right else "",
        change.left.text or "" if change.left else "",
        change.right.text or "" if change.right else "",
    )


def raise_the_roof() -> diffs.ProvisionDiff:
    return diffs.provision_diff(record=record("47.1-834.23"), left="proposed", right=TODAY)


def test_raise_the_roof_proposed_against_adopted_lists_each_substantive_difference() -> None:
    diff = raise_the_roof()

    assert [named(c) for c in diff.substantive] == [
        # The proposed number becomes the adopted one: once, as the provision's change of label.
        ("renumbered", "30-899.23", "", ""),
        # (3): the $100 cap on bets is gone from the adopted text.
        ("deletion", "30-899.23(3)", "$100", ""),
        # (8): the adopted text adds when the Raise the Roof wager may be made.
        (
            "insertion",
            "30-899.23(8)",
            "",
            "The player may make the Raise the Roof wager at any time up until the dealer "
            "addresses the dealer's hand.",
        ),
        # The adopted pay tables misspell "Unsuited" in four of the six tables.
        ("replacement", "30-899.23 ¶3", "UNSUITED", "Unsuted"),
        ("replacement", "30-899.23 ¶4", "UNSUITED", "Unsuted"),
        ("replacement", "30-899.23 ¶5", "UNSUITED", "Unsuted"),
        ("replacement", "30-899.23 ¶6", "UNSUITED", "Unsuted"),
    ]
    assert diff.substantive[0].left.citation == "47.1-834.23"  # type: ignore[union-attr]
    assert all(c.note == "spelling" for c in diff.substantive[3:])


def test_raise_the_roof_case_and_markdown_differences_are_editorial() -> None:
    diff = raise_the_roof()

    editorial = {c.right.path: c.editorial for c in diff.editorial}  # type: ignore[union-attr]
    assert editorial["(1)"] == ("case", "markdown")  # capitals and the proposal's "**"
    assert editorial["(12)"] == ("case",)
    assert len(editorial) == 20  # every unit: the proposal is printed in capitals


def test_raise_the_roof_date_notes_are_events_not_inserted_text() -> None:
    diff = raise_the_roof()

    assert [(e["date"], e["raw"]) for e in diff.events] == [
        (dt.date(2016, 10, 30), "Effective 10/30/16"),
        (dt.date(2017, 12, 15), "30-834.23 renumbered as 30-899.23, effective 12/15/17"),
        (dt.date(2021, 5, 1), "Amended 5/1/21"),
    ]
    words = " ".join(c.right.text or "" for c in diff.changes if c.right)
    assert "Amended" not in words and "renumbered" not in words
    deletion = next(c for c in diff.changes if c.kind == "deletion")
    assert deletion.event is not None and deletion.event["raw"] == "Amended 5/1/21"


def test_adopted_against_proposed_is_the_inverse() -> None:
    forward = raise_the_roof()
    backward = diffs.provision_diff(record=record("47.1-834.23"), left=TODAY, right="proposed")

    assert sorted(map(repr, forward.changes)) == sorted(repr(c.inverse()) for c in backward.changes)


def test_a_provision_diffed_with_itself_is_empty() -> None:
    same = diffs.provision_diff(record=record("30-803"), left=TODAY, right=TODAY)

    assert same.changes == () and same.events == ()


def test_an_earlier_text_not_on_file_is_reported_not_diffed() -> None:
    diff = diffs.provision_diff(
        record=record("30-899.23"), left=dt.date(2017, 1, 1), right=dt.date(2022, 1, 1)
    )

    assert [named(c) for c in diff.changes] == [("renumbered", "30-899.23", "", "")]
    assert diff.changes[0].left.citation == "30-834.23"  # type: ignore[union-attr]
    assert [(n["unit"], n["left"]["state"]) for n in diff.not_on_file] == [  # type: ignore[index]
        ("(3)", "not_on_file")
    ]


def rule_8(start: dt.date, end: dt.date) -> list[diffs.InstrumentChange]:
    return list(
        diffs.instrument_diff(
            jurisdiction="US-CO", instrument="Rule 8", start=start, end=end
        ).changes
    )


def test_rule_8_from_2016_to_2022_lists_raise_the_roofs_adoption() -> None:
    changes = rule_8(dt.date(2016, 1, 1), dt.date(2022, 1, 1))

    added = [
        (c.date, c.provision["citation"]) for c in changes if c.kind == "insertion" and not c.unit
    ]
    assert (dt.date(2016, 10, 30), "30-899.23") in added
    assert added == [
        (dt.date(2016, 6, 14), "30-899.22"),
        (dt.date(2016, 10, 30), "30-899.23"),
        (dt.date(2017, 4, 30), "30-899.24"),
        (dt.date(2018, 2, 14), "30-899.25"),
        (dt.date(2021, 5, 1), "30-899.26"),
        (dt.date(2021, 5, 1), "30-899.27"),
    ]


def test_rule_8_from_2016_to_2022_lists_the_2017_renumbering_of_the_variants() -> None:
    changes = rule_8(dt.date(2016, 1, 1), dt.date(2022, 1, 1))

    renumbered = [
        (c.left["citation"], c.right["citation"])  # type: ignore[index]
        for c in changes
        if c.kind == "renumbered"
    ]
    assert ("30-834.23", "30-899.23") in renumbered
    assert ("30-832", "30-899.01") in renumbered
    assert len(renumbered) == 24
    assert {c.date for c in changes if c.kind == "renumbered"} == {dt.date(2017, 12, 15)}
    moved = [c for c in changes if c.kind == "moved"]
    assert [c.left["citation"] for c in moved][:2] == ["30-835", "30-836"]  # type: ignore[index]


def test_rule_8_from_2016_to_2022_lists_each_amendment_with_its_date() -> None:
    changes = rule_8(dt.date(2016, 1, 1), dt.date(2022, 1, 1))

    amended = [(c.date, c.right["citation"]) for c in changes if c.kind == "replacement"]  # type: ignore[index]
    assert (dt.date(2021, 5, 1), "30-899.23(3)") in amended
    assert (dt.date(2021, 11, 14), "30-803") in amended
    assert all(c.date is not None and c.link.startswith("/api/v1/diff/provision/") for c in changes)
    raise_the_roof_3 = next(c for c in changes if c.right and c.right["citation"] == "30-899.23(3)")
    assert raise_the_roof_3.not_on_file and raise_the_roof_3.substantive is None


def test_an_instrument_diff_is_deterministic_and_empty_over_an_empty_window() -> None:
    window = (dt.date(2016, 1, 1), dt.date(2022, 1, 1))

    assert rule_8(*window) == rule_8(*window)
    assert rule_8(dt.date(2022, 1, 1), dt.date(2022, 1, 1)) == []


def test_every_rule_8_provision_diffed_backwards_is_the_inverse() -> None:
    from regs.selectors import provision_records, provisions_search

    pks = list(
        provisions_search(jurisdiction="US-CO", instrument="Rule 8").values_list("pk", flat=True)
    )
    early, late = dt.date(2016, 1, 1), dt.date(2022, 1, 1)
    compared = 0
    for found in provision_records(pks):
        forward = diffs.provision_diff(record=found, left=early, right=late)
        backward = diffs.provision_diff(record=found, left=late, right=early)
        assert sorted(map(repr, forward.changes)) == sorted(
            repr(c.inverse()) for c in backward.changes
        ), found.key
        compared += bool(forward.changes)
    assert compared >= 30  # the renumbered variants, the added games, the amended units
