"""The desk's small forms: a configuration uploaded as JSON, the sign set's options, and the
rounds and simulations pages' forms, which start from a sample configuration or one of the user's
validation runs (compliance.selectors).
"""

from __future__ import annotations

from typing import Any, cast

from django import forms

from compliance import selectors
from compliance.signage_render import SIZES
from compliance.simulations import MAX_ROUNDS
from jurisdictions.models import Instrument, Jurisdiction


class UploadForm(forms.Form):
    file = forms.FileField(
        label="Configuration file (JSON)",
        help_text="A configuration as the API takes it (docs/api.md, contract v1).",
    )


class SignsForm(forms.Form):
    format = forms.ChoiceField(choices=[("html", "Preview (HTML)"), ("pdf", "PDF")])
    size = forms.ChoiceField(choices=[(s, s) for s in SIZES], required=False)
    draft = forms.BooleanField(required=False)
    wall_signs = forms.BooleanField(required=False)


class DecisionForm(forms.Form):
    """An officer's decision on a run (compliance.services.validation_run_decide)."""

    status = forms.ChoiceField(
        label="Decision",
        choices=[("approved", "Approve"), ("rejected", "Reject")],
        widget=forms.RadioSelect,
    )
    date = forms.DateField(
        label="Date of the decision", widget=forms.DateInput(attrs={"type": "date"})
    )
    note = forms.CharField(
        label="Note to the vendor",
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class WatchForm(forms.Form):
    """A watch of a jurisdiction (compliance.watch): by e-mail to the user's address, or by a
    webhook to a URL."""

    jurisdiction = forms.ChoiceField(label="Jurisdiction")
    channel = forms.ChoiceField(
        label="Tell me by",
        choices=[("email", "E-mail to my address"), ("webhook", "Webhook (a signed POST)")],
        widget=forms.RadioSelect,
        initial="email",
    )
    url = forms.URLField(
        label="Webhook URL",
        required=False,
        max_length=500,
        assume_scheme="https",
        help_text="Only for a webhook: where each delivery is POSTed.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["jurisdiction"]).choices = [
            (j.code, f"{j.code} {j.name}") for j in Jurisdiction.objects.order_by("code")
        ]

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())
        if data.get("channel") == "webhook" and not data.get("url"):
            self.add_error("url", "A webhook needs the URL to POST to.")
        return data


