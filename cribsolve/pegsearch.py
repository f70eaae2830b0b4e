"""Pegging by search: the rest of a play searched exactly for each holding the opponent may
have, both players laying their best, and the holdings weighted by what the player knows.

The play depends on ranks only, so a holding is a multiset of ranks, weighted by the number
of ways the unseen cards make it. What the player knows about the opponent's unplayed cards:
they are among the cards it has not seen, and a go says that none of them fit under the peg
limit at that count. Within a holding both hands are known and each side lays the card that
is best for its own margin (mine - theirs; the least under lowball) over the rest of the play
(a tree of at most 4 + 4 cards in the standard game).
"""
import numpy as np

from .cards import RANK, VALUE
from .jit import njit
from .pegging import COUNT, LAST, N, TURN, _aim, card_points, unseen_cards
from .variants.spec import PEG_LIMIT

EXPERT_HOLDINGS = 48     # holdings sampled per choice by the expert policy when there are more


@njit(cache=True)
def _fits(ranks, used, count, limit):
    for i in range(ranks.shape[0]):
        if ranks[i] >= 0 and not used >> i & 1 and count + VALUE[ranks[i]] <= limit:
            return True
    return False


@njit(cache=True)
def best_line(h, used, series, start, n, count, turn, last, pr):
    """(points to seat 0, points to seat 1) over the rest of the play, both laying their best.
    h[p]: seat p's unplayed ranks (-1: no card); used[p]: a bit mask of the laid ones;
    series[start:start + n]: the ranks of the current series (a new series starts past it,
    so the caller's stays intact; 4 k + 2 places suffice); turn: the seat to lay; last: who
    laid last."""
    limit = pr[PEG_LIMIT]
    left = False
    for p in range(2):
        for i in range(h.shape[1]):
            if h[p, i] >= 0 and not used[p] >> i & 1:
                left = True
    if not left:                                   # the last card of all
        if count > 0:
            return (1, 0) if last == 0 else (0, 1)
        return 0, 0
    if not _fits(h[turn], used[turn], count, limit):
        if _fits(h[1 - turn], used[1 - turn], count, limit):
            turn = 1 - turn                        # go: the other keeps laying
        else:                                      # nobody can lay: 1 for the go
            a, b = best_line(h, used, series, start + n, 0, 0, 1 - last, last, pr)
            return (a + 1, b) if last == 0 else (a, b + 1)
    aim = _aim(pr)
    best = -1e18
    ba, bb = 0, 0
    tried = 0
    for i in range(h.shape[1]):
        r = h[turn, i]
        if r < 0 or used[turn] >> i & 1 or count + VALUE[r] > limit or tried >> r & 1:
            continue
        tried |= 1 << r                            # equal ranks lead to equal plays
        series[start + n] = r
        c2 = count + VALUE[r]
        pts = card_points(series[start:], n + 1, c2, pr)
        used[turn] |= 1 << i
        if c2 == limit:
            a, b = best_line(h, used, series, start + n + 1, 0, 0, 1 - turn, turn, pr)
        else:
            a, b = best_line(h, used, series, start, n + 1, c2, 1 - turn, turn, pr)
        used[turn] &= ~(1 << i)
        if turn == 0:
            a += pts
        else:
            b += pts
        v = aim * (a - b) if turn == 0 else aim * (b - a)
        if v > best:
            best = v
            ba, bb = a, b
    return ba, bb


@njit(cache=True)
def holdings(avail, r, min_value):
    """Every multiset of r ranks the unseen cards can make (avail[rank]: unseen copies),
    each card worth more than ``min_value`` (the opponent's goes), and its weight: the number
    of sets of unseen cards that make it."""
    ranks = np.array([q for q in range(avail.shape[0]) if avail[q] > 0 and
                      VALUE[q] > min_value], dtype=np.int64)
    if r == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1)
    out = []
    weights = []
    idx = np.zeros(r, dtype=np.int64)
    while True:
        ok = True
        w = 1.0
        j = 0
        while j < r:
            q = ranks[idx[j]] if ranks.shape[0] else -1
            m = 1
            while j + m < r and idx[j + m] == idx[j]:
                m += 1
            if q < 0 or m > avail[q]:
                ok = False
                break
            for x in range(m):                    # C(avail, m)
                w = w * (avail[q] - x) / (x + 1)
            j += m
        if ok:
            out.append(ranks[idx].copy())
            weights.append(w)
        j = r - 1                                  # the next non-decreasing index tuple
        while j >= 0 and idx[j] == ranks.shape[0] - 1:
            j -= 1
        if j < 0 or ranks.shape[0] == 0:
            break
        idx[j] += 1
        for q in range(j + 1, r):
            idx[q] = idx[j]
    h = np.empty((len(out), r), dtype=np.int64)
    for i in range(len(out)):
        h[i] = out[i]
    return h, np.array(weights)


