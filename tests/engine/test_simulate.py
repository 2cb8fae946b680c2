"""The compiled base-game simulator: round for round what the logged engine pays, reproducible
from its seed, and house edges that agree with published figures. No database."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from engine.cards import Card, parse_cards
from engine.odds import decimal_string
from engine.round import SeatSpec, play_round
from engine.rules import DoubleOn, HoleCard, RuleSet, Surrender
from engine.shoe import Shoe
from engine.simulate import (
    SimulationResult,
    chunk_sizes,
    combine,
    rule_effects,
    rules_as_dict,
    rules_from_dict,
    scripted_round,
    simulate,
    simulate_chunk,
)
from engine.strategy import BasicStrategy
from tests.engine.test_basegame_spanish import spanish_21 as catalog_spanish_21


def spanish_21(**changes: object) -> RuleSet:
    """The catalog's Spanish 21 (30-899.16) less its Super and Envy Bonus, dollar amounts the
    simulator does not pay."""
    return replace(catalog_spanish_21(**changes), super_bonus=(), envy_bonus=Decimal(0))


STANDARD = RuleSet(decks=6, dealer_hits_soft_17=False, blackjack_pays=Fraction(3, 2))
"""6 decks, dealer stands on soft 17, 3 to 2, double any two and after splits, split to 4 hands,
split aces one card, no surrender, peek."""

RULE_SETS = {
    "standard": STANDARD,
    "h17, 6 to 5": replace(STANDARD, dealer_hits_soft_17=True, blackjack_pays=Fraction(6, 5)),
    "late surrender": replace(STANDARD, surrender=Surrender.LATE),
    "early surrender, no hole card": replace(
        STANDARD, surrender=Surrender.EARLY, hole_card=HoleCard.NONE
    ),
    "no hole card, late surrender": replace(
        STANDARD, hole_card=HoleCard.NONE, surrender=Surrender.LATE
    ),
    "no peek, all bets lose": replace(
        STANDARD, hole_card=HoleCard.NO_PEEK, original_bets_only=False
    ),
    "resplit aces, split aces draw": replace(
        STANDARD, resplit_aces=True, split_aces_one_card=False
    ),
    "resplit aces, one card": replace(STANDARD, resplit_aces=True, max_split_hands=3),
    "9-11, no DAS, 2 hands": replace(
        STANDARD, double_on=DoubleOn.NINE_TEN_ELEVEN, double_after_split=False, max_split_hands=2
    ),
    "double any time, 1 deck": replace(STANDARD, decks=1, double_on=DoubleOn.ANY_TIME),
    "two-card 21 beats 21, no hole card": replace(
        STANDARD, two_card_21_beats_dealer_21=True, hole_card=HoleCard.NONE
    ),
    "no splits, no doubles, 1 to 1": replace(
        STANDARD, max_split_hands=1, double_on=DoubleOn.NONE, blackjack_pays=Fraction(1)
    ),
    "spanish 21": spanish_21(),
    "spanish 21, h17, redouble": spanish_21(dealer_hits_soft_17=True, max_doubles=3),
    "spanish 21, no hole card, 2 decks": spanish_21(decks=2, hole_card=HoleCard.NONE),
    "bonus 21 on doubled hands, 21s compared": spanish_21(
        spanish_decks=False, player_21_wins=False, bonus_on_doubled=True, rescue=False
    ),
}


def _dealt(rules: RuleSet, rng: random.Random) -> list[Card]:
    """The first 60 cards (or a whole deck) of a shuffled shoe, often rearranged (still cards the
    shoe holds) to deal the player a pair, more of its value, or the dealer an ace or a ten, so
    that splits, resplits and peeks come up often."""
    shoe = Shoe.shuffled(rules.decks, 0).cards
    cards = rng.sample(shoe, min(60, len(shoe)))
    want = rng.random()
    wanted = [(2, cards[0].value)]  # a pair: the player's second card matches the first
    if want < 0.3:  # and more of it for resplits
        wanted += [(n, cards[0].value) for n in (4, 5, 6)]
    elif want < 0.6:  # the dealer's up card an ace or a ten
        wanted = [(1, rng.choice((1, 10)))]
    elif want < 0.8:
        wanted = []
    for index, value in wanted:
        match = next((i for i in range(index + 1, len(cards)) if cards[i].value == value), None)
        if match is not None:
            cards[index], cards[match] = cards[match], cards[index]
    return cards


@pytest.mark.parametrize("name", RULE_SETS)
def test_each_round_pays_what_the_logged_engine_pays(name: str) -> None:
    """The same cards, round for round: the same net and the same number of cards taken."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    strategy = BasicStrategy(rules)
    for _ in range(2000):
        cards = _dealt(rules, rng)
        shoe = Shoe.scripted(cards, rules.decks)
        log = play_round(rules, shoe, [SeatSpec({"main": Decimal(10)}, strategy)])
        net, used = scripted_round(rules, cards)
        assert (net, used) == (Fraction(log.net(1)) / 10, shoe.position), log.to_dict()


