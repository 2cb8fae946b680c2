"""The web form of a table configuration (docs/api.md, "The table configuration"): a form
for the floor, a formset of tables, and per table a formset of side wagers, with the catalog's
choices. `configuration_from_forms` turns the cleaned forms into the contract's JSON, which
the validator checks like any API request; `form_data_from_configuration` does the reverse, to
start a form from a sample or a stored run."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, cast

from django import forms
from django.forms import formset_factory
from django.urls import reverse

from jurisdictions.selectors import jurisdiction_list
from variants import selectors
from variants.models import WagerKind

BLANK = [("", "—")]
YES_NO = [("", "—"), ("true", "Yes"), ("false", "No")]
DEALING = [
    ("hand", "By hand"),
    ("shoe", "Shoe"),
    ("csm", "Continuous shuffler"),
    ("asd", "Automated shuffler (batch)"),
]
SOFT_17 = [("stand", "Dealer stands on soft 17"), ("hit", "Dealer hits soft 17")]
HOLE_CARD = [
    ("peek", "Peek (checked under an ace or ten)"),
    ("no_peek", "No peek"),
    ("none", "No hole card until the players are done"),
    ("face_up", "Face up (MA 6(k))"),
]
DOUBLE_ON = [
    ("any_two", "Any two cards"),
    ("9_10_11", "9, 10 or 11"),
    ("10_11", "10 or 11"),
    ("any_time", "Any time"),
    ("none", "No doubling"),
]
DOUBLE_CARD = [
    ("face_up", "Face up"),
    ("face_down", "Face down"),
    ("face_down_on_request", "Face down on request"),
]
SURRENDER = [("none", "None"), ("late", "Late"), ("early", "Early")]
VARIATION = [("6-to-5", "6 to 5 variation"), ("none", "None (6 to 5 paid outside it)")]
OPTIONAL_PAYOUTS = [
    ("678-suited", "6-7-8 suited"),
    ("777", "7-7-7"),
    ("5-card", "5-card 21"),
    ("designated-blackjack", "Designated blackjack"),
]
SUITS = [("C", "Clubs"), ("D", "Diamonds"), ("H", "Hearts"), ("S", "Spades")]


@dataclass
class Catalog:
    """The catalog's choices for one jurisdiction's forms."""

    games: list[tuple[str, str]] = field(default_factory=list)
    side_wagers: list[tuple[str, str]] = field(default_factory=list)
    layouts: list[tuple[str, str]] = field(default_factory=list)
    paytables: list[Any] = field(default_factory=list)
    paytables_of: dict[str, tuple[str, list[tuple[str, str]]]] = field(default_factory=dict)
    """By wager slug: its group's label (as the wager list names it) and its paytables."""


def catalog_choices(jurisdiction: str) -> Catalog:
    """Games, side wagers, layouts and paytables of a jurisdiction, as select options."""
    catalog = Catalog()
    grouped: dict[str, list[tuple[str, str]]] = {}
    for wager in selectors.wagers(jurisdiction=jurisdiction):
        choice = (wager.slug, f"{wager.name} ({wager.slug})")
        catalog.layouts.append(choice)
        if wager.kind in (WagerKind.BASE_GAME, WagerKind.VARIANT):
            catalog.games.append(choice)
        else:
            catalog.side_wagers.append(choice)
        for paytable in selectors.in_label_order(wager.paytables.all()):
            # each group labelled as the wager list names its wager: the page's script shows a
            # side wager's own group only (pitboss/static/pitboss/configuration.js)
            grouped.setdefault(choice[1], []).append(
                (
                    paytable.key,
                    f"{paytable.label} ({paytable.key})"
                    + (" — a proposed text's, not in force" if paytable.proposed else ""),
                )
            )
        if choice[1] in grouped:
            catalog.paytables_of[wager.slug] = (choice[1], grouped[choice[1]])
    catalog.paytables = [INLINE, *grouped.items()]
    return catalog


INLINE = ("", "Inline: the lines below")


def _boolean(value: str) -> bool | None:
    return {"true": True, "false": False}.get(value)


class ConfigurationForm(forms.Form):
    jurisdiction = forms.ChoiceField(choices=[])
    as_of = forms.DateField(
        label="As of", widget=forms.DateInput(attrs={"type": "date"}), help_text="YYYY-MM-DD"
    )
    licensee = forms.CharField(required=False, max_length=200)
    include_proposed = forms.BooleanField(
        required=False,
        label="Include proposed rules",
        help_text="To see what an adoption would change.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["jurisdiction"]).choices = [
            (j.code, f"{j.name} ({j.code})") for j in jurisdiction_list()
        ]
        # With htmx, choosing a jurisdiction reloads the form with its catalog's choices,
        # keeping what was typed (the "Use the chosen jurisdiction's catalog" button without).
        self.fields["jurisdiction"].widget.attrs |= {
            "hx-post": reverse("compliance:configurations"),
            "hx-trigger": "change",
            "hx-vals": '{"action": "refresh"}',
            "hx-target": "form.configuration",
            "hx-select": "form.configuration",
            "hx-swap": "outerHTML",
        }


