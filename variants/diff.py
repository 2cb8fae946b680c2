"""Diffs of the structured facts: paytables line by line, constraints and play rules, between two
dates of one jurisdiction or between jurisdictions, by wager (catalog slug) or by rule topic
(fixtures/topics.yaml, a reviewed mapping of units and facts to topics). Never by section number.

Every side is cited by the label its rule bore on the side's date.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any, cast

import yaml
from django.conf import settings

from engine.odds import InvalidPays, Pays
from pitboss.errors import DomainError
from regs import selectors as regs
from regs.diff.text import normal_form

from .models import Constraint, Paytable, PlayRule, Wager
from .selectors import Citer

TOPICS_FILE = Path(settings.BASE_DIR) / "fixtures" / "topics.yaml"


@dataclass(frozen=True)
class FactSide:
    jurisdiction: str
    citation: str
    effective_from: dt.date | None
    text: str
    """The fact as the catalog holds it: a line's pays, a constraint's parameters."""
    fact: str
    """The paytable key, constraint code or play rule it belongs to."""


@dataclass(frozen=True)
class FactChange:
    kind: str
    """insertion, deletion, replacement."""
    substantive: bool
    subject: str
    """paytable, paytable_line, paytable_column, constraint, play_rule, wager."""
    key: str
    """What the change is aligned on: outcome (and column), constraint kind, rule key."""
    label: str
    left: FactSide | None
    right: FactSide | None
    event: dict[str, object] | None = None
    note: str = ""


@dataclass(frozen=True)
class Side:
    jurisdiction: str
    as_of: dt.date


@dataclass(frozen=True)
class FactDiff:
    left: Side
    right: Side
    subject: dict[str, str]
    changes: tuple[FactChange, ...]
    pairs: tuple[dict[str, str | None], ...] = ()
    """The paytables compared: each right paytable with its closest left one."""
    text: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    """For a topic: each side's units, cited, with their text on the side's date."""


class _Cited:
    """Cites facts on one side's date, reading each provision once."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.citer = Citer(side.as_of)

    def fact(self, fact: Any, text: str, name: str) -> FactSide:
        ref = self.citer.cite(fact.provision_id, fact.unit_path)
        return FactSide(ref.jurisdiction, ref.citation, ref.effective_from, text, name)


def _pays(value: str) -> str:
    return " ".join(value.split()).casefold()


def _parsed(value: str) -> Pays | None:
    try:
        return Pays.parse(value)
    except InvalidPays:
        return None


def _compare_pays(left: str, right: str) -> tuple[bool, str] | None:
    """None when two printings are the same; else (substantive, note). "8-to-1" against "8 to 1"
    or "4 for 1" against "3 to 1" pay the same: a difference of printing, not substantive."""
    if _pays(left) == _pays(right):
        return None
    a, b = _parsed(left), _parsed(right)
    if a is not None and b is not None and a.same_payout(b):
        return False, "the same payout, printed differently"
    return True, _basis_note(left, right)


def _distance(left: str, right: str) -> Fraction:
    """How far apart two pays are, for choosing the closest paytable: the difference of their
    odds where both are odds, else 1000 for any difference."""
    a, b = _parsed(left), _parsed(right)
    if a is not None and b is not None and a.ratio is not None and b.ratio is not None:
        return abs(a.ratio - b.ratio)
    return Fraction(0) if _pays(left) == _pays(right) else Fraction(1000)


def _basis_note(left: str, right: str) -> str:
    numbers = re.findall(r"[\d,.]+", left) == re.findall(r"[\d,.]+", right)
    words_l, words_r = set(_pays(left).split()), set(_pays(right).split())
    if numbers and {"to", "for"} & words_l and {"to", "for"} & words_r and words_l != words_r:
        return "basis: 'to' (stake returned) against 'for' (stake not returned)"
    return ""


def _lines(paytable: Paytable) -> dict[tuple[str, str], Any]:
    return {(e.outcome, e.column): e for e in paytable.entries.all()}


def _column_map(left: Paytable, right: Paytable) -> dict[str, str]:
    """Right column → left column: same names first, then the rest in order (Massachusetts' one
    unnamed column against KB03's "Pays", Blazing 7's "Payouts" against "Pays")."""
    cols_l = list(dict.fromkeys(e.column for e in left.entries.all()))
    cols_r = list(dict.fromkeys(e.column for e in right.entries.all()))
    mapping = {c: c for c in cols_r if c in cols_l}
    rest_l = [c for c in cols_l if c not in mapping.values()]
    rest_r = [c for c in cols_r if c not in mapping]
    for right_column, left_column in zip(rest_r, rest_l, strict=False):
        mapping[right_column] = left_column  # "" against "Pays", "Pays" against "Payouts"
    return mapping


