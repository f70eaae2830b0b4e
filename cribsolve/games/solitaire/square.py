"""Cribbage Square (PySolFC 805-808; rules: docs/RULES.md §4): its policies, their games, the
chunks ``simulate`` runs, and ``bracket``'s Square side (the best policy below the clairvoyant
bound).

The policies see what a player sees, never the next card or the starter: ``random`` fills
empty cells at random; ``ev`` makes the move of the highest exact expected final score
(square_lines.place_values), a pile included (808's moves from pile to pile are never made);
``lookahead`` plays the next card as ev would, over every card it may be, among ev's best
LOOKAHEAD_TOP moves; ``clairvoyant`` (805) is Shuffle's proven optimum on the same cards.
Simulated decks are Shuffle's, so a seed deals Square the same 16 cards and starter as
Shuffle. Measurements and history: docs/research.md.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.cards import RANK, SUIT
from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.games.solitaire.facts import PILE_CARDS, SOLITAIRES, SQUARES
from cribsolve.games.solitaire.square_lines import (
    cell_value,
    finish_lines,
    first_blank,
    grid_lines,
    grid_points,
    jack_pairs,
    line_cards,
    next_rank_parts,
    place_values,
    pool_counts,
    pool_weights,
)
from cribsolve.infra.jit import njit, prange

RANDOM, EV, LOOKAHEAD = 0, 1, 2
POLICIES = {"random": RANDOM, "ev": EV, "lookahead": LOOKAHEAD}  # clairvoyant: Shuffle's
LOOKAHEAD_TOP = 3  # the look-ahead weighs ev's best 3 moves (6 measured no better)
WIN_AT = SOLITAIRES["square"].win_at
EMPTY = -1
TALON, PILE = -1, 16  # a move's source (or pile q), and target PILE + q for a pile
MAX_MOVES = 16 + 2 * 16  # more than a game can make: a card moves at most twice


@njit(cache=True)
def _empty_cell(grid, k):
    """The k-th empty cell (0-based), row by row."""
    for i in range(16):
        if grid[i] < 0:
            if k == 0:
                return i
            k -= 1
    return -1


@njit(cache=True)
def _log(log, moves, source, card, target):
    if moves < log.shape[0]:
        log[moves, 0], log[moves, 1], log[moves, 2] = source, card, target
    return moves + 1


@njit(cache=True)
def _ev_move(grid, c, seen, pile, size, piles, waste, table):
    """ev's move with ``c`` in hand: (move, cell, p, values, kept_out); move 0 puts c into
    ``cell``, 1 onto pile ``p`` (the emptier open one), 2 + q brings pile q's top to ``cell``;
    values and kept_out are place_values' for c."""
    values, kept_out = place_values(grid, c, seen, table)
    cell = np.argmax(values)
    best = values[cell]
    move = 0
    p = -1
    for q in range(piles):
        if size[q] < PILE_CARDS and (p < 0 or size[q] < size[p]):
            p = q
    if p >= 0 and kept_out > best:
        best, move = kept_out, 1
    if not waste:
        for q in range(piles):
            if size[q]:
                v, _ = place_values(grid, pile[q, size[q] - 1], seen, table)
                i = np.argmax(v)
                if v[i] > best:
                    best, move, cell = v[i], 2 + q, i
    return move, cell, p, values, kept_out


@njit(cache=True)
def _next_ranks(cards, counts, n, table):
    """Each line's rank parts (as grid_ranks gives them) for a next card of each rank r, in
    row r of the two arrays: the pool it leaves is ``n`` less one card of r, whichever its
    suit. Also the pool_weights of ``n`` they came from. The grid comes as its grid_lines."""
    ranks = np.empty((N_RANKS, 8))
    ranks_with = np.empty((N_RANKS, 8))
    weights = pool_weights(n, 5 - counts.min())
    for line in range(8):
        b = first_blank(counts, line)
        if b < 0:
            ranks[:, line], ranks_with[:, line] = next_rank_parts(
                cards[line], counts[line], n, weights, table
            )
        else:
            ranks[:, line], ranks_with[:, line] = ranks[:, b], ranks_with[:, b]
    return ranks, ranks_with, weights


