"""Wagers on the player's first cards (pairs, twenties, aces, sevens, suits), alone or with the
dealer's up card."""

from __future__ import annotations

from dataclasses import replace

from engine.cards import Suit
from engine.sidewagers.base import (
    PUSH,
    Deal,
    Evaluator,
    NotDecidable,
    dealt_in_order,
    high,
    same_colour,
    suited,
    total,
    without_bust_card,
)


def kings_bounty(deal: Deal) -> list[str]:
    """King's Bounty (30-899.20, MA 29): the player's first two cards, the top line with a dealer
    blackjack."""
    a, b = deal.player
    is_suited = a.suit == b.suit
    twenty = total(deal.player) == 20
    out = []
    if a.rank == b.rank == "K" and is_suited and a.suit is Suit.SPADES:
        if deal.dealer_blackjack:
            out.append("two-kings-of-spades-dealer-blackjack")
        out.append("two-kings-of-spades")
    if a.rank == b.rank == "K" and is_suited:
        out.append("suited-kings")
    if a.rank == b.rank and a.rank in "QJT" and is_suited:
        out.append("suited-queens-jacks-tens")
    if twenty and is_suited:
        out.append("suited-20")
    if a.rank == b.rank == "K":
        out.append("two-kings")
    if twenty and not is_suited:
        out.append("unsuited-20")
    return out


def lucky_lucky(deal: Deal) -> list[str]:
    """Lucky Lucky (30-899.18(6)): the player's two cards and the dealer's up card, totalled as a
    blackjack hand."""
    cards = (*deal.player, deal.up)
    is_suited = suited(cards)
    ranks = sorted(c.rank for c in cards)
    hand = total(cards)
    out = []
    if ranks == ["7", "7", "7"] and is_suited:
        out.append("suited-777")
    if ranks == ["6", "7", "8"] and is_suited:
        out.append("suited-678")
    if ranks == ["7", "7", "7"]:
        out.append("777")
    if ranks == ["6", "7", "8"]:
        out.append("678")
    if hand == 21 and is_suited:
        out.append("suited-21")
    if hand in (19, 20, 21):
        out.append(f"total-{hand}")
    return out


def twenty_point_bonus(deal: Deal) -> list[str]:
    """Twenty Point Bonus (MA 24(f), (g)) and Lucky Ladies (30-899.12(2), ¶3(3): the same lines,
    the highest only): the player's first two cards total 20. Per (g), a
    Matched 20 is two identical cards other than the queen of hearts pair, a Suited 20 two cards of
    one suit, Any 20 two cards of different suits."""
    a, b = deal.player
    if total(deal.player) != 20:
        return []
    out = []
    if a == b and a.rank == "Q" and a.suit is Suit.HEARTS:
        if deal.dealer_blackjack:
            out.append("queen-of-hearts-pair-dealer-blackjack")
        out.append("queen-of-hearts-pair")
    elif a == b:
        out.append("matched-20")
    out.append("suited-20" if a.suit == b.suit else "any-20")
    return out


def in_between(deal: Deal) -> list[str]:
    """IN BETWEEN (30-899.19(5), (7); MA 26(b), (g)): the dealer's up card ranks strictly between
    the player's two cards (2 low … ace high only); the spread is how many ranks lie between; a
    triple match (all three of one rank) wins too."""
    a, b, up = high(deal.player[0]), high(deal.player[1]), high(deal.up)
    if a == b == up:
        return ["triple-match"]
    low, top = sorted((a, b))
    if not low < up < top:
        return []
    spread = top - low - 1
    names = {1: "one-card-spread", 2: "two-card-spread", 3: "three-card-spread"}
    return [names.get(spread, "all-other-spreads")]


def bet_the_set(deal: Deal) -> list[str]:
    """Bet the Set 21 (30-899.13(5), (7)): the player's first two cards a pair (same rank), or a
    suited pair (same rank and suit)."""
    a, b = deal.player
    if a.rank != b.rank:
        return []
    return ["suited-pair", "regular-pair"] if a.suit == b.suit else ["regular-pair"]


