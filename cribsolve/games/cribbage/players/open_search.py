"""``expert1``'s pegging: for each holding the opponent may have (a multiset of ranks, weighted by
the ways the unseen cards make it and by its throw model), the rest of the play searched
exactly with both hands open, each side laying its best for its own margin. The expert's search
(infoset_search.py) reads its holdings the same way (expert_holdings) and settles goes alike.
"""

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.players import inference
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.spec import PEG_LIMIT
from cribsolve.infra.jit import njit

EXPERT_HOLDINGS = 48  # holdings sampled per choice by the expert policy when there are more


# _fits and _settle run at every node of both searches: inlined, no call to make
@njit(cache=True, inline="always")
def _fits(h, used, j, p, count, limit):
    for i in range(h.shape[2]):
        r = h[j, p, i]
        if r >= 0 and not used[j, p] >> i & 1 and count + VALUE[r] <= limit:
            return True
    return False


@njit(cache=True, inline="always")
def _settle(h, used, j, start, n, count, turn, last, limit):
    """Goes and last cards until someone can lay, for the hands of holding j (h[j], used[j]:
    indices, not slices, which numba counts references of): (the play is over, start, n,
    count, turn, points to seat 0, points to seat 1 meanwhile)."""
    pa, pb = 0, 0
    while True:
        if _fits(h, used, j, turn, count, limit):
            return False, start, n, count, turn, pa, pb
        if _fits(h, used, j, 1 - turn, count, limit):
            return False, start, n, count, 1 - turn, pa, pb  # go: the other keeps laying
        left = False  # nobody can lay: any cards left?
        for p in range(2):
            for i in range(h.shape[2]):
                if h[j, p, i] >= 0 and not used[j, p] >> i & 1:
                    left = True
        if not left:  # the last card of all
            if count > 0:
                pa += last == 0
                pb += last == 1
            return True, start, n, count, turn, pa, pb
        pa += last == 0  # nobody can lay: 1 for the go
        pb += last == 1
        start, n, count, turn = start + n, 0, 0, 1 - last


@njit(cache=True)
def _back(frames, best, used, d, a, b, aim):
    """Hand a child's (a, b) back to frame d: add the card's points, keep the best for the
    player who laid it."""
    turn = frames[d, 3]
    used[turn] &= ~(1 << frames[d, 7])
    if turn == 0:
        a += frames[d, 8]
    else:
        b += frames[d, 8]
    v = aim * (a - b) if turn == 0 else aim * (b - a)
    if v > best[d, 0]:
        best[d, 0], best[d, 1], best[d, 2] = v, a, b


@njit(cache=True)
def _enter(frames, best, d, start, n, count, turn, last, pa, pb):
    """Frame d starts: its state, no card tried yet, the points scored on the way in."""
    frames[d, :] = 0
    frames[d, 0] = start
    frames[d, 1] = n
    frames[d, 2] = count
    frames[d, 3] = turn
    frames[d, 4] = last
    best[d, 0] = -1e18
    best[d, 1] = 0.0
    best[d, 2] = 0.0
    best[d, 3] = pa
    best[d, 4] = pb


