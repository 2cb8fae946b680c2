"""Side wagers against published analyses (issue #13): every figure of engine/published.yaml (each
case with its source, the pays it analyses, what it assumes, and the catalog paytables printing
the same pays: tests/variants/test_published_paytables.py), and here the published counts and
by-up-card returns that are no house edge of a paytable."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.analysis import analyse, analyse_dealer_hand, line_win
from engine.odds import Pays, decimal_string
from engine.playtree import analyse_play_tree
from engine.published import Case, Figure, analysed, cases, disagreements
from engine.rules import PaytableLine


def _lines(pays: list[tuple[str, str]]) -> list[PaytableLine]:
    return [PaytableLine(key, Pays.parse(odds), key) for key, odds in pays]


FIGURES = [(case, figure) for case in cases() for figure in case.figures]


@pytest.mark.parametrize(
    ("case", "figure"),
    FIGURES,
    ids=[f"{case.id}-{figure.decks}d-{figure.soft_17 or ''}" for case, figure in FIGURES],
)
def test_the_engine_agrees_with_every_published_figure(case: Case, figure: Figure) -> None:
    """Each published house edge and line probability, rounded to the places printed."""
    assert disagreements(figure, analysed(case, figure)) == []


def test_every_published_case_states_its_source_and_figures() -> None:
    assert len(cases()) >= 20
    for case in cases():
        assert case.source and case.figures and case.pays
        assert all(f.house_edge or f.lines for f in case.figures)


# Galaxy Gaming's Bust Bonus: paid on a dealer bust by the up card, more when all the dealer's
# cards are suited, 8-8-8 paid in place of the 8 lines. Colorado's Buffalo Bust Bonus 6-deck
# table prints these pays (us-co/buffalo-bust-bonus/6-decks; also the Buffalo Blackjack Bonus 2
# and 3 bust tables).
BUST_BONUS = [
    ("ace-off-suit", "3 to 1"), ("ace-suited", "50 to 1"),
    ("2-off-suit", "1 to 1"), ("2-suited", "25 to 1"),
    ("3-off-suit", "1 to 1"), ("3-suited", "15 to 1"),
    ("4-off-suit", "1 to 1"), ("4-suited", "10 to 1"),
    ("5-off-suit", "1 to 1"), ("5-suited", "5 to 1"),
    ("6-off-suit", "1 to 1"), ("6-suited", "3 to 1"),
    ("7-off-suit", "2 to 1"), ("7-suited", "15 to 1"),
    ("8-off-suit", "2 to 1"), ("8-suited", "10 to 1"),
    ("9-off-suit", "2 to 1"), ("9-suited", "20 to 1"),
    ("10-off-suit", "2 to 1"), ("10-suited", "20 to 1"),
    ("888-off-suit", "25 to 1"), ("888-suited", "75 to 1"),
]  # fmt: skip


def _by_up_card(decks: int, hits_soft_17: bool) -> dict[str, tuple[str, str, str]]:
    """Per up card: the suited and off-suit bust probabilities and the return of a wager made
    after seeing the up card (and, with an ace or ten up, after the dealer's peek finds no
    blackjack), from the engine's joint line probabilities over every dealer hand."""
    lines = _lines(BUST_BONUS)
    result = analyse_dealer_hand("buffalo-bust-bonus", lines, decks, hits_soft_17=hits_soft_17)
    probability = {line.outcome: line.probability for line in result.lines}
    wins = {line.outcome: line_win(line) for line in lines}
    cards = 52 * decks
    table = {}
    for up in ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10"):
        up_chance = Fraction(16 if up == "10" else 4, 52)
        peek = {"ace": 16 * decks, "10": 4 * decks}.get(up, 0)  # hole cards making a blackjack
        offered = up_chance * (1 - Fraction(peek, cards - 1))
        keys = [key for key in wins if key.startswith(f"{up}-") or (up == "8" and key[:3] == "888")]
        returned = sum(probability[k] * (wins[k] + 1) for k in keys) / offered - 1
        suited = sum(probability[k] for k in keys if k.endswith("-suited") and k[:3] != "888")
        off = sum(probability[k] for k in keys if k.endswith("-off-suit") and k[:3] != "888")
        table[up] = tuple(decimal_string(x / offered, 6) for x in (suited, off)) + (
            decimal_string(returned, 6),
        )
    return table