def bet_the_set_progressive(deal: Deal) -> list[str]:
    """Bet the Set 21 Progressive (30-899.13(9), (10), (17)): the first two lines (Pair, Suited
    Pair) consider the player's first two cards only, the bottom two (Four of a Kind, and Same
    Color) the player's and the dealer's first two cards: the player's pair and the dealer's two
    cards of its rank, all four of one colour for the top line. Highest line only.

    :raises NotDecidable: the player's pair matched by the up card with the dealer's hole card
        not known (30-899.13(17): the dealer waits for it; the exact analysis deals the up card
        only)."""
    a, b = deal.player
    if a.rank != b.rank:
        return []
    out = []
    if deal.up.rank == a.rank:
        dealer = deal.dealer_cards[:2]
        if len(dealer) < 2:
            raise NotDecidable(
                "a pair matched by the dealer's up card waits for the hole card (30-899.13(17))"
            )
        if all(card.rank == a.rank for card in dealer):
            four = (a, b, *dealer)
            out += ["four-of-a-kind-same-color"] if same_colour(four) else []
            out.append("four-of-a-kind")
    out += ["suited-pair"] if a.suit == b.suit else []
    return out + ["pair"]


def pocket_rockets(deal: Deal) -> list[str]:
    """Pocket Rockets (30-899.28(2), (3), (7)): the player's first two cards, highest hand only; a
    blackjack pushes when the dealer has blackjack too."""
    a, b = deal.player
    aces = a.is_ace + b.is_ace
    if aces == 2:
        return ["two-suited-aces", "two-aces"] if a.suit == b.suit else ["two-aces"]
    if total(deal.player) == 21:
        return [PUSH] if deal.dealer_blackjack else ["blackjack", "one-ace"]
    if aces == 1:
        return ["one-ace"]
    return ["total-11-or-less"] if a.value + b.value <= 11 else []


def rocket_aces(deal: Deal) -> list[str]:
    """Rocket Aces Blackjack Progressive (30-899.29(1)(d), (2)). The section defines no hand; read
    (fixtures/annotations.yaml, 30-899.29(2)): the player's first two cards and the dealer's first
    two; "Player 2 Aces", two aces, "Suited" of one suit, "of Spades" both spades; "Dealer
    Blackjack", the dealer's two cards an ace and a ten-value card, "Suited" of one suit (as "of
    Spades" names the blackjack's own suit), "of Spades" both spades; "Player Single Ace", exactly
    one ace (a blackjack included: the tables paying it print no blackjack line); highest line
    only, ranked as the tables rank them (two aces with a dealer blackjack above two suited aces).

    :raises NotDecidable: the player's two aces against an ace or ten-value card up with the hole
        card not known (the suited lines read its suit; the exact analysis deals it)."""
    a, b = deal.player
    aces = a.is_ace + b.is_ace
    dealer = deal.dealer_cards[:2]
    out = []
    if aces == 2 and deal.dealer_blackjack:
        if len(dealer) < 2:
            raise NotDecidable(
                "Rocket Aces: the player's two aces with a dealer blackjack; the suited lines "
                "need the dealer's hole card"
            )
        pair_suited, dealer_suited = a.suit is b.suit, suited(dealer)
        spades = pair_suited and a.suit is Suit.SPADES
        if spades and dealer_suited and dealer[0].suit is Suit.SPADES:
            out.append("two-aces-of-spades-dealer-blackjack-of-spades")
        if spades and dealer_suited:
            out.append("two-aces-of-spades-dealer-blackjack-suited")
        if pair_suited and dealer_suited:
            out.append("two-aces-suited-dealer-blackjack-suited")
        if pair_suited:
            out.append("two-aces-suited-dealer-blackjack")
        out.append("two-aces-dealer-blackjack")
    if aces == 2 and a.suit is b.suit:
        out.append("two-aces-suited")
    blackjack = total(deal.player) == 21
    if blackjack and deal.dealer_blackjack:
        out.append("player-and-dealer-blackjack")
    if aces == 2:
        out.append("two-aces")
    if blackjack:
        out.append("player-blackjack")
    if aces == 1:
        out.append("single-ace")
    if deal.dealer_blackjack:
        out.append("dealer-blackjack")
    return [*out, "all-other-hands"]  # printed as a line that loses ("All other hands - Lose")