@njit(cache=True)
def best_line(h, used, series, start, n, count, turn, last, pr):
    """(points to seat 0, points to seat 1) over the rest of the play, both laying their best
    for their own margin. h[p]: seat p's unplayed ranks (-1: no card); used[p]: a bit mask of
    the laid ones; series[start:start + n]: the ranks of the current series (a new series
    starts past it; 4 k + 2 places suffice); turn: the seat to lay; last: who laid last.
    A depth-first search with its own stack (numba cannot cache recursive functions)."""
    limit = pr[PEG_LIMIT]
    aim = pegging.aim(pr)
    k = h.shape[1]
    h3, u2 = h.reshape(1, 2, k), used.reshape(1, 2)  # as _settle reads them: holding 0
    over, start, n, count, turn, pa, pb = _settle(h3, u2, 0, start, n, count, turn, last, limit)
    if over:
        return pa, pb
    # a frame: start, n, count, turn, last, next card, ranks tried, card laid, its points
    frames = np.zeros((2 * k + 2, 9), dtype=np.int64)
    best = np.zeros((2 * k + 2, 5))  # best value, its (a, b), points on entry (a, b)
    _enter(frames, best, 0, start, n, count, turn, last, pa, pb)
    d = 0
    while True:
        start, n, count, turn = frames[d, 0], frames[d, 1], frames[d, 2], frames[d, 3]
        pick = -1
        for i in range(frames[d, 5], k):
            r = h[turn, i]
            if (
                r >= 0
                and not used[turn] >> i & 1
                and count + VALUE[r] <= limit
                and not frames[d, 6] >> r & 1
            ):  # equal ranks lead to equal plays
                pick = i
                break
        if pick < 0:  # every card tried: back to the parent
            a, b = best[d, 1] + best[d, 3], best[d, 2] + best[d, 4]
            if d == 0:
                return int(a), int(b)
            d -= 1
            _back(frames, best, used, d, a, b, aim)
            continue
        r = h[turn, pick]
        frames[d, 5] = pick + 1
        frames[d, 6] |= 1 << r
        frames[d, 7] = pick
        series[start + n] = r
        c2 = count + VALUE[r]
        frames[d, 8] = pegging.card_points(series[start:], n + 1, c2, pr)
        used[turn] |= 1 << pick
        if c2 == limit:
            child = _settle(h3, u2, 0, start + n + 1, 0, 0, 1 - turn, turn, limit)
        else:
            child = _settle(h3, u2, 0, start, n + 1, c2, 1 - turn, turn, limit)
        over, cs, cn, cc, ct, pa, pb = child
        if over:
            _back(frames, best, used, d, pa, pb, aim)
        else:
            d += 1
            _enter(frames, best, d, cs, cn, cc, ct, turn, pa, pb)


@njit(cache=True)
def holdings(avail, r, min_value):
    """Every multiset of r ranks the unseen cards can make (avail[rank]: unseen copies),
    each card worth more than ``min_value`` (the opponent's goes), and its weight: the number
    of sets of unseen cards that make it."""
    ranks = np.array(
        [q for q in range(avail.shape[0]) if avail[q] > 0 and VALUE[q] > min_value], dtype=np.int64
    )
    if r == 0:
        return np.zeros((1, 0), dtype=np.int64), np.ones(1)
    room = 1  # the non-decreasing index tuples: C(ranks + r - 1, r), filled in place
    for j in range(r):
        room = room * (ranks.shape[0] + j) // (j + 1)
    h = np.empty((room, r), dtype=np.int64)
    weights = np.empty(room)
    found = 0
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
            for x in range(m):  # C(avail, m)
                w = w * (avail[q] - x) / (x + 1)
            j += m
        if ok:
            for j in range(r):
                h[found, j] = ranks[idx[j]]
            weights[found] = w
            found += 1
        j = r - 1  # the next non-decreasing index tuple
        while j >= 0 and idx[j] == ranks.shape[0] - 1:
            j -= 1
        if j < 0 or ranks.shape[0] == 0:
            break
        idx[j] += 1
        for q in range(j + 1, r):
            idx[q] = idx[j]
    return h[:found].copy(), weights[:found].copy()