def test_bust_bonus_matches_the_published_six_deck_return_by_up_card() -> None:
    """S. How, Discount Gambling, "Bust Bonus BJ Side Bet" (discountgambling.net/2013/05/14/
    bust-bonus-bj-side-bet/), "Bust Bonus Side Bet (6 Decks)": per up card the suited-bust and
    off-suit-bust probabilities and the return, the wager made after the peek with an ace or ten
    up. The soft-17 rule is not printed: these are the dealer-hits-soft-17 figures (standing, the
    ace-up return would be −0.243520). The 8 row's 888 busts (0.000207 suited, 0.005041 off-suit)
    are checked below."""
    assert _by_up_card(6, hits_soft_17=True) == {
        "ace": ("0.002222", "0.199059", "-0.090437"),
        "2": ("0.008751", "0.347909", "-0.076644"),
        "3": ("0.011524", "0.365435", "-0.084754"),
        "4": ("0.014574", "0.383896", "-0.071892"),
        "5": ("0.017883", "0.401749", "-0.089206"),
        "6": ("0.020844", "0.418415", "-0.079793"),
        "7": ("0.011716", "0.250219", "-0.061881"),
        "8": ("0.011133", "0.227312", "-0.048772"),
        "9": ("0.011602", "0.217640", "-0.103441"),
        "10": ("0.012263", "0.217975", "-0.088547"),
    }
    result = analyse_dealer_hand("buffalo-bust-bonus", _lines(BUST_BONUS), 6, hits_soft_17=True)
    eight_up = Fraction(4, 52)
    by = {line.outcome: line.probability for line in result.lines}
    assert decimal_string(by["888-suited"] / eight_up, 6) == "0.000207"
    assert decimal_string(by["888-off-suit"] / eight_up, 6) == "0.005041"


# Wizard of Odds, "Super 4" (wizardofodds.com/games/blackjack/side-bets/super-4/), "Version
# Table 1 — 5 Decks": the four cards (the player's two, the dealer's two) ordered from 260 cards,
# 260·259·258·257 = 4,465,046,040; in version 1 every hand below needs a dealer blackjack. MA 19(j)
# (us-ma/super-4-progressive) prints the same hands; the royal flush in the chosen suit is the
# Wizard's royal flush in diamonds.
SUPER_4_HANDS = [
    "royal-flush-chosen-suit", "royal-flush", "three-of-a-kind", "straight", "flush",
    "two-pair", "same-color", "pair", "any-hand", "dealer-ace-up",
]  # fmt: skip


def test_super_4_hand_counts_match_the_published_five_deck_analysis() -> None:
    lines = [PaytableLine(key, Pays.parse("1 to 1"), key) for key in SUPER_4_HANDS]
    result = analyse_play_tree("super-4-progressive", lines, 5, hits_soft_17=False)
    by = {line.outcome: line.probability for line in result.lines}
    deals = 260 * 259 * 258 * 257
    assert deals == 4_465_046_040
    published = {
        "royal-flush-chosen-suit": 7_500,
        "royal-flush": 22_500,
        "three-of-a-kind": 2_188_800,
        "straight": 1_890_000,
        "flush": 3_075_600,
        "two-pair": 2_284_800,
        "same-color": 22_230_000,
        "pair": 58_960_000,
    }
    assert {key: by[key] * deals for key in published} == published
    # and the printed probabilities, to 9 places
    assert decimal_string(by["royal-flush-chosen-suit"], 9) == "0.000001680"
    assert decimal_string(by["three-of-a-kind"], 9) == "0.000490208"
    assert decimal_string(by["same-color"], 9) == "0.004978672"


def test_royal_match_six_deck_counts_match_the_published_table() -> None:
    """Wizard of Odds, "Royal Match — Version 1 — Six Decks": 144 royal matches and 11,868 other
    suited pairs of C(312, 2) = 48,516 two-card hands."""
    pays = [("royal-match", "25 to 1"), ("two-suited-cards", "2.5 to 1")]
    result = analyse("royal-match-21", _lines(pays), 6)
    by = {line.outcome: line.probability for line in result.lines}
    assert by == {"royal-match": Fraction(144, 48516), "two-suited-cards": Fraction(11868, 48516)}


