"""The ``expert``'s pegging: information-set search, every decision made from what its player
knows, not from the other's cards (open_search.py's strategy fusion). At my nodes one card
serves every holding still possible; at the opponent's, each holding lays the card its own
information picks (reply: two cards ahead), which splits the holdings my next card weighs.
Holdings are multisets of ranks; seats: 0 me, 1 the opponent. Method and measurements:
docs/pegging.md, docs/research.md.
"""

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.players.open_search import _settle, best_margin, expert_holdings
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.spec import LOWBALL, PEG_LIMIT, TARGET
from cribsolve.infra.jit import njit

SPLIT, MINE, THEIRS = 0, 1, 2  # the kinds of node
# Holdings searched per card where there are more: the expert's, spread by weight; those of
# expert-drawn (the expert before, kept for the comparison: docs/research.md), drawn.
HOLDINGS, DRAWN_HOLDINGS = 128, 256

# The kernels called at every node make no arrays and are compiled without numba's reference
# counts (_nrt=False): counting the arrays passed and sliced took a quarter of the search;
# the smallest are inlined (inline="always") into their callers.


@njit(cache=True, inline="always")
def _none_of(size, good, u):
    """The chance that u cards drawn from ``size`` hold none of ``good`` of them."""
    p = 1.0
    for i in range(u):
        if size - i <= 0:
            return 0.0
        p *= max(size - good - i, 0) / (size - i)
    return p


@njit(cache=True, _nrt=False)
def lay_points(series, n, count, pr, out):
    """out[x]: the points of rank x laid next on the series (its n ranks, the count before
    it), -1 where it does not fit: pegging.card_points of every rank from one scan back
    along the series, as reply asks it of every rank at its nodes. A stretch of distinct
    ranks at the end makes a run with the rank either side of it where they are
    consecutive, with the rank it lacks where they are one short; the longest counts."""
    limit = pr[PEG_LIMIT]
    for x in range(14):
        out[x] = 0
    lo, hi = 99, -1
    seen = 0
    for i in range(n - 1, -1, -1):  # the last j ranks, back to the first repeat
        r = series[i]
        if seen >> r & 1:
            break
        seen |= 1 << r
        lo, hi = min(lo, r), max(hi, r)
        j = n - i
        if j >= 2 and hi - lo == j - 1:
            if lo > 0:
                out[lo - 1] = j + 1
            if hi < 13:
                out[hi + 1] = j + 1
        elif j >= 2 and hi - lo == j:
            for x in range(lo + 1, hi):
                if not seen >> x & 1:
                    out[x] = j + 1
    k = 0  # the last rank's copies at the end: one more pairs with each
    while k < n and series[n - 1 - k] == series[n - 1]:
        k += 1
    for x in range(14):
        c2 = count + VALUE[x]
        if c2 > limit:
            out[x] = -1
            continue
        if n > 0 and x == series[n - 1]:
            out[x] = (k + 1) * k
        out[x] += 2 * (c2 == pr[TARGET]) + 2 * (c2 == limit)


@njit(cache=True, inline="always")
def answer_points(got, avail, size, u, pr):
    """The expected points of my answer to a card (``got``: lay_points after it): the best
    of my u cards (the least under lowball) among those that fit, each drawn from ``avail``
    (copies by rank, ``size`` in all; none worth the count left ruled out here: the
    caller's urn), exact by the hypergeometric law; 0 where none fits. The chance of t
    points or more holds from one points value scored to the next: worked out once, added
    for each t."""
    fit = 0
    for x in range(14):
        if avail[x] > 0 and got[x] >= 0:
            fit += avail[x]
    none_fit = _none_of(size, fit, u)
    total = 0.0
    t = 1
    while True:
        at_least, upto = 0, -1  # copies scoring t or more; the least they score
        for x in range(14):
            if avail[x] > 0 and got[x] >= t:
                at_least += avail[x]
                if upto < 0 or got[x] < upto:
                    upto = got[x]
        if at_least == 0:
            return total
        if pr[LOWBALL]:  # my least: every fitting card scores t+
            p = _none_of(size, fit - at_least, u) - none_fit
        else:
            p = 1.0 - _none_of(size, at_least, u)
        for _ in range(t, upto + 1):
            total += p
        t = upto + 1