def paytable_changes(
    left: Paytable, right: Paytable, cite_left: _Cited, cite_right: _Cited
) -> list[FactChange]:
    """Line by line, aligned on outcome key and column: pays changed, lines and columns added or
    removed."""
    mapping = _column_map(left, right)
    lines_l = _lines(left)
    lines_r = {(o, mapping.get(c, c)): e for (o, c), e in _lines(right).items()}
    changes: list[FactChange] = []
    cols_l = {c for _, c in lines_l}
    cols_r = {c for _, c in lines_r}
    for column in sorted(cols_r - cols_l):
        changes.append(
            FactChange(
                "insertion",
                True,
                "paytable_column",
                column,
                f"column {column!r}",
                None,
                cite_right.fact(right, column, right.key),
            )
        )
    for column in sorted(cols_l - cols_r):
        changes.append(
            FactChange(
                "deletion",
                True,
                "paytable_column",
                column,
                f"column {column!r}",
                cite_left.fact(left, column, left.key),
                None,
            )
        )
    order = {k: i for i, k in enumerate(lines_l)} | {
        k: len(lines_l) + i for i, k in enumerate(lines_r) if k not in lines_l
    }
    for key in sorted(set(lines_l) | set(lines_r), key=order.__getitem__):
        a, b = lines_l.get(key), lines_r.get(key)
        compared = _compare_pays(a.pays, b.pays) if a is not None and b is not None else (True, "")
        if compared is None:
            continue
        if (a is None and key[1] not in cols_l) or (b is None and key[1] not in cols_r):
            continue  # the whole column is reported above
        outcome, column = key
        line = b or a
        assert line is not None  # a key of either side
        label = line.label + (f" ({column})" if column else "")
        kind = "replacement" if a and b else "insertion" if b else "deletion"
        changes.append(
            FactChange(
                kind,
                compared[0],
                "paytable_line",
                f"{outcome}/{column}" if column else outcome,
                label,
                cite_left.fact(left, a.pays, left.key) if a else None,
                cite_right.fact(right, b.pays, right.key) if b else None,
                note=compared[1],
            )
        )
    return changes


def _difference_count(left: Paytable, right: Paytable) -> tuple[int, Fraction, str]:
    """Lines that differ, then how far their pays are apart, then the key: the closest table."""
    mapping = _column_map(left, right)
    lines_l = {k: e.pays for k, e in _lines(left).items()}
    lines_r = {(o, mapping.get(c, c)): e.pays for (o, c), e in _lines(right).items()}
    keys = set(lines_l) | set(lines_r)
    count = sum(
        k not in lines_l or k not in lines_r or _compare_pays(lines_l[k], lines_r[k]) is not None
        for k in keys
    )
    distance = sum(
        (_distance(lines_l[k], lines_r[k]) for k in keys if k in lines_l and k in lines_r),
        Fraction(0),
    )
    return count, distance, left.key


def _wager(jurisdiction: str, slug: str) -> Wager | None:
    return Wager.objects.filter(jurisdiction__code=jurisdiction, slug=slug).first()


def _in_force(citer: Citer, facts: Any) -> list[Any]:
    return [f for f in facts if citer.in_force(f)]


