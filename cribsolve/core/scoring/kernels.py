"""Numba kernels of the show scorer: rank counts in, points out, for any number of cards.

Fifteens are a subset-sum count over the 14 rank counts (joker rank 0 doubles every way),
pairs are C(n, 2) per rank, runs are maximal blocks of consecutive ranks. Nothing here
enumerates subsets, so 5 cards and the whole 104-card double deck cost about the same.
"""

import numpy as np

from cribsolve.core.cards import JACK, NO_SUIT, RANK, SUIT, VALUE
from cribsolve.infra.jit import njit

N_RANKS = 14  # joker (0), A..K (1..13)
FIFTEENS, PAIRS, RUNS, FLUSH, NOBS = range(5)


@njit(cache=True)
def fifteen_ways(counts, target):
    """Number of sub-multisets of cards (cards distinct) whose values sum to ``target``."""
    ways = np.zeros(target + 1, dtype=np.int64)
    ways[0] = 1
    for r in range(N_RANKS):
        n = counts[r]
        if n == 0:
            continue
        v = VALUE[r]
        if v == 0:
            ways *= np.int64(1) << n
            continue
        for s in range(target, 0, -1):
            acc = ways[s]
            c = 1
            for k in range(1, n + 1):
                if k * v > s:
                    break
                c = c * (n - k + 1) // k
                acc += c * ways[s - k * v]
            ways[s] = acc
    return ways[target]


@njit(cache=True)
def pair_points(counts):
    p = 0
    for r in range(N_RANKS):
        p += counts[r] * (counts[r] - 1)
    return p


@njit(cache=True)
def run_points(counts):
    """Each maximal block of >= 3 consecutive ranks scores length x product of counts."""
    total = 0
    r = 0
    while r < N_RANKS:
        if counts[r] == 0:
            r += 1
            continue
        length = 0
        prod = 1
        while r < N_RANKS and counts[r] > 0:
            length += 1
            prod *= counts[r]
            r += 1
        if length >= 3:
            total += length * prod
    return total


@njit(cache=True)
def rank_points(counts, target):
    """Everything in a show score that depends on ranks alone."""
    return 2 * fifteen_ways(counts, target) + pair_points(counts) + run_points(counts)


@njit(cache=True)
def suit_points(cards, nheld, full_flush, out):
    """Flush and nobs of ``cards`` (held first, then starters) into out[FLUSH], out[NOBS].

    A flush needs at least 4 held cards, all of one suit; each starter of that suit adds 1.
    With ``full_flush`` (a two-player crib) it counts only if every starter matches too.
    Nobs: 1 for each (held jack, starter) pair of the same suit.
    """
    n = cards.shape[0]
    flush = 0
    if nheld >= 4:
        s = SUIT[cards[0]]
        same = s != NO_SUIT
        for i in range(1, nheld):
            if SUIT[cards[i]] != s:
                same = False
        if same:
            extra = 0
            for i in range(nheld, n):
                if SUIT[cards[i]] == s:
                    extra += 1
            if not full_flush or extra == n - nheld:
                flush = nheld + extra
    nobs = 0
    for i in range(nheld):
        if RANK[cards[i]] == JACK:
            for j in range(nheld, n):
                if SUIT[cards[j]] == SUIT[cards[i]]:
                    nobs += 1
    out[FLUSH] = flush
    out[NOBS] = nobs


@njit(cache=True)
def score_parts(cards, nheld, target, full_flush, out):
    """The five show categories of one hand of plain cards into ``out``; returns the total."""
    counts = np.zeros(N_RANKS, dtype=np.int64)
    for c in cards:
        counts[RANK[c]] += 1
    out[FIFTEENS] = 2 * fifteen_ways(counts, target)
    out[PAIRS] = pair_points(counts)
    out[RUNS] = run_points(counts)
    suit_points(cards, nheld, full_flush, out)
    return out[FIFTEENS] + out[PAIRS] + out[RUNS] + out[FLUSH] + out[NOBS]


@njit(cache=True)
def best_wild(cards, nheld, target, full_flush, wild_rank, best):
    """The best substitution for every card of ``wild_rank``; writes it into ``best``.

    Held wild cards are interchangeable, so their ranks run over multisets; they share one
    suit (a flush needs it, and nobs is best served by the starter's suit, which is one of the
    four tried). A wild starter may be any card. The ranks decide the fifteens, pairs and
    runs, worked out once per choice of ranks; only the flush and nobs are tried per suit.
    Returns the best total.
    """
    n = cards.shape[0]
    held_w = [i for i in range(nheld) if RANK[cards[i]] == wild_rank]
    start_w = [i for i in range(nheld, n) if RANK[cards[i]] == wild_rank]
    kh = len(held_w)
    ks = len(start_w)
    trial = cards.copy()
    out = np.zeros(5, dtype=np.int64)
    base = np.zeros(N_RANKS, dtype=np.int64)  # ranks of the cards that are not wild
    for c in cards:
        if RANK[c] != wild_rank:
            base[RANK[c]] += 1
    counts = np.empty(N_RANKS, dtype=np.int64)
    sr = np.empty(ks, dtype=np.int64)
    best[:] = cards
    top = -1
    hr = np.ones(kh, dtype=np.int64)  # nondecreasing held wild ranks
    while True:
        for rcode in range(13**ks):  # the ranks of the wild starters
            x = rcode
            counts[:] = base
            for j in range(ks):
                sr[j] = x % 13 + 1
                x //= 13
                counts[sr[j]] += 1
            for j in range(kh):
                counts[hr[j]] += 1
            rank_pts = rank_points(counts, target)
            for scode in range(4 ** (ks + (kh > 0))):  # the suits: starters', held cards'
                y = scode
                for j in range(ks):
                    trial[start_w[j]] = (sr[j] - 1) * 4 + y % 4
                    y //= 4
                for j in range(kh):
                    trial[held_w[j]] = (hr[j] - 1) * 4 + y
                suit_points(trial, nheld, full_flush, out)
                t = rank_pts + out[FLUSH] + out[NOBS]
                if t > top:
                    top = t
                    best[:] = trial
        # next multiset of held ranks
        j = kh - 1
        while j >= 0 and hr[j] == 13:
            j -= 1
        if j < 0:
            break
        hr[j] += 1
        for k in range(j + 1, kh):
            hr[k] = hr[j]
    return top


@njit(cache=True)
def heels_points(cards, nheld):
    """2 for each starter that is a jack (never part of the hand's own score)."""
    h = 0
    for i in range(nheld, cards.shape[0]):
        if RANK[cards[i]] == JACK:
            h += 2
    return h