@njit(cache=True, _nrt=False)
def reply(h2, used2, j, u, series, start, n, count, last, public, pr, memo, avail):
    """The index in h2[j, 1] of the card the opponent lays, holding it (used2[j, 1]: the
    bits of its laid ones) with u cards of mine unplayed, from its information alone: the
    card with the best margin over the next two cards, its points less the expected points
    of my answer (answer_points). My cards, to it, are any of the ranks not laid (``public``:
    copies by rank) less its own, and only those worth more than the count left where I
    said go in this series (it laid last and the count runs on). Ties go to its first
    card. ``memo``: what every holding at this node shares, worked out once for it: the
    points of rank r laid now (memo[r, 14]; -2: not yet worked out) and lay_points after it
    (memo[r, :14]); ``avail``: 14 slots of scratch for my urn (no array made per call)."""
    limit = pr[PEG_LIMIT]
    hj, uj = h2[j, 1], used2[j, 1]
    k = hj.shape[0]
    first, distinct = -1, 0
    for i in range(k):
        r = hj[i]
        if r >= 0 and not uj >> i & 1 and count + VALUE[r] <= limit:
            if first < 0:
                first = i
            distinct += 1
    if distinct <= 1 or u == 0:
        return first
    for r in range(14):
        avail[r] = public[r]
    for i in range(k):
        if hj[i] >= 0 and not uj >> i & 1:
            avail[hj[i]] -= 1
    if last == 1 and count > 0:  # my go: none of mine fit under the limit
        kept = 0
        for r in range(14):
            if VALUE[r] > limit - count:
                kept += avail[r]
        if kept >= u:
            for r in range(14):
                if VALUE[r] <= limit - count:
                    avail[r] = 0
    size = avail.sum()
    aim = pegging.aim(pr)
    best, pick = -1e18, first
    tried = 0
    for i in range(k):
        r = hj[i]
        if r < 0 or uj >> i & 1 or count + VALUE[r] > limit or tried >> r & 1:
            continue
        tried |= 1 << r
        if memo[r, 14] == -2:
            series[start + n] = r
            c2 = count + VALUE[r]
            memo[r, 14] = pegging.card_points(series[start:], n + 1, c2, pr)
            s2, n2, cc = _lay_state(start, n, c2, limit)
            lay_points(series[s2:], n2, cc, pr, memo[r, :14])
        v = aim * (memo[r, 14] - answer_points(memo[r, :14], avail, size, u, pr))
        if v > best + 1e-9:
            best, pick = v, i
    return pick


# the fields of a node: kind, the play's state (series start, cards in it, count, seat to
# lay, seat that laid last), the next choice to try, ranks tried (the opponent's node: the
# ranks its holdings lay), the card laid, its points, a split's number of groups and the group
# being searched
KIND, START, NUM, COUNT, TURN, LAST, NEXT, TRIED, CARD, POINTS, GROUPS, GROUP = range(12)


@njit(cache=True, _nrt=False)
def _enter(fr, d, kind, start, n, count, turn, last):
    for f in range(fr.shape[1]):
        fr[d, f] = 0
    fr[d, KIND], fr[d, START], fr[d, NUM], fr[d, COUNT] = kind, start, n, count
    fr[d, TURN], fr[d, LAST] = turn, last


@njit(cache=True, _nrt=False)
def _unplayed(h2, used2, j, p):
    u = 0
    for i in range(h2.shape[2]):
        u += h2[j, p, i] >= 0 and not used2[j, p] >> i & 1
    return u


@njit(cache=True, _nrt=False)
def _lay_state(start, n, c2, limit):
    """(series start, cards in it, count) after a card brought the count to c2."""
    if c2 == limit:
        return start + n + 1, 0, 0
    return start, n + 1, c2


