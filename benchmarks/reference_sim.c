/*
 * A plain C simulation of the base game, the compiled reference the numba simulator
 * (engine/simulate.py) is timed against (python -m benchmarks simulation-vs-c; issue #15).
 *
 * One seat, one hand, no side wagers, dealt from a shoe with a cut card: the same rules,
 * strategy and random numbers as engine/simulate.py plays them, so that both play the very same
 * rounds (the benchmark checks that their sums are equal) and only their speed differs.
 *
 * Input (a text file of whitespace-separated integers, written by the benchmark):
 *   12 rule parameters (engine.simulate._params: stake units, blackjack units, hits soft 17,
 *      hole card 0 peek / 1 no peek / 2 none, double on 0 any two / 1 9-11 / 2 10-11 /
 *      3 any time / 4 none, double after split, max hands, resplit aces, split aces one card,
 *      surrender 0 none / 1 late / 2 early, original bets only, two-card 21 beats 21),
 *   rounds, cut (the position of the cut card), the 4 words of the xoshiro256** state,
 *   the number of cards and their values (ace 1),
 *   the strategy table as engine.simulate.strategy_array gives it, flattened in C order
 *      [total 22][soft 2][pair 11][up 11][two cards 2][rank 5]: action codes best first, -1 past
 *      the last (0 hit, 1 stand, 2 double, 3 split, 4 surrender).
 * Output: rounds, the sum of the nets (in units), the sum of their squares, CPU seconds of the
 * simulation loop.
 *
 * Build: cc -O2 -o reference_sim reference_sim.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { HIT, STAND, DOUBLE, SPLIT, SURRENDER };
enum { LIVE, BUST, SURRENDERED, BLACKJACK };
enum { PEEK = 0, NO_PEEK = 1, NONE = 2 };
enum { LATE = 1, EARLY = 2 };
#define MAX_HANDS 16
#define TABLE_SIZE (22 * 2 * 11 * 11 * 2 * 5)

static long long stake, blackjack_units, hits_soft_17, hole_rule, double_on, das, max_hands, rsa,
    sa1, surrender_rule, original_only, two_card_21;
static signed char table[TABLE_SIZE];
static signed char *cards;
static int ncards;
static uint64_t s[4];

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* xoshiro256** */
static inline uint64_t next(void) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* uniform in [0, n), Lemire's multiply and reject on the high 32 bits */
static inline uint32_t below(uint32_t n) {
    uint64_t m = (next() >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t threshold = (uint32_t)((0x100000000ULL - n) % n);
        while (low < threshold) {
            m = (next() >> 32) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static void shuffle(void) {
    for (int i = ncards - 1; i > 0; i--) {
        int j = (int)below((uint32_t)i + 1);
        signed char c = cards[i];
        cards[i] = cards[j];
        cards[j] = c;
    }
}

static int pos;

/* the next card; at the end of the cards the shoe is reshuffled and the round completed */
static inline int draw(void) {
    if (pos >= ncards) {
        shuffle();
        pos = 0;
    }
    return cards[pos++];
}

static inline int strategy(int total, int soft, int pair, int up, int two, int rank) {
    return table[((((total * 2 + soft) * 11 + pair) * 11 + up) * 2 + two) * 5 + rank];
}

static long long play_round(void) {
    int h_total[MAX_HANDS], h_cards[MAX_HANDS], h_state[MAX_HANDS];
    long long h_stake[MAX_HANDS];

    int first = draw(), up = draw(), second = draw(), hole = 0;
    if (hole_rule != NONE) hole = draw();

    int hard = first + second;
    int ace = first == 1 || second == 1;
    int soft = ace && hard <= 11;
    int total = soft ? hard + 10 : hard;
    int surrendered = 0;
    if (surrender_rule == EARLY && total != 21) {
        int pair = first == second ? first : 0;
        if (strategy(total, soft, pair, up, 1, 0) == SURRENDER) surrendered = 1;
    }
    int peeked = hole_rule == PEEK && (up == 1 || up == 10);
    if (peeked && up + hole == 11) {
        if (surrendered) return -(stake / 2);
        if (total == 21) return 0;
        return -stake;
    }

    int hands = 1, waiting = 0, done = 0, from_split = 0, split_aces = 0, ncard = 2;
    long long hand_stake = stake;
    int finished = surrendered;
    for (;;) {
        while (!finished) {
            soft = ace && hard <= 11;
            total = soft ? hard + 10 : hard;
            if (total >= 21) break;
            int two = ncard == 2;
            int allowed = (1 << HIT) | (1 << STAND);
            if (das || !from_split) {
                if (double_on == 3)
                    allowed |= 1 << DOUBLE;
                else if (two && double_on != 4 &&
                         (double_on == 0 || (!soft && (total == 10 || total == 11)) ||
                          (double_on == 1 && !soft && total == 9)))
                    allowed |= 1 << DOUBLE;
            }
            int pair = 0;
            if (two && first == second) {
                pair = first;
                if (hands < max_hands && !(split_aces && !rsa)) allowed |= 1 << SPLIT;
            }
            if (surrender_rule == LATE && two && !from_split && hands == 1)
                allowed |= 1 << SURRENDER;
            if (split_aces && sa1) allowed &= (1 << SPLIT) | (1 << STAND);
            int action = STAND;
            for (int rank = 0; rank < 5; rank++) {
                int choice = strategy(total, soft, pair, up, two, rank);
                if (choice < 0) break;
                if (allowed & (1 << choice)) {
                    action = choice;
                    break;
                }
            }
            if (action == STAND) {
                finished = 1;
            } else if (action == HIT) {
                int card = draw();
                hard += card;
                ace = ace || card == 1;
                ncard++;
            } else if (action == DOUBLE) {
                hand_stake += stake;
                int card = draw();
                hard += card;
                ace = ace || card == 1;
                ncard++;
                finished = 1;
            } else if (action == SURRENDER) {
                surrendered = 1;
                finished = 1;
            } else { /* split: keep the first card, take a new second one */
                from_split = 1;
                split_aces = first == 1;
                waiting++;
                hands++;
                second = draw();
                hard = first + second;
                ace = first == 1 || second == 1;
                ncard = 2;
                if (split_aces && sa1 && !(rsa && second == 1 && hands < max_hands)) finished = 1;
            }
        }
        soft = ace && hard <= 11;
        total = soft ? hard + 10 : hard;
        h_total[done] = total;
        h_cards[done] = ncard;
        h_stake[done] = hand_stake;
        if (surrendered)
            h_state[done] = SURRENDERED;
        else if (total > 21)
            h_state[done] = BUST;
        else if (total == 21 && ncard == 2 && !from_split)
            h_state[done] = BLACKJACK;
        else
            h_state[done] = LIVE;
        done++;
        if (waiting == 0) break;
        waiting--;
        second = draw();
        hard = first + second;
        ace = first == 1 || second == 1;
        ncard = 2;
        hand_stake = stake;
        finished = split_aces && sa1 && !(rsa && second == 1 && hands < max_hands);
    }

    if (hole_rule == NONE) hole = draw();
    int dealer_hard = up + hole;
    int dealer_ace = up == 1 || hole == 1;
    int dealer_cards = 2;
    int dealer_blackjack = dealer_ace && dealer_hard == 11;
    int live = 0;
    for (int i = 0; i < done; i++)
        if (h_state[i] == LIVE) live = 1;
    int dealer_total = dealer_ace && dealer_hard <= 11 ? dealer_hard + 10 : dealer_hard;
    if (live && !dealer_blackjack) {
        while (dealer_total < 17 ||
               (dealer_total == 17 && hits_soft_17 && dealer_ace && dealer_hard == 7)) {
            int card = draw();
            dealer_hard += card;
            dealer_ace = dealer_ace || card == 1;
            dealer_cards++;
            dealer_total = dealer_ace && dealer_hard <= 11 ? dealer_hard + 10 : dealer_hard;
        }
    }

    long long net = 0;
    int collected = 0;
    for (int i = 0; i < done; i++) {
        int state = h_state[i];
        long long wager = h_stake[i];
        if (state == SURRENDERED) {
            if (dealer_blackjack && !peeked && surrender_rule != EARLY)
                net -= wager;
            else
                net -= wager / 2;
        } else if (state == BUST && !(dealer_blackjack && original_only)) {
            net -= wager;
        } else if (dealer_blackjack) {
            if (state != BLACKJACK && (!original_only || !collected)) {
                net -= original_only ? stake : wager;
                collected = 1;
            }
        } else if (state == BLACKJACK) {
            net += blackjack_units;
        } else if (dealer_total > 21 || h_total[i] > dealer_total) {
            net += wager;
        } else if (h_total[i] < dealer_total) {
            net -= wager;
        } else if (h_total[i] == 21 && h_cards[i] == 2 && dealer_cards > 2 && two_card_21) {
            net += wager;
        }
    }
    return net;
}

static long long read_int(FILE *in) {
    long long x;
    if (fscanf(in, "%lld", &x) != 1) {
        fprintf(stderr, "reference_sim: the input ended early\n");
        exit(2);
    }
    return x;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: reference_sim INPUT\n");
        return 2;
    }
    FILE *in = fopen(argv[1], "r");
    if (!in) {
        perror(argv[1]);
        return 2;
    }
    long long *params[] = {&stake,   &blackjack_units, &hits_soft_17, &hole_rule,
                           &double_on, &das,           &max_hands,    &rsa,
                           &sa1,     &surrender_rule,  &original_only, &two_card_21};
    for (int i = 0; i < 12; i++) *params[i] = read_int(in);
    long long rounds = read_int(in);
    int cut = (int)read_int(in);
    for (int i = 0; i < 4; i++) {
        unsigned long long word;
        if (fscanf(in, "%llu", &word) != 1) return 2;
        s[i] = word;
    }
    ncards = (int)read_int(in);
    cards = malloc((size_t)ncards);
    for (int i = 0; i < ncards; i++) cards[i] = (signed char)read_int(in);
    for (int i = 0; i < TABLE_SIZE; i++) table[i] = (signed char)read_int(in);
    fclose(in);

    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    long long sum = 0, squares = 0;
    shuffle();
    pos = 0;
    for (long long r = 0; r < rounds; r++) {
        long long net = play_round();
        sum += net;
        squares += net * net;
        if (pos >= cut) {
            shuffle();
            pos = 0;
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%lld %lld %lld %.6f\n", rounds, sum, squares, seconds);
    return 0;
}
