"""Wagers decided by how the round plays out: the dealer's bust hand, the dealer's card count, the
player's 21 against the dealer."""

from __future__ import annotations

from engine.cards import Card
from engine.sidewagers.base import (
    PUSH,
    Deal,
    NotDecidable,
    consecutive,
    dealer_busted,
    rank_counts,
    same_colour,
    suited,
    total,
)


def _needs_dealer(deal: Deal, wager: str) -> None:
    if len(deal.dealer_cards) < 2:
        raise NotDecidable(
            f"{wager} is decided on the dealer's played hand: give the dealer's cards"
        )


def _card_name(card: Card) -> str:
    return "10" if card.is_ten_value else ("ace" if card.is_ace else card.rank)


def raise_the_roof(deal: Deal) -> list[str]:
    """Raise The Roof (30-899.23(10), (12)): the dealer busts; paid by the bust card, or by a bust
    hand of exactly 4, 5, 6, 7 in any order ("dealer bust total hand"), suited or not."""
    _needs_dealer(deal, "Raise The Roof")
    cards = deal.dealer_cards
    if not dealer_busted(deal):
        return []
    out = []
    if sorted(c.rank for c in cards) == ["4", "5", "6", "7"]:
        out += ["bust-4567-suited"] if suited(cards) else []
        out.append("bust-4567-unsuited")
    bust = cards[-1]
    out.append("bust-10-or-face" if bust.is_ten_value else f"bust-{bust.value}")
    return out


def buster(deal: Deal) -> list[str]:
    """Buster Blackjack (30-2105(2), (10); MA 27(d), (e), (g), (h)): the number of cards in the
    dealer's bust hand. Keys for both jurisdictions (Colorado's "3 or 4", Massachusetts' "3", "4").
    The Massachusetts Free Bonus (a player blackjack, the dealer busting with seven cards or more)
    is paid in addition; its $5.00 minimum wager (MA 27(h)(ii)) is not checked here."""
    _needs_dealer(deal, "Buster Blackjack")
    if not dealer_busted(deal):
        return []
    n = len(deal.dealer_cards)
    out = []
    if n >= 7 and total(deal.player) == 21:
        out.append("free-bonus-8-plus-cards" if n >= 8 else "free-bonus-7-cards")
    if n >= 8:
        return out + ["bust-8-or-more-cards", "bust-8-plus-cards"]
    if n >= 5:
        return out + [f"bust-{n}-cards"]
    return out + [f"bust-{n}-cards", "bust-3-or-4-cards"]


def hit_and_run(deal: Deal) -> list[str]:
    """Hit and Run (30-899.14(2), (9)): a player blackjack, paid by the number of cards the dealer
    ends the round with, a bust card included."""
    _needs_dealer(deal, "Hit and Run")
    if total(deal.player) != 21:
        return []
    n = len(deal.dealer_cards)
    return ["dealer-5-plus-cards" if n >= 5 else f"dealer-{n}-cards"]


def optional_bonus(deal: Deal) -> list[str]:
    """Optional bonus (MA 25(d)-(f)): the dealer's first two cards total under 17 and the third
    card busts the hand; paid by that card's value, or three eights of one colour or suit."""
    _needs_dealer(deal, "the optional bonus")
    first, three = deal.dealer_cards[:2], deal.dealer_cards[:3]
    if total(first) >= 17 or len(three) < 3 or total(three) <= 21:
        return []
    out = []
    if all(c.value == 8 for c in three):
        out += ["three-8s-suited"] if suited(three) else []
        out += ["three-8s-same-color"] if same_colour(three) else []
    names = {10: "ten", 9: "nine", 8: "eight", 7: "seven", 6: "six"}
    return out + [f"third-card-{names[three[2].value]}"]


def bust_bonus(deal: Deal) -> list[str]:
    """Bust Bonus of Buffalo Blackjack Bonus, 2 and 3 (30-899.09(8), (10), ¶5; 30-2113(8)-(10);
    30-2114(7)-(9)): the dealer busts, paid by the up card, off suit or suited; 888: the bust hand
    is three cards valued 8. The source does not define "suited": read as every card of the bust
    hand in one suit. A suited bust also names the off-suit line, which pays it where the paytable
    has no suited line (30-899.09¶6: '"Suited" is not applicable in single & double deck games')."""
    _needs_dealer(deal, "Bust Bonus")
    cards = deal.dealer_cards
    if not dealer_busted(deal):
        return []
    kind = "suited" if suited(cards) else "off-suit"
    out = []
    if len(cards) == 3 and all(c.value == 8 for c in cards):
        out += [f"888-{kind}", "888-off-suit"] if kind == "suited" else ["888-off-suit"]
    up = _card_name(cards[0])
    return out + ([f"{up}-suited", f"{up}-off-suit"] if kind == "suited" else [f"{up}-off-suit"])


