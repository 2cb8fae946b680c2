"""The signs a configuration needs on its date: for each table, the table sign with every notice
the posting requirements in force ask of it; a wall sign with what the whole floor may share.

Every notice is a posting requirement's reviewed wording (variants.PostingRequirement, from the
catalog) filled from the configuration's facts, and cites the rule it satisfies by the label of
the as-of date. A notice two rules require is printed once and cites both; it may go only where
both allow (a side wager's paytable: 30-803(3)(h) allows a wall sign, 30-810 does not, so it stays
at its table). Under 30-803(4), a notice that may go on a wall sign goes there when every table of
the floor carries the same notice, and is then left off the table signs. A fact a notice needs
and the configuration does not give is a finding (sign-fact-missing), never a guess: the
validation report takes the same findings from `sign_needs`.
"""

from __future__ import annotations

import datetime as dt
import string
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from compliance.configuration import Configuration, SideWager, Table, pays_parse, value_at
from compliance.rulesets import version_rules
from compliance.validator import Finding, catalog_read, paytable_offered
from engine.odds import Basis, Pays
from pitboss import kbcache
from variants.models import NoticeKind, Placement, PlayRule, PostingRequirement, Wager
from variants.selectors import Citer

SIGN_FACT_MISSING = "sign-fact-missing"
# The facts a wording may name, and the configuration field each comes from (for a finding).
FACT_FIELDS = {
    "blackjack_pays": "blackjack_pays",
    "insurance_pays": "insurance_pays",
    "table_min": "limits",
    "table_max": "limits",
    "tips_max": "tips.max",
    "jokers": "jokers",
    "wager_min": "limits",
    "wager_max": "limits",
    "aggregate_limit": "aggregate_payout_limit",
    "designated_blackjack": "designated_blackjack",
}
NOT_GIVEN = "[not given]"


@dataclass
class Notice:
    """One notice of a sign: its text (a paytable's heading, with its lines and the footnotes
    its marks refer to), the rules it satisfies and where they let it go; `forms`, for each rule
    whose notice's form a text not on file sets (MA 205 CMR 147.03), that text and the rule."""

    text: str
    citations: list[dict[str, Any]]
    placements: set[str]
    wall_ok: bool
    lines: list[dict[str, str]] = field(default_factory=list)
    codes: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    forms: list[tuple[str, str]] = field(default_factory=list)

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.text, tuple(tuple(line.values()) for line in self.lines))

    def merge(self, other: Notice) -> None:
        for citation in other.citations:
            if citation not in self.citations:
                self.citations.append(citation)
        self.placements &= other.placements
        self.wall_ok = self.wall_ok and other.wall_ok
        self.codes += [c for c in other.codes if c not in self.codes]
        self.forms += [f for f in other.forms if f not in self.forms]

    def as_dict(self) -> dict[str, Any]:
        lines = [_line_text(line) for line in self.lines]
        text = "\n".join([self.text, *lines, *self.footnotes])
        out: dict[str, Any] = {"text": text, "citations": self.citations}
        if self.lines:
            out["heading"], out["lines"] = self.text, self.lines
        if self.footnotes:
            out["footnotes"] = self.footnotes
        return out


def _line_text(line: dict[str, str]) -> str:
    column = f" ({line['column']})" if line.get("column") else ""
    return f"{line['label']}{column}: {line['pays']}"


def pay_grid(lines: list[dict[str, str]]) -> tuple[list[str], list[list[str]]]:
    """A paytable's lines as printed: its pay columns, and a row per label with a pay for each
    column ("" where the column has no such line)."""
    columns = list(dict.fromkeys(line.get("column", "") for line in lines))
    rows: dict[str, dict[str, str]] = {}
    for line in lines:
        rows.setdefault(line["label"], {})[line.get("column", "")] = line["pays"]
    return columns, [[label, *(pays.get(c, "") for c in columns)] for label, pays in rows.items()]


@dataclass
class SignSet:
    signs: list[dict[str, Any]]
    findings: list[Finding]


