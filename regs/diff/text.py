"""Word-level diff of two states of a provision, unit by unit. Pure Python: no database.

A state is a sequence of units (path, citation, effective_from, text, state). Units are aligned
by subsection path where the text still matches, then by text, so a unit renumbered by an
inserted (4) is reported once as renumbered, not as ten replacements. Within a pair of units,
words are compared on a normal form (letter case, markdown, quotes and dashes, whitespace set
aside): differences of wording are substantive; differences only of case, whitespace, markdown
or punctuation are editorial. A side whose text is not on file is reported as such, never
diffed.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

# A word (letters, digits, inner apostrophes or dots: "player's", "5x", "30-899.23"'s parts), or
# one character of punctuation, or a markdown mark or HTML tag kept apart so it can be ignored.
# A date note left in a unit's text by its source ("Eff 10/16/13" in a table's last row) is an
# event, never rule text: it is one token, set aside like markdown and reported as a date note.
_NOTE = r"(?:Amended|Effective|Eff\.?)\s+\d{1,2}/\d{1,2}/\d{2,4}"
_TOKEN = re.compile(
    rf"{_NOTE}|</?[a-zA-Z][^<>]*>|\*+|\\|_{{2,}}|#+|[\w$%]+(?:['’.,/][\w$%]+)*|[^\w\s]",
    re.IGNORECASE,
)
_MARKUP = re.compile(rf"^(?:{_NOTE}|</?[a-zA-Z][^<>]*>|\*+|\\|_{{2,}}|#+)$", re.IGNORECASE)
_NOTES = re.compile(_NOTE, re.IGNORECASE)
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‑": "-"})
# Two texts at least this alike (difflib ratio of their normal forms) are one unit's versions.
SAME_UNIT = 0.6


@dataclass(frozen=True)
class UnitText:
    """One unit of a provision on one side of a diff."""

    path: str
    citation: str
    effective_from: dt.date | None
    text: str | None
    """None when not on file or not in force."""
    state: str = "in_force"
    """in_force, proposed, not_on_file, not_in_force."""
    order: int = 0


@dataclass(frozen=True)
class Side:
    citation: str
    effective_from: dt.date | None
    text: str | None
    state: str
    path: str


@dataclass(frozen=True)
class Change:
    """One difference: a span of words in a unit, or a whole unit added, removed or renumbered."""

    kind: str
    """insertion, deletion, replacement, moved, renumbered."""
    substantive: bool
    left: Side | None
    right: Side | None
    event: dict[str, object] | None = None
    editorial: tuple[str, ...] = ()
    """For a non-substantive change: what differs (case, whitespace, markdown, punctuation)."""
    note: str = ""

    def inverse(self) -> Change:
        kind = {"insertion": "deletion", "deletion": "insertion"}.get(self.kind, self.kind)
        note = " → ".join(reversed(self.note.split(" → "))) if " → " in self.note else self.note
        return replace(self, kind=kind, left=self.right, right=self.left, note=note)


@dataclass(frozen=True)
class Span:
    """A piece of a unit's redline: equal text, or text deleted and/or inserted."""

    op: str
    """equal, delete, insert, replace."""
    left: str
    right: str
    substantive: bool


@dataclass(frozen=True)
class UnitDiff:
    """A pair of aligned units (either may be missing) and their word-level redline."""

    left: UnitText | None
    right: UnitText | None
    spans: tuple[Span, ...]
    changes: tuple[Change, ...]
    status: str
    """same, changed, editorial, added, removed, not_on_file, renumbered."""


@dataclass(frozen=True)
class TextDiff:
    units: tuple[UnitDiff, ...]
    changes: tuple[Change, ...] = field(default=())


@dataclass(frozen=True)
class _Token:
    raw: str
    norm: str
    start: int
    end: int
    word: bool


@lru_cache(maxsize=8192)
def tokens(text: str) -> tuple[_Token, ...]:
    """The text's words and punctuation with their offsets; markdown marks and tags left out."""
    found = []
    for m in _TOKEN.finditer(text):
        raw = m.group()
        if _MARKUP.match(raw):
            continue
        norm = raw.translate(_FOLD).casefold()
        found.append(_Token(raw, norm, m.start(), m.end(), any(c.isalnum() for c in norm)))
    return tuple(found)