@njit(cache=True, _nrt=False)
def _solo(h2, used2, j, series, start, n, count, turn, last, wj, public, pr, memo, avail, sf, sb):
    """(my points, the opponent's) over the rest of the play for holding j alone, from a
    node's state: tree's decisions with no lists of holdings to keep, for the most of its
    nodes, that hold one. A depth-first search with its own stack (numba cannot cache
    recursive functions); sf, sb: its frames (_S* fields), their best scores."""
    limit = pr[PEG_LIMIT]
    aim = pegging.aim(pr)
    k = h2.shape[2]
    over, start, n, count, turn, pa, pb = _settle(h2, used2, j, start, n, count, turn, last, limit)
    if over:
        return pa, pb
    _solo_enter(sf, sb, 0, start, n, count, turn, last, pa, pb)
    d = 0
    while True:
        start, n, count, turn = sf[d, _SSTART], sf[d, _SNUM], sf[d, _SCOUNT], sf[d, _STURN]
        pick = -1
        if turn == 1:  # the opponent's one card, from its information
            if sf[d, _SNEXT] == 0:
                sf[d, _SNEXT] = 1
                for x in range(14):
                    memo[x, 14] = -2
                u = _unplayed(h2, used2, j, 0)
                pick = reply(
                    h2, used2, j, u, series, start, n, count, sf[d, _SLAST], public, pr, memo, avail
                )
        else:
            for i in range(sf[d, _SNEXT], k):
                r = h2[j, 0, i]
                if r >= 0 and not used2[j, 0] >> i & 1 and count + VALUE[r] <= limit:
                    if not sf[d, _STRIED] >> r & 1:
                        pick = i
                        break
        if pick < 0:  # every card tried: back to the parent
            a, b = sf[d, _SA] + sf[d, _SPA], sf[d, _SB] + sf[d, _SPB]
            if d == 0:
                return a, b
            d -= 1
            _solo_back(sf, sb, used2, j, d, a, b, wj * aim)
            continue
        r = h2[j, turn, pick]
        sf[d, _SNEXT] = pick + 1
        sf[d, _STRIED] |= 1 << r
        sf[d, _SCARD] = pick
        series[start + n] = r
        c2 = count + VALUE[r]
        sf[d, _SPOINTS] = pegging.card_points(series[start:], n + 1, c2, pr)
        used2[j, turn] |= 1 << pick
        s2, n2, cc = _lay_state(start, n, c2, limit)
        over, cs, cn, cc, ct, pa, pb = _settle(h2, used2, j, s2, n2, cc, 1 - turn, turn, limit)
        if over:
            _solo_back(sf, sb, used2, j, d, pa, pb, wj * aim)
        else:
            d += 1
            _solo_enter(sf, sb, d, cs, cn, cc, ct, turn, pa, pb)


# _solo's frame: the play's state, the next card to try, ranks tried, the card laid, its
# points, the best child's (mine, theirs) and the points settled on the way in
_SSTART, _SNUM, _SCOUNT, _STURN, _SLAST, _SNEXT, _STRIED, _SCARD, _SPOINTS = range(9)
_SA, _SB, _SPA, _SPB = range(9, 13)


@njit(cache=True, _nrt=False)
def _solo_enter(sf, sb, d, start, n, count, turn, last, pa, pb):
    for f in range(sf.shape[1]):
        sf[d, f] = 0
    sf[d, _SSTART], sf[d, _SNUM], sf[d, _SCOUNT] = start, n, count
    sf[d, _STURN], sf[d, _SLAST], sf[d, _SPA], sf[d, _SPB] = turn, last, pa, pb
    sb[d] = -1e18


@njit(cache=True, _nrt=False)
def _solo_back(sf, sb, used2, j, d, a, b, weight):
    """A child's (a, b) back to _solo's frame d: the card's points added; at my node the
    best for the weighted margin, as tree weighs one holding; the opponent's has one child."""
    turn = sf[d, _STURN]
    used2[j, turn] &= ~(1 << sf[d, _SCARD])
    if turn == 1:
        sf[d, _SA], sf[d, _SB] = a, b + sf[d, _SPOINTS]
        return
    score = 0.0 + weight * (float(a) + sf[d, _SPOINTS] - b)
    if score > sb[d]:
        sb[d] = score
        sf[d, _SA], sf[d, _SB] = a + sf[d, _SPOINTS], b