def signs_build(
    config: Configuration,
    *,
    knowledge_base: dict[str, int],
    wall_signs: bool = True,
    revision: str | None = None,
) -> SignSet:
    """The sign set of a parsed configuration (configuration_parse) on its as-of date: the table
    signs in table order, then the wall sign (if any); the findings of facts a notice needs and
    the configuration does not give (sign_needs'). `knowledge_base` is the revision the
    validation run used. With `wall_signs` false, every notice stays on its table's sign. With
    `revision` (pitboss.kbcache's stamp), the rules are read once per revision, as sign_needs
    reads them."""
    jurisdiction, as_of = config.jurisdiction, config.as_of
    include_proposed = bool(config.include_proposed)
    built = _notices_read(config, revision)
    per_table = built.per_table
    wall: dict[tuple[Any, ...], Notice] = {}
    for notices in per_table:
        for notice in notices:
            if Placement.TABLE not in notice.placements and Placement.WALL in notice.placements:
                wall.setdefault(notice.key, notice)  # a wall-only notice (30-804's house rules)
    if wall_signs and built.wall_rule is not None:
        # 30-803(4), cited on every notice it moves to the wall
        permission = built.cite(built.wall_rule)
        for key in _shared(per_table):
            notice = next(n for n in per_table[0] if n.key == key)
            if permission not in notice.citations:
                notice.citations.append(permission)
            wall[key] = notice
    signs = []
    for table, notices in zip(config.tables, per_table, strict=True):
        printed = [n for n in notices if Placement.TABLE in n.placements and n.key not in wall]
        layout = [n for n in notices if n.placements == {Placement.LAYOUT}]
        signs.append(_sign(config, table.name, Placement.TABLE, printed, layout))
    if wall:
        signs.append(_sign(config, None, Placement.WALL, list(wall.values()), []))
    provenance_base = {
        "jurisdiction": jurisdiction,
        "licensee": config.licensee,
        "as_of": as_of.isoformat(),
        "knowledge_base": knowledge_base,
        "include_proposed": include_proposed,
    }
    for sign in signs:
        sign["provenance"] = provenance_base | {
            "table": sign["table"],
            "provisions": _provisions(sign),
            "form_not_on_file": sign.pop("form_not_on_file"),
        }
    return SignSet(signs, built.findings)


def sign_needs(config: Configuration, *, revision: str | None = None) -> list[Finding]:
    """The facts the signs of a parsed configuration need and it does not give, a finding each
    (sign-fact-missing, cited to the posting rule), in table order: what the validation report
    says and what a draft of the signs lists. With `revision` (as configuration_validate takes
    it), the rules are read once per revision, with the validator's catalog."""
    return _notices_read(config, revision).findings


def _notices_read(config: Configuration, revision: str | None) -> _Built:
    """_notices of `config` on its date, the rules read now, or once per `revision` with the
    validator's catalog."""
    jurisdiction, as_of = config.jurisdiction, config.as_of
    if revision is None:
        return _notices(config, Citer(as_of))
    citer = kbcache.remember(revision, ("citer", as_of), lambda: Citer(as_of))
    catalog = kbcache.remember(
        revision, ("catalog", jurisdiction), lambda: catalog_read(jurisdiction)
    )
    requirements = kbcache.remember(
        revision, ("posting requirements", jurisdiction), lambda: _requirements(jurisdiction)
    )
    return _notices(config, citer, requirements, catalog.wagers)


@dataclass
class _Built:
    per_table: list[list[Notice]]
    findings: list[Finding]
    cite: _Cites
    wall_rule: PostingRequirement | None


def _requirements(jurisdiction: str) -> list[PostingRequirement]:
    """The jurisdiction's posting requirements, whatever their dates, in the order of its rules."""
    return list(
        PostingRequirement.objects.filter(jurisdiction__code=jurisdiction)
        .select_related("wager")
        .order_by("provision_id", "unit_path", "code")
    )


