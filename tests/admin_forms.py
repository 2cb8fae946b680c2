"""The Django admin's change form as a browser submits it, for tests that save through it."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from django.test import Client


class _ChangeForm(HTMLParser):
    """The values the admin's change form would submit, as a browser sends them."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, Any] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in {"submit", "button", "file"}:
            if a.get("type") in {"checkbox", "radio"}:
                if "checked" in a:
                    self.data.setdefault(name, []).append(a.get("value") or "on")
            else:
                self.data[name] = a.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select].append(a.get("value") or "")
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def loaded_change_form(client: Client, url: str) -> dict[str, Any]:
    page = client.get(url)
    assert page.status_code == 200
    form = _ChangeForm()
    form.feed(page.content.decode())
    form.data.pop("csrfmiddlewaretoken", None)
    form.data["_save"] = "Save"
    return form.data
