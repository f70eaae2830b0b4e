"""Cribbage Square's grid and its eight lines (rules: docs/RULES.md §4): the exact expected
final score of each place for the card in hand, the rest of the grid filled at random, which
the ev and lookahead policies (square.py) and best-place (square_advice.py) rank moves by; and
the score of a full grid.

The score is a sum over lines, so the expectation is one per line; a line's rank part is an
average over the rank multisets of its missing cards and the starter, its flush and nobs are in
closed form (fastev's crib method).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from cribsolve.core.cards import JACK, RANK, SUIT
from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.core.scoring.table import score5
from cribsolve.infra.jit import njit

# The 8 lines (rows 0-3, then columns 0-3) as cell indices; the grid is read row by row.
LINES = np.array(
    [[4 * i + j for j in range(4)] for i in range(4)]
    + [[4 * j + i for j in range(4)] for i in range(4)],
    dtype=np.int64,
)


def _multisets():
    """Every multiset of 1 to 5 ranks (1..13) as a sorted row padded with 0; REPEATS[t, j]:
    how many earlier entries of row t equal entry j; rows of size d are START[d]:START[d+1]."""
    rows, reps, start = [], [], [0, 0]
    for d in range(1, 6):
        for t in combinations_with_replacement(range(1, 14), d):
            rows.append(list(t) + [0] * (5 - d))
            reps.append([t[:j].count(t[j]) for j in range(d)] + [0] * (5 - d))
        start.append(len(rows))
    return (
        np.array(rows, dtype=np.int64),
        np.array(reps, dtype=np.int64),
        np.array(start, dtype=np.int64),
    )


MULTISETS, REPEATS, START = _multisets()


@njit(cache=True)
def _choose(n, k):
    """C(n, k) as a float (0 when k > n)."""
    if k > n:
        return 0.0
    c = 1.0
    for i in range(k):
        c = c * (n - i) / (i + 1)
    return c


@njit(cache=True)
def pool_counts(seen):
    """The unseen cards by rank (n) and suit (u), their number N, and njack: over the unseen
    jacks, the other unseen cards of their suit (for nobs from a missing card)."""
    n = np.zeros(N_RANKS, dtype=np.int64)
    u = np.zeros(4, dtype=np.int64)
    for c in range(52):
        if not seen[c]:
            n[RANK[c]] += 1
            u[SUIT[c]] += 1
    njack = 0
    for c in range(52):
        if not seen[c] and RANK[c] == JACK:
            njack += u[SUIT[c]] - 1
    return n, u, n.sum(), njack


@njit(cache=True)
def _flush(us, k, total):
    """E[flush points] of a line whose k missing cards must all come from the us unseen cards
    of its suit, out of ``total`` unseen; the starter then matches or not."""
    return _choose(us, k) / _choose(total, k) * (4.0 + (us - k) / (total - k))


@njit(cache=True)
def rank_part(known, m, n, table):
    """The part of expected_line that sees ranks only: over the rank multisets of the 5 - m
    cards drawn (the missing ones and the starter), their ways out of the unseen ranks ``n``
    times the line's rank points. The same for every unseen card of a rank (_best_next)."""
    d = 5 - m
    idx0 = 0
    for j in range(m):
        idx0 = idx0 * N_RANKS + RANK[known[j]]
    ranks = 0.0  # the table is symmetric: the starter's place is immaterial
    for t in range(START[d], START[d + 1]):
        w = 1.0
        idx = idx0
        for j in range(d):
            r = MULTISETS[t, j]
            a = n[r] - REPEATS[t, j]
            if a <= 0:
                w = 0.0
                break
            w *= a / (REPEATS[t, j] + 1.0)
            idx = idx * N_RANKS + r
        if w > 0.0:
            ranks += w * table[idx]
    return ranks


@njit(cache=True)
def finish_line(ranks, known, m, u, total, njack):
    """expected_line from its rank_part: the mean of the rank points, then flush and nobs."""
    ev = ranks / _choose(total, 5 - m)
    k = 4 - m
    if m == 0:
        for s in range(4):
            ev += _flush(u[s], k, total)
    else:
        s = SUIT[known[0]]
        same = True
        for j in range(1, m):
            same = same and SUIT[known[j]] == s
        if same:
            ev += _flush(u[s], k, total)
    for j in range(m):  # our jacks: the starter has their suit
        if RANK[known[j]] == JACK:
            ev += u[SUIT[known[j]]] / total
    if k:  # a missing jack, the starter its suit
        ev += k * njack / (total * (total - 1.0))
    return ev