@njit(cache=True)
def tree(h2, used2, series, start, n, count, turn, last, w, public, pr, ra, rb):
    """Points (mine into ra[j], the opponent's into rb[j]) over the rest of the play from a
    state between cards, for each holding j: h2[j] = (my ranks, holding j's ranks), used2[j]
    = the bits of their laid cards (mine the same in every row); every decision made from
    its player's information (the module's docstring); ``w``: the holdings' weights as I
    see them; ``public``: copies by rank of the cards not laid."""
    m, k = h2.shape[0], h2.shape[2]
    limit = pr[PEG_LIMIT]
    aim = pegging.aim(pr)
    depth = 4 * k + 4
    fr = np.zeros((depth, 12), dtype=np.int64)
    act = np.zeros((depth, m), dtype=np.int64)  # each node's holdings, as a list
    nact = np.zeros(depth, dtype=np.int64)
    grp = np.zeros((depth, m), dtype=np.int64)  # by place in act: split group, reply's rank
    laid = np.zeros((depth, m), dtype=np.int64)  # by holding: the card reply lays
    out = np.zeros((depth, m, 7), dtype=np.int64)  # a split's groups' settled states
    va = np.zeros((depth, m))  # each node's result, by holding
    vb = np.zeros((depth, m))
    best = np.zeros(depth)
    memo = np.empty((14, 15), dtype=np.int64)  # a reply node's points (reply)
    avail = np.empty(14, dtype=np.int64)  # reply's scratch
    sf = np.empty((2 * k + 2, 13), dtype=np.int64)  # _solo's frames
    sb = np.empty(2 * k + 2)
    nact[0] = m
    act[0, :] = np.arange(m)
    _enter(fr, 0, SPLIT, start, n, count, turn, last)
    d, back, fresh = 0, False, True
    while True:
        kind = fr[d, KIND]
        start, n, count = fr[d, START], fr[d, NUM], fr[d, COUNT]
        if fresh:  # a node's first visit
            fresh = False
            if kind == SPLIT:  # goes and last cards, holding by holding
                ng = 0
                for q in range(nact[d]):
                    j = act[d, q]
                    o = _settle(h2, used2, j, start, n, count, fr[d, TURN], fr[d, LAST], limit)
                    g = 0
                    while g < ng and not (
                        out[d, g, 0] == o[0]
                        and out[d, g, 1] == o[1]
                        and out[d, g, 2] == o[2]
                        and out[d, g, 3] == o[3]
                        and out[d, g, 4] == o[4]
                        and out[d, g, 5] == o[5]
                        and out[d, g, 6] == o[6]
                    ):
                        g += 1
                    if g == ng:
                        out[d, g, 0], out[d, g, 1], out[d, g, 2] = o[0], o[1], o[2]
                        out[d, g, 3], out[d, g, 4], out[d, g, 5] = o[3], o[4], o[5]
                        out[d, g, 6] = o[6]
                        ng += 1
                    grp[d, q] = g
                    if o[0]:  # the play is over for this holding
                        va[d, j], vb[d, j] = o[5], o[6]
                fr[d, GROUPS] = ng
            elif kind == THEIRS:
                u = _unplayed(h2, used2, act[d, 0], 0)
                memo[:, 14] = -2
                for q in range(nact[d]):
                    j = act[d, q]
                    laid[d, j] = reply(
                        h2,
                        used2,
                        j,
                        u,
                        series,
                        start,
                        n,
                        count,
                        fr[d, LAST],
                        public,
                        pr,
                        memo,
                        avail,
                    )
                    grp[d, q] = h2[j, 1, laid[d, j]]
                    fr[d, TRIED] |= 1 << grp[d, q]
            else:
                best[d] = -1e18
        if back:  # a child's result comes back
            back = False
            c = d + 1
            if kind == SPLIT:
                g = fr[d, GROUP]
                for q in range(nact[c]):
                    j = act[c, q]
                    va[d, j] = va[c, j] + out[d, g, 5]
                    vb[d, j] = vb[c, j] + out[d, g, 6]
            elif kind == MINE:
                pts = fr[d, POINTS]
                score = 0.0
                for q in range(nact[d]):
                    j = act[d, q]
                    used2[j, 0] &= ~(1 << fr[d, CARD])
                    score += w[j] * aim * (va[c, j] + pts - vb[c, j])
                if score > best[d]:
                    best[d] = score
                    for q in range(nact[d]):
                        j = act[d, q]
                        va[d, j], vb[d, j] = va[c, j] + pts, vb[c, j]
            else:
                pts = fr[d, POINTS]
                for q in range(nact[c]):
                    j = act[c, q]
                    used2[j, 1] &= ~(1 << laid[d, j])
                    va[d, j], vb[d, j] = va[c, j], vb[c, j] + pts
        child = False  # the next child
        if kind == SPLIT:
            for g in range(fr[d, NEXT], fr[d, GROUPS]):
                if out[d, g, 0]:
                    continue
                fr[d, NEXT] = g + 1
                fr[d, GROUP] = g
                q2 = 0
                for q in range(nact[d]):
                    if grp[d, q] == g:
                        act[d + 1, q2] = act[d, q]
                        q2 += 1
                nact[d + 1] = q2
                t = out[d, g, 4]
                _enter(
                    fr,
                    d + 1,
                    MINE if t == 0 else THEIRS,
                    out[d, g, 1],
                    out[d, g, 2],
                    out[d, g, 3],
                    t,
                    fr[d, LAST],
                )
                child = True
                break
        elif kind == MINE:
            j0 = act[d, 0]
            for i in range(fr[d, NEXT], k):
                r = h2[j0, 0, i]
                if (
                    r < 0
                    or used2[j0, 0] >> i & 1
                    or count + VALUE[r] > limit
                    or fr[d, TRIED] >> r & 1
                ):
                    continue
                fr[d, NEXT] = i + 1
                fr[d, TRIED] |= 1 << r
                fr[d, CARD] = i
                series[start + n] = r
                c2 = count + VALUE[r]
                fr[d, POINTS] = pegging.card_points(series[start:], n + 1, c2, pr)
                for q in range(nact[d]):
                    used2[act[d, q], 0] |= 1 << i
                    act[d + 1, q] = act[d, q]
                nact[d + 1] = nact[d]
                s2, n2, cc = _lay_state(start, n, c2, limit)
                _enter(fr, d + 1, SPLIT, s2, n2, cc, 1, 0)
                child = True
                break
        else:
            for r in range(fr[d, NEXT], 14):
                if not fr[d, TRIED] >> r & 1:
                    continue
                q2 = 0
                for q in range(nact[d]):
                    if grp[d, q] == r:
                        j = act[d, q]
                        act[d + 1, q2] = j
                        used2[j, 1] |= 1 << laid[d, j]
                        q2 += 1
                if q2 == 0:
                    continue
                nact[d + 1] = q2
                fr[d, NEXT] = r + 1
                series[start + n] = r
                c2 = count + VALUE[r]
                fr[d, POINTS] = pegging.card_points(series[start:], n + 1, c2, pr)
                s2, n2, cc = _lay_state(start, n, c2, limit)
                _enter(fr, d + 1, SPLIT, s2, n2, cc, 0, 1)
                child = True
                break
        if child:
            if nact[d + 1] == 1:  # one holding left: its result at once
                j = act[d + 1, 0]
                f = fr[d + 1]
                va[d + 1, j], vb[d + 1, j] = _solo(
                    h2,
                    used2,
                    j,
                    series,
                    f[START],
                    f[NUM],
                    f[COUNT],
                    f[TURN],
                    f[LAST],
                    w[j],
                    public,
                    pr,
                    memo,
                    avail,
                    sf,
                    sb,
                )
                back = True
            else:
                d += 1
                fresh = True
            continue
        if d == 0:
            break
        d -= 1
        back = True
    for j in range(m):
        ra[j], rb[j] = va[0, j], vb[0, j]