class TableForm(forms.Form):
    name = forms.CharField(max_length=80, label="Table name")
    game = forms.ChoiceField(choices=[])
    game_version = forms.IntegerField(
        required=False,
        min_value=1,
        label="Game version",
        help_text="Where the game's rule gives versions: Double Up Blackjack's 1 or 2 (30-899.10).",
    )
    decks = forms.IntegerField(required=False, min_value=1, max_value=12)
    player_spots = forms.IntegerField(
        required=False, min_value=1, max_value=14, label="Player spots"
    )
    dealing = forms.ChoiceField(required=False, choices=BLANK + DEALING)
    dealer_soft_17 = forms.ChoiceField(required=False, choices=BLANK + SOFT_17, label="Soft 17")
    hole_card = forms.ChoiceField(required=False, choices=BLANK + HOLE_CARD, label="Hole card")
    blackjack_pays = forms.CharField(
        required=False,
        max_length=20,
        label="Blackjack pays",
        widget=forms.TextInput(attrs={"placeholder": "3 to 2"}),
    )
    variation = forms.ChoiceField(required=False, choices=BLANK + VARIATION)
    insurance_pays = forms.CharField(
        required=False,
        max_length=20,
        label="Insurance pays",
        widget=forms.TextInput(attrs={"placeholder": "2 to 1"}),
    )
    even_money = forms.ChoiceField(required=False, choices=YES_NO, label="Even money")
    double_on = forms.ChoiceField(required=False, choices=BLANK + DOUBLE_ON, label="Double on")
    double_after_split = forms.ChoiceField(
        required=False, choices=YES_NO, label="Double after split"
    )
    double_max_doubles = forms.IntegerField(
        required=False, min_value=1, max_value=3, label="Doubles per hand"
    )
    double_card = forms.ChoiceField(
        required=False, choices=BLANK + DOUBLE_CARD, label="Double's card"
    )
    split_max_hands = forms.IntegerField(
        required=False, min_value=1, max_value=16, label="Split: most hands"
    )
    split_resplit_aces = forms.ChoiceField(required=False, choices=YES_NO, label="Resplit aces")
    split_aces_one_card = forms.ChoiceField(
        required=False, choices=YES_NO, label="Split aces get one card"
    )
    surrender = forms.ChoiceField(required=False, choices=BLANK + SURRENDER)
    limits_min = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Table minimum ($)"
    )
    limits_max = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Table maximum ($)"
    )
    chip_unit = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Smallest chip ($)"
    )
    tips_accepted = forms.ChoiceField(required=False, choices=YES_NO, label="Dealer tips accepted")
    tips_max = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Most a tip wager may be ($)"
    )
    jokers = forms.CharField(
        required=False, max_length=300, label="Jokers (approved value or usage)"
    )
    optional_payouts = forms.MultipleChoiceField(
        required=False,
        choices=OPTIONAL_PAYOUTS,
        label="Optional payouts",
        widget=forms.CheckboxSelectMultiple,
    )
    designated_blackjack = forms.CharField(
        required=False,
        max_length=10,
        label="Designated blackjack cards",
        widget=forms.TextInput(attrs={"placeholder": "AS JS"}),
    )
    layouts = forms.MultipleChoiceField(
        required=False,
        choices=[],
        help_text="The approved layouts the table displays; none chosen: not stated.",
        widget=forms.SelectMultiple(attrs={"size": 6}),
    )

    def __init__(self, *args: Any, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = catalog.games
        cast(forms.ChoiceField, self.fields["layouts"]).choices = catalog.layouts

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if (data.get("limits_min") is None) != (data.get("limits_max") is None):
            self.add_error("limits_max", "Give both the minimum and the maximum, or neither.")
        split_options = data.get("split_resplit_aces") or data.get("split_aces_one_card")
        if split_options and data.get("split_max_hands") is None:
            self.add_error("split_max_hands", "Give the most hands a split may make.")
        double_options = data.get("double_after_split") or data.get("double_card")
        if (double_options or data.get("double_max_doubles")) and not data.get("double_on"):
            self.add_error("double_on", "Say which hands may double.")
        return data


class SideWagerForm(forms.Form):
    wager = forms.ChoiceField(required=False, choices=[], label="Side wager")
    paytable = forms.ChoiceField(required=False, choices=[], label="Paytable")
    lines = forms.CharField(
        required=False,
        label="Inline paytable",
        help_text="One line each: outcome = pays, e.g. suited-20 = 9 to 1 (outcome keys are on "
        "the wager's catalog page).",
        widget=forms.Textarea(attrs={"rows": 7, "cols": 34}),
    )
    limits_min = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Minimum ($)"
    )
    limits_max = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Maximum ($)"
    )
    meter = forms.DecimalField(required=False, min_value=0, decimal_places=2, label="Meter ($)")
    column = forms.CharField(
        required=False,
        max_length=80,
        label="Pay column",
        help_text="Of a paytable printed with alternatives.",
    )
    specified_suit = forms.ChoiceField(
        required=False, choices=BLANK + SUITS, label="Specified suit"
    )
    aggregate_payout_limit = forms.DecimalField(
        required=False, min_value=0, decimal_places=2, label="Aggregate payout limit ($)"
    )

    def __init__(self, *args: Any, catalog: Catalog, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.catalog = catalog
        cast(forms.ChoiceField, self.fields["wager"]).choices = BLANK + catalog.side_wagers
        # Every wager's paytables, a group each: the page's script shows the chosen wager's
        # group only; one of another wager, sent anyway, gets this form's own error (clean).
        cast(forms.ChoiceField, self.fields["paytable"]).choices = catalog.paytables

    def clean_lines(self) -> list[dict[str, str]]:
        lines = []
        for n, text in enumerate(self.cleaned_data["lines"].splitlines(), start=1):
            if not text.strip():
                continue
            outcome, equals, pays = text.partition("=")
            if not equals or not outcome.strip() or not pays.strip():
                raise forms.ValidationError(
                    f"Line {n} ({text.strip()!r}) is not “outcome = pays”.", code="line"
                )
            lines.append({"outcome": outcome.strip(), "pays": pays.strip()})
        return lines

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if (data.get("limits_min") is None) != (data.get("limits_max") is None):
            self.add_error("limits_max", "Give both the minimum and the maximum, or neither.")
        if not data.get("wager") and (data.get("paytable") or data.get("lines")):
            self.add_error("wager", "Choose the side wager these pays are for.")
        if data.get("paytable") and data.get("lines"):
            self.add_error("lines", "Choose a catalog paytable or give inline lines, not both.")
        wager, paytable = data.get("wager"), data.get("paytable")
        if wager and paytable:
            group, own = self.catalog.paytables_of.get(wager, ("", []))
            if paytable not in {key for key, _ in own}:
                self.add_error(
                    "paytable",
                    f"{paytable} is no paytable of {group or wager}: choose one of its own, or "
                    "give its lines inline.",
                )
        return data


TableFormSet = formset_factory(
    TableForm, extra=0, min_num=1, validate_min=True, max_num=40, absolute_max=40, validate_max=True
)
SideWagerFormSet = formset_factory(
    SideWagerForm, extra=0, max_num=20, absolute_max=20, validate_max=True
)


def side_prefix(table: int) -> str:
    return f"tables-{table}-sides"


def _money(value: Decimal | None) -> str | None:
    return None if value is None else f"{value.normalize():f}"


def flat_name(group: str, key: str) -> str:
    """The form field of a nested contract field: double.on is double_on; split.max_hands is
    split_max_hands, but split.split_aces_one_card stays split_aces_one_card."""
    return key if key.startswith(f"{group}_") else f"{group}_{key}"


def _put(target: dict[str, Any], key: str, value: Any) -> None:
    """Set a field only where the form gives it: a field left blank is left out, as the
    contract allows (the validator says where a rule needs it)."""
    if value not in (None, "", []):
        target[key] = value


def configuration_from_forms(
    config: ConfigurationForm, tables: list[TableForm], sides: list[list[SideWagerForm]]
) -> tuple[dict[str, Any], dict[tuple[int, int], int]]:
    """The configuration the cleaned forms describe, and which side-wager form each of a
    table's side wagers came from (blank rows are left out)."""
    c = config.cleaned_data
    body: dict[str, Any] = {
        "jurisdiction": c["jurisdiction"],
        "as_of": c["as_of"].isoformat(),
        "licensee": c["licensee"],
        "include_proposed": c["include_proposed"],
        "tables": [],
    }
    rows: dict[tuple[int, int], int] = {}
    for t, (table_form, side_forms) in enumerate(zip(tables, sides, strict=True)):
        d = table_form.cleaned_data
        table: dict[str, Any] = {"name": d["name"], "game": d["game"]}
        _put(table, "game_version", d["game_version"])
        for key in ("decks", "player_spots", "dealing", "dealer_soft_17", "hole_card"):
            _put(table, key, d[key])
        for key in ("blackjack_pays", "variation", "insurance_pays"):
            _put(table, key, d[key].strip() if isinstance(d[key], str) else d[key])
        _put(table, "even_money", _boolean(d["even_money"]))
        if d["double_on"]:
            double: dict[str, Any] = {"on": d["double_on"]}
            _put(double, "after_split", _boolean(d["double_after_split"]))
            _put(double, "max_doubles", d["double_max_doubles"])
            _put(double, "card", d["double_card"])
            table["double"] = double
        if d["split_max_hands"] is not None:
            split: dict[str, Any] = {"max_hands": d["split_max_hands"]}
            _put(split, "resplit_aces", _boolean(d["split_resplit_aces"]))
            _put(split, "split_aces_one_card", _boolean(d["split_aces_one_card"]))
            table["split"] = split
        _put(table, "surrender", d["surrender"])
        if d["limits_min"] is not None:
            table["limits"] = {"min": _money(d["limits_min"]), "max": _money(d["limits_max"])}
        _put(table, "chip_unit", _money(d["chip_unit"]))
        tips: dict[str, Any] = {}
        _put(tips, "accepted", _boolean(d["tips_accepted"]))
        _put(tips, "max", _money(d["tips_max"]))
        _put(table, "tips", tips)
        _put(table, "jokers", d["jokers"])
        _put(table, "optional_payouts", d["optional_payouts"])
        _put(table, "designated_blackjack", d["designated_blackjack"].split())
        table["side_wagers"] = []
        for s, side_form in enumerate(side_forms):
            w = side_form.cleaned_data
            if not w.get("wager"):
                continue
            side: dict[str, Any] = {"wager": w["wager"]}
            _put(side, "paytable", w["paytable"] or w["lines"])
            if w["limits_min"] is not None:
                side["limits"] = {"min": _money(w["limits_min"]), "max": _money(w["limits_max"])}
            for key in ("meter", "aggregate_payout_limit"):
                _put(side, key, _money(w[key]))
            _put(side, "column", w["column"])
            _put(side, "specified_suit", w["specified_suit"])
            rows[(t, len(table["side_wagers"]))] = s
            table["side_wagers"].append(side)
        if d["layouts"]:
            table["layouts"] = d["layouts"]
        body["tables"].append(table)
    return body, rows


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def form_data_from_configuration(config: dict[str, Any], *, extra_sides: int = 1) -> dict[str, Any]:
    """The form's data for a configuration (a sample, a stored run): the fields the form has,
    named as it names them; what it has no field for is left out. Each table gets
    `extra_sides` blank side-wager rows."""
    data: dict[str, Any] = {
        "jurisdiction": config.get("jurisdiction", ""),
        "as_of": config.get("as_of", ""),
        "licensee": config.get("licensee", ""),
    }
    if config.get("include_proposed"):
        data["include_proposed"] = "on"
    tables = config.get("tables") or [{}]
    data |= {"tables-TOTAL_FORMS": str(len(tables)), "tables-INITIAL_FORMS": "0"}
    for t, table in enumerate(tables):
        prefix = f"tables-{t}-"
        flat = dict(table)
        for group in ("double", "split", "limits", "tips"):
            for key, value in (flat.pop(group, None) or {}).items():
                flat[flat_name(group, key)] = value
        flat["designated_blackjack"] = " ".join(flat.get("designated_blackjack") or [])
        for key, value in flat.items():
            if key in ("side_wagers", "layouts", "optional_payouts"):
                continue
            data[prefix + key] = _text(value)
        data[prefix + "layouts"] = list(table.get("layouts") or [])
        data[prefix + "optional_payouts"] = list(table.get("optional_payouts") or [])
        sides = list(table.get("side_wagers") or [])
        sp = side_prefix(t)
        data |= {f"{sp}-TOTAL_FORMS": str(len(sides) + extra_sides), f"{sp}-INITIAL_FORMS": "0"}
        for s, side in enumerate(sides):
            p = f"{sp}-{s}-"
            paytable = side.get("paytable")
            data[p + "wager"] = side.get("wager", "")
            if isinstance(paytable, list):
                data[p + "lines"] = "\n".join(f"{ln['outcome']} = {ln['pays']}" for ln in paytable)
            else:
                data[p + "paytable"] = paytable or ""
            for key, value in (side.get("limits") or {}).items():
                data[f"{p}limits_{key}"] = _text(value)
            for key in ("meter", "aggregate_payout_limit", "column", "specified_suit"):
                data[p + key] = _text(side.get(key))
    return data


def blank_form_data(jurisdiction: str, as_of: dt.date) -> dict[str, Any]:
    """A new configuration: one blackjack table, three side-wager rows."""
    return form_data_from_configuration(
        {
            "jurisdiction": jurisdiction,
            "as_of": as_of.isoformat(),
            "tables": [{"game": "blackjack"}],
        },
        extra_sides=3,
    )