def _notices(
    config: Configuration,
    citer: Citer,
    every_requirement: list[PostingRequirement] | None = None,
    wagers: dict[str, Wager] | None = None,
) -> _Built:
    """Each table's notices (merged where two rules ask the same) and the findings of facts they
    need and the configuration does not give. `every_requirement` and `wagers` (by slug, with
    their paytables' lines) are read here unless given."""
    jurisdiction = config.jurisdiction
    include_proposed = bool(config.include_proposed)
    if every_requirement is None:
        every_requirement = _requirements(jurisdiction)
    requirements = [
        r for r in every_requirement if citer.applies(r, include_proposed=include_proposed)
    ]
    citer.prefetch(r.provision_id for r in requirements)
    if wagers is None:
        offered = {t.game for t in config.tables} | {
            s.wager for t in config.tables for s in t.side_wagers
        }
        wagers = {
            w.slug: w
            for w in Wager.objects.filter(
                jurisdiction__code=jurisdiction, slug__in=offered
            ).prefetch_related("paytables__entries", "play_rules")
        }
    findings: list[Finding] = []
    cite = _Cites(citer)
    per_table: list[list[Notice]] = []
    for index, table in enumerate(config.tables):
        builder = _TableNotices(
            table, f"tables[{index}]", wagers, citer, cite, findings, include_proposed
        )
        for requirement in requirements:
            builder.apply(requirement)
        per_table.append(builder.merged())
    wall_rule = next((r for r in requirements if r.notice == NoticeKind.WALL_SIGNAGE), None)
    return _Built(per_table, findings, cite, wall_rule)


def _shared(per_table: list[list[Notice]]) -> list[tuple[Any, ...]]:
    """Keys of the notices every table carries, each allowed on a wall sign at every table."""
    if not per_table:
        return []
    common = None
    for notices in per_table:
        keys = {n.key for n in notices if n.wall_ok and Placement.WALL in n.placements}
        common = keys if common is None else common & keys
    return [n.key for n in per_table[0] if n.key in (common or set())]


def _sign(
    config: Configuration,
    table: str | None,
    placement: str,
    notices: list[Notice],
    layout: list[Notice],
) -> dict[str, Any]:
    title = "House rules" if table is None else f"Table {table}"
    body = [n.as_dict() for n in notices]
    text = "\n".join([title, *(n["text"] for n in body)])
    return {
        "table": table,
        "placement": str(placement),
        "title": title,
        "text": text,
        "notices": body,
        "layout_notices": [n.as_dict() for n in layout],
        "form_not_on_file": _forms_not_on_file([*notices, *layout]),
    }


def _forms_not_on_file(notices: list[Notice]) -> list[dict[str, Any]]:
    """For each text not on file that sets the form of notices of the sign (MA 205 CMR 147.03),
    the rules whose notices it sets, each once, in the order the sign cites them."""
    by_text: dict[str, list[str]] = {}
    for notice in notices:
        for text, citation in notice.forms:
            cited = by_text.setdefault(text, [])
            if citation not in cited:
                cited.append(citation)
    return [{"text": text, "citations": cited} for text, cited in by_text.items()]


def _provisions(sign: dict[str, Any]) -> list[dict[str, Any]]:
    """The rule versions a sign implements: each citation once, in the order first cited."""
    seen: list[dict[str, Any]] = []
    for notice in [*sign["notices"], *sign["layout_notices"]]:
        for citation in notice["citations"]:
            if citation not in seen:
                seen.append(citation)
    return seen


class _Cites:
    """A requirement's citation on the date: the label it bears that day and the day its text
    took effect; a proposed requirement by its proposed label."""

    def __init__(self, citer: Citer) -> None:
        self.citer = citer

    def __call__(self, requirement: PostingRequirement | PlayRule) -> dict[str, Any]:
        if getattr(requirement, "proposed", False):
            label = self.citer.proposed_label(requirement.provision_id)
            return {
                "jurisdiction": requirement.jurisdiction.code,
                "citation": f"{label}{requirement.unit_path}",
                "effective_from": None,
                "status": "proposed",
            }
        ref = self.citer.cite(requirement.provision_id, requirement.unit_path).as_dict()
        return ref | {"effective_from": _iso(ref["effective_from"])}


def _iso(value: dt.date | None) -> str | None:
    return value.isoformat() if value else None


