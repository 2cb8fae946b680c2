"""Search of the rule text as it stood on a date, across jurisdictions and instruments.

On PostgreSQL, full-text search (English stemming: "doubling" finds "double"), ranked, with the
matching words highlighted by ts_headline; on SQLite, every word contained (case-insensitive),
highlighted here. Either way the text is escaped first and highlighted after, so rule text can
never inject markup.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from html import escape

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils.safestring import SafeString, mark_safe

from pitboss.periods import in_force_on

from . import selectors
from .models import Provision, Status, UnitVersion

# Highlight delimiters PostgreSQL puts around matches: control characters no rule text holds,
# replaced by <mark> after the snippet is escaped.
_START, _STOP = "\x02", "\x03"
_WORD = re.compile(r"\w+", re.UNICODE)
SNIPPETS = 3
STOP_WORDS = frozenset(
    "a an and are as at be but by for from has have if in into is it its no not of on or such "
    "that the their then there these they this to was were which will with".split()
)
"""Words too common to search for or to highlight (a subset of PostgreSQL's English stop words,
which its full-text search leaves out itself): "the surrender" searches "surrender"."""
SYNTAX = {
    "postgresql": (
        "Words are matched by their stem (“doubling” finds “double”), all of them; "
        "“quoted words” match as a phrase, “or” between two words matches either, and "
        "-word leaves out what holds it. Common words (the, of, and…) are not searched."
    ),
    "sqlite": (
        "Every word must appear, as written or at the start of a longer word (“doubl” finds "
        "“double” and “doubling”), in any case. Common words (the, of, and…) are not searched."
    ),
}
"""What a query may say, by database (PostgreSQL's websearch syntax; the plain fallback)."""


@dataclass(frozen=True)
class Snippet:
    path: str
    citation: str
    html: SafeString
    """Escaped text with the matching words in <mark>."""


@dataclass(frozen=True)
class SearchHit:
    state: selectors.ProvisionState
    title: SafeString
    snippets: tuple[Snippet, ...]
    rank: float


def words_of(q: str) -> list[str]:
    """The words of a query, as the fallback matches them and the page highlights them: its
    common words (STOP_WORDS) left out."""
    return [w for w in _WORD.findall(q.casefold()) if w not in STOP_WORDS]


def words_left_out(q: str) -> list[str]:
    """The query's common words, not searched (each once, in order)."""
    return list(dict.fromkeys(w for w in _WORD.findall(q.casefold()) if w in STOP_WORDS))


def highlight(text: str, words: list[str]) -> SafeString:
    """`text` escaped, then each occurrence of a word (case-insensitive, word start) in <mark>."""
    safe = escape(text)
    if not words:
        return mark_safe(safe)  # noqa: S308 - escaped above
    pattern = re.compile(
        r"(?<![&#])\b("
        + "|".join(re.escape(escape(w)) for w in sorted(set(words), key=len, reverse=True))
        + ")",
        re.IGNORECASE,
    )
    return mark_safe(pattern.sub(r"<mark>\1</mark>", safe))  # noqa: S308 - escaped above


def _marked(headline: str) -> SafeString:
    safe = escape(headline).replace(_START, "<mark>").replace(_STOP, "</mark>")
    return mark_safe(safe)  # noqa: S308 - escaped above


def _word_starts(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + ")", re.IGNORECASE)


def _excerpt(text: str, words: list[str], width: int = 240) -> str:
    """The part of `text` around its first matching word."""
    first = _word_starts(words).search(text)
    at = first.start() if first else 0
    start = max(0, at - width // 3)
    end = min(len(text), start + width)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def _in_force_on(as_of: dt.date) -> Q:
    """Versions in force on the date (their text on file or not)."""
    return ~Q(status=Status.PROPOSED) & in_force_on(as_of)


def _scope(jurisdiction: str | None, as_of: dt.date) -> QuerySet[Provision]:
    """The provisions searched: the jurisdiction's (or all), in force on the date."""
    in_force = UnitVersion.objects.filter(_in_force_on(as_of)).values("unit__provision_id")
    qs = Provision.objects.filter(pk__in=in_force)
    return qs.filter(instrument__jurisdiction__code=jurisdiction) if jurisdiction else qs


def _postgres_matches(
    q: str, jurisdiction: str | None, as_of: dt.date
) -> dict[int, tuple[float, dict[str, str]]]:
    """Provision id → (best rank, {unit path: headline}) by full-text search."""
    from django.contrib.postgres.search import (
        SearchHeadline,
        SearchQuery,
        SearchRank,
        SearchVector,
    )

    query = SearchQuery(q, config="english", search_type="websearch")
    found: dict[int, tuple[float, dict[str, str]]] = {}
    versions = (
        UnitVersion.objects.filter(
            _in_force_on(as_of), on_file=True, unit__provision__in=_scope(jurisdiction, as_of)
        )
        .annotate(vector=SearchVector("text", config="english"))
        .filter(vector=query)
        .annotate(
            rank=SearchRank(SearchVector("text", config="english"), query),
            headline=SearchHeadline(
                "text",
                query,
                config="english",
                start_sel=_START,
                stop_sel=_STOP,
                max_words=35,
                min_words=12,
            ),
        )
        .values_list("unit__provision_id", "unit__path", "rank", "headline")
        .order_by("-rank", "unit__order")
    )
    for pk, path, rank, headline in versions:
        best, lines = found.setdefault(pk, (rank, {}))
        if len(lines) < SNIPPETS:
            lines[path] = headline
    titled = (
        _scope(jurisdiction, as_of)
        .annotate(vector=SearchVector("title", config="english"))
        .filter(vector=query)
        .values_list("pk", flat=True)
    )
    for pk in titled:
        rank, lines = found.get(pk, (0.0, {}))
        found[pk] = (rank + 1.0, lines)  # a match in the title outranks one in the text
    return found


def _fallback_matches(
    q: str, jurisdiction: str | None, as_of: dt.date
) -> dict[int, tuple[float, dict[str, str]]]:
    """Provision id → (rank, {unit path: excerpt}): every word in the title or the text in force."""
    words = words_of(q)
    if not words:
        return {}
    texts: dict[int, dict[str, str]] = {}
    any_word = Q()
    for w in words:
        any_word |= Q(text__icontains=w)
    for pk, path, text in (
        UnitVersion.objects.filter(
            _in_force_on(as_of),
            any_word,
            on_file=True,
            unit__provision__in=_scope(jurisdiction, as_of),
        )
        .order_by("unit__provision_id", "unit__order")
        .values_list("unit__provision_id", "unit__path", "text")
    ):
        texts.setdefault(pk, {})[path] = text
    titles = dict(_scope(jurisdiction, as_of).values_list("pk", "title"))
    found: dict[int, tuple[float, dict[str, str]]] = {}
    for pk, title in titles.items():
        units = texts.get(pk, {})
        haystack = " ".join([title, *units.values()]).casefold()
        if not all(w in haystack for w in words):
            continue
        starts = _word_starts(words)
        hits = {p: t for p, t in units.items() if starts.search(t)}
        score = sum(haystack.count(w) for w in words) + 10 * sum(
            w in title.casefold() for w in words
        )
        found[pk] = (
            float(score),
            {p: _excerpt(t, words) for p, t in list(hits.items())[:SNIPPETS]},
        )
    return found


def rule_text_search(
    *, q: str, as_of: dt.date, jurisdiction: str | None = None, limit: int = 50
) -> tuple[list[SearchHit], int]:
    """Provisions whose title or text in force on `as_of` matches `q`, best first, with the
    matching units' text highlighted; and how many matched in all (the hits stop at `limit`)."""
    if not q.strip():
        return [], 0
    if connection.vendor == "postgresql":
        found = _postgres_matches(q, jurisdiction, as_of)
    else:
        found = _fallback_matches(q, jurisdiction, as_of)
    ranked = sorted(found, key=lambda pk: -found[pk][0])[:limit]
    words = words_of(q)
    hits = []
    for record in selectors.provision_records(ranked):
        state = selectors.provision_state(record, as_of=as_of)
        rank, lines = found[record.pk]
        postgres = connection.vendor == "postgresql"
        snippets = tuple(
            Snippet(
                path,
                selectors.unit_citation(state.citation, path),
                _marked(text) if postgres else highlight(text, words),
            )
            for path, text in lines.items()
        )
        hits.append(SearchHit(state, highlight(state.title, words), snippets, rank))
    return hits, len(found)