@lru_cache(maxsize=8192)
def normal_form(text: str) -> str:
    """The words of a text, case-folded, without markdown, for comparing wording."""
    return " ".join(t.norm for t in tokens(text))


def editorial_kinds(left: str, right: str) -> tuple[str, ...]:
    """What differs between two texts of one wording: case, markdown, punctuation, whitespace."""
    kinds: set[str] = set()
    if _markup(left) != _markup(right):
        kinds.add("markdown")
    if _NOTES.findall(left) != _NOTES.findall(right):
        kinds.add("date note")
    lt, rt = tokens(left), tokens(right)
    if [t.norm for t in lt] != [t.norm for t in rt]:
        kinds.add("punctuation")
    else:
        for x, y in zip(lt, rt, strict=True):
            if x.raw != y.raw:
                kinds.add("case" if x.raw.casefold() == y.raw.casefold() else "punctuation")
    if _gaps(left, lt) != _gaps(right, rt):
        kinds.add("whitespace")
    return tuple(sorted(kinds))


def _gaps(text: str, found: tuple[_Token, ...]) -> list[str]:
    """The text between tokens, markdown removed: where only whitespace differs."""
    bounds = [0, *(x for t in found for x in (t.start, t.end)), len(text)]
    return [_MARKS.sub("", text[bounds[i] : bounds[i + 1]]) for i in range(0, len(bounds), 2)]


_MARKS = re.compile(r"</?[a-zA-Z][^<>]*>|\*+|\\|_{2,}|#+")


def _strip_markup(text: str) -> str:
    return " ".join(_MARKS.sub("", text).split())


def _markup(text: str) -> list[str]:
    return _MARKS.findall(_NOTES.sub("", text))


def _side(unit: UnitText, text: str | None = None) -> Side:
    return Side(
        unit.citation,
        unit.effective_from,
        unit.text if text is None else text,
        unit.state,
        unit.path,
    )


def _similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def _has_text(unit: UnitText | None) -> bool:
    return unit is not None and unit.text is not None


def align(
    left: Sequence[UnitText], right: Sequence[UnitText]
) -> list[tuple[UnitText | None, UnitText | None]]:
    """Pairs of units, in the right side's order: first the same wording (at the same path, then
    at another: a unit pushed down by an insertion), then the same path with like wording, then
    like wording at another path (renumbered or moved), then the same path whatever the words;
    the rest unpaired (added or removed). Units without text (not on file, not in force) pair by
    path only.
    """
    norms_l = {u.path: normal_form(u.text) if u.text else "" for u in left}
    norms_r = {u.path: normal_form(u.text) if u.text else "" for u in right}
    by_path_r = {u.path: u for u in right}
    paired: dict[str, str] = {}  # left path -> right path
    # Identical wording first: the same path, then in order (a unit pushed down by an insertion).
    for u in left:
        other = by_path_r.get(u.path)
        if other is not None and _has_text(u) and _has_text(other):
            if norms_l[u.path] == norms_r[other.path]:
                paired[u.path] = other.path
    taken = set(paired.values())
    same_r: dict[str, list[str]] = {}
    for u in right:
        if u.path not in taken and _has_text(u):
            same_r.setdefault(norms_r[u.path], []).append(u.path)
    for u in left:
        if u.path not in paired and _has_text(u) and same_r.get(norms_l[u.path]):
            paired[u.path] = same_r[norms_l[u.path]].pop(0)
            taken.add(paired[u.path])
    for u in left:
        other = by_path_r.get(u.path)
        if other is None or u.path in paired or other.path in taken:
            continue
        if not (_has_text(u) and _has_text(other)):
            paired[u.path] = other.path
        elif _similarity(norms_l[u.path], norms_r[other.path]) >= SAME_UNIT:
            paired[u.path] = other.path
        if u.path in paired:
            taken.add(other.path)
    free_l = [u for u in left if u.path not in paired and _has_text(u)]
    free_r = [u for u in right if u.path not in taken and _has_text(u)]
    candidates = sorted(
        (
            (-_similarity(norms_l[a.path], norms_r[b.path]), a.order, b.order, a.path, b.path)
            for a in free_l
            for b in free_r
            if norms_l[a.path] and norms_r[b.path]
        ),
    )
    for score, _, _, lp, rp in candidates:
        if -score < SAME_UNIT:
            break
        if lp in paired or rp in taken:
            continue
        paired[lp] = rp
        taken.add(rp)
    for u in left:
        if u.path not in paired and u.path in by_path_r and u.path not in taken:
            paired[u.path] = u.path
            taken.add(u.path)
    right_index = {u.path: i for i, u in enumerate(right)}
    left_index = {u.path: i for i, u in enumerate(left)}
    # Order: by the right side's position, left-only units just after their left predecessor.
    keyed: list[tuple[tuple[int, int, int], UnitText | None, UnitText | None]] = []
    last_right = -1
    for u in left:
        if u.path in paired:
            rp = paired[u.path]
            last_right = right_index[rp]
            keyed.append(((right_index[rp], 0, left_index[u.path]), u, by_path_r[rp]))
        else:
            keyed.append(((last_right, 1, left_index[u.path]), u, None))
    for u in right:
        if u.path not in taken:
            keyed.append(((right_index[u.path], 0, -1), None, u))
    keyed.sort(key=lambda k: k[0])
    return [(a, b) for _, a, b in keyed]