class _TableNotices:
    """The notices one table needs, built requirement by requirement."""

    def __init__(
        self,
        table: Table,
        path: str,
        wagers: dict[str, Wager],
        citer: Citer,
        cite: _Cites,
        findings: list[Finding],
        include_proposed: bool = False,
    ) -> None:
        self.table, self.path, self.wagers = table, path, wagers
        self.citer, self.cite, self.findings = citer, cite, findings
        self.include_proposed = include_proposed
        self.notices: list[Notice] = []

    def apply(self, r: PostingRequirement) -> None:
        if r.notice == NoticeKind.WALL_SIGNAGE or not _holds(r.when, self.table):
            return
        sides = list(enumerate(self.table.side_wagers))
        if r.wager is not None:
            if r.wager.slug == self.table.game and r.notice == NoticeKind.PLAY_RULES:
                self._play_rules(r)
            if r.wager.slug == self.table.game and r.notice == NoticeKind.STATEMENT:
                self._statement(r, None, None)
            for index, side in sides:
                if side.wager == r.wager.slug:
                    self._for_side(r, index, side)
        elif r.notice == NoticeKind.STATEMENT:
            self._statement(r, None, None)
        else:
            for index, side in sides:
                self._for_side(r, index, side)

    def _for_side(self, r: PostingRequirement, index: int, side: SideWager) -> None:
        if side.wager not in self.wagers:
            return  # not a wager of this jurisdiction: the validation says so
        if r.notice == NoticeKind.PAYTABLE:
            self._paytable(r, index, side)
        elif r.notice == NoticeKind.AGGREGATE_LIMIT and side.aggregate_payout_limit is None:
            return  # "any aggregate pay out limitations": none set, nothing to post
        else:
            self._statement(r, index, side)

    def _facts(self, side: SideWager | None) -> dict[str, str]:
        t = self.table
        facts = {
            "blackjack_pays": t.blackjack_pays,
            "insurance_pays": t.insurance_pays,
            "table_min": _money(value_at(t, "limits.min")),
            "table_max": _money(value_at(t, "limits.max")),
            "tips_max": _money(value_at(t, "tips.max")),
            "jokers": t.jokers,
            "designated_blackjack": " and ".join(t.designated_blackjack)
            if t.designated_blackjack
            else None,
        }
        if side is not None:
            facts |= {
                "wager": self.wagers[side.wager].name,
                "wager_min": _money(value_at(side, "limits.min")),
                "wager_max": _money(value_at(side, "limits.max")),
                "aggregate_limit": _money(side.aggregate_payout_limit),
            }
        elif t.game in self.wagers:
            facts["wager"] = self.wagers[t.game].name
        return {k: v for k, v in facts.items() if v is not None}

    def _statement(self, r: PostingRequirement, index: int | None, side: SideWager | None) -> None:
        wording = r.wording
        if isinstance(wording, dict):
            choose = r.params["choose"]
            value = value_at(self.table, choose)
            if value is None:
                value = r.params.get("absent")
            if value is None:
                return self._missing(r, choose, index)
            wording = wording.get(str(value).lower() if isinstance(value, bool) else str(value))
            if wording is None:
                return  # nothing to post for this value (early surrender: no restriction)
        facts = self._facts(side)
        names = [name for _, name, _, _ in string.Formatter().parse(wording) if name]
        for name in names:
            if name not in facts:
                self._missing(r, FACT_FIELDS.get(name, name), index)
                facts[name] = NOT_GIVEN
        self._add(r, wording.format_map(facts), [])

    def _paytable(self, r: PostingRequirement, index: int, side: SideWager) -> None:
        wager = self.wagers[side.wager]
        paytable = paytable_offered(wager, side, self.citer, self.include_proposed)
        outcome_labels = {o["key"]: o["label"] for o in wager.outcomes}
        lines: list[dict[str, str]]
        if paytable is not None:
            entries = list(paytable.entries.all())
            column = side.column
            if side.inline_lines:  # the columns the inline lines give
                given = {g.column or entries[0].column for g in side.inline_lines}
                entries = [e for e in entries if e.column in given]
            if column is not None:
                entries = [e for e in entries if e.column == column]
            several = len({e.column for e in entries}) > 1
            lines = [
                {"label": e.label, "column": e.column if several else "", "pays": e.pays}
                for e in entries
            ]
            heading = f"{wager.name} pays ({paytable.label})"
            footnotes = list(paytable.footnotes)
        elif side.inline_lines:  # not approved: shown only on a draft
            lines = [
                {
                    "label": outcome_labels.get(g.outcome, g.outcome),
                    "column": g.column,
                    "pays": g.pays,
                }
                for g in side.inline_lines
            ]
            heading = f"{wager.name} pays (offered; matches no approved paytable)"
            footnotes = []
        else:
            return self._missing(r, "paytable", index)
        above = r.params.get("above")
        if above and not any(_pays_above(line["pays"], above) for line in lines):
            return  # 30-810: nothing paid above 1 to 1, nothing this rule asks posted
        self._add(r, heading, lines)
        self.notices[-1].footnotes = footnotes

    def _play_rules(self, r: PostingRequirement) -> None:
        """The game's rules in force, of the version the table deals where the game has versions
        (30-899.10), each a notice citing its own unit and the requirement."""
        assert r.wager is not None
        game = self.wagers.get(r.wager.slug)  # its play rules read with it
        rules = (
            game.play_rules.all() if game is not None else PlayRule.objects.filter(wager=r.wager)
        )
        in_force = {rule.key: rule for rule in rules if self.citer.in_force(rule)}
        chosen = version_rules(in_force, self.table.game_version or 1).values()
        in_reading_order = sorted(chosen, key=lambda p: (p.provision_id, p.source_line or 0, p.key))
        for rule in in_reading_order:
            self._add(r, rule.summary, [])
            self.notices[-1].citations.insert(0, self.cite(rule))

    def _add(self, r: PostingRequirement, text: str, lines: list[dict[str, str]]) -> None:
        notice = Notice(
            text=text,
            citations=[self.cite(r)],
            placements=set(r.placements),
            wall_ok=r.wall_allowed_if_uniform,
            lines=lines,
            codes=[r.code],
        )
        if form_in := r.params.get("form_in"):
            notice.forms.append((form_in, notice.citations[0]["citation"]))
        self.notices.append(notice)

    def _missing(self, r: PostingRequirement, fact: str, index: int | None) -> None:
        where = f"{self.path}.side_wagers[{index}]" if index is not None else self.path
        citation = self.cite(r)
        if citation["effective_from"]:  # a Finding holds dates (its as_dict writes them)
            citation["effective_from"] = dt.date.fromisoformat(citation["effective_from"])
        path = f"{where}.{fact}"
        if any(f.path == path for f in self.findings):
            for f in self.findings:
                if f.path == path and citation not in f.citations:
                    f.citations.append(citation)
            return
        self.findings.append(
            Finding(
                "error",
                SIGN_FACT_MISSING,
                f"The sign needs {fact}, which the configuration does not give: {r.what}",
                self.table.name,
                path,
                [citation],
            )
        )

    def merged(self) -> list[Notice]:
        out: dict[tuple[Any, ...], Notice] = {}
        for notice in self.notices:
            if notice.key in out:
                out[notice.key].merge(notice)
            else:
                out[notice.key] = notice
        return list(out.values())