@njit(cache=True)
def expected_line(known, m, n, u, total, njack, table):
    """E[points] of a line holding known[:m], its 4 - m other cards and the starter drawn
    without replacement from the ``total`` unseen cards (counts from pool_counts)."""
    return finish_line(rank_part(known, m, n, table), known, m, u, total, njack)


@njit(cache=True)
def _line_cards(grid, line, known):
    """Fill known[:m] with the cards of a line, in cell order; returns m."""
    m = 0
    for j in range(4):
        c = grid[LINES[line, j]]
        if c >= 0:
            known[m] = c
            m += 1
    return m


@njit(cache=True)
def line_ranks(grid, line, card, n, table):
    """The rank_part of a line as it is and with ``card`` added (as it is when full)."""
    known = np.empty(4, dtype=np.int64)
    m = _line_cards(grid, line, known)
    without = rank_part(known, m, n, table)
    if m == 4:
        return without, without
    known[m] = card
    return without, rank_part(known, m + 1, n, table)


@njit(cache=True)
def grid_ranks(grid, card, n, table):
    """line_ranks of the 8 lines (rows 0-3, then columns); the empty lines share theirs."""
    without = np.empty(8)
    with_card = np.empty(8)
    blank = -1
    for line in range(8):
        empty = True
        for j in range(4):
            empty = empty and grid[LINES[line, j]] < 0
        if empty and blank >= 0:
            without[line], with_card[line] = without[blank], with_card[blank]
            continue
        without[line], with_card[line] = line_ranks(grid, line, card, n, table)
        if empty:
            blank = line
    return without, with_card


@njit(cache=True)
def finish_values(grid, card, ranks, ranks_with, n, u, total, njack):
    """place_values from the grid's line ranks (grid_ranks) and the pool's counts."""
    without = np.empty(8)
    with_card = np.empty(8)
    known = np.empty(4, dtype=np.int64)
    for line in range(8):
        m = _line_cards(grid, line, known)
        without[line] = finish_line(ranks[line], known, m, u, total, njack)
        with_card[line] = without[line]
        if m < 4:
            known[m] = card
            with_card[line] = finish_line(ranks_with[line], known, m + 1, u, total, njack)
    kept_out = without.sum() + 2.0 * n[JACK] / total
    values = np.full(16, -np.inf)
    for i in range(16):
        if grid[i] < 0:
            r, c = i // 4, 4 + i % 4
            values[i] = kept_out + with_card[r] - without[r] + with_card[c] - without[c]
    return values, kept_out


@njit(cache=True)
def place_values(grid, card, seen, table):
    """(values, kept_out): the expected final score with ``card`` in each empty cell (-inf for
    a full one), and with it kept out of the grid; the rest filled at random from the unseen
    cards. ``seen`` must hold ``card``. Only the card's row and column change, so it takes two
    expectations per line, and lines without a card share theirs."""
    n, u, total, njack = pool_counts(seen)
    ranks, ranks_with = grid_ranks(grid, card, n, table)
    return finish_values(grid, card, ranks, ranks_with, n, u, total, njack)


@njit(cache=True)
def grid_points(grid, starter, table):
    """The final score of a full grid: rows + columns with the starter, + 2 for a jack. Eight
    lookups of the core scorer; Shuffle's grid_score reads a table of all 1,820 groups of its
    16 cards, worth building for a search but not for one grid (a test holds them equal)."""
    t = 2 * (RANK[starter] == JACK)
    for line in range(8):
        t += score5(
            table,
            grid[LINES[line, 0]],
            grid[LINES[line, 1]],
            grid[LINES[line, 2]],
            grid[LINES[line, 3]],
            starter,
            False,
        )
    return t


@njit(cache=True)
def line_points(grid, starter, table):
    """The points of each of the 8 lines of a full grid (rows, then columns), heels apart."""
    out = np.empty(8, dtype=np.int64)
    for line in range(8):
        out[line] = score5(
            table,
            grid[LINES[line, 0]],
            grid[LINES[line, 1]],
            grid[LINES[line, 2]],
            grid[LINES[line, 3]],
            starter,
            False,
        )
    return out
