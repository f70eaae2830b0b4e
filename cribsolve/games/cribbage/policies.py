"""The play's policies: how each kind of player picks its next card, and the loop that plays
the rest of a play out with them (the rules it follows are play.py's).

``greedy`` takes the most points now, ``lookahead`` the best margin over the rest of the play
with the others' cards drawn from what it has not seen, ``expert`` the information-weighted
search of search.py, ``random`` any legal card.
"""
import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage import infoset, search
from cribsolve.games.cribbage.play import (COUNT, TURN, N, aim, card_points, lay, log_points,
                                           settle, side, unseen_cards)
from cribsolve.games.cribbage.spec import PARTNERS, PEG_LIMIT, TARGET
from cribsolve.infra.jit import njit

RANDOM, GREEDY, LOOKAHEAD, EXPERT1, EXPERT = 0, 1, 2, 3, 4
POLICIES = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD, "expert1": EXPERT1,
            "expert": EXPERT}
PLAYOUTS = 48           # opponent holdings sampled per card by the look-ahead policy


@njit(cache=True)
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


@njit(cache=True)
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
        val = aim(pr) * (card_points(series, n + 1, count + v, pr)
                          + 0.1 * _safety(count, hand[i], pr))
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


@njit(cache=True)
def _log_new(trace, points, before):
    for q in range(points.shape[0]):
        log_points(trace, q, points[q] - before[q], points.shape[0])
        before[q] = points[q]


@njit(cache=True)
def choose(policy, hands, used, series, st, known, pr, shares):
    """The card (its place in hands[turn]) that ``policy`` lays now."""
    p = st[TURN]
    if policy == GREEDY:
        return greedy_choice(hands[p], used[p], series, st[N], st[COUNT], pr)
    if policy == LOOKAHEAD:
        return lookahead_choice(hands, used, series, st, known, pr)
    if policy == EXPERT1:
        return search.expert_choice(hands, used, series, st, known, pr, shares)
    if policy == EXPERT:
        return infoset.expert_choice(hands, used, series, st, known, pr, shares)
    return _random_choice(hands[p], used[p], st[COUNT], pr[PEG_LIMIT])


@njit(cache=True)
def play(hands, used, series, st, policies, known, points, scores, target, pr, trace, shares):
    """Play out the rest of a play; points[p] and scores[p] grow as cards score, stopping the
    moment a score reaches ``target`` (0: never), and each score is logged in ``trace``
    (log_points). Returns that player, or -1. ``known[p, card]``: the copies of each card
    player p has seen (the look-ahead samples the rest); ``shares``: the expert's throw model
    (inference.keep_shares)."""
    before = points.copy()
    while True:
        p, winner = settle(hands, used, st, points, scores, target, pr)
        _log_new(trace, points, before)
        if p < 0:
            return winner
        i = choose(policies[p], hands, used, series, st, known, pr, shares)
        won = lay(hands, used, series, st, i, points, scores, target, known, pr)
        _log_new(trace, points, before)
        if won:
            return p


@njit(cache=True)
def expected_pegging(hands, used, series, st, known, i, playouts, pr):
    """Mean pegging points (mine, theirs) over the rest of the play if the player to lay lays
    hands[turn, i]: the others' unplayed cards are drawn ``playouts`` times from the cards
    this player has not seen, then every seat plays greedily. Mine are my side's (with my
    partner's); theirs the other sides', averaged over them (one side with two players)."""
    me = st[TURN]
    seats = hands.shape[0]
    sides = 2 if pr[PARTNERS] else seats
    unseen = unseen_cards(known[me], pr)
    total = np.zeros(2)
    for _ in range(playouts):
        h, u, s, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        draw = np.random.permutation(unseen)
        j = 0
        for opp in range(seats):
            if opp == me:
                continue
            for q in range(hands.shape[1]):
                if not u[opp, q]:
                    h[opp, q] = draw[j]
                    j += 1
        pts = np.zeros(seats, dtype=np.int64)
        sc = np.zeros(sides, dtype=np.int64)
        lay(h, u, s, t, i, pts, sc, 0, kn, pr)
        while True:
            p, _ = settle(h, u, t, pts, sc, 0, pr)
            if p < 0:
                break
            lay(h, u, s, t, greedy_choice(h[p], u[p], s, t[N], t[COUNT], pr), pts, sc, 0, kn,
                pr)
        for q in range(seats):
            if q == me or side(q, pr) == side(me, pr):
                total[0] += pts[q]
            else:
                total[1] += pts[q] / (sides - 1)
    return total[0] / playouts, total[1] / playouts


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