def _parent(path: str) -> str:
    match = re.match(r"^(.*)(\([^()]+\)|¶\d+)$", path)
    return match.group(1) if match else ""


def word_diff(
    left: str, right: str
) -> tuple[tuple[Span, ...], list[tuple[str, str, str, bool]], tuple[str, ...]]:
    """Spans of the redline, the differences of wording (op, left words, right words,
    substantive) and what differs editorially in the text left equal."""
    lt, rt = tokens(left), tokens(right)
    matcher = difflib.SequenceMatcher(
        None, [t.norm for t in lt], [t.norm for t in rt], autojunk=False
    )
    spans: list[Span] = []
    differences: list[tuple[str, str, str, bool]] = []
    editorial_equal = False
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        ltext = left[lt[i1].start : lt[i2 - 1].end] if i2 > i1 else ""
        rtext = right[rt[j1].start : rt[j2 - 1].end] if j2 > j1 else ""
        lspan = left[_cut(lt, i1, left) : _cut(lt, i2, left)]
        rspan = right[_cut(rt, j1, right) : _cut(rt, j2, right)]
        if op == "equal":
            if ltext != rtext:
                editorial_equal = True
            spans.append(Span("equal", lspan, rspan, False))
            continue
        words = any(t.word for t in lt[i1:i2]) or any(t.word for t in rt[j1:j2])
        span_op = {"insert": "insert", "delete": "delete"}.get(op, "replace")
        spans.append(Span(span_op, lspan, rspan, words))
        differences.append((span_op, ltext, rtext, words))
    kinds: set[str] = set()
    if editorial_equal:
        for span in spans:
            if span.op == "equal" and span.left != span.right:
                kinds.update(editorial_kinds(span.left, span.right))
    if _markup(left) != _markup(right):
        kinds.add("markdown")
    if _NOTES.findall(left) != _NOTES.findall(right):
        kinds.add("date note")
    if not differences and not kinds and left != right:
        kinds.add("whitespace")
    return tuple(spans), differences, tuple(sorted(set(kinds)))


def _cut(found: tuple[_Token, ...], index: int, text: str) -> int:
    """Where the span starting at token `index` begins: the first begins at 0, the end at len."""
    if index == 0:
        return 0
    return found[index].start if index < len(found) else len(text)


_NOTE_KINDS = {"amended", "effective", "adopted", "repealed_readopted", "repealed"}


def unit_event(
    events: Sequence[dict[str, object]], left: UnitText | None, right: UnitText | None
) -> dict[str, object] | None:
    """The dated event behind a change: the note on the unit dated the later side's start."""
    dates = [u.effective_from for u in (left, right) if u is not None and u.effective_from]
    if not dates:
        return None
    newest = max(dates)
    paths = {u.path for u in (left, right) if u is not None}
    for e in events:
        if e.get("unit") in paths and e.get("date") == newest and e.get("kind") in _NOTE_KINDS:
            return e
    return None