@pytest.mark.parametrize(
    ("rules", "cards", "net", "rule_key"),
    [
        (spanish_21(), "6S 7D 7S TC 8S", 3, "bonus-21"),  # 6-7-8 in spades, 3 to 1
        (spanish_21(), "6H 7D 7H TC 8H", 2, "bonus-21"),  # suited, 2 to 1
        (spanish_21(), "6H 7D 7C TC 8S", Fraction(3, 2), "bonus-21"),  # mixed, 3 to 2
        (spanish_21(), "7H TD 7H 9C 7H", 2, "bonus-21"),  # 7-7-7 suited
        (spanish_21(), "2C 7D 3C TC 4C 5C 7C", Fraction(3, 2), "bonus-21"),  # five cards
        (spanish_21(), "5C 6D 6C 5S TC 9D", 2, "twenty-one"),  # a doubled 21: no bonus
        (spanish_21(), "6C 8D 5S 9C 3D", -1, "rescue"),  # doubled 11 drew a 3: rescued
        (
            spanish_21(dealer_hits_soft_17=True, max_doubles=3),
            "5C 6D 4S TC 2D 9H 5H 9S",
            -4,
            "lose",
        ),  # 9 doubled, 11 doubled again: 20 against the dealer's 21
    ],  # fmt: skip
)
def test_spanish_21_rounds_pay_as_the_rules_say(
    rules: RuleSet, cards: str, net: Fraction, rule_key: str
) -> None:
    """30-899.16: Bonus 21 odds by the hand's ranks and suits, a doubled 21 at even money, a
    rescue forfeiting half the doubled wager, a double-double down: the kernel pays what the
    logged engine pays, which is what the rules say."""
    dealt = parse_cards(cards.split())
    shoe = Shoe.scripted(dealt, rules.decks)
    log = play_round(rules, shoe, [SeatSpec({"main": Decimal(10)}, BasicStrategy(rules))])
    assert [s.rule_key for s in log.settlements] == [rule_key]
    assert Fraction(log.net(1)) / 10 == net
    assert scripted_round(rules, dealt) == (net, shoe.position)


def test_the_same_seed_gives_the_same_totals() -> None:
    first = simulate(STANDARD, 250_000, seed=11, chunk_rounds=100_000)
    assert first == simulate(STANDARD, 250_000, seed=11, chunk_rounds=100_000)
    assert first.chunks == 3 and first.rounds == 250_000
    chunks = [
        simulate_chunk(STANDARD, n, 11, i) for i, n in enumerate(chunk_sizes(250_000, 100_000))
    ]
    assert combine(reversed(chunks)) == first  # chunks add up in any order
    assert simulate(STANDARD, 250_000, seed=12, chunk_rounds=100_000) != first


def test_exact_sums_give_an_exact_house_edge() -> None:
    result = SimulationResult(rounds=4, total_units=-3, total_squares=205, unit=Fraction(1, 10))
    assert result.house_edge == Fraction(3, 40)
    assert result.variance == Fraction(4 * 205 - 9, 4 * 3) / 100
    assert result.as_dict()["house_edge"] == "0.075000000000"
    assert decimal_string(Fraction(-1, 3), 4) == "-0.3333"
    assert chunk_sizes(25, 10) == [10, 10, 5]


def test_a_stored_rule_set_reads_back_the_same() -> None:
    for rules in RULE_SETS.values():
        assert rules_as_dict(rules_from_dict(rules_as_dict(rules))) == rules_as_dict(rules)
        assert simulate_chunk(rules_from_dict(rules_as_dict(rules)), 1000, 1, 0) == (
            simulate_chunk(rules, 1000, 1, 0)
        )


def test_the_standard_game_has_the_published_house_edge() -> None:
    """6 decks, S17, 3 to 2, DAS, no surrender, peek: published figures are about 0.4-0.5%."""
    result = simulate(STANDARD, 20_000_000, seed=2024)
    se = result.standard_error
    assert 0.004 - 3 * se <= result.house_edge <= 0.005 + 3 * se, (float(result.house_edge), se)