def same_suit(deal: Deal) -> list[str]:
    """Same suit (MA 17(a)(2), (e)(2)): the player's first two cards of one suit; king and queen
    of one suit is the higher line."""
    a, b = deal.player
    if a.suit != b.suit:
        return []
    return (
        ["king-and-queen", "any-two-cards"] if {a.rank, b.rank} == {"K", "Q"} else ["any-two-cards"]
    )


def over_under_13(deal: Deal) -> list[str]:
    """Over/under 13 (MA 17(b)(1), (2), (c); 2(b)(3)(ii)): the point total of the player's first two
    cards, an ace counting one; 13 loses both. The player bets one side, a wager of its own
    (engine.sidewagers.SIDES): only that side's line pays it."""
    points = deal.player[0].value + deal.player[1].value
    if points > 13:
        return ["over-13"]
    return ["under-13"] if points < 13 else []


def match_each_card(deal: Deal) -> list[str]:
    """Match the dealer paid "for each card" (MA 23(a), (f); 30-899.16(12)(a), (b)): each of the
    player's first two cards of the up card's rank (a ten-value card matches only its own rank:
    "exactly match ... in rank") is paid, at the suited odds when its suit matches too. One key per
    matching card, the suited first, which `paid_outcomes` pays each."""
    keys = [
        "suited-match" if card.suit == deal.up.suit else "unsuited-match"
        for card in deal.player
        if card.rank == deal.up.rank
    ]
    return sorted(keys, key=lambda key: key != "suited-match")


def match_the_dealer(deal: Deal) -> list[str]:
    """Match the dealer: the per-card keys (`match_each_card`, Massachusetts' lines), then the
    combination that 30-899.24(4), (6) prints as one pay ("1 card match", "2 card match",
    "1 unsuited and 1 suited match"; each the sum of its cards' pays), which Colorado's paytables
    pay instead of the per-card lines."""
    keys = match_each_card(deal)
    return [*keys, *_match_combination(keys)]


def match_combination(deal: Deal) -> list[str]:
    """Colorado's Match The Dealer combinations alone (`match_the_dealer`)."""
    return _match_combination(match_each_card(deal))


def _match_combination(keys: list[str]) -> list[str]:
    if not keys:
        return []
    suited_count = keys.count("suited-match")
    if len(keys) == 1:
        return ["one-suited-match" if suited_count else "one-unsuited-match"]
    return [
        ("two-unsuited-matches", "unsuited-and-suited-match", "two-suited-matches")[suited_count]
    ]


def on_the_down_card(evaluate: Evaluator) -> Evaluator:
    """A wager decided on the dealer's down card as `evaluate` decides its wager on the up card:
    Match The Dealer Down Card (30-899.24(2), (5); 30-899.16(12)(a), (b): "either of a player's
    original two cards ... match the dealer's down card in rank")."""

    def evaluate_down(deal: Deal) -> list[str]:
        if len(deal.dealer_cards) < 2:
            raise NotDecidable("a down-card wager is decided on the dealer's down card: give it")
        return evaluate(replace(deal, up=deal.dealer_cards[1]))

    return evaluate_down


def blackjack_bonus(deal: Deal) -> list[str]:
    """Blackjack bonus (MA 20(d)): a blackjack in the player's first two cards."""
    return ["blackjack"] if total(deal.player) == 21 else []


def _sevens_keys(three: tuple, first_two: tuple) -> list[str]:
    out = []
    if len(three) == 3 and all(c.rank == "7" for c in three):
        if suited(three):
            out += ["three-7s-diamonds"] if three[0].suit is Suit.DIAMONDS else []
            out += ["three-7s-suited-other"] if three[0].suit is not Suit.DIAMONDS else []
            out.append("three-7s-suited")
        if same_colour(three):
            out.append("three-7s-same-color")
        out.append("three-7s")
    sevens = sum(c.rank == "7" for c in first_two)
    if sevens == 2:
        out.append("first-two-cards-7")
    if sevens:
        out.append("either-first-two-cards-7")
    return out


def blazing_7s(deal: Deal) -> list[str]:
    """Blazing 7's, Colorado's player-hand form (30-899.21(2), (7)-(9); 30-899.11(13)): the player's
    first two cards and the third card dealt to that player (to the first hand of a split 7-7), a
    bust card not counting; at least one 7 in the first two cards."""
    cards = without_bust_card(dealt_in_order(deal)[:3])
    return _sevens_keys(cards, deal.player)


