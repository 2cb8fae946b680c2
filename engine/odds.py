"""Payouts as the rules print them, as exact values: "3 to 2", "25 for 1", "1,000 to 1", "10%" of a
meter, "$1,000", odds plus a meter share ("200 to 1 + 100%", 30-2110(14); "100% plus 250 to 1",
30-899.11(17)), and "Push" (the wager returned: 30-2115¶3, TRI-05's Pair line).

"to" odds return the stake on top of the win; "for" odds include the stake (25 for 1 wins 24).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction


class InvalidPays(ValueError):
    """The text is not a payout this module can read."""


class Basis(StrEnum):
    TO = "to"
    """"a to b": win a/b of the stake, and keep the stake."""
    FOR = "for"
    """"a for b": receive a/b of the stake in all, the stake included."""
    METER = "meter"
    """A share of a progressive meter ("100%", "10% of meter", "100% Mega")."""
    AMOUNT = "amount"
    """A fixed dollar amount ("$1,000"), for fixed-amount wagers."""
    LOSS = "loss"
    """The hand loses ("Loss", "Lose")."""
    PUSH = "push"
    """The wager is returned, neither won nor lost ("Push": 30-2115¶3, TRI-05's Pair line)."""
    ODDS_AND_METER = "odds_and_meter"
    """Odds on the stake plus a share of a meter, one pay ("200 to 1 + 100%", "10% plus 250 to 1"):
    `odds` scales with the stake, `share` of `meter` needs the meter."""


# "3 to 2", "25 for 1", "8-to-1", "3:2", "1,000 to 1" (30-2115¶5: thousands separated by a comma)
_NUMBER = r"(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_RATIO = re.compile(rf"^{_NUMBER}\s*-?\s*(to|for|:)\s*-?\s*{_NUMBER}$", re.IGNORECASE)
# "10%", "10% of meter", "100% Mega", "100% of Major Progressive Meter" (30-899.11(17)),
# "100% of the progressive meter amount" (MA 19(c)), "100% Star Progressive" (MA 19(k))
_METER = re.compile(r"^(\d+(?:\.\d+)?)\s*%((?:\s+[A-Za-z]+)*)$", re.IGNORECASE)
_METER_WORDS = {"of", "the", "progressive", "meter", "amount"}
_NUMBER_WORDS = dict(
    zip(
        "one two three four five six seven eight nine ten eleven twelve".split(),
        range(1, 13),
        strict=True,
    )
)
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
"""Odds the rules spell out ("one to one", MA 17(e)(1); "six to five", 30-810)."""
"""Words of a meter share that name no meter: "100% of the progressive meter amount" is "100%"."""
_AMOUNT = re.compile(r"^\$\s*(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)$")
# "200 to 1 + 100%", "100% plus 250 to 1"
_COMPOUND = re.compile(r"^(.+?)\s+(?:\+|plus)\s+(.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Pays:
    """One payout. Compare with `same_payout`: "6 to 4" pays what "3 to 2" pays."""

    basis: Basis
    ratio: Fraction | None = None
    """a/b for "to" and "for" odds."""
    share: Fraction | None = None
    """Share of the meter (1 for 100%)."""
    meter: str = ""
    """Which meter, where a table has several ("Mega", "Major", "Minor"): the words of the share
    that name one ("100% of Major Progressive Meter" is Major's; "100% Progressive" names none)."""
    amount: Decimal | None = None
    """Dollars for a fixed amount."""
    odds: Pays | None = None
    """The odds part ("200 to 1") of odds plus a meter share."""
    meter_first: bool = False
    """Odds plus a meter share printed meter first ("100% plus 250 to 1")."""

    @classmethod
    def parse(cls, text: str) -> Pays:
        """Read a payout as printed.

        :raises InvalidPays: the text is not a payout ("about 3 to 2", "3 to", "").
        """
        clean = " ".join(text.replace("\u2013", "-").split())
        if match := _COMPOUND.match(clean):
            return cls._odds_and_meter(text, match.group(1), match.group(2))
        if match := _RATIO.match(
            _NUMBER_WORD.sub(lambda m: str(_NUMBER_WORDS[m[1].lower()]), clean)
        ):
            a, word, b = (group.replace(",", "") for group in match.groups())
            if Fraction(b) == 0:
                raise InvalidPays(f"{text!r}: odds cannot be against 0")
            basis = Basis.FOR if word.lower() == "for" else Basis.TO
            return cls(basis, ratio=Fraction(a) / Fraction(b))
        if match := _METER.match(clean):
            words = match.group(2).split()
            name = " ".join(w for w in words if w.lower() not in _METER_WORDS)
            return cls(Basis.METER, share=Fraction(match.group(1)) / 100, meter=name)
        if match := _AMOUNT.match(clean):
            return cls(Basis.AMOUNT, amount=Decimal(match.group(1).replace(",", "")))
        if clean.lower() in {"loss", "lose", "loses"}:
            return cls(Basis.LOSS)
        if clean.lower() == "push":
            return cls(Basis.PUSH)
        raise InvalidPays(
            f"{text!r} is not a payout; write odds as '3 to 2' or '25 for 1', a meter share "
            "as '10%', "
            f"or a fixed amount as '$100'"
        )

    @classmethod
    def _odds_and_meter(cls, text: str, first: str, second: str) -> Pays:
        parts = [cls.parse(first), cls.parse(second)]
        kinds = [part.basis for part in parts]
        odds = next((part for part in parts if part.basis in (Basis.TO, Basis.FOR)), None)
        share = next((part for part in parts if part.basis is Basis.METER), None)
        if odds is None or share is None:
            raise InvalidPays(
                f"{text!r}: a compound pay is odds plus a meter share ('200 to 1 + 100%'), "
                f"not {' + '.join(kinds)}"
            )
        return cls(
            Basis.ODDS_AND_METER,
            share=share.share,
            meter=share.meter,
            odds=odds,
            meter_first=parts[0] is share,
        )

    def __str__(self) -> str:
        if self.basis is Basis.ODDS_AND_METER:
            assert self.odds is not None
            share = str(Pays(Basis.METER, share=self.share, meter=self.meter))
            return f"{share} plus {self.odds}" if self.meter_first else f"{self.odds} + {share}"
        if self.basis in (Basis.TO, Basis.FOR):
            assert self.ratio is not None
            return f"{self.ratio.numerator} {self.basis.value} {self.ratio.denominator}"
        if self.basis is Basis.METER:
            assert self.share is not None
            percent = self.share * 100
            text = f"{percent.numerator if percent.denominator == 1 else float(percent)}%"
            return f"{text} {self.meter}".strip()
        if self.basis is Basis.AMOUNT:
            return f"${self.amount:,}"
        if self.basis is Basis.PUSH:
            return "Push"
        return "Loss"

    def settle(self, stake: Decimal, meter: Decimal | None) -> Decimal | None:
        """What the stake gains with the meter at `meter`: the odds on the stake plus the meter's
        share; None where the pay needs the meter and none is given."""
        if self.basis in (Basis.METER, Basis.ODDS_AND_METER):
            if meter is None:
                return None
            assert self.share is not None
            share = meter * self.share.numerator / self.share.denominator
            odds = self.odds.net_win(stake) if self.odds else Decimal(0)
            assert odds is not None
            return odds + share
        return self.net_win(stake)

    def net_win(self, stake: Decimal) -> Decimal | None:
        """What a winning stake gains, not counting the stake returned; None for a meter share,
        alone or with odds (it depends on the meter: `settle`)."""
        if self.basis is Basis.TO:
            assert self.ratio is not None
            return stake * self.ratio.numerator / self.ratio.denominator
        if self.basis is Basis.FOR:
            assert self.ratio is not None
            return stake * self.ratio.numerator / self.ratio.denominator - stake
        if self.basis is Basis.AMOUNT:
            assert self.amount is not None
            return self.amount
        if self.basis is Basis.LOSS:
            return -stake
        if self.basis is Basis.PUSH:
            return Decimal(0)
        return None

    def same_payout(self, other: Pays) -> bool:
        """Whether the two pay the same: "4 for 1" is "3 to 1"."""
        return self._key() == other._key()

    def _key(self) -> tuple[object, ...]:
        if self.basis is Basis.ODDS_AND_METER:
            assert self.odds is not None
            return (self.basis, self.odds._key(), self.share, self.meter.lower())
        if self.basis is Basis.FOR:
            assert self.ratio is not None
            return (Basis.TO, self.ratio - 1)
        return (self.basis, self.ratio, self.share, self.meter.lower(), self.amount)

    def at_least(self, other: Pays) -> bool:
        """Whether this pays at least what `other` pays (odds of the same kind only).

        :raises InvalidPays: the two cannot be compared (a meter share against odds).
        """
        mine, theirs = self._key(), other._key()
        if mine[0] is not Basis.TO or theirs[0] is not Basis.TO:
            raise InvalidPays(f"cannot compare {self} with {other}")
        return bool(mine[1] >= theirs[1])  # type: ignore[operator]


def decimal_string(value: Fraction, digits: int = 12) -> str:
    """A fraction as a decimal string with `digits` places, rounded half away from zero."""
    sign = "-" if value < 0 else ""
    scaled = abs(value) * 10**digits
    whole = int(scaled + Fraction(1, 2))
    text = str(whole).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}"
