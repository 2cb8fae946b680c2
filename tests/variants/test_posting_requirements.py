"""Posting requirements in the catalog: each cited to the unit whose words require the notice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from regs.models import Annotation
from variants.catalog import CATALOG, read_catalog
from variants.models import Placement, PostingRequirement

SOURCES = Path(settings.BASE_DIR) / "fixtures" / "sources" / "text"
TEXTS = {
    "us-co.yaml": "co-rule-8-blackjack.md",
    "us-co-rule-21.yaml": "co-rule-21-blackjack-poker.md",
    "us-ma.yaml": "ma-205-cmr-blackjack.md",
}
POSTING_WORDS = re.compile(r"post|display|signage|appear|notice", re.IGNORECASE)


def _requirements() -> list[tuple[str, dict[str, object]]]:
    return [
        (name, item)
        for name in TEXTS
        for item in read_catalog(CATALOG / name).get("posting_requirements", [])
    ]


@pytest.mark.parametrize(
    ("name", "item"), _requirements(), ids=[str(item["code"]) for _, item in _requirements()]
)
def test_each_requirement_cites_a_source_line_of_its_unit_that_requires_posting(
    name: str, item: dict[str, object]
) -> None:
    if "line" not in item:  # the proposed text is cited by its unit only
        assert item.get("proposed") is True
        return
    lines = (SOURCES / TEXTS[name]).read_text().splitlines()
    line = lines[int(item["line"]) - 1]  # type: ignore[call-overload]
    last = re.findall(r"\([0-9a-z]+\)", str(item["citation"]))
    if last:  # the line opens the unit, or continues it (a paragraph of the unit's own)
        at = int(item["line"]) - 1  # type: ignore[call-overload]
        opening = next(x for x in reversed(lines[: at + 1]) if re.match(r"\s*- \(", x))
        assert last[-1] in opening[:12], (item["code"], line[:60])
    # the unit itself says post/display/appear, or its enclosing (3) does (30-803(3)(a)-(h))
    context = "\n".join(lines[int(item["line"]) - 12 : int(item["line"])])  # type: ignore[call-overload]
    assert POSTING_WORDS.search(line) or POSTING_WORDS.search(context), item["code"]


@pytest.mark.django_db
def test_30_803_4_lets_only_3_d_to_i_go_on_a_wall_sign_besides_rules_naming_wall_signage() -> None:
    wall_ok = [
        r
        for r in PostingRequirement.objects.filter(wall_allowed_if_uniform=True)
        .select_related("provision")
        .prefetch_related("provision__units__versions")
    ]
    paths = {r.unit_path for r in wall_ok if r.provision.key.endswith("30-803")}
    assert paths == {"(3)(d)", "(3)(e)", "(3)(f)", "(3)(g)", "(3)(h)", "(3)(i)"}
    for r in wall_ok:  # any other says so itself (30-2115(1)(c): "at the table or as wall signage")
        if not r.provision.key.endswith("30-803"):
            unit = r.provision.units.get(path=r.unit_path)
            assert "wall signage" in unit.versions.last().text, r.code
    soft_17, odds, limits = (
        PostingRequirement.objects.get(code=f"us-co/posting/{c}")
        for c in ("soft-17", "blackjack-odds", "table-limits")
    )
    for requirement in (soft_17, odds, limits):
        assert not requirement.wall_allowed_if_uniform
        assert Placement.WALL not in requirement.placements


@pytest.mark.django_db
def test_massachusetts_rules_pointing_to_147_03_say_it_is_not_in_the_sources() -> None:
    for unit in ("(c)", "(d)", "(f)"):
        label = "28" if unit != "(c)" else "23"
        assert Annotation.objects.filter(
            unit__provision__citations__label=label,
            unit__path=unit,
            text__contains="205 CMR 147.03",
        ).exists(), (label, unit)


@pytest.mark.django_db
def test_the_proposed_raise_the_roof_cap_is_a_proposed_requirement_only() -> None:
    proposed = PostingRequirement.objects.filter(proposed=True)
    assert [r.code for r in proposed] == ["us-co/posting/raise-the-roof-ante-cap-proposed"]
    assert "$100" in proposed[0].wording
    adopted = PostingRequirement.objects.filter(proposed=False)
    assert not [r.code for r in adopted if "$100" in str(r.wording)]


def test_a_notice_whose_form_a_text_not_on_file_sets_names_that_text_from_its_line() -> None:
    """MA: a rule that posts "in accordance with 205 CMR 147.03" (7(c), ma-205-cmr-blackjack.md:
    167; "205 CMR147.03" at 28(d), line 677; "205CMR" at 26(f)) names it as `form_in`, and no
    other does; 24(h) (line 574) posts "pursuant to the gaming equipment regulations"."""
    lines = (SOURCES / TEXTS["us-ma.yaml"]).read_text().splitlines()
    for item in read_catalog(CATALOG / "us-ma.yaml")["posting_requirements"]:
        line = re.sub(r"205\s*CMR\s*147", "205 CMR 147", lines[int(item["line"]) - 1])
        form_in = item.get("params", {}).get("form_in")
        if form_in:
            assert form_in in line, item["code"]
        else:
            assert "147.03" not in line, item["code"]
    forms = {
        item["citation"]: item["params"]["form_in"]
        for item in read_catalog(CATALOG / "us-ma.yaml")["posting_requirements"]
        if "form_in" in item.get("params", {})
    }
    assert forms["24(h)"] == "the gaming equipment regulations"
    assert {forms[c] for c in ("3(e)", "6(k)", "7(c)", "8(c)", "10(d)", "11(e)")} == {
        "205 CMR 147.03"
    }