def wager_diff(*, slug: str, left: Side, right: Side) -> FactDiff:
    """A wager's paytables, constraints and play rules on two sides (two dates of one
    jurisdiction, or two jurisdictions on a date), aligned by catalog slug.

    Within one jurisdiction paytables pair by catalog id; across jurisdictions each right
    paytable is compared with the left one it differs least from.

    :raises DomainError: no jurisdiction has a wager with that slug.
    """
    wagers = {s.jurisdiction: _wager(s.jurisdiction, slug) for s in (left, right)}
    if not any(wagers.values()):
        raise DomainError(
            "unknown_wager",
            f"Neither {left.jurisdiction} nor {right.jurisdiction} has a wager {slug!r}; "
            f"GET /api/v1/wagers/ lists the catalog slugs (kings-bounty, 21-plus-3, …).",
            fields={"wager": "unknown slug"},
        )
    cite_l, cite_r = _Cited(left), _Cited(right)
    changes: list[FactChange] = []
    wl, wr = wagers[left.jurisdiction], wagers[right.jurisdiction]
    if wl is None or wr is None or not cite_l.citer.in_force(wl) or not cite_r.citer.in_force(wr):
        present_l = wl is not None and cite_l.citer.in_force(wl)
        present_r = wr is not None and cite_r.citer.in_force(wr)
        if present_l != present_r:
            changes.append(
                FactChange(
                    "deletion" if present_l else "insertion",
                    True,
                    "wager",
                    slug,
                    (wl or wr).name,  # type: ignore[union-attr]
                    cite_l.fact(wl, wl.name, slug) if present_l and wl else None,
                    cite_r.fact(wr, wr.name, slug) if present_r and wr else None,
                )
            )
    tables_l = _in_force(cite_l.citer, wl.paytables.prefetch_related("entries")) if wl else []
    tables_r = _in_force(cite_r.citer, wr.paytables.prefetch_related("entries")) if wr else []
    pairs: list[dict[str, str | None]] = []
    used: set[str] = set()
    same = left.jurisdiction == right.jurisdiction
    by_key_l = {p.key: p for p in tables_l}
    for table in tables_r:
        if same:
            match = by_key_l.get(table.key)
        else:
            match = (
                by_key_l[min(_difference_count(p, table) for p in tables_l)[2]]
                if tables_l
                else None
            )
        pairs.append({"left": match.key if match else None, "right": table.key})
        if match is None:
            changes.append(
                FactChange(
                    "insertion",
                    True,
                    "paytable",
                    table.key,
                    table.label,
                    None,
                    cite_r.fact(table, table.label, table.key),
                )
            )
            continue
        used.add(match.key)
        changes.extend(paytable_changes(match, table, cite_l, cite_r))
    for table in tables_l:
        if table.key not in used and (same or not tables_r):
            pairs.append({"left": table.key, "right": None})
            changes.append(
                FactChange(
                    "deletion",
                    True,
                    "paytable",
                    table.key,
                    table.label,
                    cite_l.fact(table, table.label, table.key),
                    None,
                )
            )
    changes.extend(
        _keyed_changes(
            "constraint",
            _in_force(cite_l.citer, wl.constraints.all()) if wl else [],
            _in_force(cite_r.citer, wr.constraints.all()) if wr else [],
            cite_l,
            cite_r,
            key=lambda c: c.kind,
        )
    )
    changes.extend(
        _keyed_changes(
            "play_rule",
            _in_force(cite_l.citer, wl.play_rules.all()) if wl else [],
            _in_force(cite_r.citer, wr.play_rules.all()) if wr else [],
            cite_l,
            cite_r,
            key=lambda r: r.key,
        )
    )
    return FactDiff(left, right, {"wager": slug}, tuple(changes), tuple(pairs))


def _params(fact: Any) -> str:
    return yaml.safe_dump(
        fact.params, default_flow_style=True, sort_keys=True, width=10_000
    ).strip()


def _name(fact: Any) -> str:
    return getattr(fact, "code", None) or f"{fact.wager.slug}/{fact.key}"


def _keyed_changes(
    subject: str, left: list[Any], right: list[Any], cite_l: _Cited, cite_r: _Cited, key: Any
) -> list[FactChange]:
    """Facts aligned on `key` (several facts of one key are compared in order): parameters
    changed, facts added or removed. A fact's message or summary is quoted as its label."""
    groups_l: dict[str, list[Any]] = {}
    groups_r: dict[str, list[Any]] = {}
    for f in sorted(left, key=lambda f: (key(f), _name(f))):
        groups_l.setdefault(key(f), []).append(f)
    for f in sorted(right, key=lambda f: (key(f), _name(f))):
        groups_r.setdefault(key(f), []).append(f)
    changes: list[FactChange] = []
    for k in sorted(set(groups_l) | set(groups_r)):
        ls, rs = groups_l.get(k, []), groups_r.get(k, [])
        for i in range(max(len(ls), len(rs))):
            a = ls[i] if i < len(ls) else None
            b = rs[i] if i < len(rs) else None
            if a is not None and b is not None and a.params == b.params:
                continue
            label = cast(str, getattr(b or a, "message", None) or getattr(b or a, "summary", ""))
            changes.append(
                FactChange(
                    "replacement" if a and b else "insertion" if b else "deletion",
                    True,
                    subject,
                    k,
                    label,
                    cite_l.fact(a, _params(a), _name(a)) if a else None,
                    cite_r.fact(b, _params(b), _name(b)) if b else None,
                )
            )
    return changes


def _constraint_key(c: Constraint) -> str:
    """A constraint's kind; an option rule's field and condition (12(d)'s soft 17 at 6 to 5)."""
    if c.kind != "option_required":
        return c.kind
    when = yaml.safe_dump(c.params.get("when", {}), default_flow_style=True, sort_keys=True)
    return f"option_required:{c.params.get('field')} when {when.strip()}"


@cache
def topics() -> dict[str, dict[str, Any]]:
    """The reviewed topic mapping (fixtures/topics.yaml), by topic key."""
    data = yaml.load(TOPICS_FILE.read_text(), Loader=yaml.CSafeLoader)
    return {t["key"]: t for t in data["topics"]}


