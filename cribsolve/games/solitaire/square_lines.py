"""Cribbage Square's grid and its eight lines (rules: docs/RULES.md §4): the exact expected
final score of each place for the card in hand, the rest of the grid filled at random, which
the ev and lookahead policies (square.py) and best-place (square_advice.py) rank moves by; and
the score of a full grid.

The score is a sum over lines, so the expectation is one per line; a line's rank part is an
average over the rank multisets of its missing cards and the starter, its flush and nobs are in
closed form (fastev's crib method). The look-ahead wants a line's rank part for every card the
next may be: one pass gives all thirteen ranks (next_rank_parts). Every weight is a whole
number and every sum stays far below 2^53, so these sums are exact in any order, and the
values are the same to the last bit as card-by-card place_values.
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
    """Every multiset of 1 to 5 ranks (1..13) as a sorted row padded with 0, rows of size d
    at START[d]:START[d+1]; for row t: PREFIX[t], the row of all its entries but the last (for
    none, the row after the last, which pool_weights sets to 1); LAST[t], 5 x its last rank +
    how many of its other entries equal that rank; TAIL[t], its entries' part of a table
    index (the table is indexed in base N_RANKS)."""
    rows, prefix, last, tail, start, where = [], [], [], [], [0, 0], {(): -1}
    for d in range(1, 6):
        for t in combinations_with_replacement(range(1, 14), d):
            where[t] = len(rows)
            rows.append(list(t) + [0] * (5 - d))
            prefix.append(where[t[:-1]])
            last.append(5 * t[-1] + t[:-1].count(t[-1]))
            tail.append(sum(r * N_RANKS ** (d - 1 - j) for j, r in enumerate(t)))
        start.append(len(rows))
    prefix = [len(rows) if p < 0 else p for p in prefix]
    return tuple(np.array(x, dtype=np.int64) for x in (rows, prefix, last, tail, start))


MULTISETS, PREFIX, LAST, TAIL, START = _multisets()


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
    return n, u, n.sum(), jack_pairs(seen, u)


@njit(cache=True)
def jack_pairs(seen, u):
    """pool_counts' njack from the unseen cards by suit."""
    njack = 0
    for s in range(4):
        if not seen[4 * (JACK - 1) + s]:
            njack += u[s] - 1
    return njack


@njit(cache=True)
def _flush(us, k, total):
    """E[flush points] of a line whose k missing cards must all come from the us unseen cards
    of its suit, out of ``total`` unseen; the starter then matches or not."""
    return _choose(us, k) / _choose(total, k) * (4.0 + (us - k) / (total - k))


@njit(cache=True)
def pool_weights(n, size):
    """For each rank multiset (row of MULTISETS) of up to ``size`` ranks, the ways to draw it
    from the unseen cards (``n`` by rank): the product over its ranks r of C(n[r], its count
    of r), 0 where the pool lacks it. Each row is its prefix's product times C(n[r], k) /
    C(n[r], k - 1) for its last rank r, its k-th; every line of a pool shares them, and the
    rows of more ranks are left unset. Each is a whole number, exactly (a test tries every
    pool), so rank_part's sums are exact whatever their order."""
    factor = np.zeros(5 * N_RANKS)
    for r in range(1, N_RANKS):
        for k in range(n[r]):
            factor[5 * r + k] = (n[r] - k) / (k + 1.0)
    w = np.empty(MULTISETS.shape[0] + 1)
    w[-1] = 1.0  # the empty multiset, every single rank's prefix
    for t in range(START[size + 1]):  # a prefix comes before its rows
        w[t] = w[PREFIX[t]] * factor[LAST[t]]
    return w


@njit(cache=True)
def rank_part(known, m, weights, table):
    """The part of expected_line that sees ranks only: over the rank multisets of the 5 - m
    cards drawn (the missing ones and the starter), their ways (pool_weights) times the
    line's rank points."""
    d = 5 - m
    idx0 = 0
    for j in range(m):
        idx0 = idx0 * N_RANKS + RANK[known[j]]
    idx0 *= N_RANKS**d
    ranks = 0.0  # the table is symmetric: the starter's place is immaterial
    for t in range(START[d], START[d + 1]):
        if weights[t] > 0.0:
            ranks += weights[t] * table[idx0 + TAIL[t]]
    return ranks


