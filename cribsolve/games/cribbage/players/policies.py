"""The play's policies: how each kind of player picks its next card, and the loop that plays the
rest of a play out with them (by rules/pegging.py's kernels). ``greedy`` takes the most points
now, ``lookahead`` the best margin over playouts of the cards it has not seen, ``expert`` the
information-set search (infoset_search.py), ``expert1`` the open-hands search (open_search.py),
``random`` any legal card (docs/pegging.md); with three or four players ``expert`` lays by
search_choice (sampled deals that fit the goes, the same deals for every card).
"""

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.players import infoset_search, open_search
from cribsolve.games.cribbage.rules.pegging import (
    COUNT,
    LAST,
    MAX_EVENTS,
    TURN,
    N,
    aim,
    card_points,
    lay,
    log_points,
    settle,
    side,
    unseen_cards,
)
from cribsolve.games.cribbage.rules.spec import LOWBALL, PARTNERS, PEG_LIMIT, TARGET
from cribsolve.infra.jit import njit, prange

RANDOM, GREEDY, LOOKAHEAD, EXPERT1, EXPERT, EXPERT_DRAWN = 0, 1, 2, 3, 4, 5
POLICIES = {
    "random": RANDOM,
    "greedy": GREEDY,
    "lookahead": LOOKAHEAD,
    "expert1": EXPERT1,
    "expert": EXPERT,
    "expert-drawn": EXPERT_DRAWN,
}
PLAYOUTS = 48  # opponent holdings sampled per card by the look-ahead policy
SEARCH_DEALS = 200  # deals of the others' cards the expert searches with three or four players
# The players whose code a compiled copy of the play carries: game.flags sets each to False
# (jit.variant) where no such player sits, and then its search is never compiled (EXPERTN_ON:
# the expert at three or four players).
LOOKAHEAD_ON = EXPERT1_ON = EXPERT_ON = EXPERTN_ON = True
# Like pegging's kernels of a card laid, the greedy player's make no arrays: no reference counts.


@njit(cache=True, _nrt=False)
def _safety(count, card, pr):
    """Tie-break for equal points: avoid leaving a count from which a ten-card makes the
    target or the limit (5 or 21), and avoid leading a card worth target - 10 (a 5)."""
    v = VALUE[RANK[card]]
    s = 0.0
    if count + v == pr[TARGET] - 10 or count + v == pr[PEG_LIMIT] - 10:
        s -= 1.0
    if count == 0 and v == pr[TARGET] - 10:
        s -= 0.5
    return s


@njit(cache=True, _nrt=False)
def greedy_choice(hand, used, series, n, count, pr):
    """The legal card that scores most now (least, under lowball), ties broken toward safer
    counts (riskier ones under lowball)."""
    best = -1e9
    pick = -1
    for i in range(hand.shape[0]):
        v = VALUE[RANK[hand[i]]]
        if used[i] or count + v > pr[PEG_LIMIT]:
            continue
        series[n] = RANK[hand[i]]
        val = aim(pr) * (
            card_points(series, n + 1, count + v, pr) + 0.1 * _safety(count, hand[i], pr)
        )
        if val > best:
            best = val
            pick = i
    return pick


@njit(cache=True)
def _random_choice(hand, used, count, limit):
    k = 0
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= limit:
            k += 1
    j = np.random.randint(k)
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= limit:
            if j == 0:
                return i
            j -= 1
    return -1


@njit(cache=True, _nrt=False)
def _log_new(trace, points, before):
    for q in range(points.shape[0]):
        log_points(trace, q, points[q] - before[q], points.shape[0])
        before[q] = points[q]


@njit(cache=True, inline="always")
def is_expert(policy):
    """Whether ``policy`` is the expert, its holdings spread or drawn (the same throw, the same
    search, the same board)."""
    return policy == EXPERT or policy == EXPERT_DRAWN


