"""Dealer-hand and play-tree side wagers against published analyses (issue #13): each case names
its source, the paytable it prints, and what it assumes; the catalog paytable printing the same
pays is named beside it (tests/variants checks the catalog rows against the rule texts)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.analysis import _win, analyse, analyse_dealer_hand
from engine.odds import Pays, decimal_string
from engine.playtree import analyse_play_tree
from engine.rules import PaytableLine


def _lines(pays: list[tuple[str, str]]) -> list[PaytableLine]:
    return [PaytableLine(key, Pays.parse(odds), key) for key, odds in pays]


# Wizard of Odds, "Buster Blackjack" (wizardofodds.com/games/blackjack/side-bets/buster-blackjack),
# "Pay Table 1" as analysed there: 8+ cards 250, 7 cards 50, 6 cards 12, 5 cards 4, 3 or 4 cards 2,
# all "to one". MA 27's Paytable C prints these pays (us-ma/buster-blackjack/paytable-c).
BUSTER_PAY_TABLE_1 = [
    ("bust-8-plus-cards", "250 to 1"),
    ("bust-7-cards", "50 to 1"),
    ("bust-6-cards", "12 to 1"),
    ("bust-5-cards", "4 to 1"),
    ("bust-4-cards", "2 to 1"),
    ("bust-3-cards", "2 to 1"),
]


@pytest.mark.parametrize(
    ("decks", "hits_soft_17", "published"),
    [
        # Wizard of Odds, "Buster Blackjack", house edge by decks, "Stand on Soft 17" and "Hit on
        # Soft 17" columns, printed to 0.01 %. Assumes the dealer's hand drawn from a full shoe
        # (no player's cards removed), as the engine does.
        (1, False, "0.0877"), (1, True, "0.0689"),
        (2, False, "0.0848"), (2, True, "0.0651"),
        (4, False, "0.0831"), (4, True, "0.0629"),
        (5, False, "0.0827"), (5, True, "0.0625"),
        (6, False, "0.0825"), (6, True, "0.0621"),
        (8, False, "0.0822"), (8, True, "0.0617"),
    ],
)  # fmt: skip
def test_buster_blackjack_matches_the_published_house_edge_by_decks(
    decks: int, hits_soft_17: bool, published: str
) -> None:
    result = analyse_dealer_hand(
        "buster-blackjack", _lines(BUSTER_PAY_TABLE_1), decks, hits_soft_17=hits_soft_17
    )
    assert decimal_string(result.house_edge, 4) == published


def test_buster_blackjack_six_deck_lines_match_the_published_return_table() -> None:
    """Wizard of Odds, "Buster Blackjack" (read in its mirror nilapub.com/games/blackjack/side-bets/
    buster-blackjack/), "Pay Table 1 — Six Decks — Dealer Hits Soft 17": each
    line's probability to 6 places and the total return −0.062143. (Its "Dealer doesn't bust" row
    prints 0.714241; the exact figure is 0.7142398…, which S. How's six-deck table for the same
    pays, discountgambling.net/tag/sycuan/, prints as 0.714240: not asserted.)"""
    result = analyse_dealer_hand(
        "buster-blackjack", _lines(BUSTER_PAY_TABLE_1), 6, hits_soft_17=True
    )
    assert {line.outcome: decimal_string(line.probability, 6) for line in result.lines} == {
        "bust-8-plus-cards": "0.000012",
        "bust-7-cards": "0.000214",
        "bust-6-cards": "0.002638",
        "bust-5-cards": "0.020473",
        "bust-4-cards": "0.089392",
        "bust-3-cards": "0.173032",
    }
    assert decimal_string(result.house_edge, 6) == "0.062143"


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
    wins = {line.outcome: _win(line) for line in lines}
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


# Wizard of Odds, "Royal Match" (wizardofodds.com/games/blackjack/side-bets/royal-match/; read in
# its mirror riasaccanucarbul.netlify.app/blackjack-royal-match-side-bet): the player's first two
# cards, suited pays, a suited king-queen (royal match) pays more. Version 1: 25 to 1 and 5 to 2,
# as Colorado's Royal Match 21 Pay Table 4 prints them (us-co/royal-match-21/pay-table-4); version
# 2: 10 to 1 and 3 to 1, as Pay Table 1 (us-co/royal-match-21/pay-table-1). Both Colorado tables
# add an optional "Crown Treasure" dollar line, which the Wizard's tables do not have.
ROYAL_MATCH = {
    1: [("royal-match", "25 to 1"), ("two-suited-cards", "2.5 to 1")],
    2: [("royal-match", "10 to 1"), ("two-suited-cards", "3 to 1")],
}


@pytest.mark.parametrize(
    ("version", "decks", "published"),
    [
        # "Royal Match House Edge" by decks, to 6 places; version 2 is a player edge from 4 decks
        (1, 1, "0.108597"), (1, 2, "0.083271"), (1, 4, "0.070792"),
        (1, 6, "0.066658"), (1, 8, "0.064597"),
        (2, 1, "0.037707"), (2, 2, "0.008215"), (2, 4, "-0.006317"),
        (2, 6, "-0.011130"), (2, 8, "-0.013531"),
    ],
)  # fmt: skip
def test_royal_match_matches_the_published_house_edge_by_decks(
    version: int, decks: int, published: str
) -> None:
    result = analyse("royal-match-21", _lines(ROYAL_MATCH[version]), decks)
    assert decimal_string(result.house_edge, 6) == published


def test_royal_match_six_deck_counts_match_the_published_table() -> None:
    """Wizard of Odds, "Royal Match — Version 1 — Six Decks": 144 royal matches and 11,868 other
    suited pairs of C(312, 2) = 48,516 two-card hands."""
    result = analyse("royal-match-21", _lines(ROYAL_MATCH[1]), 6)
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
    assert decimal_string(result.house_edge, 4) == "0.0266"


@pytest.mark.parametrize(
    ("pays", "decks", "published"),
    [
        # Wizard of Odds, "Pair Square" (wizardofodds.com/games/blackjack/side-bets/pair-square/):
        # the player's first two cards a pair, more if suited; "Total" return to 6 places. The
        # pays are Colorado's Bet the Set 21 tables (us-co/bet-the-set-21/bts-06, bts-03, bts-04
        # at six decks, bts-02 at two, bts-01 at one).
        ([("regular-pair", "10 to 1"), ("suited-pair", "20 to 1")], 6, "0.025723"),
        ([("regular-pair", "10 to 1"), ("suited-pair", "15 to 1")], 6, "0.106109"),
        ([("regular-pair", "10 to 1"), ("suited-pair", "12 to 1")], 6, "0.154341"),
        ([("regular-pair", "10 to 1"), ("suited-pair", "25 to 1")], 2, "0.106796"),
        ([("regular-pair", "15 to 1")], 1, "0.058824"),
    ],
)
def test_bet_the_set_matches_the_published_pair_square_tables(
    pays: list[tuple[str, str]], decks: int, published: str
) -> None:
    result = analyse("bet-the-set-21", _lines(pays), decks, "US-CO")
    assert decimal_string(result.house_edge, 6) == published


@pytest.mark.parametrize(
    ("line", "decks", "published"),
    [
        # Wizard of Odds, "Over/Under 13" (read in its mirror nilapub.com/games/blackjack/
        # side-bets/over-under-13): aces one point, a total of 13 loses both; house edge to
        # 0.01 %. Each is a wager of its own (MA 17(a)(1), us-ma/over-under-13/pays).
        ("under-13", 1, "0.1011"), ("under-13", 2, "0.1008"), ("under-13", 4, "0.1007"),
        ("under-13", 6, "0.1007"), ("under-13", 8, "0.1006"),
        ("over-13", 1, "0.0679"), ("over-13", 2, "0.0665"), ("over-13", 4, "0.0658"),
        ("over-13", 6, "0.0655"), ("over-13", 8, "0.0654"),
        # E. Jacobson, "Card Counting the Over/Under 13 Blackjack Side Bet: Update 1"
        # (888casino.com/blog/side-bets/card-counting-the-overunder-13-blackjack-side-bet-update-1),
        # six decks: 6.555 % and 10.067 %
        ("over-13", 6, "0.06555"), ("under-13", 6, "0.10067"),
    ],
)  # fmt: skip
def test_over_and_under_13_match_the_published_house_edges(
    line: str, decks: int, published: str
) -> None:
    result = analyse("over-under-13", _lines([(line, "one to one")]), decks, "US-MA")
    assert decimal_string(result.house_edge, len(published) - 2) == published


IN_BETWEEN = {
    "a": [("triple-match", "30 to 1"), ("one-card-spread", "12 to 1"),
          ("two-card-spread", "6 to 1"), ("three-card-spread", "4 to 1"),
          ("all-other-spreads", "1 to 1")],
    "b": [("triple-match", "30 to 1"), ("one-card-spread", "10 to 1"),
          ("two-card-spread", "6 to 1"), ("three-card-spread", "4 to 1"),
          ("all-other-spreads", "1 to 1")],
}  # fmt: skip


@pytest.mark.parametrize(
    ("table", "decks", "published"),
    [
        # Wizard of Odds, "In BETween" (read in its mirror nilapub.com/games/blackjack/side-bets/
        # in-between/), return tables for one and two decks: MA 22's Table B pays (us-ma/in-between/
        # table-b, us-co/in-between/b)
        ("b", 1, "0.104615"),
        ("b", 2, "0.077582"),
        # E. Jacobson, "Card Counting the In Between Blackjack Side Bet" (888casino.com/blog/
        # side-bets/card-counting-the-in-between-blackjack-side-bet), 5.696 % at two decks and
        # 3.396 % at six: Table A's pays (us-ma/in-between/table-a)
        ("a", 2, "0.05696"),
        ("a", 6, "0.03396"),
    ],
)
def test_in_between_matches_the_published_house_edges(
    table: str, decks: int, published: str
) -> None:
    result = analyse("in-between", _lines(IN_BETWEEN[table]), decks)
    assert decimal_string(result.house_edge, len(published) - 2) == published


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


@pytest.mark.parametrize(("decks", "published"), [(4, "0.1592"), (6, "0.1140"), (8, "0.0901")])
def test_the_sevens_house_edge_matches_the_published_one_at_each_deck_count(
    decks: int, published: str
) -> None:
    """Super Sevens' house edge with a three-card guarantee by deck count, as the Wizard of Odds'
    table is quoted (webdelautomovil.com/how-to-play-super-7-in-blackjack/: 8 decks 9.01 %, 6 decks
    11.40 %, 4 decks 15.92 %): the MA 17(e)(3) pays, one seven the first card (line 329)."""
    pays = [
        ("three-7s-suited", "5000 to 1"), ("three-7s", "500 to 1"),
        ("two-7s-suited", "100 to 1"), ("two-7s", "50 to 1"), ("one-7", "3 to 1"),
    ]  # fmt: skip
    result = analyse("sevens", _lines(pays), decks, "US-MA")
    assert decimal_string(result.house_edge, 4) == published
