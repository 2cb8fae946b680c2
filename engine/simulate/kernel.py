"""The compiled kernel of the base-game simulation: the random generator, the shuffle, the draw,
one round, and the loop over rounds, compiled with numba; and the codes its arrays use.

Speed (issue #15; benchmarks/reference_sim.c is a plain C simulation of the same game, timed
beside it): the functions a round runs are compiled without numba's reference counting
(`_nrt=False`: they make no arrays), which otherwise costs two atomic operations per array per
call and more than the round itself; `play_round` is inlined into the loop over rounds, the shuffle
keeps the random state in registers, and each decision is one lookup in a table of the action for
each hand and set of allowed actions (arrays.decision_array), not a walk down the ranked actions.
Arrays are indexed with unsigned integers in the kernel: numba checks a signed index for a
negative value (Python's a[-1]) on every access, which C does not; unsigned, it cannot be negative
and the check goes (about 12 % of the simulator's time).

One module, on purpose: numba caches a compiled function (`cache=True`) by its own file and
treats globals as constants, so a change to a code or a compiled function in another file would
not reach a cached caller. Everything the compiled functions read is here (engine/streak.py's
kernel calls this one: clear `__pycache__` after changing this file, docs/engine.md).
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

NO_REFCOUNT: dict[str, Any] = {"cache": True, "error_model": "numpy", "_nrt": False}
"""How a function a round runs is compiled: cached, numpy's error model, and without numba's
reference counting (`_nrt`, a keyword numba keeps private, so given here once)."""

MAX_HANDS = 16
"""The most hands a seat may split to (the configuration's split.max_hands allows 16)."""

# Action codes in the compiled strategy table; the bit of each in an "allowed" mask is 1 << code.
HIT, STAND, DOUBLE, SPLIT, SURRENDER = 0, 1, 2, 3, 4
_PEEK, _NONE = 0, 2
_LATE, _EARLY = 1, 2
# Indices into a rule set's parameter row.
(
    P_STAKE,
    P_BLACKJACK,
    P_H17,
    P_HOLE,
    P_DOUBLE_ON,
    P_DAS,
    P_MAX_HANDS,
    P_RSA,
    P_SA1,
    P_SURRENDER,
    P_OBO,
    P_TWO21,
    P_21_WINS,
    P_BLACKJACK_BEATS,
    P_RESCUE,
    P_MAX_DOUBLES,
    P_BONUS_DOUBLED,
) = range(17)
PARAMS = 17
REFERENCE_PARAMS = 12
"""The standard game's parameters, the first of a row: those benchmarks/reference_sim.c reads
(the others are Spanish 21's)."""
# Hand states at settlement.
_LIVE, _BUST, _SURRENDERED, _BLACKJACK, _RESCUED, _TWENTY_ONE = 0, 1, 2, 3, 4, 5
# A card in the kernel: its value (ace 1) in the low four bits, its suit's index in SUITS
# (engine.simulate.arrays) above.
_VALUE = 15
# Bonus 21 codes (engine.simulate.arrays.BONUS_HANDS).
_FIVE_CARDS, _678, _777 = 1, 4, 7
# What a draw does at the end of the cards.
SHUFFLE, WRAP, SCRIPTED = 0, 1, 2
# What the strategy does with a doubled hand that may go on (arrays.doubled_array).
DOUBLE_AGAIN, RESCUE_IT = 1, 2
OPTIONS = 16
"""Option masks of a decision: 1 may double, 2 may split, 4 may surrender, 8 a split ace that
may take no more cards (it may only be split again or stand)."""

# --- the compiled kernel -----------------------------------------------------------------------


@numba.njit(**NO_REFCOUNT)
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@numba.njit(**NO_REFCOUNT)
def _next(s: npt.NDArray[np.uint64]) -> np.uint64:
    """xoshiro256**: the next 64 random bits from the state `s` (four words, not all zero)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3
    return result


@numba.njit(**NO_REFCOUNT)
def reseed(target: npt.NDArray[np.uint64], source: npt.NDArray[np.uint64]) -> None:
    """A fresh xoshiro state in `target` from the next output of `source` (splitmix64, the
    seeding xoshiro's authors recommend)."""
    z = _next(source)
    for i in range(4):
        z += np.uint64(0x9E3779B97F4A7C15)
        x = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        target[i] = x ^ (x >> np.uint64(31))
    if not target.any():
        target[0] = 1


@numba.njit(**NO_REFCOUNT)
def _below(s: npt.NDArray[np.uint64], n: int) -> int:
    """A uniform integer in [0, n), n < 2**32, unbiased (Lemire's multiply and reject)."""
    bound = np.uint64(n)
    m = (_next(s) >> np.uint64(32)) * bound
    low = m & np.uint64(0xFFFFFFFF)
    if low < bound:
        threshold = (np.uint64(0x100000000) - bound) % bound
        while low < threshold:
            m = (_next(s) >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
    return int(m >> np.uint64(32))


@numba.njit(**NO_REFCOUNT)
def shuffle(cards: npt.NDArray[np.int8], s: npt.NDArray[np.uint64]) -> None:
    """Fisher-Yates, drawing with _below from `s`: the same numbers, with the state held in
    registers for the whole shuffle (the hottest loop of a simulation)."""
    s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
    for i in range(cards.size - 1, 0, -1):
        bound = np.uint64(i + 1)
        while True:  # _below(s, i + 1)
            result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
            t = s1 << np.uint64(17)
            s2 ^= s0
            s3 ^= s1
            s1 ^= s2
            s0 ^= s3
            s2 ^= t
            s3 = _rotl(s3, 45)
            m = (result >> np.uint64(32)) * bound
            low = m & np.uint64(0xFFFFFFFF)
            if low >= bound or low >= (np.uint64(0x100000000) - bound) % bound:
                break
        j = m >> np.uint64(32)  # unsigned indices: no check for a negative index
        u = np.uint64(i)
        cards[u], cards[j] = cards[j], cards[u]
    s[0], s[1], s[2], s[3] = s0, s1, s2, s3


@numba.njit(**NO_REFCOUNT, inline="always")
def _shuffler_step(
    cards: npt.NDArray[np.int8], pos: int, s: npt.NDArray[np.uint64], dealt: npt.NDArray[np.int64]
) -> None:
    """A continuous shuffler's next card: one drawn from those not yet dealt this round."""
    if pos >= cards.size:
        return
    j = pos + _below(s, cards.size - pos)
    cards[pos], cards[j] = cards[j], cards[pos]
    dealt[0] = pos + 1


@numba.njit(**NO_REFCOUNT, inline="always")
def draw(
    cards: npt.NDArray[np.int8],
    pos: int,
    s: npt.NDArray[np.uint64],
    mode: int,
    dealt: npt.NDArray[np.int64] | None,
) -> tuple[int, int]:
    """The card at `pos` and the next position. At the end of the cards the shoe is reshuffled
    and the round completed (30-828(11), MA 15(g)), or, for a variation replaying the base's
    cards, read again from the start.

    A continuous shuffler (`dealt`, None for a shoe: dealt[0] cards at the front already drawn this
    round) deals
    every round from all the cards: the card at a new position is drawn uniformly from those not
    yet dealt this round (a Fisher-Yates step) with the round's own random state `s`, so the
    round's cards are the same whichever of the variations replaying it reaches a position first."""
    if dealt is not None:  # known when compiled: a shoe's draw has no such step
        if pos >= dealt[0]:
            _shuffler_step(cards, pos, s, dealt)
    if pos >= cards.size:
        if mode == SCRIPTED:
            raise ValueError("the scripted cards ran out")
        if mode == SHUFFLE:
            shuffle(cards, s)
        pos = 0
    return int(cards[np.uint64(pos)]), pos + 1


@numba.njit(**NO_REFCOUNT, inline="always")
def _at(k: int, total: int, soft: bool, pair: int, up: int, two: bool, options: int) -> np.uint64:
    """The index in the flattened decision arrays (decision_array, rule set after rule set) of
    rule set k's action with these options (unsigned: see the module's note on speed)."""
    index = (((((k * 22 + total) * 2 + soft) * 11 + pair) * 11 + up) * 2 + two) * 16 + options
    return np.uint64(index)


@numba.njit(**NO_REFCOUNT, inline="always")
def _value(card: int, bonus: npt.NDArray[np.int64] | None) -> int:
    """A card's value: with Spanish 21's rules (`bonus`) cards carry their suit (composition)."""
    if bonus is not None:
        return card & _VALUE
    return card


@numba.njit(**NO_REFCOUNT, inline="always")
def one_round(
    cards: npt.NDArray[np.int8],
    pos: int,
    s: npt.NDArray[np.uint64],
    mode: int,
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    k: int,
    h_total: npt.NDArray[np.int64],
    h_cards: npt.NDArray[np.int64],
    h_stake: npt.NDArray[np.int64],
    h_state: npt.NDArray[np.int64],
    h_bonus: npt.NDArray[np.int64],
    h_first: npt.NDArray[np.int64],
    dealt: npt.NDArray[np.int64] | None,
) -> tuple[int, int, int]:
    """One round under rule set k, from the cards at `pos`: (the seat's net in units, the next
    position, the hands won less the hands lost: engine.streak). Mirrors engine.round
    (dealing.py, settling.py) for one seat of a BasicStrategy without side wagers.
    `bonus` and `doubled` are None where no rule set played has Spanish 21's rules: numba compiles
    that kernel apart, without them (and with cards that are only values: composition), so the
    standard game pays nothing for them."""
    row = np.uint64(k)
    stake = params[row, P_STAKE]
    hole_rule = params[row, P_HOLE]
    surrender_rule = params[row, P_SURRENDER]
    double_on = params[row, P_DOUBLE_ON]
    das = params[row, P_DAS] != 0
    max_hands = params[row, P_MAX_HANDS]
    rsa = params[row, P_RSA] != 0
    sa1 = params[row, P_SA1] != 0

    # The deal (30-820, MA 6(e)): player, dealer up, player, hole card unless none.
    first_code, pos = draw(cards, pos, s, mode, dealt)
    up, pos = draw(cards, pos, s, mode, dealt)
    second_code, pos = draw(cards, pos, s, mode, dealt)
    first, up, second = _value(first_code, bonus), _value(up, bonus), _value(second_code, bonus)
    hole = 0
    if hole_rule != _NONE:
        hole, pos = draw(cards, pos, s, mode, dealt)
        hole = _value(hole, bonus)

    hard = first + second
    ace = first == 1 or second == 1
    soft = ace and hard <= 11
    total = hard + 10 if soft else hard
    surrendered = False
    if surrender_rule == _EARLY and total != 21:
        pair = first if first == second else 0
        if strategies[_at(k, total, soft, pair, up, True, 7)] == SURRENDER:  # the best action
            surrendered = True
    peeked = hole_rule == _PEEK and (up == 1 or up == 10)
    if peeked and up + hole == 11:  # the peek finds a blackjack: original wager only
        if surrendered:
            return -(stake // 2), pos, -1
        if total == 21:
            if bonus is not None:
                if params[row, P_BLACKJACK_BEATS]:
                    return params[row, P_BLACKJACK], pos, 1
            return 0, pos, 0
        return -stake, pos, -1

    # The player's hands. Every hand of a seat starts with a card of the first card's value, so
    # the split hands waiting for their second card are alike but for that card's suit: their
    # first cards wait in h_first, the last split's played first (engine.round inserts it next).
    hands = 1
    waiting = 0
    done = 0
    hand_stake = stake
    last_double = 0
    doubles = 0
    third_code = 0
    from_split = False
    split_aces = False
    cards_in_hand = 2
    finished = surrendered
    while True:
        while not finished:
            soft = ace and hard <= 11
            total = hard + 10 if soft else hard
            if total >= 21:
                break
            two = cards_in_hand == 2
            options = 0  # see OPTIONS
            if das or not from_split:
                if double_on == 3:  # any time
                    options = 1
                elif two and double_on != 4:
                    if (
                        double_on == 0
                        or (not soft and (total == 10 or total == 11))
                        or (double_on == 1 and not soft and total == 9)
                    ):
                        options = 1
            pair = 0
            if two and first == second:
                pair = first
                if hands < max_hands and not (split_aces and not rsa):
                    options |= 2
            if surrender_rule == _LATE and two and not from_split and hands == 1:
                options |= 4
            if split_aces and sa1:
                options |= 8
            action = strategies[_at(k, total, soft, pair, up, two, options)]
            if action == STAND:
                finished = True
            elif action == HIT:
                code, pos = draw(cards, pos, s, mode, dealt)
                card = _value(code, bonus)
                hard += card
                ace = ace or card == 1
                cards_in_hand += 1
                if bonus is not None:
                    if cards_in_hand == 3:
                        third_code = code
            elif action == DOUBLE:
                # One card; where a double may be rescued (30-899.16(7)) the hand goes on:
                # double again (the whole wager, 30-899.16(8)), rescue or stand.
                while True:
                    last_double = hand_stake
                    hand_stake += last_double
                    doubles += 1
                    code, pos = draw(cards, pos, s, mode, dealt)
                    card = _value(code, bonus)
                    hard += card
                    ace = ace or card == 1
                    cards_in_hand += 1
                    if doubled is None:
                        break
                    if cards_in_hand == 3:
                        third_code = code
                    if not params[row, P_RESCUE] or hard > 21:
                        break
                    soft = ace and hard <= 11
                    total = hard + 10 if soft else hard
                    play = doubled[row, np.uint64(total), np.uint64(soft), np.uint64(up)]
                    again = doubles < params[row, P_MAX_DOUBLES] and total < 21
                    if not (again and (play & DOUBLE_AGAIN) != 0):
                        surrendered = (play & RESCUE_IT) != 0  # a rescue, settled below
                        break
                finished = True
            elif action == SURRENDER:
                surrendered = True
                finished = True
            else:  # split: this hand keeps its first card and takes a new second one
                if bonus is not None:
                    h_first[np.uint64(waiting)] = second_code
                from_split = True
                split_aces = first == 1
                waiting += 1
                hands += 1
                second_code, pos = draw(cards, pos, s, mode, dealt)
                second = _value(second_code, bonus)
                hard = first + second
                ace = first == 1 or second == 1
                cards_in_hand = 2
                if split_aces and sa1 and not (rsa and second == 1 and hands < max_hands):
                    finished = True
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        at = np.uint64(done)
        h_total[at] = total
        h_cards[at] = cards_in_hand
        h_stake[at] = hand_stake
        if surrendered and doubles:
            h_state[at] = _RESCUED
            h_stake[at] = hand_stake - last_double  # what a rescue forfeits
        elif surrendered:
            h_state[at] = _SURRENDERED
        elif total > 21:
            h_state[at] = _BUST
        elif total == 21 and cards_in_hand == 2 and not from_split:
            h_state[at] = _BLACKJACK
        else:
            h_state[at] = _LIVE
            if bonus is not None:
                h_bonus[at] = 0
                if total == 21:
                    if params[row, P_21_WINS]:
                        h_state[at] = _TWENTY_ONE
                    if doubles == 0 or params[row, P_BONUS_DOUBLED]:
                        code = _bonus_code(first_code, second_code, third_code, cards_in_hand)
                        h_bonus[at] = code
        done += 1
        if waiting == 0:
            break
        waiting -= 1
        if bonus is not None:
            first_code = h_first[np.uint64(waiting)]
        second_code, pos = draw(cards, pos, s, mode, dealt)
        second = _value(second_code, bonus)
        hard = first + second
        ace = first == 1 or second == 1
        cards_in_hand = 2
        hand_stake = stake
        doubles = 0
        surrendered = False
        finished = split_aces and sa1 and not (rsa and second == 1 and hands < max_hands)

    # The dealer (30-826, MA 12): no card that cannot change the outcome.
    if hole_rule == _NONE:
        hole, pos = draw(cards, pos, s, mode, dealt)
        hole = _value(hole, bonus)
    dealer_hard = up + hole
    dealer_ace = up == 1 or hole == 1
    dealer_cards = 2
    dealer_blackjack = dealer_ace and dealer_hard == 11
    live = False
    for i in range(np.uint64(done)):
        if h_state[i] == _LIVE:
            live = True
    hits_soft_17 = params[row, P_H17] != 0
    dealer_total = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard
    if live and not dealer_blackjack:
        while dealer_total < 17 or (
            dealer_total == 17 and hits_soft_17 and dealer_ace and dealer_hard == 7
        ):
            card, pos = draw(cards, pos, s, mode, dealt)
            card = _value(card, bonus)
            dealer_hard += card
            dealer_ace = dealer_ace or card == 1
            dealer_cards += 1
            dealer_total = dealer_hard + 10 if dealer_ace and dealer_hard <= 11 else dealer_hard

    # Settlement (engine/round/settling.py _settle_all).
    original_only = params[row, P_OBO] != 0
    two_card_21 = params[row, P_TWO21] != 0
    net = 0
    score = 0  # hands won less hands lost
    collected = False
    for i in range(np.uint64(done)):
        state = h_state[i]
        wager = h_stake[i]
        if state == _SURRENDERED:
            score -= 1
            if dealer_blackjack and not peeked and surrender_rule != _EARLY:
                net -= wager
            else:
                net -= wager // 2
        elif state == _RESCUED:
            score -= 1
            net -= wager
        elif state == _BUST and not (dealer_blackjack and original_only):
            score -= 1
            net -= wager
        elif dealer_blackjack and not (
            state == _BLACKJACK and bonus is not None and params[row, P_BLACKJACK_BEATS]
        ):
            # a broken hand too where it takes the original wager only
            if state != _BLACKJACK:
                score -= 1
                if not original_only or not collected:
                    net -= stake if original_only else wager
                    collected = True
        elif state == _BLACKJACK:
            score += 1
            net += params[row, P_BLACKJACK]
        elif state == _TWENTY_ONE or dealer_total > 21 or h_total[i] > dealer_total:
            score += 1
            if bonus is not None:
                code = h_bonus[i]
                net += wager if code == 0 else bonus[row, np.uint64(code)] * (wager // stake)
            else:
                net += wager
        elif h_total[i] < dealer_total:
            score -= 1
            net -= wager
        elif h_total[i] == 21 and h_cards[i] == 2 and dealer_cards > 2 and two_card_21:
            score += 1
            net += wager
    return net, pos, score


@numba.njit(**NO_REFCOUNT, inline="always")
def _bonus_code(first: int, second: int, third: int, cards_in_hand: int) -> int:
    """A 21's Bonus 21 code (BONUS_HANDS) from its cards (codes) and how many it holds."""
    if 5 <= cards_in_hand <= 7:
        return _FIVE_CARDS + cards_in_hand - 5
    if cards_in_hand != 3:
        return 0
    a, b, c = first & _VALUE, second & _VALUE, third & _VALUE
    if a == b == c == 7:
        kind = _777
    elif a != b and b != c and a != c and min(a, b, c) == 6 and max(a, b, c) == 8:
        kind = _678
    else:
        return 0
    suit = first >> 4
    if second >> 4 != suit or third >> 4 != suit:
        return kind
    return kind + (2 if suit == 0 else 1)


@numba.njit(cache=True)
def run(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    shoe: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    out: npt.NDArray[np.int64],
) -> None:
    """Play `rounds` rounds from a freshly shuffled shoe. Rule set 0 deals: the shoe advances by
    its cards and reshuffles at the cut card, or, from a continuous shuffler, every round is dealt
    from all the cards (`draw`; `dealt` is None for a shoe, which numba compiles apart, so the
    shoe pays nothing for the shuffler). Rule sets 1… replay each round from the cards rule set 0
    started from. out[k] += (sum, sum of squares, sum of k's net less 0's, its square)."""
    cards = shoe.copy()
    shuffle(cards, s)
    deal_s = s
    if dealt is not None:
        deal_s = s.copy()  # a continuous shuffler: each round's own random state
    h_total = np.zeros(MAX_HANDS, dtype=np.int64)
    h_cards = np.zeros(MAX_HANDS, dtype=np.int64)
    h_stake = np.zeros(MAX_HANDS, dtype=np.int64)
    h_state = np.zeros(MAX_HANDS, dtype=np.int64)
    h_bonus = np.zeros(MAX_HANDS, dtype=np.int64)
    h_first = np.zeros(MAX_HANDS, dtype=np.int64)
    nets = np.zeros(params.shape[0], dtype=np.int64)
    hands = (h_total, h_cards, h_stake, h_state, h_bonus, h_first)
    rules = (params, strategies, bonus, doubled)
    _rounds(*rules, shoe, cards, s, deal_s, rounds, cut, dealt, out, *hands, nets)


@numba.njit(**NO_REFCOUNT)
def _rounds(
    params: npt.NDArray[np.int64],
    strategies: npt.NDArray[np.int8],
    bonus: npt.NDArray[np.int64] | None,
    doubled: npt.NDArray[np.int8] | None,
    shoe: npt.NDArray[np.int8],
    cards: npt.NDArray[np.int8],
    s: npt.NDArray[np.uint64],
    deal_s: npt.NDArray[np.uint64],
    rounds: int,
    cut: int,
    dealt: npt.NDArray[np.int64] | None,
    out: npt.NDArray[np.int64],
    h_total: npt.NDArray[np.int64],
    h_cards: npt.NDArray[np.int64],
    h_stake: npt.NDArray[np.int64],
    h_state: npt.NDArray[np.int64],
    h_bonus: npt.NDArray[np.int64],
    h_first: npt.NDArray[np.int64],
    nets: npt.NDArray[np.int64],
) -> None:
    """run's rounds, compiled without reference counting (no arrays made here): numba's
    reference counts on the arrays a call passes cost more than the round itself."""
    variants = params.shape[0]
    pos = 0
    base_total = base_squares = 0  # rule set 0's sums, kept in registers
    for _ in range(rounds):
        if dealt is not None:  # the cards of the last round are back in the shuffler
            for i in range(shoe.size):  # each round's cards depend on its own random state
                cards[i] = shoe[i]
            pos = 0
            dealt[0] = 0
            reseed(deal_s, s)
        start = pos
        for k in range(1, variants):
            net, _unused, _score = one_round(
                cards,
                start,
                deal_s,
                WRAP,
                params,
                strategies,
                bonus,
                doubled,
                k,
                h_total,
                h_cards,
                h_stake,
                h_state,
                h_bonus,
                h_first,
                dealt,
            )
            nets[k] = net
        base, pos, _score = one_round(
            cards,
            start,
            deal_s,
            SHUFFLE,
            params,
            strategies,
            bonus,
            doubled,
            0,
            h_total,
            h_cards,
            h_stake,
            h_state,
            h_bonus,
            h_first,
            dealt,
        )
        base_total += base
        base_squares += base * base
        for k in range(1, variants):
            net = nets[k]
            out[k, 0] += net
            out[k, 1] += net * net
            out[k, 2] += net - base
            out[k, 3] += (net - base) * (net - base)
        if dealt is None and pos >= cut:
            shuffle(cards, s)
            pos = 0
    out[0, 0] += base_total
    out[0, 1] += base_squares
