"""PySolFC's Cribbage Square (games 805-808), docs/RULES.md §4.

The talon's cards come one at a time, each into an empty cell of the 4 x 4 grid (806-808: or
onto a pile beside it, which in 807-808 gives its top card back to the grid later); the game
ends when the grid is full. The starter is the talon's last card whatever was dealt before it,
and the score is Shuffle's: the 4 rows and 4 columns, each with the starter, plus 2 for a jack
starter. Simulated decks are Shuffle's (simulate.py): the talon is deck[:dealt] and the starter
deck[dealt], so a seed deals Square the same 16 cards and starter as Shuffle.

Policies (what the player knows: the cards seen, never the next card or the starter):
  RANDOM       each card into a uniformly chosen empty cell; the piles stay unused.
  EV           greedy: the move after which the expected final score is highest, the empty
               cells then filled at random from the unseen cards. The score is a sum over
               lines, so the expectation is one per line, and a line's depends only on its
               cards, how many it lacks and the unseen cards' ranks and suits: its rank part
               is an average over the rank multisets of the missing cards and the starter (at
               most 6,188 of them), flush and nobs are in closed form (fastev's crib method,
               from two missing cards to any number). Exact, so no seed and no noise. A card
               goes onto a pile (the emptier one) when keeping it out of the grid is worth
               more than every cell; a pile's top card goes to the grid when that is worth
               most. Cards are never moved from pile to pile (808 allows it).
  LOOKAHEAD    each talon card goes where the expected final score is highest once the next
               card is placed as ev places it: an exact expectimax over every unseen
               card the next may be, of ev's best 3 moves (a reserve's top comes back as ev
               decides). ev is myopic, as if the later cards were dropped at random; this sees
               one card further, at about 100 times ev's time; measured stronger (README).
  CLAIRVOYANT  (805) knowing the 16 cards and the starter, every grid can be built: the bound
               is Shuffle's proven optimum (shuffle.solve_many), not a new search.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from cribsolve.core.cards import JACK, RANK, SUIT
from cribsolve.core.scoring.kernels import N_RANKS
from cribsolve.core.scoring.table import score5
from cribsolve.games.solitaire.facts import PILE_CARDS, SOLITAIRES, SQUARES
from cribsolve.infra.jit import njit, prange

RANDOM, EV, LOOKAHEAD = 0, 1, 2
POLICIES = {"random": RANDOM, "ev": EV, "lookahead": LOOKAHEAD}  # clairvoyant: Shuffle's
LOOKAHEAD_TOP = 3  # the look-ahead weighs ev's best 3 moves (6 measured no better)
WIN_AT = SOLITAIRES["square"].win_at
EMPTY = -1
ADVICE_SEED = 0  # the coach's playouts: the same advice every time
TALON, PILE = -1, 16  # a move's source (or pile q), and target PILE + q for a pile
MAX_MOVES = 16 + 2 * 16  # more than a game can make: a card moves at most twice

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
def expected_line(known, m, n, u, total, njack, table):
    """E[points] of a line holding known[:m], its 4 - m other cards and the starter drawn
    without replacement from the ``total`` unseen cards (counts from pool_counts)."""
    d = 5 - m  # cards drawn: the missing ones and the starter
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
    ev = ranks / _choose(total, d)
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
def place_values(grid, card, seen, table):
    """(values, kept_out): the expected final score with ``card`` in each empty cell (-inf for
    a full one), and with it kept out of the grid; the rest filled at random from the unseen
    cards. ``seen`` must hold ``card``. Only the card's row and column change, so it takes two
    expectations per line, and lines without a card share theirs."""
    n, u, total, njack = pool_counts(seen)
    without = np.empty(8)
    with_card = np.empty(8)
    known = np.empty(4, dtype=np.int64)
    blank = -1.0
    blank_with = -1.0
    for line in range(8):
        m = 0
        for j in range(4):
            c = grid[LINES[line, j]]
            if c >= 0:
                known[m] = c
                m += 1
        if m == 0 and blank >= 0.0:
            without[line], with_card[line] = blank, blank_with
            continue
        without[line] = expected_line(known, m, n, u, total, njack, table)
        with_card[line] = without[line]
        if m < 4:
            known[m] = card
            with_card[line] = expected_line(known, m + 1, n, u, total, njack, table)
        if m == 0:
            blank, blank_with = without[line], with_card[line]
    kept_out = without.sum() + 2.0 * n[JACK] / total
    values = np.full(16, -np.inf)
    for i in range(16):
        if grid[i] < 0:
            r, c = i // 4, 4 + i % 4
            values[i] = kept_out + with_card[r] - without[r] + with_card[c] - without[c]
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
def _best_next(grid, seen, size, piles, table):
    """The best exact expectation the next card can be given, averaged over the unseen cards
    it may be: E over d of the highest place_values of d, or its kept_out when a pile has
    room (a reserve's card coming back is not counted: a slightly low value)."""
    room = False
    for q in range(piles):
        room = room or size[q] < PILE_CARDS
    total, count = 0.0, 0
    for d in range(52):
        if seen[d]:
            continue
        seen[d] = True
        v, kept_out = place_values(grid, d, seen, table)
        total += max(v.max(), kept_out) if room else v.max()
        count += 1
        seen[d] = False
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
    for j in range(k):
        o = out_opts[j]
        if o < PILE:
            if n_opt - (p >= 0) == 1:  # the last cell: nothing follows
                continue
            grid[o] = c
            out_vals[j] = _best_next(grid, seen, size, piles, table)
            grid[o] = EMPTY
        else:
            size[p] += 1
            out_vals[j] = _best_next(grid, seen, size, piles, table)
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


@njit(cache=True, parallel=True)
def playouts(grid, card, seen, pile, size, piles, waste, futures, remaining, table, wanted):
    """scores[s, o]: the final score of playout s after option o, ev playing on: o < 16 puts
    ``card`` into cell o, o = PILE + q onto pile q; -1 where o is not a legal move or not
    ``wanted``. Playout s deals futures[s, :remaining] (unseen cards in a random order), then
    its starter futures[s, remaining]; every option sees the same cards."""
    out = np.full((futures.shape[0], PILE + 2), -1, dtype=np.int64)
    for s in prange(futures.shape[0]):
        talon = futures[s, :remaining]
        starter = futures[s, remaining]
        for o in range(PILE + piles):
            if (
                not wanted[o]
                or (o < PILE and grid[o] >= 0)
                or (o >= PILE and size[o - PILE] >= PILE_CARDS)
            ):
                continue
            g = grid.copy()
            p = pile.copy()
            z = size.copy()
            if o < PILE:
                g[o] = card
            else:
                p[o - PILE, z[o - PILE]] = card
                z[o - PILE] += 1
            out[s, o] = play_on(
                g,
                seen.copy(),
                p,
                z,
                talon,
                starter,
                piles,
                waste,
                EV,
                np.zeros(1),
                table,
                np.empty((0, 3), dtype=np.int64),
            )
    return out


class Placement:
    """One move of the card in hand: into ``cell`` (0-15, row by row) or onto the waste
    (cell None); its exact expectation with the rest of the grid filled at random (what ev
    maximises), ``ahead``: the same once the next card is placed as ev places it
    (what lookahead maximises among ev's best LOOKAHEAD_TOP), and over the playouts (ev
    playing on) the mean final score, its standard error and the share that reach 61."""

    def __init__(self, cell, expected, ahead, scores):
        self.cell, self.expected, self.ahead = cell, float(expected), float(ahead)
        self.ev = self.lookahead = False  # the move each policy makes
        self.mean = float(scores.mean()) if scores.size else None
        self.se = float(scores.std() / np.sqrt(scores.size)) if scores.size > 1 else None
        self.win = float((scores >= WIN_AT).mean()) if scores.size else None

    @property
    def name(self) -> str:
        return "waste" if self.cell is None else f"r{self.cell // 4 + 1}c{self.cell % 4 + 1}"


def best_place(
    grid,
    card: int,
    variant: str = "square",
    waste=(),
    seen=(),
    samples: int = 1000,
    seed: int = 0,
    top: int | None = None,
) -> list[Placement]:
    """Every move of ``card`` (grid: 16 card ids or None, row by row; ``waste``: the cards on
    Square (Waste)'s waste; ``seen``: other cards known not to come), best first: by P(win)
    over ``samples`` playouts (numpy seeded with ``seed``), then by their mean, then by
    ``ahead``; without playouts, lookahead's move first, then its other candidates and the
    rest, each by ``ahead``. With ``top``, in that order, and only the first ``top`` moves
    played out (the coach's advice: lookahead's ranking, quickly)."""
    from cribsolve.core.notation import format_cards
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.errors import CardError, CribsolveError

    sq = SQUARES[variant]
    if variant not in ("square", "square-waste"):
        raise CribsolveError(
            f"best-place analyses square and square-waste; {variant}'s moves "
            f"from a reserve back to the grid are not analysed yet"
        )
    if len(grid) != 16:
        raise CardError(f"give the 16 cells of the grid row by row (a card or --), not {len(grid)}")
    cards = [c for c in grid if c is not None] + [card, *waste, *seen]
    if any(c >= 52 for c in cards):
        raise CardError("jokers are not dealt in Cribbage Square")
    dup = sorted({c for c in cards if cards.count(c) > 1})
    if dup:
        raise CardError(
            f"{format_cards(dup)} given twice (the grid, the card, --waste and "
            f"--seen hold each card once)"
        )
    empties = [i for i, c in enumerate(grid) if c is None]
    if not empties:
        raise CribsolveError("the grid is full: no card is placed any more")
    if len(waste) > PILE_CARDS:
        raise CardError(f"--waste holds at most {PILE_CARDS} cards, not {len(waste)}")
    if waste and not sq.piles:
        raise CribsolveError("--waste is for --variant square-waste")
    remaining = sq.dealt - (16 - len(empties) + len(waste) + 1)  # talon cards after this one
    unseen = [c for c in range(52) if c not in set(cards)]
    if len(unseen) < remaining + 1:
        raise CardError(
            f"only {len(unseen)} cards are left unseen, fewer than the "
            f"{remaining + 1} still to come (the talon and the starter)"
        )
    g = np.array([EMPTY if c is None else c for c in grid], dtype=np.int64)
    known = np.zeros(52, dtype=np.bool_)
    known[cards] = True
    table = rank_table(15)
    values, kept_out = place_values(g, card, known, table)
    pile = np.zeros((2, PILE_CARDS), dtype=np.int64)
    size = np.zeros(2, dtype=np.int64)
    pile[0, : len(waste)] = list(waste)
    size[0] = len(waste)
    open_pile = 0 if sq.piles and len(waste) < PILE_CARDS else -1
    opts, ahead = lookahead_values(
        g, card, known, size, sq.piles, values, kept_out, open_pile, table, PILE + 1
    )
    opts = [int(o) for o in opts]  # ev's order, ev's move first
    candidates = opts[:LOOKAHEAD_TOP]
    pick = candidates[int(np.argmax(ahead[:LOOKAHEAD_TOP]))]
    ahead_of = dict(zip(opts, ahead.tolist()))
    ranked = sorted(opts, key=lambda o: (o != pick, o not in candidates, -ahead_of[o]))
    wanted = np.zeros(PILE + 2, dtype=np.bool_)
    wanted[ranked[:top] if top is not None else opts] = True
    if samples:
        rng = np.random.default_rng(seed)
        futures = rng.permuted(np.tile(np.array(unseen, dtype=np.int64), (samples, 1)), axis=1)
        scores = playouts(
            g, card, known, pile, size, sq.piles, sq.waste, futures, remaining, table, wanted
        )
    else:
        scores = np.full((0, PILE + 2), -1, dtype=np.int64)
    out = {
        o: Placement(
            None if o == PILE else o,
            kept_out if o == PILE else values[o],
            ahead_of[o],
            scores[:, o] if wanted[o] else scores[:0, o],
        )
        for o in ranked
    }
    out[opts[0]].ev = out[pick].lookahead = True
    if samples and top is None:
        return sorted(out.values(), key=lambda p: (-p.win, -p.mean, -p.ahead))
    return list(out.values())


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


class Walk:
    """A game of Cribbage Square (805) card by card as the player sees it: ``grid`` and
    ``card`` (the talon's top) are all that is face up; the next cards and the starter stay in
    the talon until the grid is full. ``choose(cell, advice)`` plays the card and keeps what the
    move cost against the advice's best, in ``ahead`` (the expected final score looking one
    card further)."""

    def __init__(self, talon, starter):
        self._talon, self._starter = [int(c) for c in talon[:16]], int(starter)
        self.grid: list = [None] * 16
        self.moves: list = []  # (card, chosen Placement, best Placement)

    @property
    def over(self) -> bool:
        return len(self.moves) == 16

    @property
    def card(self) -> int:
        return self._talon[len(self.moves)]

    def choose(self, cell: int, advice: list[Placement]) -> None:
        if self.grid[cell] is not None:
            raise ValueError(f"cell {cell} is full")
        chosen = next(p for p in advice if p.cell == cell)
        self.grid[cell] = self.card
        self.moves.append((self.card, chosen, advice[0]))

    @property
    def starter(self) -> int:
        if not self.over:
            raise ValueError("the starter is turned when the grid is full")
        return self._starter

    def lines(self) -> list[int]:
        from cribsolve.core.scoring.table import rank_table

        return line_points(
            np.array(self.grid, dtype=np.int64), self.starter, rank_table(15)
        ).tolist()

    @property
    def heels(self) -> int:
        return 2 * int(RANK[self.starter] == JACK)

    @property
    def score(self) -> int:
        return sum(self.lines()) + self.heels
