"""Date notes at the end of a regulation paragraph: split them off and parse them into dated events.

Reads: one paragraph of plain text (markup removed, whitespace collapsed, line-wraps joined).
Writes: the paragraph without its trailing notes, and each note as a `Note` of `DateEvent`s.

A note is one of these, at the end of a paragraph, several at once and in any order:

- a parenthetical history with a date and a history keyword:
  "(30-1204 amended, perm. 11/30/96. 30-1204 repealed and readopted as 30-803, with amendments,
  perm. 12/30/98; 30-803 (1) amended perm 10/30/2002 …)";
- a run of dated items: "Amended 03/01/2012, Amended 12/15/17", "Eff 2/14/2013, Amended 8/14/15",
  "Amen 10/16/13" (Rule 21's cut-off "Amended"), "amended 1/14/14" (a pay-table row);
- a run naming what it covers, as a paragraph of its own: "Paytables 6 and 7 effective 2/14/16".

Inside a history a "perm."/"temp."/"effective" date applies to the dateless clauses before it in
the same sentence ("(1) amended, (2)-(3) added perm 12/30/98" dates both). A clause that names no
section or subsection is about the last one named ("30-817 perm. 12/30/94. Renumbered as 30-818 and
amended, …" renumbers and amends 30-817); a bare "Amended 12/15/17" is about the unit the note sits
on (subject ""). Source defects (a duplicated fragment, a missing parenthesis, clauses run together)
are parsed through and reported in `Note.defects`, never silently fixed.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["DateEvent", "EventKind", "Note", "parse_date", "parse_note", "split_notes"]


class EventKind(StrEnum):
    """What a date note says happened."""

    ADOPTED = "adopted"
    """The unit was added or adopted: "added, perm. 12/30/98"; "perm. 6/30/93" after a temp. one."""
    AMENDED = "amended"
    """The text was amended: "Amended 03/01/2012", "amended perm 12/30/98", "with amendments"."""
    EFFECTIVE = "effective"
    """The text took effect on the date ("Effective 10/15/20", "Eff 7/15/14")."""
    TEMPORARY = "temporary"
    """A temporary (emergency) adoption ("temp. 5/13/93"); an event only, it starts no version."""
    RENUMBERED = "renumbered"
    """The subject was renumbered as `new_label` ("30-831 renumbered as 30-804")."""
    RELOCATED = "relocated"
    """The subject was relocated and renumbered as `new_label`."""
    REPEALED = "repealed"
    """The subject was repealed."""
    REPEALED_READOPTED = "repealed_readopted"
    """The subject was repealed and readopted as `new_label` ("30-1210 … readopted as 30-805")."""


@dataclass(frozen=True)
class DateEvent:
    """One dated event of a note."""

    kind: EventKind
    date: datetime.date | None
    """The date the note gives for the event; None if it gives none (`raw` then shows no date)."""
    permanent: bool | None
    """True for "perm.", False for "temp.", None when the note does not say."""
    subject: str
    """What the event is about, as written: "" (the unit the note sits on), "30-1204", "(1)",
    "(2)-(3)", "30-803 (1)", "These regulations", "Paytables 6 and 7"."""
    new_label: str
    """The label a renumbering or readoption gives ("30-803", "30-832 through 30-832.09"), or ""."""
    raw: str
    """The exact fragment of the note the event comes from, through its date."""


@dataclass(frozen=True)
class Note:
    """One date note, as printed, with its events and the source defects found in it."""

    raw: str
    """The note exactly as in the paragraph."""
    events: tuple[DateEvent, ...]
    defects: tuple[str, ...] = field(default=())
    """Human-readable source defects: duplicated fragment, unbalanced parenthesis, …"""

    @property
    def is_history(self) -> bool:
        """A parenthetical history, including one printed without its opening parenthesis."""
        return self.raw.lstrip().startswith("(") or self.raw.rstrip().rstrip(".").endswith(")")


# --- dates ------------------------------------------------------------------------------------

_DATE_TEXT = r"(?<![\d/])\d{1,2}/\d{1,2}/\d{2,4}(?![\d/])"
_DATE = re.compile(_DATE_TEXT)
_DATE_PARTS = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})")


def parse_date(text: str) -> datetime.date:
    """A note's month/day/year date: "5/13/93" → 1993-05-13, "03/01/2012", "10/30/2002".

    Two-digit years 50–99 are 19xx and 00–49 are 20xx.

    :raises ValueError: if the text is not m/d/yy or m/d/yyyy, or names no real day ("13/45/20").
    """
    match = _DATE_PARTS.fullmatch(text.strip())
    if not match:
        raise ValueError(f"not a m/d/yy date: {text!r}")
    month, day, year = (int(part) for part in match.groups())
    if len(match.group(3)) == 2:
        year += 1900 if year >= 50 else 2000
    try:
        return datetime.date(year, month, day)
    except ValueError as exc:
        raise ValueError(f"impossible date {text!r}: {exc}") from None


# --- tokens -----------------------------------------------------------------------------------

_SECTION = r"\d{2}-\d{3,4}(?:\.\d{1,2})?"
_SUB = r"\(\d{1,3}\)(?:\([a-z]{1,4}\))*"
_SUB_RANGE = rf"{_SUB}(?:\s*[-–]\s*{_SUB})?"
_LABEL = (
    rf"{_SECTION}(?:\s+through\s+{_SECTION})?(?:\s*{_SUB_RANGE})?"
    rf"|{_SUB_RANGE}"
    r"|these\s+regulations"
    r"|pay\s?tables?\s+\d+(?:\s*(?:,|and|&)\s*\d+)*"
)
_TOKEN = re.compile(
    rf"""
    (?P<date>{_DATE_TEXT})
    |(?P<label>{_LABEL})
    |(?P<temp>temp(?:orary)?\b\.?)
    |(?P<perm>perm(?:anent)?\b\.?)
    |(?P<effective>eff(?:ective)?\b\.?)
    |(?P<with_amendments>with\s+amendments?\b)
    |(?P<amended>amen(?:ded)?\b)
    |(?P<readopted>readopted\b)
    |(?P<added>(?:added|adopted)\b)
    |(?P<renumbered>renumbered\b)
    |(?P<relocated>relocated\b)
    |(?P<repealed>repealed\b)
    |(?P<as>as\b)
    |(?P<and>and\b)
    |(?P<sep>[,;])
    |(?P<stop>\.)
    |(?P<open>\()
    |(?P<close>\))
    |(?P<word>[^\s,;.()]+)
    """,
    re.IGNORECASE | re.VERBOSE,
)
_VERBS = {"amended", "added", "readopted", "renumbered", "relocated", "repealed", "with_amendments"}
_QUALIFIERS = {"temp", "perm", "effective"}
_SUB_AT = re.compile(r"\(\d{1,3}\)")
_RENUMBER_KINDS = {EventKind.RENUMBERED, EventKind.RELOCATED, EventKind.REPEALED_READOPTED}


@dataclass(frozen=True)
class _Token:
    kind: str
    text: str
    start: int
    end: int


def _tokens(text: str, start: int, end: int) -> list[_Token]:
    out: list[_Token] = []
    for match in _TOKEN.finditer(text, start, end):
        kind = match.lastgroup or "word"
        out.append(_Token(kind, match.group(), match.start(), match.end()))
    return out


@dataclass
class _Pending:
    kind: EventKind
    subject: str
    start: int
    end: int
    new_label: str = ""


class _NoteParser:
    """Reads the tokens of one note body into events, clause by clause, sentence by sentence."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.events: list[tuple[int, DateEvent]] = []
        self.defects: list[str] = []
        self.pending: list[_Pending] = []
        self.last_subject = ""
        self.clause_label: _Token | None = None
        self.label_used = False
        self.clause_has_verb = False
        self.qualifier: _Token | None = None
        self.after_as = False
        self.previous: _Token | None = None

    # clause state

    def _reset_clause(self) -> None:
        self.clause_label = None
        self.label_used = False
        self.clause_has_verb = False
        self.after_as = False

    def _subject_and_start(self, token: _Token, *, bare: bool = False) -> tuple[str, int]:
        """The subject of a verb or date met at `token`, and where its fragment starts.

        A bare dated keyword ("Amended 12/15/17") with no label in its clause is about the unit
        the note sits on; any other clause without a label is about the last subject named.
        """
        if self.clause_label is not None:
            start = token.start if self.label_used else self.clause_label.start
            self.label_used = True
            return self.clause_label.text, start
        return ("" if bare else self.last_subject), token.start

    def _add(
        self,
        start: int,
        end: int,
        kind: EventKind,
        date: datetime.date | None,
        permanent: bool | None,
        subject: str,
        new_label: str = "",
    ) -> None:
        event = DateEvent(kind, date, permanent, subject, new_label, self.raw[start:end])
        self.events.append((start, event))

    # token handlers

    def _verb(self, token: _Token, following: _Token | None) -> None:
        kind = token.kind
        last = self.pending[-1] if self.pending else None
        self.clause_has_verb = True
        if last is not None and self._joined(last):
            if kind == "renumbered" and last.kind is EventKind.RELOCATED:
                last.end = token.end  # "relocated and renumbered"
                return
            if kind == "readopted" and last.kind is EventKind.REPEALED:
                last.kind = EventKind.REPEALED_READOPTED
                last.end = token.end
                return
        if kind in {"amended", "added"} and following is not None and following.kind == "date":
            self.qualifier = token  # "Amended 12/15/17", "30-835 amended 7/15/14": dated directly
            return
        if token.text.lower() == "amen":
            self.defects.append("keyword 'Amen' is cut short; read as 'Amended'")
        subject, start = self._subject_and_start(token)
        event_kind = {
            "amended": EventKind.AMENDED,
            "with_amendments": EventKind.AMENDED,
            "added": EventKind.ADOPTED,
            "readopted": EventKind.ADOPTED,
            "renumbered": EventKind.RENUMBERED,
            "relocated": EventKind.RELOCATED,
            "repealed": EventKind.REPEALED,
        }[kind]
        self.pending.append(_Pending(event_kind, subject, start, token.end))

    def _joined(self, last: _Pending) -> bool:
        """The previous verb is in this clause, joined by "and" ("relocated and renumbered")."""
        previous = self.previous
        return previous is not None and previous.kind == "and" and last.end <= previous.start

    def _label(self, token: _Token) -> None:
        if self.after_as:
            self.after_as = False
            for pending in reversed(self.pending):
                if pending.kind in _RENUMBER_KINDS or pending.kind is EventKind.ADOPTED:
                    pending.new_label = token.text
                    pending.end = token.end
                    return
            self.defects.append(f"'as {token.text}' follows no renumbering")
            return
        if self.previous is not None and self.previous.kind == "date":
            self.defects.append(
                f"no separator between clauses: {self.raw[self.previous.start : token.end]!r}"
            )
        self.clause_label = token
        self.label_used = False
        self.last_subject = token.text

    def _date(self, token: _Token) -> None:
        try:
            date: datetime.date | None = parse_date(token.text)
        except ValueError:
            self.defects.append(f"impossible date {token.text!r}")
            date = None
        qualifier = self.qualifier
        q = "" if qualifier is None else qualifier.kind
        if q == "temp":
            permanent: bool | None = False
        elif q == "perm":
            permanent = True
        else:
            permanent = None
        if q in {"amended", "added"} and qualifier is not None:
            if qualifier.text.lower() == "amen":
                self.defects.append("keyword 'Amen' is cut short; read as 'Amended'")
            bare = not self.pending
            subject, start = self._subject_and_start(qualifier, bare=bare)
            kind = EventKind.AMENDED if q == "amended" else EventKind.ADOPTED
            self._resolve(token, date, permanent)
            self._add(start, token.end, kind, date, permanent, subject)
        elif self.pending:
            self._resolve(token, date, permanent, temporary=(q == "temp"))
        elif q in _QUALIFIERS and qualifier is not None:
            if q == "effective":
                subject, start = self._subject_and_start(qualifier, bare=True)
                kind = EventKind.EFFECTIVE
            else:
                subject, start = self._subject_and_start(qualifier)
                kind = EventKind.TEMPORARY if q == "temp" else EventKind.ADOPTED
            self._add(start, token.end, kind, date, permanent, subject)
        else:
            self.defects.append(f"date {token.text!r} names no event")
        self.qualifier = None
        self._reset_clause()

    def _resolve(
        self,
        token: _Token,
        date: datetime.date | None,
        permanent: bool | None,
        *,
        temporary: bool = False,
    ) -> None:
        for pending in self.pending:
            kind = pending.kind
            if temporary and kind is EventKind.ADOPTED:
                kind = EventKind.TEMPORARY  # "added, temp. 1/5/99"
            self._add(
                pending.start, token.end, kind, date, permanent, pending.subject, pending.new_label
            )
        self.pending.clear()

    def _end_sentence(self) -> None:
        for pending in self.pending:
            fragment = self.raw[pending.start : pending.end]
            self.defects.append(f"no date for {fragment!r}")
            # "added, perm." with no date: the note still says the adoption was permanent.
            perm = self.qualifier is not None and self.qualifier.kind == "perm"
            permanent = True if perm else None
            self._add(
                pending.start,
                pending.end,
                pending.kind,
                None,
                permanent,
                pending.subject,
                pending.new_label,
            )
        self.pending.clear()
        self.qualifier = None
        self._reset_clause()

    def run(self, start: int, end: int) -> None:
        tokens = _tokens(self.raw, start, end)
        for index, token in enumerate(tokens):
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            kind = token.kind
            if kind == "label":
                self._label(token)
            elif kind in _VERBS:
                self._verb(token, following)
            elif kind in _QUALIFIERS:
                self.qualifier = token
            elif kind == "date":
                self._date(token)
            elif kind == "as":
                self.after_as = True
            elif kind == "sep":
                if self.clause_has_verb or self.clause_label is None:
                    self._reset_clause()
            elif kind == "stop":
                self._end_sentence()
            # "and", stray parentheses and other words ("were", "with") carry no meaning here.
            self.previous = token
        self._end_sentence()


