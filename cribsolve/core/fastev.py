"""Expected points only (no distribution), in closed form, for the simulators' inner loop.

The unseen cards are a list of card ids, copies repeated (two decks) and jokers included;
every physical card counts once. With the starter and the two unknown crib cards drawn
uniformly from them, the rank part of the crib is an average over 3-card rank multisets (the
table is symmetric, so it does not matter which of the three is the starter): about 455
lookups. Flush and nobs have exact formulas. ``expect.options_distribution`` gives the same
means the slow way; a test holds them equal.
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK, SUIT
from cribsolve.core.hand_options import option_indices
from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.core.scoring.table import score5
from cribsolve.infra.jit import njit


@njit(cache=True)
def expected_hand(k0, k1, k2, k3, unseen, table):
    t = 0.0
    for s in unseen:
        t += score5(table, k0, k1, k2, k3, s, False)
    return t / unseen.shape[0]


@njit(cache=True)
def unseen_counts(unseen):
    """Unseen cards by rank (n) and by suit (u; u[4] counts the jokers, which have none)."""
    n = np.zeros(N_RANKS, dtype=np.int64)
    u = np.zeros(5, dtype=np.int64)
    for c in unseen:
        n[RANK[c]] += 1
        u[SUIT[c]] += 1
    return n, u


@njit(cache=True)
def expected_crib_two_unknown(d0, d1, unseen, n, u, table, crib_full_flush):
    """E[crib] for crib d0, d1 + two unknown cards, starter unknown, all from ``unseen``."""
    N = unseen.shape[0]
    base = (RANK[d0] * N_RANKS + RANK[d1]) * N_RANKS**3
    rank_sum = 0.0
    for a in range(N_RANKS):
        if n[a] == 0:
            continue
        for b in range(a, N_RANKS):
            nb = n[b] - (a == b)
            if nb <= 0:
                continue
            for c in range(b, N_RANKS):
                nc = n[c] - (a == c) - (b == c)
                if nc <= 0:
                    continue
                if a == b == c:
                    mult = n[a] * (n[a] - 1) * (n[a] - 2) / 6.0
                elif a == b:
                    mult = n[a] * (n[a] - 1) / 2.0 * n[c]
                elif b == c:
                    mult = n[a] * n[b] * (n[b] - 1) / 2.0
                else:
                    mult = float(n[a] * n[b] * n[c])
                rank_sum += mult * table[base + (a * N_RANKS + b) * N_RANKS + c]
    triples = N * (N - 1) * (N - 2) / 6.0
    ev = rank_sum / triples
    outcomes = N * (N - 1) * (N - 2) / 2.0  # starter x unordered pair
    if SUIT[d0] == SUIT[d1] and SUIT[d0] < 4:
        k = u[SUIT[d0]]
        pairs = k * (k - 1) / 2.0
        five = pairs * (k - 2)  # pair and starter all of the suit
        ev += 5.0 * five / outcomes
        if not crib_full_flush:
            ev += 4.0 * pairs * (N - k) / outcomes
    for d in (d0, d1):  # our jacks: the starter has their suit
        if RANK[d] == JACK:
            ev += u[SUIT[d]] / N
    for c in unseen:  # an unknown jack in the pair, starter its suit
        if RANK[c] == JACK:
            ev += 2.0 / N * (u[SUIT[c]] - 1) / (N - 1)
    return ev


@njit(cache=True)
def _choose(n, k):
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True)
def expected_crib_three_unknown(d, unseen, n, u, table, crib_full_flush):
    """E[crib] for crib d + three unknown cards, starter unknown, all from ``unseen`` (one
    deck without jokers): the crib of three or four players seen by one of them. The rank
    part is an average over the 4-rank multisets of the unknown cards (about 1,800 lookups
    where expect.options_distribution scores some 700,000 cribs); flush and nobs exactly."""
    N = unseen.shape[0]
    base = RANK[d] * N_RANKS**4
    rank_sum = 0.0
    for a in range(1, N_RANKS):
        for b in range(a, N_RANKS):
            for c in range(b, N_RANKS):
                for e in range(c, N_RANKS):
                    mult = 1.0
                    r = a
                    k = 0
                    for x in (a, b, c, e, 0):  # runs of equal ranks: C(n[r], k) each
                        if x == r:
                            k += 1
                        else:
                            mult *= _choose(n[r], k)
                            r, k = x, 1
                    if mult > 0:
                        rank_sum += (
                            mult * table[base + ((a * N_RANKS + b) * N_RANKS + c) * N_RANKS + e]
                        )
    ev = rank_sum / _choose(N, 4)
    outcomes = N * _choose(N - 1, 3)  # starter x unordered three
    if SUIT[d] < 4:
        k = u[SUIT[d]]
        ev += 5.0 * k * _choose(k - 1, 3) / outcomes  # all five of d's suit
        if not crib_full_flush:
            ev += 4.0 * _choose(k, 3) * (N - k) / outcomes
    if RANK[d] == JACK:  # our jack: the starter has its suit
        ev += u[SUIT[d]] / N
    for c in unseen:  # an unknown jack among the three, starter its suit
        if RANK[c] == JACK:
            ev += 3.0 / N * (u[SUIT[c]] - 1) / (N - 1)
    return ev


OPT_KEEP, OPT_DISC = option_indices(6, 2)  # the 15 ways to keep four of six


@njit(cache=True)
def ev_discard(hand, unseen, table, sign=1.0, crib_full_flush=False, aim=1.0):
    """The discard with the most expected aim * (hand + sign * crib), the crib's other two
    cards and the starter drawn from ``unseen`` (sign -1: a two-player pone; crib_full_flush:
    two-player crib rules; aim -1: lowball, the fewest points)."""
    n, u = unseen_counts(unseen)
    best = -1e9
    pick = 0
    for o in range(15):
        k = OPT_KEEP[o]
        d = OPT_DISC[o]
        v = aim * (
            expected_hand(hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], unseen, table)
            + sign
            * expected_crib_two_unknown(
                hand[d[0]], hand[d[1]], unseen, n, u, table, crib_full_flush
            )
        )
        if v > best:
            best = v
            pick = o
    return pick


OPT_KEEP_ONE, OPT_DISC_ONE = option_indices(5, 1)  # the 5 ways to keep four of five


@njit(cache=True)
def ev_discard_one(hand, unseen, table, sign=1.0, crib_full_flush=True, aim=1.0):
    """ev_discard for five cards, one to the crib (three or four players): the other three
    crib cards and the starter drawn from ``unseen``."""
    n, u = unseen_counts(unseen)
    best = -1e9
    pick = 0
    for o in range(5):
        k = OPT_KEEP_ONE[o]
        v = aim * (
            expected_hand(hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], unseen, table)
            + sign
            * expected_crib_three_unknown(
                hand[OPT_DISC_ONE[o, 0]], unseen, n, u, table, crib_full_flush
            )
        )
        if v > best:
            best = v
            pick = o
    return pick