@njit(cache=True)
def play_values(mine, series, n, count, theirs_h, weights, pr):
    """For each card of ``mine`` (unplayed ranks, -1: none) that fits: the expected (my
    points, their points) over the rest of the play, over the opponent's holdings theirs_h
    (rows of ranks) weighted by ``weights``; NaN for cards that do not fit. I lay now."""
    k = max(mine.shape[0], theirs_h.shape[1])
    h = np.full((2, k), -1, dtype=np.int64)
    h[0, : mine.shape[0]] = mine
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
            h[1, : theirs_h.shape[1]] = theirs_h[j]
            ser[n] = r
            c2 = count + VALUE[r]
            pts = pegging.card_points(ser, n + 1, c2, pr)
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
def expert_holdings(hands, used, st, known, pr, shares, most, drawn):
    """What the player to lay searches over: (my unplayed ranks, -1 where laid; the
    opponent's holdings; their weights): by the ways the unseen cards make them and by its
    throw model (inference.throw_weights over ``shares``), every one when there are at most
    ``most``, else that many by weight (a holding taken twice weighs 2): ``drawn`` at random
    from the game's stream, or else spread evenly over the weights in their order
    (systematic sampling: the same facts, the same holdings, and no draw from the stream
    that deals the cards). A card of the opponent's that did not fit after mine tells of its
    go."""
    me = st[pegging.TURN]
    opp = 1 - me
    k = hands.shape[1]
    mine = np.full(k, -1, dtype=np.int64)
    for i in range(k):
        if not used[me, i]:
            mine[i] = RANK[hands[me, i]]
    min_value = -1
    if st[pegging.COUNT] > 0 and st[pegging.LAST] == me:  # my turn again: they said go
        min_value = pr[PEG_LIMIT] - st[pegging.COUNT]
    laid = np.empty(k, dtype=np.int64)
    j = 0
    for i in range(k):
        if used[opp, i]:
            laid[j] = RANK[hands[opp, i]]
            j += 1
    h, w = weighted_holdings(known[me], laid[:j], k - j, min_value, opp, shares, pr)
    if h.shape[0] > most:
        cum = np.cumsum(w)
        at = np.random.random(most) if drawn else (np.arange(most) + 0.5) / most
        counts = np.bincount(np.searchsorted(cum, at * cum[-1]), minlength=h.shape[0])
        keep = np.nonzero(counts)[0]
        h = h[keep]
        w = counts[keep].astype(np.float64)
    return mine, h, w


@njit(cache=True)
def best_margin(vals, pr):
    """The card whose (mine, theirs) row in ``vals`` has the best margin (NaN: no fit)."""
    aim = pegging.aim(pr)
    best = -1e18
    pick = -1
    for i in range(vals.shape[0]):
        if not np.isnan(vals[i, 0]) and aim * (vals[i, 0] - vals[i, 1]) > best:
            best = aim * (vals[i, 0] - vals[i, 1])
            pick = i
    return pick


@njit(cache=True)
def open_choice(hands, used, series, st, known, pr, shares):
    """The expert1's card in the game engine: the best expected margin over the holdings of
    expert_holdings, the rest of the play searched with both hands open."""
    mine, h, w = expert_holdings(hands, used, st, known, pr, shares, EXPERT_HOLDINGS, True)
    return best_margin(play_values(mine, series, st[pegging.N], st[pegging.COUNT], h, w, pr), pr)


@njit(cache=True)
def _unseen_avail(seen, pr):
    """The copies of each rank a player has not seen (``seen``: its counts by card id)."""
    avail = np.zeros(14, dtype=np.int64)
    for c in pegging.unseen_cards(seen, pr):
        avail[RANK[c]] += 1
    return avail


@njit(cache=True)
def weighted_holdings(seen, laid, r, min_value, seat, shares, pr):
    """Every holding of r ranks of the unseen cards (``seen``: counts by card id) worth more
    than ``min_value`` (holdings), its weight times the throw model's factor for keeping
    ``laid`` with it in ``seat`` (one kernel: one compiled library for best-play to load;
    bestplay.holding_weights is its door from Python)."""
    avail = _unseen_avail(seen, pr)
    h, w = holdings(avail, r, min_value)
    if h.shape[0] == 0:
        return h, w
    return h, inference.reweigh(w, inference.throw_weights(h, laid, avail, seat, shares, pr))
