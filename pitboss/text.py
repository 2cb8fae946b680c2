"""Text a client sends, checked once where it enters: no lone surrogates, no control characters
but tab and newline, a length limit, and a string only where the contract says string.

A lone surrogate ("\\ud800", valid JSON) is no character: stored, it cannot be written out as
UTF-8, and every page, list or download that shows it fails. A control character garbles what a
sign prints and Postgres refuses NUL outright. So each is refused with a 400 naming the field:

- every string (and every key) of an API request's JSON body: pitboss.parsers.JSONParser;
- every form field and query parameter of every request (web forms, the admin, the API's form
  posts): pitboss.middleware.TextBoundaryMiddleware;
- a configuration however it arrives (the desk's upload, a stored run re-run):
  compliance.api.configuration.configuration_parse;
- strings where the contract says string, with a field's own limit: the serializer field Text.

Rows stored before these checks are repaired by `manage.py repair_stored_text` (texts_repaired).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, cast

from rest_framework import serializers

MAX_TEXT = 100_000
"""Characters any one string of a request may hold; a field may allow fewer (Text's
max_length). A provision's whole text is under 20,000."""

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls but tab, newline and carriage return (a browser sends a textarea's lines CRLF);
# DEL and the C1 controls.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAKS = re.compile("[\t\n\r\u2028\u2029]")
REPLACEMENT = "\ufffd"


def text_problem(value: str, *, max_length: int = MAX_TEXT, multiline: bool = True) -> str | None:
    """What is wrong with `value` as text, or None. `multiline=False` also refuses tab and line
    breaks (a name, a label)."""
    if found := _SURROGATE.search(value):
        return (
            f"holds a lone surrogate (U+{ord(found.group()):04X} at character {found.start()}), "
            "which is no character; send the text as valid Unicode."
        )
    if found := _CONTROL.search(value):
        return (
            f"holds the control character U+{ord(found.group()):04X} at character "
            f"{found.start()}; text may hold tab and newline, no other control character."
        )
    if not multiline and (found := _LINE_BREAKS.search(value)):
        return f"holds a tab or line break at character {found.start()}; write it on one line."
    if len(value) > max_length:
        return f"is {len(value):,} characters long; at most {max_length:,}."
    return None


def _strings(data: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Each string of a JSON value, keys included, with its path ("tables[0].name"), depth
    first without recursion."""
    stack = [(path, data)]
    while stack:
        at, item = stack.pop()
        if isinstance(item, str):
            yield at, item
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                name = f"{at}.{key}" if at else str(key)
                if isinstance(key, str):
                    yield name, key
                stack.append((name, child))
        elif isinstance(item, list):
            stack.extend((f"{at}[{n}]", child) for n, child in reversed(list(enumerate(item))))


def text_tree_problem(data: Any) -> tuple[str, str] | None:
    """The path of the first string (or key) of a JSON value that text_problem refuses, and why;
    None when every string is text."""
    for path, value in _strings(data):
        if problem := text_problem(value):
            return text_repaired(path) or "non_field_errors", problem
    return None


def check_text_tree(data: Any) -> None:
    """:raises rest_framework.exceptions.ValidationError: naming the first string of `data` that
    is not text."""
    if found := text_tree_problem(data):
        path, problem = found
        raise serializers.ValidationError({path: [problem]})


def text_repaired(value: str) -> str:
    """`value` with each lone surrogate replaced by U+FFFD and each control character but tab,
    newline and carriage return removed (a stored row's repair; no length cut)."""
    return _CONTROL.sub("", _SURROGATE.sub(REPLACEMENT, value))


def texts_repaired(data: Any, *, as_text: Callable[[str], bool] = lambda path: False) -> Any:
    """A copy of a JSON value with every string (and key) text_repaired, and each number at a
    path `as_text(path)` accepts turned into its text (a licensee sent as 0 becomes "0")."""

    def repair(item: Any, path: str) -> Any:
        if isinstance(item, str):
            return text_repaired(item)
        if isinstance(item, dict):
            return {
                text_repaired(k) if isinstance(k, str) else k: repair(v, f"{path}.{k}".lstrip("."))
                for k, v in item.items()
            }
        if isinstance(item, list):
            return [repair(v, f"{path}[{n}]") for n, v in enumerate(item)]
        if isinstance(item, int | float) and not isinstance(item, bool) and as_text(path):
            return str(item)
        return item

    return repair(data, "")


def _must_be_string(data: Any) -> None:
    if not isinstance(data, str):
        raise serializers.ValidationError(
            f"must be a string (text in quotes), not {_kind(data)}.", code="invalid"
        )


class Text(serializers.CharField):
    """A string field: a JSON number or boolean is refused (DRF's CharField turns 0 into "0",
    and a configuration is stored as sent, the number with it), and so is text text_problem
    refuses. Names and labels are one line (`multiline=False`, the default) of at most
    `max_length` characters (200)."""

    def __init__(self, *, multiline: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 200)
        self.multiline = multiline
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        _must_be_string(data)
        max_length = cast(int, self.max_length)  # 200 unless the field names another
        if problem := text_problem(data, max_length=max_length, multiline=self.multiline):
            raise serializers.ValidationError(problem, code="invalid")
        return super().to_internal_value(data)


class Slug(serializers.SlugField):
    """A slug, sent as a string (at most 100 characters)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 100)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        _must_be_string(data)
        return super().to_internal_value(data)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    return {dict: "an object", list: "a list", type(None): "null"}.get(type(value), "that")