def blazing_7s_up_card(deal: Deal) -> list[str]:
    """Blazing 7's, Massachusetts' form (MA 31(c), (h), (i)): the player's first two cards and the
    dealer's up card; three 7s need two in the player's cards and the up card."""
    return _sevens_keys((*deal.player, deal.up), deal.player)


def sevens(deal: Deal) -> list[str]:
    """Sevens (MA 17(a)(3), (d), (e)(3)): "One seven (initial card)" is the player's first card a
    seven, as the published analyses of the wager read it (engine/readings.py, us-ma/sevens/
    one-seven); two sevens in the first two cards; three sevens with the third card dealt to the
    player (two sevens wait for it, (e)). A seven second or third alone is paid by no line: the
    wager pays "only ... the highest winning payout below", and none names it."""
    return _sevens(deal, first_card_only=True)


def sevens_either_card(deal: Deal) -> list[str]:
    """Sevens with "One seven (initial card)" read as a seven in either of the first two cards:
    the reading engine/readings.py sets aside (it gives the player the edge), kept to show its
    figure beside the one the engine plays."""
    return _sevens(deal, first_card_only=False)


def _sevens(deal: Deal, *, first_card_only: bool) -> list[str]:
    first_two = deal.player
    count = sum(c.rank == "7" for c in first_two)
    out = []
    third = dealt_in_order(deal)[2:3]
    three = (*first_two, *third)
    # 12(f): a player who splits the sevens forfeits the three-sevens pay
    if count == 2 and not deal.player_split and len(three) == 3 and third[0].rank == "7":
        out += ["three-7s-suited"] if suited(three) else []
        out.append("three-7s")
    if count == 2:
        out += ["two-7s-suited"] if first_two[0].suit == first_two[1].suit else []
        out.append("two-7s")
    if first_two[0].rank == "7" if first_card_only else count:
        out.append("one-7")
    return out


def progressive_blackjack(deal: Deal) -> list[str]:
    """Progressive blackjack (MA 19(c), (e)): aces among the player's first two, three and four
    cards (the seat's first hand as dealt), highest hand only."""
    cards = dealt_in_order(deal)
    out = []
    four, three, two = cards[:4], cards[:3], cards[:2]
    if len(four) == 4 and all(c.is_ace for c in four) and same_colour(four):
        out.append("four-aces-same-color")
    if len(three) == 3 and all(c.is_ace for c in three):
        out += ["three-aces-suited"] if suited(three) else []
        out.append("three-aces")
    if all(c.is_ace for c in two):
        out += ["two-aces-suited"] if suited(two) else []
        out.append("two-aces")
    return out


def war(deal: Deal) -> list[str]:
    """War Blackjack (30-899.17(5)-(7)): the player's first card against the dealer's up card,
    ranked as in poker but the ace counting 1 only; the player wins with the higher card. (A tie is
    not a win: the rule pays only "a higher value"; annotated.)"""
    return ["higher-card"] if deal.player[0].number > deal.up.number else []


def pai_jack_bonus(deal: Deal) -> list[str]:
    """Pai Jack Bonus (30-2112(5), (12)): the player's five-card packet (`player_cards`), paid
    when it holds a Pai Jack, an ace and any two ten-valued cards, as the pay table ranks its hands
    (each of them a Pai Jack): Super Pai Jack, the four jacks and an ace; Royal Pai Jack, an ace,
    king and queen of one suit; Jack Pai Jack, two jacks and an ace. The table prints the hands
    only: the other cards of the packet are read as not mattering, and the hand paid as the highest
    the packet makes (fixtures/annotations.yaml).

    :raises NotDecidable: not five cards."""
    cards = deal.player_cards
    if len(cards) != 5:
        raise NotDecidable("Pai Jack Bonus is decided on the player's five-card packet")
    aces = [c for c in cards if c.is_ace]
    if not aces or sum(c.is_ten_value for c in cards) < 2:
        return []
    jacks = sum(c.rank == "J" for c in cards)
    out = ["super-pai-jack"] if jacks == 4 else []
    if any({"K", "Q"} <= {c.rank for c in cards if c.suit is ace.suit} for ace in aces):
        out.append("royal-pai-jack")
    if jacks >= 2:
        out.append("jack-pai-jack")
    return [*out, "pai-jack"]