@njit(cache=True)
def next_rank_parts(known, m, n, weights, table):
    """rank_part of a line as it is, and with the next card in it, for a next card of each
    rank r (entries r of the two arrays; 0 for a rank none of whose cards is unseen), the
    pool then less one r. One pass over the pool's multisets s gives them all: with one r
    fewer, s has (n[r] - k) / n[r] of its ways (k: its count of r), and the line with r in it
    draws the rest of s in k / n[r] of them. Every term is a whole number, so the sums are
    exact and equal rank_part's with the smaller pool."""
    d = 5 - m
    idx0 = 0
    for j in range(m):
        idx0 = idx0 * N_RANKS + RANK[known[j]]
    idx0 *= N_RANKS**d
    everything = 0.0
    holding = np.zeros(N_RANKS)  # for each r: sum of k x ways x points over the s holding r
    for t in range(START[d], START[d + 1]):
        if weights[t] > 0.0:
            v = weights[t] * table[idx0 + TAIL[t]]
            everything += v
            for j in range(d):
                holding[MULTISETS[t, j]] += v
    without = np.zeros(N_RANKS)
    with_next = np.zeros(N_RANKS)
    for r in range(1, N_RANKS):
        if n[r]:
            with_next[r] = holding[r] / n[r]
            without[r] = everything - with_next[r]
    return without, with_next


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
    return finish_line(
        rank_part(known, m, pool_weights(n, 5 - m), table), known, m, u, total, njack
    )


@njit(cache=True)
def line_cards(grid, line, known):
    """Fill known[:m] with the cards of a line, in cell order; returns m."""
    m = 0
    for j in range(4):
        c = grid[LINES[line, j]]
        if c >= 0:
            known[m] = c
            m += 1
    return m


@njit(cache=True)
def grid_lines(grid):
    """Each line's cards (line_cards: row ``line``, the first counts[line] entries; the rest
    of the row is scratch for finish_lines) and their number."""
    cards = np.empty((8, 4), dtype=np.int64)
    counts = np.empty(8, dtype=np.int64)
    for line in range(8):
        counts[line] = line_cards(grid, line, cards[line])
    return cards, counts


@njit(cache=True)
def first_blank(counts, line):
    """The first line before ``line`` that is empty when ``line`` is (its expectations are
    the same), or -1."""
    if counts[line]:
        return -1
    for b in range(line):
        if counts[b] == 0:
            return b
    return -1


@njit(cache=True)
def share_blanks(counts, without, with_card):
    """Give each empty line the values of the first empty line."""
    for line in range(8):
        b = first_blank(counts, line)
        if b >= 0:
            without[line], with_card[line] = without[b], with_card[b]


@njit(cache=True)
def _rank_pair(known, m, card, weights, table):
    """rank_part of a line as it is and with ``card`` added (as it is when full)."""
    without = rank_part(known, m, weights, table)
    if m == 4:
        return without, without
    known[m] = card  # a spare place of the row
    return without, rank_part(known, m + 1, weights, table)


@njit(cache=True)
def _finish_pair(known, m, card, ranks, ranks_with, u, total, njack):
    """finish_line of a line as it is and with ``card`` added (as it is when full)."""
    without = finish_line(ranks, known, m, u, total, njack)
    if m == 4:
        return without, without
    known[m] = card
    return without, finish_line(ranks_with, known, m + 1, u, total, njack)


@njit(cache=True)
def grid_ranks(cards, counts, card, weights, table):
    """Each line's rank_part as it is and with ``card`` added."""
    without = np.empty(8)
    with_card = np.empty(8)
    for line in range(8):
        if first_blank(counts, line) < 0:
            without[line], with_card[line] = _rank_pair(
                cards[line], counts[line], card, weights, table
            )
    share_blanks(counts, without, with_card)
    return without, with_card


@njit(cache=True)
def finish_lines(card, ranks, ranks_with, n, u, total, njack, cards, counts, without, with_card):
    """Each line's expectation as it is and with ``card`` in it (into the last two arrays),
    from the grid's line ranks (grid_ranks), the pool's counts and the grid's lines
    (grid_lines). Returns kept_out: the lines' sum, and 2 for a jack turned up."""
    for line in range(8):
        if first_blank(counts, line) < 0:
            without[line], with_card[line] = _finish_pair(
                cards[line], counts[line], card, ranks[line], ranks_with[line], u, total, njack
            )
    share_blanks(counts, without, with_card)
    return without.sum() + 2.0 * n[JACK] / total


@njit(cache=True)
def cell_value(kept_out, without, with_card, i):
    """The expectation with the card in cell i: only its row and column change."""
    r, c = i // 4, 4 + i % 4
    return kept_out + with_card[r] - without[r] + with_card[c] - without[c]


@njit(cache=True)
def place_values(grid, card, seen, table):
    """(values, kept_out): the expected final score with ``card`` in each empty cell (-inf for
    a full one), and with it kept out of the grid; the rest filled at random from the unseen
    cards. ``seen`` must hold ``card``. Only the card's row and column change, so it takes two
    expectations per line, and lines without a card share theirs."""
    n, u, total, njack = pool_counts(seen)
    cards, counts = grid_lines(grid)
    weights = pool_weights(n, 5 - counts.min())
    ranks, ranks_with = grid_ranks(cards, counts, card, weights, table)
    without = np.empty(8)
    with_card = np.empty(8)
    kept_out = finish_lines(
        card, ranks, ranks_with, n, u, total, njack, cards, counts, without, with_card
    )
    values = np.full(16, -np.inf)
    for i in range(16):
        if grid[i] < 0:
            values[i] = cell_value(kept_out, without, with_card, i)
    return values, kept_out


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
