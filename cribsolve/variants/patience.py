"""PySolFC's Cribbage Patience (game 955) and Cribbage Patience II (game 980), RULES.md §4.

One shuffled deck per game, never reshuffled. Patience: 7 cards removed unseen, then five
deals of [2 face-down crib cards, 6 hand cards, starter]. Patience II: four deals of
[6 hand cards, 6 more hand cards, starter]. The crib scores like a hand (pysol preset); heels
adds 2 in every deal. The kernels play whole games from an array of shuffled decks.

Policies (what the player may know: the cards seen so far, never the face-down ones):
  RANDOM       any discard, uniformly.
  EV           the discard with the most expected points this deal, exact over every unseen
               starter and face-down crib pair (card counting). Patience II's first discard
               treats the two crib cards still to come as unseen cards (its second discard is
               exact); the look-ahead in analysis is sampled, too slow for millions of deals.
  CLAIRVOYANT  sees the face-down cards, the starter and (Patience II) the second hand before
               choosing: an upper bound no real strategy can beat.
"""
import numpy as np
from numba import njit, prange

from ..cards import JACK, RANK
from ..analysis.fastev import (expected_crib_two_unknown, expected_hand, expected_known_crib,
                               unseen_counts)
from ..analysis.discard import option_indices
from ..scoring.table import score5

RANDOM, EV, CLAIRVOYANT = 0, 1, 2
POLICIES = {"random": RANDOM, "ev": EV, "clairvoyant": CLAIRVOYANT}
DEALS = {"patience": 5, "patience2": 4}
WIN_AT = 80

# the 15 ways to keep 4 of 6: positions of the kept and the discarded cards
OPT_KEEP, OPT_DISC = option_indices(6, 2)
NO_CARDS = np.empty(0, dtype=np.int64)


@njit(cache=True)
def unseen_of(seen):
    return np.flatnonzero(~seen[:52]).astype(np.int64)


@njit(cache=True)
def deal_points(hand, o, crib_other, s, table):
    """Points of one deal: kept hand + crib (discard o + two other cards), both + starter."""
    k = OPT_KEEP[o]
    d = OPT_DISC[o]
    return (score5(table, hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], s, False)
            + score5(table, hand[d[0]], hand[d[1]], crib_other[0], crib_other[1], s, False))


@njit(cache=True)
def ev_discard(hand, crib_known, seen, table):
    """The discard with the most expected points of the deal, from the unseen cards.

    crib_known: empty when the crib's other two cards are still unseen (Patience, and
    Patience II's first discard), else the two cards already in it (Patience II's second).
    """
    unseen = unseen_of(seen)
    n, u = unseen_counts(unseen)
    best = -1.0
    pick = 0
    for o in range(15):
        k = OPT_KEEP[o]
        d = OPT_DISC[o]
        v = expected_hand(hand[k[0]], hand[k[1]], hand[k[2]], hand[k[3]], unseen, table)
        if crib_known.shape[0] == 0:
            v += expected_crib_two_unknown(hand[d[0]], hand[d[1]], unseen, n, u, table, False)
        else:
            v += expected_known_crib(hand[d[0]], hand[d[1]], crib_known[0], crib_known[1],
                                     unseen, table, False)
        if v > best:
            best = v
            pick = o
    return pick


@njit(cache=True)
def play_patience(deck, policy, rand, table, out):
    """One game of Cribbage Patience; points of each deal into ``out``."""
    seen = np.zeros(53, dtype=np.bool_)
    pos = 7
    for deal in range(5):
        crib2 = deck[pos:pos + 2]
        hand = deck[pos + 2:pos + 8]
        s = deck[pos + 8]
        pos += 9
        for c in hand:
            seen[c] = True
        if policy == RANDOM:
            o = int(rand[deal] * 15)
        elif policy == EV:
            o = ev_discard(hand, NO_CARDS, seen, table)
        else:
            o = 0
            top = -1
            for q in range(15):
                v = deal_points(hand, q, crib2, s, table)
                if v > top:
                    top = v
                    o = q
        out[deal] = deal_points(hand, o, crib2, s, table) + 2 * (RANK[s] == JACK)
        seen[crib2[0]] = True
        seen[crib2[1]] = True
        seen[s] = True


@njit(cache=True)
def play_patience2(deck, policy, rand, table, out):
    """One game of Cribbage Patience II; points of each deal into ``out``."""
    seen = np.zeros(53, dtype=np.bool_)
    first = np.empty(2, dtype=np.int64)
    for deal in range(4):
        h1 = deck[13 * deal:13 * deal + 6]
        h2 = deck[13 * deal + 6:13 * deal + 12]
        s = deck[13 * deal + 12]
        for c in h1:
            seen[c] = True
        if policy == CLAIRVOYANT:
            top = -1
            o1 = o2 = 0
            for a in range(15):
                first[0] = h1[OPT_DISC[a, 0]]
                first[1] = h1[OPT_DISC[a, 1]]
                k = OPT_KEEP[a]
                h1pts = score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
                for b in range(15):
                    v = h1pts + deal_points(h2, b, first, s, table)
                    if v > top:
                        top, o1, o2 = v, a, b
        else:
            o1 = int(rand[2 * deal] * 15) if policy == RANDOM else ev_discard(h1, NO_CARDS, seen,
                                                                                table)
            first[0] = h1[OPT_DISC[o1, 0]]
            first[1] = h1[OPT_DISC[o1, 1]]
            for c in h2:
                seen[c] = True
            if policy == RANDOM:
                o2 = int(rand[2 * deal + 1] * 15)
            else:
                o2 = ev_discard(h2, first, seen, table)
        first[0] = h1[OPT_DISC[o1, 0]]
        first[1] = h1[OPT_DISC[o1, 1]]
        k = OPT_KEEP[o1]
        out[deal] = (score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
                     + deal_points(h2, o2, first, s, table) + 2 * (RANK[s] == JACK))
        for c in h2:
            seen[c] = True
        seen[s] = True


@njit(cache=True, parallel=True)
def play_games(decks, variant2, policy, rand, table):
    """Points per deal of every game (rows of ``decks``), games spread over threads."""
    g = decks.shape[0]
    out = np.zeros((g, 4 if variant2 else 5), dtype=np.int64)
    for i in prange(g):
        if variant2:
            play_patience2(decks[i], policy, rand[i], table, out[i])
        else:
            play_patience(decks[i], policy, rand[i], table, out[i])
    return out


@njit(cache=True, parallel=True)
def lookahead_values(h1, seen, second_hands, table):
    """Patience II first discard: for each sampled second hand (rows) and each first discard,
    E[hand 1 + best second discard's hand 2 + crib] over the starter."""
    out = np.empty((second_hands.shape[0], 15))
    for i in prange(second_hands.shape[0]):
        h2 = second_hands[i]
        seen2 = seen.copy()
        for c in h2:
            seen2[c] = True
        unseen = unseen_of(seen2)
        first = np.empty(2, dtype=np.int64)
        for a in range(15):
            k = OPT_KEEP[a]
            first[0] = h1[OPT_DISC[a, 0]]
            first[1] = h1[OPT_DISC[a, 1]]
            b = ev_discard(h2, first, seen2, table)
            kb = OPT_KEEP[b]
            db = OPT_DISC[b]
            out[i, a] = (expected_hand(h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], unseen, table)
                         + expected_hand(h2[kb[0]], h2[kb[1]], h2[kb[2]], h2[kb[3]], unseen, table)
                         + expected_known_crib(h2[db[0]], h2[db[1]], first[0], first[1], unseen,
                                               table, False))
    return out