@njit(cache=True, inline="always")
def choose(policy, hands, used, series, st, known, pr, shares, memo):
    """The card (its place in hands[turn]) that ``policy`` lays now (``memo``: the expert's
    first cards, first_cards.py)."""
    p = st[TURN]
    if policy == GREEDY:
        return greedy_choice(hands[p], used[p], series, st[N], st[COUNT], pr)
    if LOOKAHEAD_ON and policy == LOOKAHEAD:
        return lookahead_choice(hands, used, series, st, known, pr)
    if EXPERTN_ON and is_expert(policy) and hands.shape[0] > 2:
        return search_choice(hands, used, series, st, known, pr)
    if EXPERT1_ON and policy == EXPERT1:
        return open_search.open_choice(hands, used, series, st, known, pr, shares)
    if EXPERT_ON and is_expert(policy):
        drawn = policy == EXPERT_DRAWN
        return infoset_search.infoset_choice(
            hands, used, series, st, known, pr, shares, drawn, memo
        )
    return _random_choice(hands[p], used[p], st[COUNT], pr[PEG_LIMIT])


@njit(cache=True)
def peg_out(hand, used, series, st, need, pr, choice):
    """The expert's card when one of its legal cards scores the ``need`` points that win the
    game now (the first such), else its ``choice``: whatever its search says of the rest of
    the play, a win now is worth more."""
    for i in range(hand.shape[0]):
        v = VALUE[RANK[hand[i]]]
        if used[i] or st[COUNT] + v > pr[PEG_LIMIT]:
            continue
        series[st[N]] = RANK[hand[i]]
        if card_points(series, st[N] + 1, st[COUNT] + v, pr) >= need:
            return i
    return choice


@njit(cache=True)
def play(hands, used, series, st, policies, known, points, scores, target, pr, trace, shares, memo):
    """Play out the rest of a play; points[p] and scores[p] grow as cards score, stopping the
    moment a score reaches ``target`` (0: never), and each score is logged in ``trace``
    (log_points). Returns that player, or -1. ``known[p, card]``: the copies of each card
    player p has seen (the look-ahead samples the rest); ``shares``: the expert's throw model
    (inference.keep_shares); ``memo``: its first cards (first_cards.py; NO_MEMO: none)."""
    before = points.copy()
    while True:
        p, winner = settle(hands, used, st, points, scores, target, pr)
        _log_new(trace, points, before)
        if p < 0:
            return winner
        i = choose(policies[p], hands, used, series, st, known, pr, shares, memo)
        if is_expert(policies[p]) and target > 0 and not pr[LOWBALL]:
            i = peg_out(hands[p], used[p], series, st, target - scores[side(p, pr)], pr, i)
        won = lay(hands, used, series, st, i, points, scores, target, known, pr)
        _log_new(trace, points, before)
        if won:
            return p


NO_FLOORS = np.full(4, -1, dtype=np.int64)  # deal_unseen's ``floors``: no seat said go


@njit(cache=True)
def deal_unseen(hands, used, me, unseen, floors):
    """Fill every other seat's unplayed places in ``hands`` (a copy) with a draw from
    ``unseen``, every deal that fits the goes equally likely (floors[q]: each of seat q's
    cards is worth more than this, its goes; -1: no bound). One shuffle of ``unseen``; the
    seats with a floor first, the most bound first, each card a uniform pick among the cards
    left that fit (not the shuffle's first that fit, which would leave the next seat the
    unfitting ones too often); then the others in seat order, the shuffle's first cards
    left. False where too few fit."""
    seats = hands.shape[0]
    draw = np.random.permutation(unseen)
    taken = np.zeros(draw.shape[0], dtype=np.bool_)
    done = np.zeros(seats, dtype=np.bool_)
    done[me] = True
    for _ in range(seats - 1):
        q = -1
        for p in range(seats):
            if not done[p] and (q < 0 or floors[p] > floors[q]):
                q = p
        done[q] = True
        j = 0
        for i in range(hands.shape[1]):
            if used[q, i]:
                continue
            if floors[q] >= 0:
                fit = 0
                for x in range(draw.shape[0]):
                    fit += not taken[x] and VALUE[RANK[draw[x]]] > floors[q]
                if fit == 0:
                    return False
                r = np.random.randint(fit)
                j = 0
                while taken[j] or VALUE[RANK[draw[j]]] <= floors[q] or r > 0:
                    if not taken[j] and VALUE[RANK[draw[j]]] > floors[q]:
                        r -= 1
                    j += 1
            else:
                while j < draw.shape[0] and taken[j]:
                    j += 1
                if j == draw.shape[0]:
                    return False
            hands[q, i] = draw[j]
            taken[j] = True
    return True