@njit(cache=True)
def card_values(mine, series, n, count, theirs_h, weights, public, pr):
    """For each card of ``mine`` (unplayed ranks, -1: none) that fits: the expected (my
    points, their points) over the rest of the play by the information-set search, over the
    opponent's holdings theirs_h (rows of ranks) weighted by ``weights``; NaN for cards that
    do not fit. I lay now."""
    m = theirs_h.shape[0]
    k = max(mine.shape[0], theirs_h.shape[1])
    h2 = np.full((m, 2, k), -1, dtype=np.int64)
    for j in range(m):
        h2[j, 0, : mine.shape[0]] = mine
        h2[j, 1, : theirs_h.shape[1]] = theirs_h[j]
    used2 = np.zeros((m, 2), dtype=np.int64)
    ser = np.zeros(n + 4 * k + 4, dtype=np.int64)
    ser[:n] = series[:n]
    out = np.full((mine.shape[0], 2), np.nan)
    total = weights.sum()
    ra, rb = np.zeros(m), np.zeros(m)
    limit = pr[PEG_LIMIT]
    for i in range(mine.shape[0]):
        r = mine[i]
        if r < 0 or count + VALUE[r] > limit:
            continue
        done = False
        for i0 in range(i):
            if mine[i0] == r:
                out[i] = out[i0]
                done = True
        if done:
            continue
        ser[n] = r
        c2 = count + VALUE[r]
        pts = pegging.card_points(ser, n + 1, c2, pr)
        used2[:, 0] = 1 << i
        s2, n2, cc = _lay_state(0, n, c2, limit)
        tree(h2, used2, ser, s2, n2, cc, 1, 0, weights, public, pr, ra, rb)
        out[i, 0] = (weights * ra).sum() / total + pts
        out[i, 1] = (weights * rb).sum() / total
    return out