def diff_units(
    left: Sequence[UnitText],
    right: Sequence[UnitText],
    events: Sequence[dict[str, object]] = (),
) -> TextDiff:
    """The differences from `left` to `right` (two states of one provision), unit by unit.

    Deterministic, empty when both sides are the same, and diff_units(b, a) is the inverse of
    diff_units(a, b) (insertions become deletions, sides swap).
    """
    unit_diffs: list[UnitDiff] = []
    all_changes: list[Change] = []
    pairs = align(left, right)
    moves = {a.path: b.path for a, b in pairs if a is not None and b is not None}
    for a, b in pairs:
        unit_diffs.append(_diff_pair(a, b, events, moves))
        all_changes.extend(unit_diffs[-1].changes)
    return TextDiff(tuple(unit_diffs), tuple(all_changes))


def _diff_pair(
    a: UnitText | None,
    b: UnitText | None,
    events: Sequence[dict[str, object]],
    moves: dict[str, str],
) -> UnitDiff:
    event = unit_event(events, a, b)
    live = ("in_force", "proposed")
    if a is None or a.state == "not_in_force":
        if b is None or b.state == "not_in_force":
            return UnitDiff(a, b, (), (), "same")
        if b.state not in live:
            return UnitDiff(a, b, (), (), "not_on_file")
        change = Change("insertion", True, _side(a) if a else None, _side(b), event)
        return UnitDiff(a, b, (Span("insert", "", b.text or "", True),), (change,), "added")
    if b is None or b.state == "not_in_force":
        if a.state not in live:
            return UnitDiff(a, b, (), (), "not_on_file")
        change = Change("deletion", True, _side(a), _side(b) if b else None, event)
        return UnitDiff(a, b, (Span("delete", a.text or "", "", True),), (change,), "removed")
    if a.state not in live or b.state not in live:
        return UnitDiff(a, b, (), (), "not_on_file")
    assert a.text is not None and b.text is not None
    if a.text == b.text and a.path == b.path:
        return UnitDiff(a, b, (Span("equal", a.text, b.text, False),), (), "same")
    changes: list[Change] = []
    status = "same"
    if a.path != b.path:
        parent_a, parent_b = _parent(a.path), _parent(b.path)
        carried = parent_a != parent_b and moves.get(parent_a) == parent_b
        if not (carried and a.path[len(parent_a) :] == b.path[len(parent_b) :]):
            # A unit carried along by its renumbered parent ((4)(a) → (5)(a)) is said by the
            # parent's change; one renumbered in place or moved elsewhere is a change of its own.
            kind = "renumbered" if parent_a == parent_b or carried else "moved"
            changes.append(
                Change(kind, True, _side(a, ""), _side(b, ""), event, note=f"{a.path} → {b.path}")
            )
        status = "renumbered"
    spans, differences, kinds = word_diff(a.text, b.text)
    for op, ltext, rtext, substantive in differences:
        kind = {"insert": "insertion", "delete": "deletion"}.get(op, "replacement")
        note = ""
        if substantive and op == "replace" and len(ltext.split()) == len(rtext.split()) == 1:
            if difflib.SequenceMatcher(None, ltext.casefold(), rtext.casefold()).ratio() >= 0.8:
                note = "spelling"
        changes.append(
            Change(
                kind,
                substantive,
                _side(a, ltext),
                _side(b, rtext),
                event,
                () if substantive else ("punctuation",),
                note,
            )
        )
    if any(c.substantive for c in changes if c.kind not in ("moved", "renumbered")):
        status = "changed" if status == "same" else status
    if kinds and a.text != b.text:
        changes.append(Change("replacement", False, _side(a), _side(b), event, kinds, "editorial"))
        if status == "same":
            status = "editorial"
    elif status == "same" and differences:
        status = "editorial"
    return UnitDiff(a, b, spans, tuple(changes), status)