@njit(cache=True)
def add_sides(total, pts, me, pr):
    """Add a play's points by seat (``pts``) to total = [mine, theirs]: mine my side's (with
    my partner's), theirs the other sides', averaged over them (one side with two players)."""
    seats = pts.shape[0]
    sides = 2 if pr[PARTNERS] else seats
    for q in range(seats):
        if q == me or side(q, pr) == side(me, pr):
            total[0] += pts[q]
        else:
            total[1] += pts[q] / (sides - 1)


@njit(cache=True)
def expected_pegging(hands, used, series, st, known, i, playouts, pr):
    """Mean pegging points (mine, theirs; add_sides) over the rest of the play if the player
    to lay lays hands[turn, i]: the others' unplayed cards are drawn ``playouts`` times from
    the cards this player has not seen (deal_unseen), then every seat plays greedily."""
    me = st[TURN]
    seats = hands.shape[0]
    sides = 2 if pr[PARTNERS] else seats
    unseen = unseen_cards(known[me], pr)
    total = np.zeros(2)
    for _ in range(playouts):
        h, u, s, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        deal_unseen(h, u, me, unseen, NO_FLOORS)
        pts = np.zeros(seats, dtype=np.int64)
        sc = np.zeros(sides, dtype=np.int64)
        greedy_rest(h, u, s, t, i, pts, sc, kn, pr)
        add_sides(total, pts, me, pr)
    return total[0] / playouts, total[1] / playouts


@njit(cache=True)
def greedy_rest(h, u, s, t, i, pts, sc, kn, pr):
    """The player to lay lays h[turn, i], then every seat lays greedily to the play's end;
    each seat's points go into ``pts`` (the arrays are the playout's own, changed here)."""
    lay(h, u, s, t, i, pts, sc, 0, kn, pr)
    while True:
        p, _ = settle(h, u, t, pts, sc, 0, pr)
        if p < 0:
            return
        lay(h, u, s, t, greedy_choice(h[p], u[p], s, t[N], t[COUNT], pr), pts, sc, 0, kn, pr)


@njit(cache=True)
def go_floors(seats, st, pr):
    """The goes a play's state shows (deal_unseen's ``floors``): every seat passed over since
    the last card was laid said go at this count, so each of its cards is worth more than
    the count left. Earlier goes are not in the state; they bind nothing here."""
    floors = np.full(seats, -1, dtype=np.int64)
    if st[LAST] >= 0 and st[COUNT] > 0:
        q = (st[LAST] + 1) % seats
        while q != st[TURN]:
            floors[q] = pr[PEG_LIMIT] - st[COUNT]
            q = (q + 1) % seats
    return floors


@njit(cache=True)
def search_values(hands, used, series, st, known, deals, pr):
    """For each card the seat to lay (me) may lay now, one per rank (NaN rows for the rest):
    the mean [mine, theirs] (add_sides) over the rest of the play, over ``deals`` deals of
    the others' unplayed cards from the cards I have not seen, each fitting the goes the
    state shows (go_floors; any deal where too few fit), the same deals for every card,
    then every seat greedy."""
    me = st[TURN]
    seats, k = hands.shape
    pool = unseen_cards(known[me], pr)
    floors = go_floors(seats, st, pr)
    out = np.full((k, 2), np.nan)
    for i in range(k):
        if not used[me, i] and st[COUNT] + VALUE[RANK[hands[me, i]]] <= pr[PEG_LIMIT]:
            out[i] = 0.0
            for j in range(i):
                if RANK[hands[me, j]] == RANK[hands[me, i]] and not np.isnan(out[j, 0]):
                    out[i] = np.nan  # the same rank plays the same
    for _ in range(deals):
        h, u = hands.copy(), used.copy()
        if not deal_unseen(h, u, me, pool, floors):
            h, u = hands.copy(), used.copy()
            deal_unseen(h, u, me, pool, NO_FLOORS)
        for i in range(k):
            if not np.isnan(out[i, 0]):
                h2, u2 = h.copy(), u.copy()
                pts = np.zeros(seats, dtype=np.int64)
                sc = np.zeros(seats, dtype=np.int64)
                greedy_rest(h2, u2, series.copy(), st.copy(), i, pts, sc, known.copy(), pr)
                add_sides(out[i], pts, me, pr)
    return out / deals


