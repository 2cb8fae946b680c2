"""The documentation's own promises: every relative link in the README, the changelog and docs/
names a file that exists (an image too), and the README stays a front door."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _relative_links(document: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", document.read_text(), flags=re.S)  # code is not linked
    return [
        target.split("#")[0]
        for target in LINK.findall(text)
        if not re.match(r"[a-z]+:", target) and not target.startswith("#")
    ]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_names_a_file(document: Path) -> None:
    missing = [t for t in _relative_links(document) if not (document.parent / t).exists()]
    assert missing == []


def test_the_readme_is_a_front_door() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 250
    assert "make run" in readme and "make test" in readme
    assert len(re.findall(r"!\[[^\]]*\]\(docs/screenshots/[^)]+\.png\)", readme)) == 3
    linked = set(_relative_links(ROOT / "README.md"))
    for doc in ("docs/architecture.md", "docs/api.md", "docs/engine.md", "CHANGELOG.md"):
        assert doc in linked