# --- parse_note -------------------------------------------------------------------------------


def _match_close(text: str, close_at: int, lower: int = 0) -> int | None:
    """The index of the "(" that the ")" at `close_at` closes, or None if none does."""
    depth = 0
    for index in range(close_at, lower - 1, -1):
        char = text[index]
        if char == ")":
            depth += 1
        elif char == "(":
            depth -= 1
            if depth == 0:
                return index
    return None


def _unmatched_opens(text: str, start: int, end: int) -> list[int]:
    stack: list[int] = []
    for index in range(start, end):
        if text[index] == "(":
            stack.append(index)
        elif text[index] == ")" and stack:
            stack.pop()
    return stack


def parse_note(raw: str) -> Note:
    """The events of one note, as `split_notes` cut it from a paragraph (or any note text).

    Never raises on a malformed note: what cannot be read is reported in `Note.defects`.
    """
    defects: list[str] = []
    start = len(raw) - len(raw.lstrip())
    end = len(raw.rstrip())
    if end > start and raw[end - 1] == "." and raw[start : end - 1].rstrip().endswith(")"):
        end = len(raw[: end - 1].rstrip())
    opens, closes = raw.count("("), raw.count(")")
    if opens != closes:
        defects.append(f"unbalanced parentheses: {opens} '(' and {closes} ')'")
    body_start, body_end = start, end
    # The wrapping "(": not a subsection label such as the "(2)" of "(2) added, perm. 12/30/98".
    wrapped = end > start and raw[start] == "(" and not _SUB_AT.match(raw, start)
    if wrapped and raw[end - 1] == ")":
        body_start, body_end = start + 1, end - 1
    elif end > start and raw[end - 1] == ")" and _match_close(raw, end - 1, start) is None:
        defects.append("missing opening parenthesis")
        body_end = end - 1
    elif wrapped:
        defects.append("missing closing parenthesis")
        body_start = start + 1
    # An unclosed "(" inside the body: a fragment printed twice, or a stray parenthesis.
    for stray in _unmatched_opens(raw, body_start, body_end):
        before = raw[body_start:stray].strip()
        after = raw[stray + 1 : body_end].lstrip()
        if before and after.lower().startswith(before.lower()):
            fragment = raw[start:stray].rstrip()
            defects.append(
                f"duplicated fragment: {fragment!r} is printed, cut short, before the full text"
            )
            body_start = stray + 1
        else:
            defects.append(f"stray '(' before {raw[stray + 1 : stray + 21]!r}")
    parser = _NoteParser(raw)
    parser.run(body_start, body_end)
    defects.extend(parser.defects)
    events = tuple(event for _, event in sorted(parser.events, key=lambda item: item[0]))
    seen: set[tuple[EventKind, datetime.date | None, str]] = set()
    for event in events:
        key = (event.kind, event.date, event.subject)
        if key in seen and event.date is not None:
            named = f"{event.subject} " if event.subject else ""
            defects.append(
                f"event printed twice: {named}{event.kind.value} {event.date.isoformat()}"
            )
        seen.add(key)
    if not events:
        defects.append("no event could be read")
    return Note(raw=raw, events=events, defects=tuple(dict.fromkeys(defects)))


