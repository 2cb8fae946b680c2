"""Request parsers of the whole API (REST_FRAMEWORK's DEFAULT_PARSER_CLASSES)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from pitboss.text import check_text_tree

# No request of the API nests deeper than about ten levels (a configuration's inline paytable
# line inside a simulation request); a deeper document is refused before any view reads it.
MAX_JSON_DEPTH = 32


def json_depth(value: Any) -> int:
    """How deeply `value` nests lists and objects (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        children = item.values() if isinstance(item, dict) else item
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            stack.extend((child, level + 1) for child in children)
    return deepest


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing (a 400 parse_error) a document nested deeper than
    MAX_JSON_DEPTH (Python's decoder exhausts the stack on one nested some thousand levels
    deep, which DRF lets through as a 500), and (a 400 invalid naming the field) one holding a
    string or key that is not text (pitboss.text: a lone surrogate, a control character, over
    MAX_TEXT characters), before any view reads it."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        message = f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels."
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(message) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(message)
        check_text_tree(data)
        return data
