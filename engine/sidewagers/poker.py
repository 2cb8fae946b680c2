"""Wagers on poker hands formed from the round's cards: 21+3 and its relatives (the player's two
cards and the dealer's up card), two-card poker hands, straights drawn to, Super Match."""

from __future__ import annotations

from engine.cards import Suit
from engine.sidewagers.base import (
    Deal,
    NotDecidable,
    consecutive,
    dealt_in_order,
    poker_three,
    rank_counts,
    suited,
    total,
    without_bust_card,
)


def three_card_poker(deal: Deal) -> list[str]:
    """21+3, 21+3 Xtreme (30-2107(2), MA 28(b)): the player's two cards and the dealer's up card as
    a poker hand; an ace is high, or low in A-2-3."""
    return poker_three((*deal.player, deal.up))


def progressive_21_plus_3(deal: Deal) -> list[str]:
    """21+3 Progressive (30-2107 "21+3 Progressive winning hand rankings"): the same three cards;
    suited three aces (kings, queens) above a suited three of a kind, the "suit specific" lines for
    the suit the table specifies."""
    cards = (*deal.player, deal.up)
    out: list[str] = []
    trips_suited = rank_counts(cards)[0] == 3 and suited(cards)
    rank = cards[0].rank
    if trips_suited and rank in "AKQ":
        if deal.specified_suit is None:
            raise NotDecidable(
                "21+3 Progressive: three suited aces, kings or queens; the suit-specific line "
                "needs the suit the table specifies"
            )
        if cards[0].suit is deal.specified_suit:
            out += ["three-aces-suit-specific"] if rank == "A" else []
            out += ["three-aces-or-kings-suit-specific"] if rank in "AK" else []
            out.append("three-aces-kings-or-queens-suit-specific")
        out += ["three-aces-suited"] if rank == "A" else []
        out += ["three-aces-or-kings-suited"] if rank in "AK" else []
    if trips_suited:
        out.append("three-of-a-kind-suited")
    return out + poker_three(cards)


def top_3(deal: Deal) -> list[str]:
    """Top 3 (30-2114(5)) and TriLux Super 3 (30-2115(3), MA 30(b)): a suited three of a kind,
    a straight flush (ace high, or low in A-2-3), a three of a kind."""
    cards = (*deal.player, deal.up)
    hands = poker_three(cards)
    out = ["three-of-a-kind-suited"] if "three-of-a-kind" in hands and suited(cards) else []
    return out + [h for h in hands if h in ("straight-flush", "three-of-a-kind")]


def trilux_bonus(deal: Deal) -> list[str]:
    """TriLux Bonus (30-2115(3), MA 30(c)): the best three-card poker hand of the player's two
    cards and the dealer's up card; a Mini Royal is A, K, Q suited (TRI-03 pay table)."""
    cards = (*deal.player, deal.up)
    out = []
    if suited(cards) and sorted(c.rank for c in cards) == ["A", "K", "Q"]:
        out.append("mini-royal")
    out += poker_three(cards)
    if rank_counts(cards)[0] == 2:
        out.append("pair")
    return out


def trilux_progressive(deal: Deal) -> list[str]:
    """TriLux Progressive (30-2115(3), ¶7, ¶10): the player's first two cards and the dealer's up
    card as a three-card poker hand (an ace high, or low in A-2-3, as the TriLux Bonus). The
    section defines a Mini Royal only as "A, K, Q Suited" (TRI-03); its progressive tables' hands
    are read (annotations.yaml): "AK/Q", the player's A and K with the dealer's Q up, of spades or
    of another suit ("Other"); "Any Order", A, K, Q of one suit however dealt; "AK/Q/J" (Pay table
    05), the spade AK/Q with the J of spades the dealer's hole card, the only other card dealt when
    the wager is paid ((3): "once each player has received two cards"). Three of a kind is
    "Suited" with its three cards of one suit, "Offsuit" otherwise. "Dealer Blackjack" (Pay table
    05) is paid when no higher line is made and the dealer has a blackjack.

    :raises NotDecidable: the spade AK/Q with the dealer's hole card not known."""
    cards = (*deal.player, deal.up)
    ranks = sorted(c.rank for c in cards)
    is_suited = suited(cards)
    out = []
    if is_suited and ranks == ["A", "K", "Q"]:
        if deal.up.rank == "Q" and deal.up.suit is Suit.SPADES:
            if len(deal.dealer_cards) < 2:
                raise NotDecidable(
                    "TriLux Progressive: the player's A-K of spades with the Q of spades up; the "
                    "AK/Q/J line (Pay table 05) needs the dealer's hole card"
                )
            hole = deal.dealer_cards[1]
            if hole.rank == "J" and hole.suit is Suit.SPADES:
                out.append("mini-royal-spades-ak-q-j")
            out.append("mini-royal-spades-ak-q")
        elif deal.up.rank == "Q":
            out.append("mini-royal-other-ak-q")
        out.append("mini-royal-any-order")
    trips = rank_counts(cards)[0] == 3
    if trips and is_suited:
        out += ["three-aces-suited"] if ranks[0] == "A" else []
        out.append("three-of-a-kind-suited")
    hands = poker_three(cards)
    out += [h for h in hands if h == "straight-flush"]
    if trips:
        out += [] if is_suited else ["three-of-a-kind-offsuit"]
        out.append("three-of-a-kind")
    out += [h for h in hands if h in ("straight", "flush")]
    if deal.dealer_blackjack:
        out.append("dealer-blackjack")
    return out