# --- split_notes ------------------------------------------------------------------------------

_KEYWORD = re.compile(
    r"\b(?:amended|amen|added|adopted|readopted|renumbered|relocated|repealed|temp|perm|effective|eff)\b",
    re.IGNORECASE,
)
_RUN_ITEM = rf"(?:amended|amen|effective|eff\.?)\s+{_DATE_TEXT}"
_RUN_ITEM_AT = re.compile(rf"(?<![^\s:;,.(|\]]){_RUN_ITEM}", re.IGNORECASE)
"""A dated item ("Amended 03/01/2012") that starts a word."""
_RUN_TO_END = re.compile(rf"{_RUN_ITEM}(?:\s*[,;]?\s*{_RUN_ITEM})*\s*\.?\s*$", re.IGNORECASE)
"""Dated items, separated by commas, through the end of the text."""
# "as amended 5/1/21", "will become effective 5/1/21": a sentence that mentions a date, not a note.
_VERB_BEFORE = re.compile(
    r"\b(?:as|be|been|being|is|are|was|were|become|becomes|became|not)\s*$",
    re.IGNORECASE,
)
_PAY_TABLES = re.compile(r"pay\s?tables?\s+\d+(?:\s*(?:,|and|&)\s*\d+)*", re.IGNORECASE)
_HISTORY_OPENING = (
    rf"{_SECTION}(?:\s*{_SUB_RANGE})?,?\s+(?:temp|perm|added|adopted|amended|renumbered|relocated|repealed)\b"
    r"|(?:perm|temp)\b\.?,?\s*\d"
    r"|these\s+regulations\b"
)
_HISTORY_START = re.compile(f"(?:{_HISTORY_OPENING})", re.IGNORECASE)
"""How a history opens: "30-835 added", "perm. 03/02/01", "These regulations"."""
_HISTORY_SENTENCE = re.compile(
    rf"(?:{_HISTORY_OPENING}|(?:renumbered|relocated|repealed|amended|added|effective|eff)\b)",
    re.IGNORECASE,
)
"""How a later sentence of a history opens; it may omit its subject ("Renumbered as 30-818 …")."""
_SENTENCE_END = re.compile(r"(?<!perm)(?<!temp)(?<!\beff)\.\s+", re.IGNORECASE)