def _topic_units(topic: dict[str, Any], side: Side) -> list[dict[str, object]]:
    units: list[dict[str, object]] = []
    for citation in topic["units"].get(side.jurisdiction, []):
        found = regs.citation_resolve(
            jurisdiction=side.jurisdiction, citation=citation, as_of=side.as_of, today=side.as_of
        )
        record = regs.provision_records([found.provision.pk])[0]
        state = regs.provision_state(record, as_of=side.as_of, path=found.path)
        for unit in state.units:
            units.append(
                {
                    "citation": unit.citation,
                    "effective_from": unit.effective_from,
                    "state": unit.state,
                    "text": unit.text,
                }
            )
    return units


def topic_diff(*, topic: str, left: Side, right: Side) -> FactDiff:
    """A base-game rule topic (surrender, soft-17, …) on two sides: each side's units, cited, with
    their text, and the catalog facts of the topic (play rules, constraints and option rules of
    the base game) aligned by kind, never by section number.

    :raises DomainError: the topic is not in the mapping.
    """
    mapping = topics().get(topic)
    if mapping is None:
        raise DomainError(
            "unknown_topic",
            f"No rule topic {topic!r}; topics: {', '.join(sorted(topics()))}.",
            fields={"topic": f"one of {', '.join(sorted(topics()))}"},
        )
    cite_l, cite_r = _Cited(left), _Cited(right)
    facts = mapping.get("facts", {})

    def play_rules(side: _Cited) -> list[Any]:
        qs = PlayRule.objects.filter(
            jurisdiction__code=side.side.jurisdiction,
            wager__slug="blackjack",
            key__in=facts.get("play_rules", []),
        ).select_related("wager")
        return _in_force(side.citer, qs)

    def constraints(side: _Cited) -> list[Any]:
        qs = Constraint.objects.filter(
            jurisdiction__code=side.side.jurisdiction, wager__isnull=True
        )
        fields = set(facts.get("option_fields", []))
        kinds = set(facts.get("constraints", []))
        chosen = [
            c
            for c in qs
            if c.kind in kinds
            or (
                c.kind == "option_required"
                and c.params.get("field") in fields
                and "game"
                not in c.params.get("when", {})  # a full variant's rule, not the base game's
            )
        ]
        return _in_force(side.citer, chosen)

    changes = [
        *_keyed_changes(
            "play_rule", play_rules(cite_l), play_rules(cite_r), cite_l, cite_r, key=lambda r: r.key
        ),
        *_keyed_changes(
            "constraint",
            constraints(cite_l),
            constraints(cite_r),
            cite_l,
            cite_r,
            key=_constraint_key,
        ),
    ]
    text = {"left": _topic_units(mapping, left), "right": _topic_units(mapping, right)}
    left_words = normal_form(" ".join(str(u["text"] or "") for u in text["left"]))
    right_words = normal_form(" ".join(str(u["text"] or "") for u in text["right"]))
    if left_words != right_words:
        changes.insert(
            0,
            FactChange(
                "replacement",
                True,
                "text",
                topic,
                mapping["title"],
                FactSide(
                    left.jurisdiction,
                    ", ".join(str(u["citation"]) for u in text["left"]),
                    None,
                    "",
                    topic,
                ),
                FactSide(
                    right.jurisdiction,
                    ", ".join(str(u["citation"]) for u in text["right"]),
                    None,
                    "",
                    topic,
                ),
                note="the topic's rule text differs; both sides' units are under `text`",
            ),
        )
    return FactDiff(
        left, right, {"topic": topic, "title": mapping["title"]}, tuple(changes), (), text
    )


def fact_redline(diff: FactDiff) -> str:
    """The diff as HTML: a table of changes, each side's old value in <del> and new in <ins>
    with its citation, and for a topic each side's units and text. Everything escaped."""
    from html import escape

    def side(value: FactSide | None, tag: str) -> str:
        if value is None:
            return ""
        return (
            f"<{tag}>{escape(value.text)}</{tag}> "
            f'<span class="cite">{escape(value.jurisdiction)} {escape(value.citation)}</span>'
        )

    rows = "".join(
        f'<tr class="{escape(c.kind)}{"" if c.substantive else " editorial"}">'
        f"<td>{escape(c.subject)}</td><td>{escape(c.label or c.key)}</td>"
        f"<td>{side(c.left, 'del')}</td><td>{side(c.right, 'ins')}</td></tr>"
        for c in diff.changes
        if c.subject != "text"
    )
    parts = [
        '<div class="redline"><table><tr><th>fact</th><th>what</th>'
        f"<th>{escape(diff.left.jurisdiction)} {diff.left.as_of}</th>"
        f"<th>{escape(diff.right.jurisdiction)} {diff.right.as_of}</th></tr>{rows}</table>"
    ]
    for name, units in diff.text.items():
        parts.append(f'<div class="{name}">')
        for u in units:
            parts.append(
                f'<p><span class="cite">{escape(str(u["citation"]))}</span> '
                f"{escape(str(u['text'] or ''))}</p>"
            )
        parts.append("</div>")
    parts.append("</div>")
    return "".join(parts)