def three_card_bonus(deal: Deal) -> list[str]:
    """3 Card 21 "N" Done's Three Card Bonus (30-2111(4)): the player's first three cards, a poker
    hand or a total of 21. The source does not define Mini Royal and Diamond Royal; read as A-K-Q
    suited and A-K-Q of diamonds, an ace high or low in straights as in 21+3."""
    cards = deal.player_cards[:3]
    if len(cards) < 3:
        raise NotDecidable("3 Card Bonus: the player's first three cards are needed")
    out = []
    if suited(cards) and sorted(c.rank for c in cards) == ["A", "K", "Q"]:
        out += ["diamond-royal"] if cards[0].suit is Suit.DIAMONDS else []
        out.append("mini-royal")
    out += poker_three(cards)
    if rank_counts(cards)[0] == 2:
        out.append("pair")
    if total(cards) == 21:
        out.append("total-21")
    return out


def golden_21(deal: Deal) -> list[str]:
    """Golden 21 Poker (30-2108 "Golden 21 Poker" wager (5), (9)): the player's first two cards as
    a two-card poker hand. Golden 21 is ace-king suited; the source does not say whether an ace is
    also low (A-2): taken as high or low, as in 21+3."""
    a, b = deal.player
    straight = consecutive(deal.player)
    flush = a.suit == b.suit
    out = []
    if flush and {a.rank, b.rank} == {"A", "K"}:
        out.append("golden-21")
    if straight and flush:
        out.append("straight-flush")
    if a.rank == b.rank:
        out.append("pair")
    if total(deal.player) == 21:
        out.append("blackjack")
    if straight:
        out.append("straight")
    return out


def straight_length(deal: Deal) -> int:
    """Straight Jack (30-2109(6)-(8)): how long a straight the hand makes from its first two cards;
    a card that breaks the run ends it, a bust card does not count. 0: the first two are not a
    straight."""
    cards = without_bust_card(dealt_in_order(deal))
    length = 0
    for n in range(2, len(cards) + 1):
        if not consecutive(cards[:n]):
            break
        length = n
    return length


def straight_jack(deal: Deal) -> list[str]:
    """Straight Jack (30-2109(6)-(10)): the longest straight, an ace high (A-K) or low (A-2)."""
    length = straight_length(deal)
    if length < 2:
        return []
    return (["straight-5-or-6-cards"] if length >= 5 else []) + [
        f"straight-{n}-cards" for n in range(min(length, 4), 1, -1)
    ]


def straight_jack_progressive(deal: Deal) -> list[str]:
    """Straight Jack Progressive (30-2110(8)-(14)): as Straight Jack; a six-card straight is
    A-2-3-4-5-6 (no other six-card run stays under 22), paid by its ace's suit."""
    length = straight_length(deal)
    if length < 2:
        return []
    out = []
    if length == 6:
        ace = next(c for c in dealt_in_order(deal) if c.is_ace)
        spades = ace.suit is Suit.SPADES
        out += ["straight-6-cards-ace-of-spades" if spades else "straight-6-cards-ace-other"]
        out.append("straight-6-cards")
    return out + [f"straight-{n}-cards" for n in range(min(length, 5), 1, -1)]