class ImpactForm(forms.Form):
    """A window of adopted rules (compliance.impact.Window): a jurisdiction's rules, or one
    instrument's, on one date against a later one."""

    rules = forms.ChoiceField(label="Rules")
    start = forms.DateField(
        label="From", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    end = forms.DateField(
        label="To", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices: list[tuple[str, str]] = []
        for instrument in Instrument.objects.select_related("jurisdiction"):
            code = instrument.jurisdiction.code
            if (code, f"{code}, all its rules") not in choices:
                choices.append((code, f"{code}, all its rules"))
            choices.append((f"{code}/{instrument.slug}", f"{code} {instrument.name}"))
        cast(forms.ChoiceField, self.fields["rules"]).choices = choices

    def clean(self) -> dict[str, Any]:
        data = cast(dict[str, Any], super().clean())  # Form's: its cleaned_data
        start, end = data.get("start"), data.get("end")
        if start and end and start >= end:
            self.add_error("end", f"must be after {start}: the window runs forwards.")
        return data

    def request_body(self) -> dict[str, Any]:
        """The body POST /api/v1/impact/ takes for this window."""
        code, _, instrument = self.cleaned_data["rules"].partition("/")
        change = {
            "kind": "window",
            "from": self.cleaned_data["start"].isoformat(),
            "to": self.cleaned_data["end"].isoformat(),
        }
        if instrument:
            change["instrument"] = instrument
        return {"jurisdiction": code, "change": change}


RUNS_OFFERED = 30
"""The floors a run picker offers, newest first."""


def _sources(user: Any) -> list[tuple[str, Any]]:
    """The configurations a round or a simulation may use: the samples, and the latest run of
    each floor the user may see (a floor filed again is one choice, its latest run)."""
    runs = [
        (f"run:{r.pk}", run_label(r, user))
        for r in selectors.latest_floors_for(user)[:RUNS_OFFERED]
    ]
    choices: list[tuple[str, Any]] = [
        ("Samples", [(f"sample:{name}", name) for name in selectors.samples()])
    ]
    return choices + ([("Your floors on file (each its latest run)", runs)] if runs else [])


def run_label(run: Any, user: Any) -> str:
    """A run as a picker names it: the licensee, the jurisdiction, its tables, the date it is
    judged at, its status and when it was filed (and by whom, where not the user)."""
    tables = [t.get("name", "") for t in run.configuration.get("tables", [])]
    shown = ", ".join(tables[:3]) + (f" and {len(tables) - 3} more" if len(tables) > 3 else "")
    by = "" if run.created_by_id == user.pk else f" by {run.created_by or 'a deleted user'}"
    return (
        f"{run.configuration.get('licensee') or '(no licensee)'} · {run.jurisdiction} · "
        f"{len(tables)} table{'s' if len(tables) != 1 else ''} ({shown}) · as of "
        f"{run.as_of:%Y-%m-%d} · {run.get_status_display().lower()} · filed "
        f"{run.created_at:%Y-%m-%d %H:%M}{by}"
    )


def _source(user: Any, value: str) -> dict[str, Any]:
    """The configuration a source choice names."""
    kind, _, name = value.partition(":")
    if kind == "run":
        return dict(selectors.validation_run_or_404(user, name).configuration)
    return selectors.samples()[name]


class SourceForm(forms.Form):
    configuration = forms.ChoiceField(choices=[])
    table = forms.CharField(
        required=False, max_length=80, help_text="The configuration's table; blank: the first."
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["configuration"]).choices = _sources(user)
        self.user = user

    def request_body(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "configuration": _source(self.user, self.cleaned_data["configuration"])
        }
        if self.cleaned_data["table"]:
            body["table"] = self.cleaned_data["table"]
        return body


def _amounts(text: str, field: str) -> dict[str, str]:
    """ "main=10 kings-bounty=5" as {"main": "10", "kings-bounty": "5"}."""
    amounts = {}
    for part in text.replace(",", " ").split():
        name, equals, amount = part.partition("=")
        if not equals or not name or not amount:
            raise forms.ValidationError(
                f"“{part}” is not wager=amount (e.g. main=10 kings-bounty=5).", code=field
            )
        amounts[name] = amount
    return amounts


def _wagers(text: str, field: str) -> dict[str, Any]:
    """ "main=10 over-under-13:under=1" as {"main": "10", "over-under-13": {"stake": "1",
    "side": "under"}}: a wager placed on one side of several names it after a colon (the API's
    {"stake", "side"})."""
    wagers: dict[str, Any] = {}
    for name, amount in _amounts(text, field).items():
        wager, colon, side = name.partition(":")
        wagers[wager] = {"stake": amount, "side": side} if colon else amount
    return wagers


def _words(text: str) -> list[str]:
    return text.replace(",", " ").split()


SEATS = 3


"""Seats the round forms offer."""


class RoundForm(SourceForm):
    """Play a round (POST /api/v1/rounds/) or replay one as it happened (rounds/replay/)."""

    replay = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for n in range(1, SEATS + 1):
            self.fields[f"seat{n}_wagers"] = forms.CharField(
                required=n == 1,
                label=f"Seat {n}: wagers",
                help_text="wager=amount, e.g. main=10 kings-bounty=5; a side after a colon: "
                "over-under-13:under=1",
            )
            self.fields[f"seat{n}_actions"] = forms.CharField(
                required=False,
                label=f"Seat {n}: actions",
                help_text="In order of play, e.g. split hit stand stand"
                + ("" if self.replay else "; blank: basic strategy"),
            )
            if self.replay:
                self.fields[f"seat{n}_paid"] = forms.CharField(
                    required=n == 1,
                    label=f"Seat {n}: paid",
                    help_text="Net of the stakes, per wager: main=15 insurance=-5",
                )

    def seats(self) -> list[dict[str, Any]]:
        seats = []
        for n in range(1, SEATS + 1):
            wagers = self.cleaned_data.get(f"seat{n}_wagers")
            if not wagers:
                continue
            actions = _words(self.cleaned_data.get(f"seat{n}_actions") or "")
            seat: dict[str, Any] = {"wagers": _wagers(wagers, f"seat{n}_wagers")}
            if self.replay:
                seat |= {"actions": actions}
                seat["paid"] = _amounts(self.cleaned_data[f"seat{n}_paid"], f"seat{n}_paid")
            else:
                seat["actions"] = actions or None
            seats.append(seat)
        return seats

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        for n in range(1, SEATS + 1):
            for kind in ("wagers", "paid"):
                name = f"seat{n}_{kind}"
                if data.get(name):
                    try:
                        _amounts(data[name], name)
                    except forms.ValidationError as exc:
                        self.add_error(name, exc)
        return data


class PlayForm(RoundForm):
    seed = forms.IntegerField(required=False, min_value=0, help_text="Shuffle the shoe with it.")
    shoe = forms.CharField(
        required=False,
        label="Scripted cards",
        help_text="In dealing order instead of a seed, e.g. TH AC 8D 6S 4C",
    )
    rounds = forms.IntegerField(min_value=1, max_value=20, initial=1, required=False)
    field_order = ["configuration", "table", "seed", "shoe", "rounds"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        if (data.get("seed") is None) == (not data.get("shoe")):
            self.add_error("seed", "Give a seed or scripted cards (one of the two).")
        return data

    def request_body(self) -> dict[str, Any]:
        body = super().request_body() | {"seats": self.seats()}
        if self.cleaned_data["shoe"]:
            body["shoe"] = _words(self.cleaned_data["shoe"])
        else:
            body |= {"seed": self.cleaned_data["seed"], "rounds": self.cleaned_data["rounds"] or 1}
        return body


class ReplayForm(RoundForm):
    replay = True
    cards = forms.CharField(label="Cards dealt", help_text="In dealing order, e.g. TH AC 8D 6S 4C")
    field_order = ["configuration", "table", "cards"]

    def request_body(self) -> dict[str, Any]:
        return super().request_body() | {
            "cards": _words(self.cleaned_data["cards"]),
            "seats": self.seats(),
        }


class SimulationForm(SourceForm):
    rounds = forms.IntegerField(
        min_value=1000,
        max_value=MAX_ROUNDS,
        initial=1_000_000,
        help_text="Rounds to play; split into chunks of a million.",
    )
    seed = forms.IntegerField(
        required=False, min_value=0, help_text="Blank: a random seed, reported with the result."
    )
    effects = forms.BooleanField(
        required=False,
        label="Effect of each rule option",
        help_text="About ten times the work.",
    )

    def request_body(self) -> dict[str, Any]:
        body = super().request_body() | {
            "rounds": self.cleaned_data["rounds"],
            "effects": self.cleaned_data["effects"],
        }
        if self.cleaned_data["seed"] is not None:
            body["seed"] = self.cleaned_data["seed"]
        return body