def test_lucky_lucky_matches_the_published_six_deck_analysis() -> None:
    """Wizard of Odds, "Lucky Lucky" (wizardofodds.com/games/blackjack/side-bets/lucky-lucky/; read
    in its mirror nilapub.com/games/blackjack/side-bets/lucky-lucky/),
    "Lucky Lucky — Pay Table 1 — Six Decks": the player's two cards and the dealer's up card, each
    hand's count of C(312, 3) = 5,013,320 three-card sets, and the house edge 2.66 %. Pay table 1
    (suited 21 pays 15) is not in the catalog; Colorado's Lucky Lucky tables 1-3
    (us-co/lucky-lucky/table-1 …) pay the same hands, so the counts hold for them."""
    pays = [
        ("suited-777", "200 to 1"), ("suited-678", "100 to 1"), ("777", "50 to 1"),
        ("678", "30 to 1"), ("suited-21", "15 to 1"), ("total-21", "3 to 1"),
        ("total-20", "2 to 1"), ("total-19", "2 to 1"),
    ]  # fmt: skip
    result = analyse("lucky-lucky", _lines(pays), 6)
    sets = 312 * 311 * 310 // 6
    assert sets == 5_013_320
    assert {line.outcome: line.probability * sets for line in result.lines} == {
        "suited-777": 80,
        "suited-678": 864,
        "777": 1_944,
        "678": 12_960,
        "suited-21": 26_568,
        "total-21": 406_296,
        "total-20": 377_568,
        "total-19": 364_320,
    }


def test_sevens_lines_match_the_published_counts_and_house_edge() -> None:
    """Wizard of Odds, "Super Sevens" (read in its mirror user-casino.com/games/blackjack/
    side-bets/super-sevens/), "Super Sevens — Six Decks — Three-Card Guarantee" (a player with two
    sevens always gets a third card, as the engine reads MA 17(e)(3)): of 312·311·310 = 30,079,920
    ordered three-card deals, 480 suited and 11,664 other 7-7-7, 34,560 suited and 124,416 other
    7-7, and 2,142,720 with a seven first ("One seven (initial card)", fixtures/sources/text/
    ma-205-cmr-blackjack.md line 329, read as the first card: engine/readings.py); house edge
    11.40 %. MA 17's sevens table prints the Super Sevens pays."""
    pays = [
        ("three-7s-suited", "5000 to 1"), ("three-7s", "500 to 1"),
        ("two-7s-suited", "100 to 1"), ("two-7s", "50 to 1"), ("one-7", "3 to 1"),
    ]  # fmt: skip
    result = analyse("sevens", _lines(pays), 6, "US-MA")
    deals = 312 * 311 * 310
    by = {line.outcome: line.probability * deals for line in result.lines}
    assert by == {
        "three-7s-suited": 480,
        "three-7s": 11_664,
        "two-7s-suited": 34_560,
        "two-7s": 124_416,
        "one-7": 2_142_720,
    }
    assert decimal_string(result.house_edge, 4) == "0.1140"
    assert result.house_edge == Fraction(14288, 125333)


def test_a_figure_the_analysis_does_not_round_to_is_a_disagreement() -> None:
    """What the review lists as differing from a published figure: the Wizard's Buster Blackjack
    house edge with the dealer standing on soft 17 (8.25 % at 6 decks) set against the analysis
    with the dealer hitting it (6.21 %)."""
    [case] = [c for c in cases() if c.id == "wizard-buster-pay-table-1"]
    [standing] = [f for f in case.figures if f.decks == 6 and f.soft_17 == "stand"]
    [hitting] = [f for f in case.figures if f.decks == 6 and f.soft_17 == "hit"]
    assert disagreements(standing, analysed(case, hitting)) == [
        "house edge published 0.0825, analysed 0.0621"
    ]
    assert disagreements(hitting, analysed(case, hitting)) == []