@njit(cache=True)
def play_values(mine, series, n, count, theirs_h, weights, pr):
    """For each card of ``mine`` (unplayed ranks, -1: none) that fits: the expected (my
    points, their points) over the rest of the play, over the opponent's holdings theirs_h
    (rows of ranks) weighted by ``weights``; NaN for cards that do not fit. I lay now."""
    k = max(mine.shape[0], theirs_h.shape[1])
    h = np.full((2, k), -1, dtype=np.int64)
    h[0, :mine.shape[0]] = mine
    used = np.zeros(2, dtype=np.int64)
    out = np.full((mine.shape[0], 2), np.nan)
    total = weights.sum()
    ser = np.empty(n + 4 * k + 2, dtype=np.int64)
    ser[:n] = series[:n]
    limit = pr[PEG_LIMIT]
    for i in range(mine.shape[0]):
        r = mine[i]
        if r < 0 or count + VALUE[r] > limit:
            continue
        a_sum, b_sum = 0.0, 0.0
        for j in range(theirs_h.shape[0]):
            h[1, :] = -1
            h[1, :theirs_h.shape[1]] = theirs_h[j]
            ser[n] = r
            c2 = count + VALUE[r]
            pts = card_points(ser, n + 1, c2, pr)
            used[0] = 1 << i
            if c2 == limit:
                a, b = best_line(h, used, ser, n + 1, 0, 0, 1, 0, pr)
            else:
                a, b = best_line(h, used, ser, 0, n + 1, c2, 1, 0, pr)
            a_sum += weights[j] * (a + pts)
            b_sum += weights[j] * b
        out[i, 0] = a_sum / total
        out[i, 1] = b_sum / total
    return out


@njit(cache=True)
def expert_choice(hands, used, series, st, known, pr):
    """The expert's card in the game engine: the best expected margin over the opponent's
    holdings (exact, or EXPERT_HOLDINGS drawn by weight when there are more), the rest of the
    play searched; a card of the opponent's that did not fit after mine tells of its go."""
    me = st[TURN]
    opp = 1 - me
    k = hands.shape[1]
    mine = np.full(k, -1, dtype=np.int64)
    for i in range(k):
        if not used[me, i]:
            mine[i] = RANK[hands[me, i]]
    r = 0
    for i in range(k):
        r += not used[opp, i]
    min_value = -1
    if st[COUNT] > 0 and st[LAST] == me:          # it is my turn again: they said go
        min_value = pr[PEG_LIMIT] - st[COUNT]
    h, w = _unseen_holdings(known[me], r, min_value, pr)
    if h.shape[0] > EXPERT_HOLDINGS:
        cum = np.cumsum(w)
        pick = np.searchsorted(cum, np.random.random(EXPERT_HOLDINGS) * cum[-1])
        h = h[pick]
        w = np.ones(EXPERT_HOLDINGS)
    vals = play_values(mine, series, st[N], st[COUNT], h, w, pr)
    aim = _aim(pr)
    best = -1e18
    pick_i = -1
    for i in range(k):
        if not np.isnan(vals[i, 0]) and aim * (vals[i, 0] - vals[i, 1]) > best:
            best = aim * (vals[i, 0] - vals[i, 1])
            pick_i = i
    return pick_i


@njit(cache=True)
def _unseen_holdings(seen, r, min_value, pr):
    """holdings() of the cards a player has not seen (``seen``: its counts by card id)."""
    avail = np.zeros(14, dtype=np.int64)
    for c in unseen_cards(seen, pr):
        avail[RANK[c]] += 1
    return holdings(avail, r, min_value)
