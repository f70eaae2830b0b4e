"""The exact distribution of one hand's discards, card by card, in numpy.

The same question as ``expect.options_distribution`` answered the plain way: every starter and
every set of unknown crib cards among the unseen cards is listed (45,540 of them for a 6-card
hand) and scored through the 5-card table in whole arrays. That is a few tens of milliseconds
and needs no compiled code, so a single ``best-discard`` answers before numba could even load;
the grouped numba kernel serves batches and simulations, and a test holds the two equal.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.cards import JACK, NO_SUIT, RANK, SUIT
from cribsolve.core.expect import OFFSET, WIDTH
from cribsolve.core.scoring.kernels import N_RANKS


def score5_np(table, cards4, starter, full_flush):
    """Show points (heels apart) of the 4-card rows of ``cards4`` with each ``starter``."""
    r = RANK[cards4]
    s = SUIT[cards4]
    idx = (((r[:, 0] * N_RANKS + r[:, 1]) * N_RANKS + r[:, 2]) * N_RANKS + r[:, 3]) * N_RANKS
    pts = table[idx + RANK[starter]].astype(np.int64)
    flush = (s[:, 0] != NO_SUIT) & (s == s[:, :1]).all(axis=1)
    match = SUIT[starter] == s[:, 0]
    pts += flush * np.where(match, 5, 0 if full_flush else 4)
    pts += ((r == JACK) & (s == SUIT[starter][:, None])).sum(axis=1)
    return pts


def _pair_classes(x, y):
    """expect.pair_class_of_ranks of the card pairs (x, y), elementwise."""
    rx, ry = RANK[x], RANK[y]
    lo, hi = np.minimum(rx, ry), np.maximum(rx, ry)
    suited = (SUIT[x] == SUIT[y]) & (lo != hi)
    return ((lo - 1) * 13 + (hi - 1)) * 2 + suited


def combos(n, k):
    """The rows of itertools.combinations(range(n), k), in its order, built in numpy (each
    (k-1)-set followed by every larger position): a 5-card hand's 178,365 four-card sets in
    4 ms where the iterator took 17."""
    rows = np.arange(n)[:, None]
    for _ in range(k - 1):
        last = rows[:, -1]
        more = n - 1 - last  # the larger positions each row can take
        before = np.cumsum(more) - more
        rows = np.column_stack(
            [
                np.repeat(rows, more, axis=0),
                np.arange(more.sum()) + np.repeat(last + 1 - before, more),
            ]
        )
    return rows


def deals(n, m):
    """(starter, unknown crib cards) as positions among n unseen cards: every starter with
    every m-subset of the other cards."""
    k = m + 1
    sets = combos(n, k)
    starters = np.concatenate([sets[:, j] for j in range(k)])
    others = np.concatenate([np.delete(sets, j, axis=1) for j in range(k)])
    return starters, others


def options_distribution_np(
    keeps, cribs, unseen, sign, wclass, table, crib_full_flush, heels=False
):
    """(hists, means) exactly as ``expect.options_distribution`` fills them. Here the unseen
    cards may hold jokers and repeated copies (each physical card once); ``wclass`` None
    weighs every unknown crib pair alike.

    What the unknown crib cards and the starter contribute to the crib's table index, flush
    and nobs is worked out once; each option then adds its known crib cards to it.
    """
    unseen = np.asarray(unseen, dtype=np.int64)
    m = 4 - cribs.shape[1]
    pos, other_pos = deals(len(unseen), m)
    starter, others = unseen[pos], unseen[other_pos]
    if m == 2 and wclass is not None:
        w = wclass[_pair_classes(others[:, 0], others[:, 1])]
    else:
        w = np.ones(len(pos))
    wsum = w.sum()
    w_starter = np.bincount(pos, weights=w, minlength=len(unseen))  # weight of each starter
    s_suit = SUIT[starter]
    idx = np.zeros(len(pos), dtype=np.int64)
    for j in range(m):
        idx = idx * N_RANKS + RANK[others[:, j]]
    idx = idx * N_RANKS + RANK[starter]
    o_suit = SUIT[others[:, 0]] if m else np.full(len(pos), -1)
    if m and not (o_suit == NO_SUIT).all():
        o_suit = np.where(
            (SUIT[others] == o_suit[:, None]).all(axis=1) & (o_suit != NO_SUIT), o_suit, -2
        )
    nobs = ((RANK[others] == JACK) & (SUIT[others] == s_suit[:, None])).sum(axis=1)
    flush_pts = np.where(s_suit[:, None] == np.arange(4), 5, 0 if crib_full_flush else 4)
    hists = np.zeros((len(keeps), WIDTH))
    means = np.zeros((len(keeps), 2))
    for o in range(len(keeps)):
        by_starter = score5_np(table, np.broadcast_to(keeps[o], (len(unseen), 4)), unseen, False)
        if heels:
            by_starter = by_starter + 2 * (RANK[unseen] == JACK)
        hand = by_starter[pos]
        known = cribs[o]
        prefix = 0
        for c in known:
            prefix = prefix * N_RANKS + int(RANK[c])
        crib = table[prefix * N_RANKS ** (m + 1) + idx].astype(np.int64) + nobs
        for c in known:
            if RANK[c] == JACK:
                crib += s_suit == SUIT[c]
        ks = SUIT[known]
        if len(known) == 0:
            crib += (o_suit >= 0) * flush_pts[np.arange(len(pos)), np.clip(o_suit, 0, 3)]
        elif ks[0] != NO_SUIT and (ks == ks[0]).all():
            crib += ((o_suit == ks[0]) if m else 1) * flush_pts[:, ks[0]]
        hists[o] = np.bincount(hand + sign * crib + OFFSET, weights=w, minlength=WIDTH) / wsum
        # sums, not ``w @ hand``: a dot product this long runs on OpenBLAS's threads, which on
        # a busy machine cost a single answer 0.35 s of waiting (the sums, a fraction of 1 ms)
        means[o] = (by_starter * w_starter).sum() / wsum, (w * crib).sum() / wsum
    return hists, means
