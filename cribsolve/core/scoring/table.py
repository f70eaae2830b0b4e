"""The 5-card fast path: a table of the rank-only points of every 5-rank tuple, plus suits.

14^5 entries (joker rank 0 included) of int8, built once per target sum by the general
kernel, so the table can never disagree with it (the target-15 table ships with the package;
infra/store.py keeps the others). A 4 + starter hand then costs one lookup, a flush check and a
nobs check.
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK, SUIT
from cribsolve.core.rules import RuleSet
from cribsolve.core.scoring.kernels import N_RANKS, rank_points
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import expect, load, register, rules_key

TABLE_SIZE = N_RANKS**5


@njit(cache=True)
def entry_points(idx, target):
    """Rank points of table entry ``idx`` (five ranks, base 14)."""
    counts = np.zeros(N_RANKS, dtype=np.int64)
    for _ in range(5):
        counts[idx % N_RANKS] += 1
        idx //= N_RANKS
    return rank_points(counts, target)


@njit(cache=True)
def _build(target):
    table = np.empty(TABLE_SIZE, dtype=np.int8)
    for idx in range(TABLE_SIZE):
        table[idx] = entry_points(idx, target)
    return table


def _check(arrays, params):
    points = arrays.get("points")
    expect(
        points is not None and points.shape == (TABLE_SIZE,) and points.dtype == np.int8,
        "not a rank table",
    )
    expect(int(points.min()) >= 0, "negative points")
    sample = np.random.default_rng().integers(0, TABLE_SIZE, 16)
    for idx in sample.tolist() + [TABLE_SIZE - 1]:  # entries recomputed by the scorer
        expect(points[idx] == entry_points(idx, params["target"]), f"wrong at entry {idx}")


register("rank-table", 1, _check, reads=("target",))


def rank_table(target: int = 15) -> np.ndarray:
    """The rank-points table for ``target`` (shipped for 15, else built once and cached)."""
    params = rules_key("rank-table", RuleSet(target=int(target)))
    return load("rank-table", params, lambda: {"points": _build(target)})["points"]


@njit(cache=True, inline="always")
def score5(table, a, b, c, d, s, full_flush):
    """Show points of held a, b, c, d with starter s (card ids), heels excluded."""
    idx = (
        ((RANK[a] * N_RANKS + RANK[b]) * N_RANKS + RANK[c]) * N_RANKS + RANK[d]
    ) * N_RANKS + RANK[s]
    pts = np.int64(table[idx])
    su = SUIT[a]
    if su < 4 and SUIT[b] == su and SUIT[c] == su and SUIT[d] == su:
        if SUIT[s] == su:
            pts += 5
        elif not full_flush:
            pts += 4
    ss = SUIT[s]
    pts += (
        (RANK[a] == JACK and SUIT[a] == ss)
        + (RANK[b] == JACK and SUIT[b] == ss)
        + (RANK[c] == JACK and SUIT[c] == ss)
        + (RANK[d] == JACK and SUIT[d] == ss)
    )
    return pts


@njit(cache=True)
def held_by_starter(table, a, b, c, d, starters, full_flush, out):
    """out[i] = score5(table, a, b, c, d, starters[i], full_flush) for each starter: the four
    held cards' part of the lookup, their flush and their jacks worked out once."""
    base = (((RANK[a] * N_RANKS + RANK[b]) * N_RANKS + RANK[c]) * N_RANKS + RANK[d]) * N_RANKS
    su = SUIT[a]
    flush = su < 4 and SUIT[b] == su and SUIT[c] == su and SUIT[d] == su
    # the suit of each held jack (-1: not a jack), for the nobs of each starter
    ja, jb = SUIT[a] if RANK[a] == JACK else -1, SUIT[b] if RANK[b] == JACK else -1
    jc, jd = SUIT[c] if RANK[c] == JACK else -1, SUIT[d] if RANK[d] == JACK else -1
    for i in range(starters.shape[0]):
        s = starters[i]
        ss = SUIT[s]
        pts = np.int64(table[base + RANK[s]]) + (ja == ss) + (jb == ss) + (jc == ss) + (jd == ss)
        if flush:
            if ss == su:
                pts += 5
            elif not full_flush:
                pts += 4
        out[i] = pts


@njit(cache=True, parallel=True)
def score5_many(table, hands, full_flush):
    """Scores of an (n, 5) array of hands, the last column being the starter."""
    n = hands.shape[0]
    out = np.empty(n, dtype=np.int16)
    for i in prange(n):
        out[i] = score5(
            table, hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], hands[i, 4], full_flush
        )
    return out


@njit(cache=True, parallel=True)
def _histogram(table, full_flush):
    """Counts of each score over all C(52,4) x 48 hands, one partial histogram per first card."""
    part = np.zeros((52, 128), dtype=np.int64)
    for a in prange(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for s in range(52):
                        if s != a and s != b and s != c and s != d:
                            part[a, score5(table, a, b, c, d, s, full_flush)] += 1
    return part.sum(axis=0)


def distribution(crib: bool = False, full_flush: bool = True, target: int = 15) -> np.ndarray:
    """Exact histogram (index = score, at least 0..29) of the 12,994,800 4 + starter hands."""
    hist = _histogram(rank_table(target), crib and full_flush)
    last = max(29, int(np.flatnonzero(hist)[-1]))
    return hist[: last + 1]