def _is_history(text: str) -> bool:
    return bool(_DATE.search(text) and _KEYWORD.search(text))


def _all_history(text: str) -> bool:
    """Every sentence of the text reads as a history clause."""
    sentences = [s for s in _SENTENCE_END.split(text) if s]
    return all(_HISTORY_SENTENCE.match(sentence) for sentence in sentences)


def _paren_note_start(text: str) -> int | None:
    """Where a trailing parenthetical history starts, or None if the text does not end with one."""
    end = len(text)
    if text.endswith(")."):
        end -= 1
    if not text[:end].endswith(")"):
        return None
    open_at = _match_close(text, end - 1)
    if open_at is None:
        # Printed without its "(": "30-834.4 renumbered as 30-899.06, effective 12/15/17)".
        for match in _HISTORY_START.finditer(text, 0, end - 1):
            begin = match.start()
            if begin and not text[begin - 1].isspace():
                continue
            if _is_history(text[begin:end]) and _all_history(text[begin : end - 1]):
                return begin
        return None
    if not _is_history(text[open_at:end]):
        return None
    if open_at and not (text[open_at - 1].isspace() or text[open_at - 1] in ".;:,"):
        return None
    # A history fragment left open just before it: "(30-842 added, perm. (30-842 added, perm. …)".
    unclosed = _unmatched_opens(text, 0, open_at)
    if unclosed and _HISTORY_START.match(text, unclosed[-1] + 1):
        return unclosed[-1]
    return open_at


def _run_note_start(text: str) -> int | None:
    """Where a trailing run of dated items ("Amended 03/01/2012, Amended 12/15/17") starts."""
    for item in _RUN_ITEM_AT.finditer(text):
        begin = item.start()
        # "as amended 5/1/21": the item belongs to the sentence; a later one may still start a run.
        if not _RUN_TO_END.match(text, begin) or _VERB_BEFORE.search(text, 0, begin):
            continue
        if _PAY_TABLES.fullmatch(text[:begin].strip()):
            return len(text) - len(text.lstrip())  # "Paytables 6 and 7 effective 2/14/16"
        return begin
    return None


def split_notes(paragraph: str) -> tuple[str, list[Note]]:
    """Return the paragraph without its trailing date notes, and the notes in order.

    The remaining text is right-stripped; a paragraph with no note comes back unchanged.
    Dates and "amended" in the middle of a sentence are text, not notes.
    """
    text = paragraph.rstrip()
    notes: list[Note] = []
    while text:
        begin = _paren_note_start(text)
        if begin is None:
            begin = _run_note_start(text)
        if begin is None:
            break
        notes.insert(0, parse_note(text[begin:]))
        text = text[:begin].rstrip()
    if not notes:
        return paragraph, []
    return text, notes
