"""PySolFC's Cribbage Shuffle (809; rules: docs/RULES.md §4): the provably best arrangement of its
4 x 4 grid. Any arrangement is reachable, so a deal is a pure optimisation over how the 16
cards split into rows and columns.

Why the search is exact: a transposed grid scores the same, so an optimal grid can be taken
with rows worth at least its columns, and rows + columns <= 2 v(rows), v(P) being the best a
partition P of the cards into four groups of 4 scores. Row partitions are enumerated best first
(a dynamic program over card subsets bounds every remaining set) and each completed by its best
columns (4!^3 = 13,824 ways); once the next partition has 2 v <= best, nothing left can do
better: that is the proof. The first ``best`` comes from a quick heuristic (the best partition,
its best columns, then pairwise swaps while they improve).
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.scoring.table import score5
from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra.jit import njit, prange

FULL = (1 << 16) - 1
WIN_AT = SOLITAIRES["shuffle"].win_at
ALL_PARTITIONS = 2_627_625  # ways to split 16 cards into four groups of 4


@njit(cache=True)
def group_values(cards, starter, table):
    """Show points of every 4-card group (indexed by its 16-bit mask) with the starter."""
    val = np.full(1 << 16, -1, dtype=np.int16)
    for a in range(16):
        for b in range(a + 1, 16):
            for c in range(b + 1, 16):
                for d in range(c + 1, 16):
                    val[(1 << a) | (1 << b) | (1 << c) | (1 << d)] = score5(
                        table, cards[a], cards[b], cards[c], cards[d], starter, False
                    )
    return val


@njit(cache=True)
def _groups_with_lowest(rem, out):
    """Every 4-card group inside ``rem`` that holds its lowest card; returns how many."""
    low = rem & -rem
    rest = rem ^ low
    k = 0
    a = rest
    while a:
        ba = a & -a
        a ^= ba
        b = a
        while b:
            bb = b & -b
            b ^= bb
            c = b
            while c:
                bc = c & -c
                c ^= bc
                out[k] = low | ba | bb | bc
                k += 1
    return k


_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 16)])
# Groups are always chosen to hold the lowest card left, so the only sets whose best split is
# ever asked for are those of 8 and 12 cards without card 0, and all 16: in that order.
_NO_CARD_0 = np.arange(1 << 16) % 2 == 0
BIG_SETS = np.concatenate(
    [
        np.flatnonzero((_POPCOUNT == 8) & _NO_CARD_0),
        np.flatnonzero((_POPCOUNT == 12) & _NO_CARD_0),
        [(1 << 16) - 1],
    ]
).astype(np.int64)


@njit(cache=True)
def best_partition_values(val):
    """best[mask]: the most a set of cards can score split into groups of 4, for every set of
    4 and the sets in BIG_SETS (other entries unused)."""
    best = val.copy()  # a set of 4 is one group
    groups = np.empty(455, dtype=np.int64)
    for mask in BIG_SETS:
        k = _groups_with_lowest(mask, groups)
        top = -1
        for i in range(k):
            v = val[groups[i]] + best[mask ^ groups[i]]
            if v > top:
                top = v
        best[mask] = top
    best[0] = 0
    return best


@njit(cache=True)
def partitions_at_least(val, best, threshold, limit):
    """Row partitions worth >= threshold (at most ``limit``): (n, groups[n, 4], values[n])."""
    out = np.empty((limit, 4), dtype=np.int64)
    vals = np.empty(limit, dtype=np.int64)
    n = 0
    g0s = np.empty(455, dtype=np.int64)
    g1s = np.empty(455, dtype=np.int64)
    g2s = np.empty(455, dtype=np.int64)
    k0 = _groups_with_lowest(FULL, g0s)
    for i0 in range(k0):
        g0 = g0s[i0]
        r1 = FULL ^ g0
        v0 = val[g0]
        if v0 + best[r1] < threshold:
            continue
        k1 = _groups_with_lowest(r1, g1s)
        for i1 in range(k1):
            g1 = g1s[i1]
            r2 = r1 ^ g1
            v1 = v0 + val[g1]
            if v1 + best[r2] < threshold:
                continue
            k2 = _groups_with_lowest(r2, g2s)
            for i2 in range(k2):
                g2 = g2s[i2]
                g3 = r2 ^ g2
                v = v1 + val[g2] + val[g3]
                if v >= threshold:
                    if n == limit:
                        return -1, out, vals
                    out[n, 0], out[n, 1], out[n, 2], out[n, 3] = g0, g1, g2, g3
                    vals[n] = v
                    n += 1
    return n, out[:n], vals[:n]


PERMS = np.array(
    [
        [a, b, c, d]
        for a in range(4)
        for b in range(4)
        for c in range(4)
        for d in range(4)
        if len({a, b, c, d}) == 4
    ],
    dtype=np.int64,
)


@njit(cache=True)
def _bits(mask, out):
    k = 0
    for i in range(16):
        if mask >> i & 1:
            out[k] = i
            k += 1


@njit(cache=True)
def best_columns(rows, val, need):
    """The best columns for row groups ``rows`` (4 masks) if they are worth ``need`` or more:
    (value, PERMS index for rows 2-4); (-1, _) when no completion reaches ``need``.

    For each way to place rows 2 and 3, the best any placement of row 4 could add is the sum
    of each column's best fourth card; the 24 placements of row 4 are tried only when that
    bound reaches the target."""
    r = np.empty((4, 4), dtype=np.int64)
    for i in range(4):
        _bits(rows[i], r[i])
    top = need - 1
    arg = np.zeros(3, dtype=np.int64)
    col = np.empty(4, dtype=np.int64)
    m = np.empty((4, 4), dtype=np.int64)
    for p2 in range(24):
        for p3 in range(24):
            bound = 0
            for j in range(4):
                col[j] = (1 << r[0, j]) | (1 << r[1, PERMS[p2, j]]) | (1 << r[2, PERMS[p3, j]])
                best_k = 0
                for k in range(4):
                    m[j, k] = val[col[j] | (1 << r[3, k])]
                    best_k = max(best_k, m[j, k])
                bound += best_k
            if bound <= top:
                continue
            for p4 in range(24):
                t = (
                    m[0, PERMS[p4, 0]]
                    + m[1, PERMS[p4, 1]]
                    + m[2, PERMS[p4, 2]]
                    + m[3, PERMS[p4, 3]]
                )
                if t > top:
                    top = t
                    arg[0], arg[1], arg[2] = p2, p3, p4
    if top < need:
        return -1, arg
    return top, arg


@njit(cache=True)
def grid_of(rows, arg):
    """Row-major card positions (0..15) of the grid built from row groups and column perms."""
    r = np.empty((4, 4), dtype=np.int64)
    for i in range(4):
        _bits(rows[i], r[i])
    g = np.empty(16, dtype=np.int64)
    for j in range(4):
        g[j] = r[0, j]
        g[4 + j] = r[1, PERMS[arg[0], j]]
        g[8 + j] = r[2, PERMS[arg[1], j]]
        g[12 + j] = r[3, PERMS[arg[2], j]]
    return g


@njit(cache=True)
def grid_score(grid, val):
    """Rows + columns of a grid of card positions (heels apart)."""
    t = 0
    for i in range(4):
        t += val[
            (1 << grid[4 * i])
            | (1 << grid[4 * i + 1])
            | (1 << grid[4 * i + 2])
            | (1 << grid[4 * i + 3])
        ]
        t += val[(1 << grid[i]) | (1 << grid[4 + i]) | (1 << grid[8 + i]) | (1 << grid[12 + i])]
    return t


@njit(cache=True)
def improve_by_swaps(grid, val):
    """Swap the pair of cells that gains the most, while any gains: a local optimum."""
    g = grid.copy()
    cur = grid_score(g, val)
    while True:
        gain = 0
        bi = bj = -1
        for i in range(16):
            for j in range(i + 1, 16):
                g[i], g[j] = g[j], g[i]
                t = grid_score(g, val) - cur
                g[i], g[j] = g[j], g[i]
                if t > gain:
                    gain, bi, bj = t, i, j
        if gain == 0:
            return g, cur
        g[bi], g[bj] = g[bj], g[bi]
        cur += gain


@njit(cache=True)
def search(parts, vals, start, stop, val, best, best_rows, best_arg, enough):
    """Complete candidates start..stop-1 (sorted by value, best first) while 2 v > best,
    or until best >= enough. Returns (best, index of the first candidate not reached, or -1
    when none is needed)."""
    for i in range(start, stop):
        v = vals[i]
        if 2 * v <= best or best >= enough:
            return best, -1  # no remaining row partition can do better
        cols, arg = best_columns(parts[i], val, best - v + 1)
        if cols >= 0:
            best = v + cols
            best_rows[:] = parts[i]
            best_arg[:] = arg
    return best, stop


@njit(cache=True)
def prepare(cards, starter, table, floor):
    """Group values, the heuristic grid and its score, and the candidate row partitions that
    could still beat max(heuristic, floor - 1), sorted best first."""
    val = group_values(cards, starter, table)
    best_of = best_partition_values(val)
    _, top, _ = partitions_at_least(val, best_of, best_of[FULL], 1)
    grid, h = improve_by_swaps(grid_of(top[0], best_columns(top[0], val, 0)[1]), val)
    threshold = max(h, floor - 1) // 2 + 1
    limit = 4096
    while True:
        n, parts, vals = partitions_at_least(val, best_of, threshold, limit)
        if n >= 0:
            break
        limit *= 8
    order = np.argsort(-vals, kind="mergesort")
    return val, grid, h, parts[order], vals[order]


@njit(cache=True)
def solve_deal(cards, starter, table, floor):
    """Exact search in one go; points exclude heels. Returns (best, grid, heuristic).
    floor = 0: best is the optimum. floor > 0 (only winning matters): best >= floor means a
    grid worth best (not always the optimum) exists; best < floor proves none reaches floor."""
    if floor > 0:
        val, grid, h, parts, vals = prepare(cards, starter, table, floor)
        if h >= floor:
            return h, grid, h
    else:
        val, grid, h, parts, vals = prepare(cards, starter, table, 0)
    best0 = max(h, floor - 1)
    rows = np.zeros(4, dtype=np.int64)
    arg = np.zeros(3, dtype=np.int64)
    best, _ = search(
        parts, vals, 0, parts.shape[0], val, best0, rows, arg, floor if floor > 0 else 1 << 30
    )
    if best > best0:
        grid = grid_of(rows, arg)
    return max(best, h), grid, h


@njit(cache=True, parallel=True)
def solve_many(deals, table, target):
    """For each row of deals (16 grid cards, then the starter), over threads: the total
    (heels included) of the exact search and of the heuristic start. With target > 0 only
    reaching target matters (solve_deal's floor), so a total >= target may not be optimal."""
    n = deals.shape[0]
    best = np.empty(n, dtype=np.int64)
    heur = np.empty(n, dtype=np.int64)
    for i in prange(n):
        heels = 2 * (RANK[deals[i, 16]] == JACK)
        b, _, h = solve_deal(
            deals[i, :16], deals[i, 16], table, max(0, target - heels) if target > 0 else 0
        )
        best[i] = b + heels
        heur[i] = h + heels
    return best, heur


CHUNK = 256


class Solution:
    """The best grid found for a deal, with the bound that proves (or limits) it."""

    def __init__(self, cards, starter, grid, val, heels, upper_bound, seconds, heuristic):
        self.starter, self.heels = int(starter), heels
        self.grid = [int(c) for c in np.asarray(cards)[grid]]  # 16 card ids, row-major
        self.rows = [int(val[sum(1 << int(grid[4 * i + j]) for j in range(4))]) for i in range(4)]
        self.columns = [
            int(val[sum(1 << int(grid[4 * j + i]) for j in range(4))]) for i in range(4)
        ]
        self.total = sum(self.rows) + sum(self.columns) + heels
        self.upper_bound = int(upper_bound)  # heels included
        self.optimal = self.upper_bound == self.total
        self.seconds = seconds
        self.heuristic = heuristic  # the starting total (heels included)


def solve(cards, starter, time_limit: float | None = None) -> Solution:
    """The best arrangement of 16 card ids around ``starter``, proven unless time runs out
    (``time_limit`` and the solution's ``seconds`` count the search, not the compilation)."""
    import time

    from cribsolve.core.scoring.table import rank_table

    cards, table = np.asarray(cards, dtype=np.int64), rank_table(15)
    rows = np.zeros(4, dtype=np.int64)
    arg = np.zeros(3, dtype=np.int64)
    # The kernels compile (or load) before the clock starts: a floor no grid reaches keeps
    # this first pass short, and an empty range searches nothing.
    val, _, _, parts, vals = prepare(cards, starter, table, 1 << 30)
    search(parts, vals, 0, 0, val, 0, rows, arg, 1 << 30)
    t0 = time.perf_counter()
    val, grid, h, parts, vals = prepare(cards, starter, table, 0)
    best = int(h)
    start = 0
    while 0 <= start < len(parts):
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            break
        new, start = search(
            parts, vals, start, min(len(parts), start + CHUNK), val, best, rows, arg, 1 << 30
        )
        if new > best:
            best = new
            grid = grid_of(rows, arg)
    upper = max(best, 2 * int(vals[start])) if 0 <= start < len(parts) else best
    heels = 2 * int(RANK[starter] == JACK)
    return Solution(
        cards, starter, grid, val, heels, upper + heels, time.perf_counter() - t0, int(h) + heels
    )