def _holds(when: dict[str, Any], table: Table) -> bool:
    """Whether a requirement's condition holds at the table. Conditions: game_not (a slug),
    blackjack_pays and blackjack_pays_above (odds), decks_in (deck counts), present (a field
    given), includes ({field: value}: a list field holds the value), and any field path
    ("double.after_split") equal to a value or one of a list."""
    for key, value in when.items():
        if key == "includes":
            ok = all(item in (value_at(table, name) or []) for name, item in value.items())
        elif key == "game_not":
            ok = table.game != value
        elif key in ("blackjack_pays", "blackjack_pays_above"):
            given = table.blackjack_pays
            if not given:
                return False
            offered, odds = Pays.parse(given), Pays.parse(value)
            same = offered.same_payout(odds)
            ok = same if key == "blackjack_pays" else offered.at_least(odds) and not same
        elif key == "decks_in":
            ok = table.decks in value
        elif key == "present":
            ok = value_at(table, value) is not None
        else:
            given = value_at(table, key)
            ok = given in value if isinstance(value, list) else given == value
        if not ok:
            return False
    return True


def _pays_above(pays: str, odds: str) -> bool:
    """Whether a printed pay may pay more than `odds` (30-810: "odds higher than one to one").
    A meter share or a dollar amount counts as above: the paytable does not bound its value to
    the wager, and a paytable kept at its table satisfies 30-803(3)(h) too."""
    paid = pays_parse(pays)
    if paid.basis in (Basis.TO, Basis.FOR):
        floor = pays_parse(odds)
        return paid.at_least(floor) and not paid.same_payout(floor)
    return paid.basis not in (Basis.PUSH, Basis.LOSS)


def _money(value: Decimal | str | None) -> str | None:
    """$10, $2.50, $25,000."""
    if value is None:
        return None
    amount = Decimal(value)
    if amount == amount.to_integral_value():
        return f"${amount:,.0f}"
    return f"${amount:,.2f}"