@njit(cache=True)
def search_choice(hands, used, series, st, known, pr):
    """The expert's card with three or four players: the best mean margin of search_values
    over SEARCH_DEALS deals (the least under lowball), ties to the safer count. Unlike the
    look-ahead (fresh draws per card, goes ignored) its cards are weighed on the same deals,
    each fitting the goes it has seen."""
    vals = search_values(hands, used, series, st, known, SEARCH_DEALS, pr)
    me = st[TURN]
    best = -1e18
    pick = -1
    for i in range(hands.shape[1]):
        if not np.isnan(vals[i, 0]):
            v = aim(pr) * (vals[i, 0] - vals[i, 1] + 0.01 * _safety(st[COUNT], hands[me, i], pr))
            if v > best:
                best = v
                pick = i
    return pick


@njit(cache=True, parallel=True)
def playouts(hands, used, series, st, options, pool, floors, known, seeds, policy, pr):
    """For each card hands[me, options[o]] laid now (me: the seat to lay) and each seed: the
    rest of the play's points [mine, theirs] (add_sides), the other seats' unplayed cards
    (their places in ``hands``) drawn from ``pool`` as deal_unseen draws them (``floors``:
    their goes), then every seat laying by ``policy`` (GREEDY or LOOKAHEAD) from what it
    knows: ``known``, the cards each seat has seen (its own drawn hand is added here). One
    seed deals the same cards for every card of mine, so their differences are measured
    on the same deals."""
    me, n, seats = st[TURN], seeds.shape[0], hands.shape[0]
    out = np.zeros((options.shape[0], n, 2))
    pols = np.full(seats, policy, dtype=np.int64)
    for j in prange(options.shape[0] * n):
        o, s = j // n, j % n
        np.random.seed(seeds[s])
        h, u, ser, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        deal_unseen(h, u, me, pool, floors)
        for q in range(seats):
            if q != me:
                for i in range(h.shape[1]):
                    if not u[q, i]:
                        kn[q, h[q, i]] += 1
        pts = np.zeros(seats, dtype=np.int64)
        sc = np.zeros(seats, dtype=np.int64)
        trace = np.zeros(max(MAX_EVENTS, 2 * seats * h.shape[1] + 2) + 1, dtype=np.int64)
        lay(h, u, ser, t, options[o], pts, sc, 0, kn, pr)
        # no throw model, no memo (NO_MODEL, NO_MEMO: a global array is read-only to numba)
        play(
            h, u, ser, t, pols, kn, pts, sc, 0, pr, trace, np.zeros((0, 1, 1)), np.zeros(0, np.int8)
        )
        add_sides(out[o, s], pts, me, pr)
    return out


@njit(cache=True)
def lookahead_choice(hands, used, series, st, known, pr):
    """The legal card with the best expected pegging margin (mine - theirs; the reverse under
    lowball) over the rest of the play (expected_pegging, PLAYOUTS draws); ties go to the
    safer count."""
    me = st[TURN]
    best = -1e9
    pick = -1
    for i in range(hands.shape[1]):
        if used[me, i] or st[COUNT] + VALUE[RANK[hands[me, i]]] > pr[PEG_LIMIT]:
            continue
        mine, theirs = expected_pegging(hands, used, series, st, known, i, PLAYOUTS, pr)
        v = aim(pr) * (mine - theirs + 0.01 * _safety(st[COUNT], hands[me, i], pr))
        if v > best:
            best = v
            pick = i
    return pick