@njit(cache=True)
def public_ranks(laid, pr):
    """Copies by rank of the spec's deck less the ``laid`` ranks (what both players see)."""
    out = np.zeros(14, dtype=np.int64)
    for c in pegging.unseen_cards(np.zeros(53, dtype=np.int64), pr):
        out[RANK[c]] += 1
    for r in laid:
        out[r] -= 1
    return out


@njit(cache=True)
def _only_rank(hand, used, count, limit):
    """The rank of every unplayed card of ``hand`` that fits under the limit where they are
    all one rank, else -1 (none fits, or two ranks do)."""
    only = -1
    for i in range(hand.shape[0]):
        r = RANK[hand[i]]
        if not used[i] and count + VALUE[r] <= limit:
            if only >= 0 and r != only:
                return -1
            only = r
    return only


@njit(cache=True)
def infoset_choice(hands, used, series, st, known, pr, shares, drawn, memo):
    """The expert's card in the game engine (expert-drawn's, ``drawn``): the best expected
    margin by the information-set search over the holdings of open_search.expert_holdings.
    The expert searches its ranks in rising order and lays the first card of the rank it
    picks (of equal margins, the lowest rank), so its card is a function of its ranks, not
    of the order they were dealt in; expert-drawn keeps the hand's order. The expert's first
    three cards of a deal are kept in ``memo`` (first_cards.py; empty: none kept). Where one
    rank fits, the expert lays its first card unsearched: the search of that rank alone picks
    it (expert-drawn searches, as its draws move the game's stream)."""
    me = st[pegging.TURN]
    if not drawn:
        only = _only_rank(hands[me], used[me], st[pegging.COUNT], pr[PEG_LIMIT])
        if only >= 0:
            return first_cards.first_of(hands[me], used[me], only)
    here = -1
    if not drawn and memo.shape[0]:
        here = first_cards.slot(hands, used, st, known)
        if here >= 0 and memo[here] >= 0:
            return first_cards.first_of(hands[me], used[me], memo[here])
    most = DRAWN_HOLDINGS if drawn else HOLDINGS
    mine, h, w = expert_holdings(hands, used, st, known, pr, shares, most, drawn)
    order = np.arange(mine.shape[0]) if drawn else np.argsort(mine, kind="mergesort")
    laid = np.array(
        [RANK[hands[p, i]] for p in range(2) for i in range(hands.shape[1]) if used[p, i]],
        dtype=np.int64,
    )
    vals = card_values(
        mine[order], series, st[pegging.N], st[pegging.COUNT], h, w, public_ranks(laid, pr), pr
    )
    pick = best_margin(vals, pr)
    if pick < 0:
        return -1
    if here >= 0:
        memo[here] = mine[order[pick]]
    return order[pick]