def test_the_simulation_agrees_with_the_logged_engine() -> None:
    """200,000 logged rounds (engine.round with BasicStrategy) against 10 million simulated:
    the difference is within three combined standard errors."""
    rounds = 200_000
    shoe = Shoe.shuffled(STANDARD.decks, 77)
    seats = [SeatSpec({"main": Decimal(1)}, BasicStrategy(STANDARD))]
    total, squares = Decimal(0), Decimal(0)
    for _ in range(rounds):
        net = play_round(STANDARD, shoe, seats).net(1)
        total += net
        squares += net * net
        shoe.end_round()
    logged = SimulationResult(rounds, int(total * 10), int(squares * 100), Fraction(1, 10))
    simulated = simulate(STANDARD, 10_000_000, seed=77)
    combined = (logged.standard_error**2 + simulated.standard_error**2) ** 0.5
    assert abs(float(logged.house_edge - simulated.house_edge)) <= 3 * combined


@pytest.fixture(scope="module")
def effects() -> dict[str, object]:
    result = rule_effects(STANDARD, 3_000_000, seed=5)
    return {"base": result.base, **{e.variation.option: e for e in result.effects}}


def test_the_effects_base_is_the_plain_simulation(effects: dict) -> None:
    assert effects["base"] == simulate(STANDARD, 3_000_000, seed=5)


@pytest.mark.parametrize(
    "option, low, high",
    [
        ("blackjack_pays", 0.012, 0.016),  # 6 to 5 instead of 3 to 2: about +1.4%
        ("dealer_soft_17", 0.0015, 0.0027),  # hitting soft 17: about +0.2%
        ("double.after_split", 0.0009, 0.0019),  # no doubling after splits: about +0.14%
        ("split.split_aces_one_card", -0.0024, -0.0012),  # split aces may draw: about -0.18%
        ("surrender", -0.0012, -0.0002),  # late surrender: about -0.07%
        ("split.resplit_aces", -0.0012, -0.0004),  # resplitting aces: about -0.08%
    ],
)
def test_a_rule_option_changes_the_house_edge_as_published(
    effects: dict, option: str, low: float, high: float
) -> None:
    effect = effects[option]
    change, se = float(effect.house_edge_change), effect.standard_error
    assert low - 3 * se <= change <= high + 3 * se, (change, se)
    assert abs(change) > 5 * se  # common random numbers: the sign is certain


def test_a_continuous_shuffler_deals_every_round_from_all_the_cards() -> None:
    """A continuous shuffler takes the cards back after every round: after a round that dealt two
    aces from one deck, the next round's first card is still an ace 4 times in 52 (a shoe would
    have 2 aces left in 48 cards). Every round's cards are distinct cards of the deck."""
    from engine.simulate import chunk_state, composition
    from engine.simulate.kernel import draw, shuffle

    cards = composition(RuleSet(decks=1))
    state = chunk_state(3, 0)
    shuffle(cards, state)
    dealt = np.full(1, 0, dtype=np.int64)
    after_two_aces = aces_next = 0
    previous_aces = 0
    for _ in range(150_000):
        dealt[0] = 0
        values, pos = [], 0
        for _card in range(5):
            code, pos = draw(cards, pos, state, 0, dealt)
            values.append(code & 15)  # the value (the suit above it)
        assert values.count(1) <= 4 and values.count(10) <= 16
        if previous_aces >= 2:
            after_two_aces += 1
            aces_next += values[0] == 1
        previous_aces = values.count(1)
    share = aces_next / after_two_aces
    error = (4 / 52 * 48 / 52 / after_two_aces) ** 0.5
    assert after_two_aces > 5_000 and abs(share - 4 / 52) < 4 * error, (share, after_two_aces)
    assert sorted(cards.tolist()) == sorted(composition(RuleSet(decks=1)).tolist())


def test_a_continuous_shuffler_simulation_is_seeded_and_differs_from_the_shoe() -> None:
    one_deck = replace(STANDARD, decks=1)
    csm = simulate(one_deck, 300_000, seed=4, chunk_rounds=100_000, continuous=True)
    assert csm == simulate(one_deck, 300_000, seed=4, chunk_rounds=100_000, continuous=True)
    assert csm != simulate(one_deck, 300_000, seed=4, chunk_rounds=100_000)
    effects = rule_effects(one_deck, 100_000, seed=4, continuous=True)
    assert effects.base == simulate(one_deck, 100_000, seed=4, continuous=True)