@njit(cache=True)
def _with_cell(grid, cell, n, table, ranks, ranks_with, weights):
    """_next_ranks after a card went into ``cell``, from the arrays before it: only the
    cell's row and column change."""
    ranks, ranks_with = ranks.copy(), ranks_with.copy()
    known = np.empty(4, dtype=np.int64)
    for line in (cell // 4, 4 + cell % 4):
        m = line_cards(grid, line, known)
        ranks[:, line], ranks_with[:, line] = next_rank_parts(known, m, n, weights, table)
    return ranks, ranks_with


@njit(cache=True)
def _best_next(grid, seen, size, piles, ranks, ranks_with):
    """The best exact expectation the next card can be given, averaged over the unseen cards
    it may be: E over d of the highest place_values of d, or its kept_out when a pile has
    room (a reserve's card coming back is not counted: a slightly low value). The line ranks
    come from _next_ranks, so each rank's expectations are worked out once for its suits."""
    room = False
    for q in range(piles):
        room = room or size[q] < PILE_CARDS
    n, u, left, _ = pool_counts(seen)
    cards, counts = grid_lines(grid)
    without = np.empty(8)
    with_card = np.empty(8)
    total, count = 0.0, 0
    for d in range(52):
        if seen[d]:
            continue
        seen[d] = True
        n[RANK[d]] -= 1
        u[SUIT[d]] -= 1
        kept_out = finish_lines(
            d,
            ranks[RANK[d]],
            ranks_with[RANK[d]],
            n,
            u,
            left - 1,
            jack_pairs(seen, u),
            cards,
            counts,
            without,
            with_card,
        )
        best = kept_out if room else -np.inf
        for i in range(16):
            if grid[i] < 0:
                best = max(best, cell_value(kept_out, without, with_card, i))
        total += best
        count += 1
        seen[d] = False
        n[RANK[d]] += 1
        u[SUIT[d]] += 1
    return total / count


@njit(cache=True)
def lookahead_values(grid, c, seen, size, piles, values, kept_out, p, table, top):
    """(options, their values) of LOOKAHEAD for ``c`` in hand: ev's ``top`` best moves (the
    policy weighs LOOKAHEAD_TOP) by exact expectation (cells, or PILE + p for the open pile p),
    in that order (ties as they come, so argmax picks as ev would), each valued
    by the expectation after the next card is played as well as it can be (_best_next), or by
    its exact expectation when it fills the grid. ``seen`` must hold c; it is left as given."""
    n_opt = 0
    opts = np.empty(17, dtype=np.int64)
    vals = np.empty(17)
    for i in range(16):
        if grid[i] < 0:
            opts[n_opt], vals[n_opt] = i, values[i]
            n_opt += 1
    if p >= 0:
        opts[n_opt], vals[n_opt] = PILE + p, kept_out
        n_opt += 1
    order = np.argsort(-vals[:n_opt], kind="mergesort")  # stable: ev's option first
    k = min(top, n_opt)
    out_opts = opts[order[:k]]
    out_vals = vals[order[:k]]
    last = n_opt - (p >= 0) == 1  # one empty cell: filling it, nothing follows
    if last and p < 0:
        return out_opts, out_vals
    n = pool_counts(seen)[0]
    ranks, ranks_with, weights = _next_ranks(*grid_lines(grid), n, table)
    for j in range(k):
        o = out_opts[j]
        if o < PILE:
            if last:
                continue
            grid[o] = c
            r, rw = _with_cell(grid, o, n, table, ranks, ranks_with, weights)
            out_vals[j] = _best_next(grid, seen, size, piles, r, rw)
            grid[o] = EMPTY
        else:
            size[p] += 1
            out_vals[j] = _best_next(grid, seen, size, piles, ranks, ranks_with)
            size[p] -= 1
    return out_opts, out_vals


@njit(cache=True)
def play_on(grid, seen, pile, size, talon, starter, piles, waste, policy, rand, table, log):
    """Play a game on from its state (changed in place) to the full grid; returns the final
    score. grid: 16 cells (EMPTY or a card); seen: the cards the player has seen; pile[q, :
    size[q]]: pile q bottom to top; talon: the cards still to come, in order; rand: a uniform
    per card for RANDOM. Each move goes into the rows of ``log`` (if it has any) as (from:
    TALON or pile q, card, to: a cell or PILE + q); the rest of its rows are left as they were."""
    moves = 0
    placed = 0
    for i in range(16):
        placed += grid[i] >= 0
    pos = 0
    while placed < 16:
        c = talon[pos]
        seen[c] = True
        if policy == RANDOM:
            cell = _empty_cell(grid, int(rand[pos] * (16 - placed)))
            grid[cell] = c
            moves = _log(log, moves, TALON, c, cell)
            placed += 1
            pos += 1
            continue
        move, cell, p, values, kept_out = _ev_move(grid, c, seen, pile, size, piles, waste, table)
        if policy == LOOKAHEAD and move < 2:  # a pile's top comes back as ev decides
            opts, vals = lookahead_values(
                grid, c, seen, size, piles, values, kept_out, p, table, LOOKAHEAD_TOP
            )
            o = opts[np.argmax(vals)]
            move, cell = (1, -1) if o >= PILE else (0, o)
        moves, placed, pos = _apply(grid, pile, size, c, move, cell, p, log, moves, placed, pos)
    return grid_points(grid, starter, table)


@njit(cache=True)
def _apply(grid, pile, size, c, move, cell, p, log, moves, placed, pos):
    """Make a move of _ev_move's kinds; returns moves, placed and pos (the talon's next card)
    updated. A card back from a pile leaves ``c`` still in hand."""
    if move >= 2:
        q = move - 2
        size[q] -= 1
        grid[cell] = pile[q, size[q]]
        return _log(log, moves, q, grid[cell], cell), placed + 1, pos
    if move == 1:
        pile[p, size[p]] = c
        size[p] += 1
        return _log(log, moves, TALON, c, PILE + p), placed, pos + 1
    grid[cell] = c
    return _log(log, moves, TALON, c, cell), placed + 1, pos + 1


@njit(cache=True)
def play_square(deck, dealt, piles, waste, policy, rand, table):
    """One game from a shuffled deck: talon deck[:dealt], starter deck[dealt]."""
    grid = np.full(16, EMPTY, dtype=np.int64)
    seen = np.zeros(52, dtype=np.bool_)
    pile = np.empty((2, PILE_CARDS), dtype=np.int64)
    size = np.zeros(2, dtype=np.int64)
    return play_on(
        grid,
        seen,
        pile,
        size,
        deck[:dealt],
        deck[dealt],
        piles,
        waste,
        policy,
        rand,
        table,
        np.empty((0, 3), dtype=np.int64),
    )


@njit(cache=True, parallel=True)
def play_games(decks, dealt, piles, waste, policy, rand, table):
    """Final scores of every game (rows of ``decks``), games spread over threads."""
    out = np.empty(decks.shape[0], dtype=np.int64)
    for g in prange(decks.shape[0]):
        out[g] = play_square(decks[g], dealt, piles, waste, policy, rand[g], table)
    return out


def chunk_points(
    variant: str, policy: str, seed: int, index: int, games: int, wins=None, win_only: bool = False
) -> np.ndarray:
    """Final scores of the ``games`` games of chunk ``index`` as a (games, 1) array: the decks
    are simulate.py's for Shuffle (numpy seeded with [seed, index]), then a uniform per card.
    (``wins``, the Patience win table of simulate.chunk_points, is not used.)"""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire import shuffle

    sq = SQUARES[variant]
    rng = np.random.default_rng([seed, index])
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (games, 1)), axis=1)
    if policy == "clairvoyant":
        best, _ = shuffle.solve_many(
            decks[:, :17], rank_table(15), shuffle.WIN_AT if win_only else 0
        )
        return best[:, None]
    rand = rng.random((games, sq.dealt))
    return play_games(decks, sq.dealt, sq.piles, sq.waste, POLICIES[policy], rand, rank_table(15))[
        :, None
    ]