def bust_bonanza(deal: Deal) -> list[str]:
    """TriLux Bust Bonanza (30-2115(4), ¶6): the dealer busts, paid by the up card ("10/Face
    Card": any 10-valued card), "Dealer Bust" or "Dealer Suited Bust"; 888: "the dealer busts with
    three 8s". Bust Bonus's lines under TriLux's names (`bust_bonus`): suited is every card of the
    bust hand in one suit, 888 a bust hand of three 8s, and a suited bust also names the plain line
    (Pay Table 1 prints no suited 888). The wager is made after the player acts and before the
    dealer acts, and a player blackjack or a busted hand may not make it ((4)(a), (b)): that is a
    condition of placing the wager, which the cards cannot tell; a wager on file is settled from
    the dealer's hand alone."""
    _needs_dealer(deal, "TriLux Bust Bonanza")
    return [
        key.replace("-off-suit", "-bust").replace("-suited", "-suited-bust")
        for key in bust_bonus(deal)
    ]


def magic_21(deal: Deal) -> list[str]:
    """21 Magic of Buffalo Blackjack Bonus (30-899.09(3), (6)): the seat's first hand totals 21 and
    beats the dealer's hand, paid by its number of cards (a blackjack, or a two-card 21 after a
    split); a tie pushes."""
    cards = deal.player_cards or deal.player
    if total(cards) != 21:
        return []
    _needs_dealer(deal, "21 Magic")
    natural = len(cards) == 2 and not deal.player_split
    dealer = deal.dealer_cards
    dealer_natural = len(dealer) == 2 and total(dealer) == 21
    if dealer_natural and natural:
        return [PUSH]
    if dealer_natural:
        return []
    if total(dealer) == 21 and not natural:
        return [PUSH]
    n = len(cards)
    if natural:
        return ["blackjack"]
    return ["10-plus-card-21" if n >= 10 else f"{n}-card-21"]


def super_4(deal: Deal) -> list[str]:
    """Super 4 Progressive (MA 19(k), (l), (n)): with a dealer blackjack, the player's two cards and
    the dealer's two form a four-card poker hand; with an ace up and no blackjack the "dealer ace
    up" line; otherwise the wager loses, the line (n) prints as "Dealer Does Not Have Face Up Ace":
    "Loss". The royal flush is A, K, Q, J of one suit ("in chosen
    suit": the suit the table specifies). The source lists no four of a kind: it is paid as the
    three of a kind it holds."""
    _needs_dealer(deal, "Super 4 Progressive")
    dealer = deal.dealer_cards[:2]
    if total(dealer) != 21:
        return ["dealer-ace-up"] if deal.up.is_ace else ["no-dealer-ace-up"]
    cards = (*deal.player, *dealer)
    out = []
    if suited(cards) and sorted(c.rank for c in cards) == sorted("AKQJ"):
        if deal.specified_suit is None:
            raise NotDecidable(
                "Super 4: a royal flush; the chosen-suit line needs the table's suit"
            )
        out += ["royal-flush-chosen-suit"] if cards[0].suit is deal.specified_suit else []
        out.append("royal-flush")
    counts = rank_counts(cards)
    if counts[0] >= 3:
        out.append("three-of-a-kind")
    if consecutive(cards):
        out.append("straight")
    if suited(cards):
        out.append("flush")
    if counts[:2] == [2, 2]:
        out.append("two-pair")
    if same_colour(cards):
        out.append("same-color")
    if counts[0] == 2:
        out.append("pair")
    return out + ["any-hand"]


def ace_buster(deal: Deal) -> list[str]:
    """Ace Buster (30-899.28(5) and its pay table): the dealer busts, paid by the number of aces
    in the bust hand (the up card included; four or more on one line), from the part of the pay
    table for the dealer's up card, "Ace to 6" or "7 to King". The wager is placed only by a
    player whose hand has not busted (30-899.28(5)); that is the bet's condition, not the cards'."""
    _needs_dealer(deal, "Ace Buster")
    cards = deal.dealer_cards
    if not dealer_busted(deal):
        return []
    up = "up-ace-to-6" if cards[0].is_ace or cards[0].value <= 6 else "up-7-to-king"
    aces = sum(1 for c in cards if c.is_ace)
    count = {0: "no-aces", 1: "1-ace"}.get(aces, f"{aces}-aces" if aces < 4 else "4-plus-aces")
    return [f"{up}-bust-{count}"]


def push_your_luck(deal: Deal) -> list[str]:
    """Push Your Luck (30-899.22(5), (8)): the player's final hand ties the dealer's, a split
    player's first hand carrying the wager ((8)(d)). Blackjacks tie only blackjacks and a 21 only a
    21 that is no blackjack; bust hands never tie ((8)(a), (b))."""
    _needs_dealer(deal, "Push Your Luck")
    player, dealer = deal.player_cards or deal.player, deal.dealer_cards
    if total(player) > 21 or total(dealer) > 21:
        return []
    player_blackjack = len(player) == 2 and total(player) == 21 and not deal.player_split
    dealer_blackjack = len(dealer) == 2 and total(dealer) == 21
    if player_blackjack != dealer_blackjack:
        return []
    return ["tie"] if total(player) == total(dealer) else []
