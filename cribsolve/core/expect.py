"""The one enumeration behind every discard question: the exact distribution of a deal's points.

A deal is 4 kept cards plus a crib of known cards and ``m`` unknown ones, with an unknown
starter. Every starter and every m-subset of the other unseen cards counts once (weighted by
the opponent model when m = 2), and both hands are scored by the 5-card table. The result is
the probability of each value of ``hand + sign * crib``, so dealer (+1), pone (-1) and the
solitaires (+1, crib scored like a hand) share one code path.

For m = 2 the unknown pairs are grouped by rank pair (suited / offsuit / completing a flush),
with the jack of the starter's suit (nobs) taken apart card by card: about 150 table lookups
per starter and option instead of 990 card pairs.
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK, SUIT
from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.core.scoring.table import score5
from cribsolve.infra.jit import njit, prange

OFFSET = 128  # net value v is stored at index v + OFFSET
WIDTH = 2 * OFFSET


N_CLASSES = 13 * 13 * 2  # classes of a card pair: its two ranks, suited or not


@njit(cache=True, inline="always")
def pair_class_of_ranks(a, b, suited):
    """Class index of a pair of ranks a <= b (1..13): 13 x 13 x {offsuit, suited}."""
    return ((a - 1) * 13 + (b - 1)) * 2 + suited


@njit(cache=True)
def _grouped_pairs(d0, d1, s, h, u, n, jstar, sign, wclass, table, crib_full_flush, row):
    """m = 2: add every unknown crib pair's weight into ``row``; return (weight, sum of crib).

    u[rank, suit]: unseen cards left for the pair (the starter and the jack of its suit
    removed); n[rank]: their totals; jstar: whether that jack is among the unseen.
    """
    ss = SUIT[s]
    base = ((RANK[d0] * N_RANKS + RANK[d1]) * N_RANKS + RANK[s]) * N_RANKS * N_RANKS
    dsuit = SUIT[d0] if SUIT[d0] == SUIT[d1] else -1
    flush_pts = 0
    if dsuit >= 0:
        flush_pts = 5 if ss == dsuit else (0 if crib_full_flush else 4)
    c0 = (RANK[d0] == JACK and SUIT[d0] == ss) + (RANK[d1] == JACK and SUIT[d1] == ss)
    total = 0.0
    ec = 0.0
    for a in range(1, 14):
        if n[a] == 0:
            continue
        same = n[a] * (n[a] - 1) // 2
        if same:
            w = wclass[pair_class_of_ranks(a, a, 0)] * same
            c = table[base + a * N_RANKS + a] + c0
            row[h + sign * c + OFFSET] += w
            total += w
            ec += w * c
        for b in range(a + 1, 14):
            if n[b] == 0:
                continue
            suited = u[a, 0] * u[b, 0] + u[a, 1] * u[b, 1] + u[a, 2] * u[b, 2] + u[a, 3] * u[b, 3]
            flush = u[a, dsuit] * u[b, dsuit] if dsuit >= 0 else 0
            ws = wclass[pair_class_of_ranks(a, b, 1)]
            w = wclass[pair_class_of_ranks(a, b, 0)] * (n[a] * n[b] - suited) + ws * (
                suited - flush
            )
            c = table[base + a * N_RANKS + b] + c0
            row[h + sign * c + OFFSET] += w
            total += w
            ec += w * c
            if flush:
                w = ws * flush
                row[h + sign * (c + flush_pts) + OFFSET] += w
                total += w
                ec += w * (c + flush_pts)
    if jstar:  # the jack of the starter's suit with each other card: nobs +1
        for b in range(1, 14):
            for su in range(4):
                k = u[b, su]
                if k == 0:
                    continue
                lo, hi = min(b, JACK), max(b, JACK)
                w = wclass[pair_class_of_ranks(lo, hi, su == ss and b != JACK)] * k
                c = table[base + JACK * N_RANKS + b] + c0 + 1
                if su == ss and ss == dsuit:
                    c += flush_pts
                row[h + sign * c + OFFSET] += w
                total += w
                ec += w * c
    return total, ec


@njit(cache=True)
def options_distribution(
    keeps, cribs, unseen, sign, wclass, table, crib_full_flush, heels, hists, means
):
    """For each option o (kept cards keeps[o], known crib cards cribs[o]) add P(net) into
    hists[o] and write (E[hand], E[crib]) into means[o].

    unseen: the cards the starter and the m = 4 - len(cribs[o]) unknown crib cards come from;
    wclass[pair class]: weight of one unknown crib pair of that class (m = 2; other m are
    uniform). With ``heels`` a jack starter adds 2 to the hand side (the solitaires' deal total).
    """
    n_opt = keeps.shape[0]
    m = 4 - cribs.shape[1]
    nu = unseen.shape[0]
    u = np.zeros((N_RANKS, 4), dtype=np.int64)
    for c in unseen:
        u[RANK[c], SUIT[c]] += 1
    n = np.zeros(N_RANKS, dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    idx = np.arange(m)
    total = np.zeros(n_opt)
    eh = np.zeros(n_opt)
    ec = np.zeros(n_opt)
    local = np.zeros((n_opt, WIDTH))
    for si in range(nu):
        s = unseen[si]
        u[RANK[s], SUIT[s]] -= 1
        jstar = m == 2 and u[JACK, SUIT[s]] > 0
        if jstar:
            u[JACK, SUIT[s]] -= 1
        for r in range(N_RANKS):
            n[r] = u[r, 0] + u[r, 1] + u[r, 2] + u[r, 3]
        for o in range(n_opt):
            k = keeps[o]
            h = score5(table, k[0], k[1], k[2], k[3], s, False) + 2 * (heels and RANK[s] == JACK)
            if m == 2:
                t, c = _grouped_pairs(
                    cribs[o, 0],
                    cribs[o, 1],
                    s,
                    h,
                    u,
                    n,
                    jstar,
                    sign,
                    wclass,
                    table,
                    crib_full_flush,
                    local[o],
                )
                total[o] += t
                eh[o] += t * h
                ec[o] += c
                continue
            crib[m:] = cribs[o]
            # any other m: every m-subset of the unseen cards other than the starter
            for j in range(m):
                idx[j] = j
            while True:
                ok = True
                for j in range(m):
                    if idx[j] == si:
                        ok = False
                if ok:
                    for j in range(m):
                        crib[j] = unseen[idx[j]]
                    c = score5(table, crib[0], crib[1], crib[2], crib[3], s, crib_full_flush)
                    local[o, h + sign * c + OFFSET] += 1.0
                    total[o] += 1.0
                    eh[o] += h
                    ec[o] += c
                j = m - 1
                while j >= 0 and idx[j] == nu - m + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for q in range(j + 1, m):
                    idx[q] = idx[q - 1] + 1
        if jstar:
            u[JACK, SUIT[s]] += 1
        u[RANK[s], SUIT[s]] += 1
    for o in range(n_opt):
        hists[o] += local[o] / total[o]
        means[o, 0] = eh[o] / total[o]
        means[o, 1] = ec[o] / total[o]


@njit(cache=True, parallel=True)
def hands_distribution(keeps, cribs, unseen, sign, wclass, table, crib_full_flush, hists, means):
    """options_distribution for many hands at once (leading axis), hands spread over threads."""
    for h in prange(keeps.shape[0]):
        options_distribution(
            keeps[h],
            cribs[h],
            unseen[h],
            sign,
            wclass,
            table,
            crib_full_flush,
            False,
            hists[h],
            means[h],
        )