def simulate(
    variant: str,
    policy: str | None,
    n: int,
    seed: int = 0,
    jobs: int | None = None,
    progress=None,
    win_only: bool = False,
    where=None,
    checkpoint: str | None = None,
):
    """simulate.simulate for a Cribbage Square: the same seeded chunks, played here."""
    from cribsolve.games.solitaire import simulate as sim

    return sim.simulate(
        variant, policy, n, seed, jobs, progress, win_only, where, checkpoint, points=chunk_points
    )


def bracket(n: int, seed: int = 0, jobs: int | None = None, progress=None) -> dict:
    """Where optimal Cribbage Square (805) play wins, on ``n`` of simulate's decks for
    ``seed``: at least the best policy's win rate (lookahead; ev is played too and the paired
    gain given), at most the clairvoyant bound's (Shuffle decided at 61 on the same 16 cards
    and starter). Every game a policy wins the bound wins too (tested), so the width is the
    share of decks only clairvoyance wins; the intervals of width and gain are the normal ones
    of the paired differences."""
    from cribsolve.infra.jit import set_threads
    from cribsolve.infra.runner import chunks
    from cribsolve.infra.stats import wilson

    set_threads(jobs)
    best = SOLITAIRES["square"].best
    wins = {best: 0, "ev": 0, "clairvoyant": 0}
    sums = {"width": [0, 0], "gain": [0, 0]}  # paired differences: sum, sum of squares
    for index, games in chunks(n, SOLITAIRES["square"].chunk):
        w = {
            p: chunk_points("square", p, seed, index, games, None, p == "clairvoyant")[:, 0]
            >= WIN_AT
            for p in wins
        }
        for p in wins:
            wins[p] += int(w[p].sum())
        for key, d in (
            ("width", w["clairvoyant"].astype(int) - w[best]),
            ("gain", w[best].astype(int) - w["ev"]),
        ):
            sums[key][0] += int(d.sum())
            sums[key][1] += int((d * d).sum())
        if progress:
            progress(games)
    out = {
        "variant": "square",
        "n": n,
        "seed": seed,
        "policy": best,
        "win_rate": wins[best] / n,
        "win_rate_ci": list(wilson(wins[best], n)),
        "ev_rate": wins["ev"] / n,
        "ev_rate_ci": list(wilson(wins["ev"], n)),
        "clairvoyant": wins["clairvoyant"] / n,
        "clairvoyant_ci": list(wilson(wins["clairvoyant"], n)),
    }
    for key, (total, squares) in sums.items():
        mean = total / n
        var = max(0.0, squares / n - mean * mean) * n / max(1, n - 1)
        half = 1.959964 * (var / n) ** 0.5
        out[key], out[key + "_ci"] = mean, [mean - half, mean + half]
    return out
