"""Subsection labels: (3), (b), (ii), (A) — their style, order and nesting.

A source does not show nesting reliably (the PDF prints (1) and (a) at the same indent), so
nesting is inferred from the label's style: a style already open closes what is under it, a new
style opens a level below. "(i)" is a letter after "(h)" and a roman numeral elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum

LABEL = re.compile(r"^\((\d{1,3}|[a-zA-Z]{1,2}|[ivxlcIVXLC]{1,6})\)\s*")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


class Style(StrEnum):
    NUMBER = "number"
    """(1), (2), …"""
    LOWER = "lower"
    """(a), (b), …"""
    UPPER = "upper"
    """(A), (B), …"""
    ROMAN = "roman"
    """(i), (ii), …"""
    UPPER_ROMAN = "upper_roman"
    """(I), (II), …"""


def roman_value(token: str) -> int | None:
    """The value of a roman numeral, or None if the token is not one."""
    token = token.lower()
    if not token or any(ch not in _ROMAN for ch in token):
        return None
    total = 0
    for ch, nxt in zip(token, token[1:] + " ", strict=False):
        value = _ROMAN[ch]
        total += -value if nxt != " " and _ROMAN[nxt] > value else value
    return total


def letter_value(token: str) -> int | None:
    """(a) = 1 … (z) = 26, (aa) = 27 …; None if not letters."""
    if not token.isalpha():
        return None
    if len(token) == 2 and token[0] == token[1]:
        return 26 + ord(token[0].lower()) - ord("a") + 1
    if len(token) == 1:
        return ord(token.lower()) - ord("a") + 1
    return None


@dataclass
class Level:
    style: Style
    value: int
    token: str


@dataclass
class LabelStack:
    """Tracks the open list levels while reading a section, to place each labelled paragraph."""

    levels: list[Level] = field(default_factory=list)
    seen: set[tuple[str, ...]] = field(default_factory=set)
    scope: tuple[str, ...] = ()
    """Path prefix of the current list: a list that restarts under a heading inside the section
    ("Game Play", "(1)" again) is cited under that heading's paragraph, e.g. ¶3(1)."""

    def _style_of(self, token: str) -> tuple[Style, int]:
        if token.isdigit():
            return Style.NUMBER, int(token)
        upper = token.isupper()
        roman = roman_value(token)
        letter = letter_value(token)
        letter_style = Style.UPPER if upper else Style.LOWER
        roman_style = Style.UPPER_ROMAN if upper else Style.ROMAN
        if roman is None:
            return letter_style, letter or 0
        if letter is None:
            return roman_style, roman
        # Both readings are possible: "i", "v", "x", "c", "l" (and "ii" reads as roman only).
        for level in reversed(self.levels):
            if level.style == letter_style and level.value + 1 == letter:
                return letter_style, letter
            if level.style == roman_style and level.value + 1 == roman:
                return roman_style, roman
        # A lone "i" opens a roman list; "ii", "iv" … are roman; "v", "x" … alone are letters.
        return (roman_style, roman) if roman == 1 or len(token) > 1 else (letter_style, letter)

    def restart(self, scope: tuple[str, ...]) -> None:
        """Open a new list under `scope` (a heading paragraph of the section)."""
        self.levels = []
        self.scope = scope

    def would_repeat(self, token: str) -> bool:
        """Whether `token` restarts a list here: its path is already taken."""
        saved = [Level(lv.style, lv.value, lv.token) for lv in self.levels]
        style, value = self._style_of(token)
        depth = next(
            (d for d in range(len(saved) - 1, -1, -1) if saved[d].style == style), len(saved)
        )
        path = self.scope + tuple(lv.token.lower() for lv in saved[:depth]) + (token.lower(),)
        return value == 1 and path in self.seen

    def place(self, token: str) -> tuple[tuple[str, ...], list[str]]:
        """The path of a paragraph labelled `token`, and any remarks about its label."""
        style, value = self._style_of(token)
        remarks: list[str] = []
        for depth in range(len(self.levels) - 1, -1, -1):
            if self.levels[depth].style == style:
                previous = self.levels[depth].value
                del self.levels[depth:]
                if value != previous + 1:
                    remarks.append(
                        f"label ({token}) follows ({_token(style, previous)}) out of sequence"
                    )
                break
        else:
            if value != 1:
                remarks.append(f"list opens at ({token}) instead of its first label")
        self.levels.append(Level(style, value, token))
        path = self.scope + tuple(level.token.lower() for level in self.levels)
        if path in self.seen:
            suffix = 2
            while path[:-1] + (f"{path[-1]}-{suffix}",) in self.seen:
                suffix += 1
            remarks.append(
                f"label ({token}) is printed twice here; this one is cited as ({token}-{suffix})"
            )
            self.levels[-1].token = f"{token}-{suffix}"
            path = path[:-1] + (f"{path[-1]}-{suffix}",)
        self.seen.add(path)
        return path, remarks


def _token(style: Style, value: int) -> str:
    if style is Style.NUMBER:
        return str(value)
    if style in (Style.LOWER, Style.UPPER):
        text = chr(ord("a") + value - 1) if value <= 26 else chr(ord("a") + value - 27) * 2
        return text.upper() if style is Style.UPPER else text
    return str(value)


def path_label(path: tuple[str, ...]) -> str:
    """(3)(b)(i) for ("3", "b", "i"); a paragraph path ("¶2",) prints as ¶2."""
    return "".join(part if part.startswith("¶") else f"({part})" for part in path)