def ante_up_poker_bonus(deal: Deal) -> list[str]:
    """Ante Up 21 Poker Bonus (30-2106(4), (8)(b)): the player's first two cards; the dealer's up
    card plays only for three of a kind or better. "Three Aces, same suit" names hearts, diamonds
    and clubs: three aces of spades is its own line."""
    a, b = deal.player
    three = (a, b, deal.up)
    out = []
    if rank_counts(three)[0] == 3:
        aces = a.is_ace
        if aces and suited(three) and a.suit is Suit.SPADES:
            out.append("three-aces-of-spades")
        elif aces and suited(three):
            out.append("three-aces-same-suit")
        if suited(three):
            out.append("three-of-a-kind-same-suit")
        if aces and not suited(three):
            out.append("three-aces-not-suited")
        out.append("three-of-a-kind")
    if a.rank == b.rank:
        if a.is_ace:
            out.append("pair-of-suited-aces" if a.suit == b.suit else "pair-of-aces-not-suited")
        out.append("suited-pair" if a.suit == b.suit else "pair-not-suited")
    return out


def super_match(deal: Deal) -> list[str]:
    """Super Match (30-2105(1), (6)): Blackjack Switch's initial four cards (both hands' first two
    cards): four of a kind, two pair, three of a kind, pair."""
    if len(deal.switch_cards) != 2:
        raise NotDecidable(
            "Super Match is decided on the first two cards of both Blackjack Switch hands: give "
            "the second hand's cards"
        )
    counts = rank_counts((*deal.player, *deal.switch_cards))
    if counts[0] == 4:
        return ["four-of-a-kind", "three-of-a-kind", "pair"]
    if counts[:2] == [2, 2]:
        return ["two-pair", "pair"]
    if counts[0] == 3:
        return ["three-of-a-kind", "pair"]
    return ["pair"] if counts[0] == 2 else []


def royal_match(deal: Deal) -> list[str]:
    """Royal Match 21 (30-899.11(3), (5), (17)): the player's first two cards. A Royal Match is K-Q
    suited; Crown Treasure (paid in addition to the Royal Match) needs the dealer's first two cards
    to be a Royal Match too. The source does not define a two-card straight flush; taken as two
    suited cards in sequence, an ace high or low."""
    a, b = deal.player
    out: list[str] = []
    if a.suit != b.suit:
        return out
    royal = {a.rank, b.rank} == {"K", "Q"}
    if royal:
        dealer = deal.dealer_cards[:2]
        if len(dealer) == 2 and dealer[0].suit == dealer[1].suit:
            if {dealer[0].rank, dealer[1].rank} == {"K", "Q"}:
                out.append("crown-treasure")
        out.append("royal-match")
    if a.rank == b.rank:
        out.append("suited-pair")
    if consecutive(deal.player):
        out.append("two-card-straight-flush")
    if total(deal.player) == 21:
        out.append("suited-blackjack")
    return out + ["two-suited-cards"]


def royal_match_progressive(deal: Deal) -> list[str]:
    """Royal Match 21 Progressive (30-899.11(6), (12), (17)): the percentage pays consider the
    player's and the dealer's first two cards, the other pays the player's only. The source does
    not define its hands; read plainly: a Royal Match is the player's K-Q suited; a Double Royal
    Match, a Royal Match for the player and one for the dealer; Suited, both of one suit; a Suited
    Blackjack, an ace and a ten-value card of one suit; a Suited Hand, two cards of one suit.

    :raises NotDecidable: a Royal Match with the dealer's hole card not known (the exact analysis
        deals the up card only; a played round gives both)."""
    a, b = deal.player
    if a.suit != b.suit:
        return []
    out = []
    if {a.rank, b.rank} == {"K", "Q"}:
        dealer = deal.dealer_cards[:2]
        if len(dealer) < 2:
            raise NotDecidable(
                "a Double Royal Match needs the dealer's first two cards (30-899.11(6))"
            )
        if dealer[0].suit == dealer[1].suit and {dealer[0].rank, dealer[1].rank} == {"K", "Q"}:
            if dealer[0].suit == a.suit:
                out.append("double-royal-match-suited")
            out.append("double-royal-match")
        out.append("royal-match")
    if total(deal.player) == 21:
        out.append("suited-blackjack")
    return out + ["suited-hand"]
