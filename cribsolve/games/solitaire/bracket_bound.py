"""The kernels of the bracket's upper bound: each deck's penalised value, an information
relaxation with a penalty (Brown, Smith and Sun, Operations Research 58(4), 2010). The player
sees the whole deck but each decision is charged phi(next state) - E[phi(next state) | what
was known then]; the charges have mean zero under any real policy, so the mean over decks of
the best penalised result bounds the optimal win rate from above.

phi is the win table W (simulate.win_table) and, in Patience, the after value (deckvalue.py);
the expectations are exact (every face-down pair and starter), and Patience's charge for
seeing the next hand uses hands drawn independently of the deck, so it too averages zero.
Patience II charges a deal's two discards as one decision, given both hands: looser, still
valid. Along the best policy's own play, ``path_value`` has that policy's mean and is never
above the bound: the bracket counts its width deck by deck. The method and
its history: docs/research.md.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.expect import N_CLASSES, OFFSET
from cribsolve.core.fastev import OPT_DISC, OPT_KEEP, ev_discard
from cribsolve.core.scoring.table import score5
from cribsolve.games.solitaire.deckvalue import continuation, value_row
from cribsolve.games.solitaire.patience import (
    WIN_AT,
    _in_doubt,
    deal_distributions,
    deal_points,
    draw_cards,
    patience2_deal,
    patience_deal,
    unseen_of,
    win_discard,
)
from cribsolve.infra.jit import njit, prange


@njit(cache=True)
def penalised_value(x, phi, q, win_at):
    """The best penalised result of one deck, from score 0.

    x[d, o]: the points deal d makes with action o on this deck; phi[d, s]: the value function
    of the state after deal d at score s (capped at win_at), as it falls on this deck;
    q[d, s, o]: its expectation given what the player knew at deal d, from score s with action
    o. Returns max over actions of 1{final >= win_at} - sum_d (phi[d, s_d+1] - q[d, s_d, o_d])."""
    deals, n_opt = x.shape
    v = np.zeros(win_at + 1)
    v[win_at] = 1.0
    nxt = np.empty(win_at + 1)
    for d in range(deals - 1, -1, -1):
        for s in range(win_at + 1):
            best = -1e300
            for o in range(n_opt):
                t = min(s + x[d, o], win_at)
                val = v[t] - phi[d, t] + q[d, s, o]
                if val > best:
                    best = val
            nxt[s] = best
        v[:] = nxt
    return v[0]


@njit(cache=True)
def path_value(x, phi, q, picks, win_at):
    """The penalised result of one line of play (picks[d]: deal d's discard), from score 0:
    1{final >= win_at} - sum_d (phi[d, s_d+1] - q[d, s_d, o_d]). Never above penalised_value;
    along a real policy's play its mean is that policy's win rate (the charges average zero),
    with far less noise than the win alone."""
    s, charges = 0, 0.0
    for d in range(x.shape[0]):
        t = min(s + x[d, picks[d]], win_at)
        charges += phi[d, t] - q[d, s, picks[d]]
        s = t
    return (1.0 if s >= win_at else 0.0) - charges


@njit(cache=True)
def _expect(hist_counts, lo, hi, total, w_next, q_col):
    """q_col[s] = E[w_next[min(s + points, WIN_AT)]], points distributed as hist_counts[lo:hi]
    (weights summing to total), for every score s."""
    for s in range(WIN_AT + 1):
        acc = 0.0
        for i in range(lo, hi):
            if hist_counts[i] != 0.0:
                acc += hist_counts[i] * w_next[min(s + i, WIN_AT)]
        q_col[s] = acc / total


@njit(cache=True)
def hand_charges(hand, seen, w_next, table, uniform, q):
    """q[s, o] = E[w_next[min(s + points, WIN_AT)]] for each of the hand's 15 discards, exact
    over every face-down pair and starter not in ``seen`` (the win policy's P(win))."""
    hists, _ = deal_distributions(hand, unseen_of(seen), table, uniform)
    col = np.empty(WIN_AT + 1)
    for o in range(15):
        nz = np.flatnonzero(hists[o, OFFSET:])
        _expect(hists[o, OFFSET:], nz[0], nz[-1] + 1, 1.0, w_next, col)
        q[:, o] = col


@njit(cache=True)
def next_hand_mean(seen, wins, coefs, k, table, uniform, rand):
    """An unbiased estimate of E[max_o q[s, o]] over the next hand, for every score s: the mean
    over len(rand) hands drawn from the cards not in ``seen`` (rand[m]: six uniforms each), each
    charged with the continuation (k deals after it) its own unseen cards give."""
    unseen = unseen_of(seen)
    hand = np.empty(6, dtype=np.int64)
    qs = np.empty((WIN_AT + 1, 15))
    w_next = np.empty(WIN_AT + 1)
    est = np.zeros(WIN_AT + 1)
    for m in range(rand.shape[0]):
        draw_cards(unseen, rand[m], hand)
        seen2 = seen.copy()
        for c in hand:
            seen2[c] = True
        continuation(wins, coefs, k, seen2, w_next)
        hand_charges(hand, seen2, w_next, table, uniform, qs)
        for s in range(WIN_AT + 1):
            est[s] += qs[s].max()
    return est / max(1, rand.shape[0])


def _triples() -> np.ndarray:
    """TRIPLES[a, b, c] for ranks a <= b <= c: the index of that multiset of three ranks."""
    index = np.full((13, 13, 13), -1, dtype=np.int64)
    i = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                index[a, b, c] = i
                i += 1
    return index


TRIPLES = _triples()  # the 455 rank multisets a crib pair and a starter can take
MAX_DEAL = 64  # above a Patience deal's points (hand and crib 29 each, heels)


@njit(cache=True)
def outcome_charges(hand, seen, wins, after, k, table, q):
    """q[s, o] = E[A(min(s + points, WIN_AT))] for each of the hand's 15 discards, exact over
    every face-down pair and starter not in ``seen``, A being the after value (row ``after``,
    k deals left) of the cards still unseen once those three are turned. The three ranks fix A,
    so the points are counted by discard and rank multiset first, then weighed by its A."""
    unseen = unseen_of(seen)
    n = unseen.shape[0]
    counts = np.zeros(13)
    for c in unseen:
        counts[c // 4] += 1.0  # ranks 0-12, as deckvalue counts
    hand_pts = np.empty((n, 15), dtype=np.int64)  # kept four + starter, heels
    for m in range(n):
        st = unseen[m]
        for o in range(15):
            kk = OPT_KEEP[o]
            hand_pts[m, o] = score5(
                table, hand[kk[0]], hand[kk[1]], hand[kk[2]], hand[kk[3]], st, False
            ) + 2 * (RANK[st] == JACK)
    hist = np.zeros((15, 455, MAX_DEAL))
    used = np.zeros(455, dtype=np.bool_)
    rows = np.zeros((455, WIN_AT + 1))
    for i in range(n):
        a = unseen[i]
        for j in range(i + 1, n):
            b = unseen[j]
            for m in range(n):
                if m == i or m == j:
                    continue
                st = unseen[m]
                r0, r1, r2 = a // 4, b // 4, st // 4
                if r0 > r1:
                    r0, r1 = r1, r0
                if r1 > r2:
                    r1, r2 = r2, r1
                if r0 > r1:
                    r0, r1 = r1, r0
                key = TRIPLES[r0, r1, r2]
                if not used[key]:
                    used[key] = True
                    counts[r0] -= 1.0
                    counts[r1] -= 1.0
                    counts[r2] -= 1.0
                    value_row(wins, after, k, counts, rows[key])
                    counts[r0] += 1.0
                    counts[r1] += 1.0
                    counts[r2] += 1.0
                for o in range(15):
                    d = OPT_DISC[o]
                    p = hand_pts[m, o] + score5(table, hand[d[0]], hand[d[1]], a, b, st, False)
                    hist[o, key, p] += 1.0
    q[:, :] = 0.0
    for o in range(15):
        for key in range(455):
            if used[key]:
                for p in range(MAX_DEAL):
                    if hist[o, key, p] != 0.0:
                        for s in range(WIN_AT + 1):
                            q[s, o] += hist[o, key, p] * rows[key, min(s + p, WIN_AT)]
    q /= n * (n - 1) / 2 * (n - 2)


@njit(cache=True)
def patience_terms(deck, wins, coefs, after, table, rand):
    """penalised_value's (x, phi, q) for one Cribbage Patience deck, and picks, W being the
    continuation of deckvalue.py (the deck value with ``coefs``, W alone with none). With
    ``after`` (the after value's coefficients; none: the continuation) phi[d] before the last
    deal is the after value of the cards this deck leaves unseen, and q its exact expectation
    (outcome_charges). With rand (shape (4, M, 6), M > 0) the charge of deal d also looks at
    the next hand h: phi[d, s] gains U(s, h) - (the mean of U(s, .) over M hands drawn from
    the cards then unseen), U(s, h) the deck (or win) policy's P(win) with h in hand. The added
    term has mean zero given everything seen by the end of deal d, whatever the discard, so q
    is unchanged and the bound stays valid; it charges the player for knowing the next hand.
    picks[d]: the discard the deck policy (W's win policy with no coefs) makes on deal d of
    this deck, as play_patience chooses it (for path_value)."""
    seen = np.zeros(53, dtype=np.bool_)
    uniform = np.ones(N_CLASSES)
    x = np.zeros((5, 15), dtype=np.int64)
    phi = np.zeros((5, WIN_AT + 1))
    q = np.zeros((5, WIN_AT + 1, 15))
    policy_q = np.zeros((WIN_AT + 1, 15))
    w = np.empty(WIN_AT + 1)
    charge_after = after.shape[0] > 0
    look = rand.shape[1] > 0
    picks = np.zeros(5, dtype=np.int64)
    score = 0
    for d in range(5):
        crib2, hand, s = patience_deal(deck, d)
        if d > 0 and look:
            est = next_hand_mean(seen, wins, coefs, 4 - d, table, uniform, rand[d - 1])
        for c in hand:
            seen[c] = True
        continuation(wins, coefs, 4 - d, seen, w)
        hand_charges(hand, seen, w, table, uniform, policy_q)
        if _in_doubt(wins[4 - d], score):
            picks[d] = win_discard(hand, seen, score, w, table, uniform)[0]
        else:
            picks[d] = ev_discard(hand, unseen_of(seen), table)
        if d < 4 and charge_after:
            outcome_charges(hand, seen, wins, after[4 - d], 4 - d, table, q[d])
        else:
            phi[d] = w
            q[d] = policy_q
        if d > 0 and look:
            for t in range(WIN_AT + 1):
                phi[d - 1, t] += policy_q[t].max() - est[t]
        for o in range(15):
            x[d, o] = deal_points(hand, o, crib2, s, table) + 2 * (RANK[s] == JACK)
        score += x[d, picks[d]]
        seen[crib2[0]] = True
        seen[crib2[1]] = True
        seen[s] = True
        if d < 4 and charge_after:  # the after value of the cards this deck leaves
            continuation(wins, after, 4 - d, seen, phi[d])
    return x, phi, q, picks


MAX_POINTS = 3 * 29 + 3  # Patience II: three hands and heels, with room


@njit(cache=True)
def patience2_terms(deck, wins, table):
    """penalised_value's (x, phi, q) for one Cribbage Patience II deck: a deal's two discards
    are one action, 15 * first + second, charged given both hands."""
    seen = np.zeros(53, dtype=np.bool_)
    x = np.zeros((4, 225), dtype=np.int64)
    phi = np.zeros((4, WIN_AT + 1))
    q = np.zeros((4, WIN_AT + 1, 225))
    first = np.empty(2, dtype=np.int64)
    col = np.empty(WIN_AT + 1)
    counts = np.zeros(MAX_POINTS + 1)
    for d in range(4):
        h1, h2, st = patience2_deal(deck, d)
        for c in h1:
            seen[c] = True
        for c in h2:
            seen[c] = True
        unseen = unseen_of(seen)
        w_next = wins[3 - d]
        phi[d] = w_next
        for a in range(15):
            first[0] = h1[OPT_DISC[a, 0]]
            first[1] = h1[OPT_DISC[a, 1]]
            k = OPT_KEEP[a]
            for b in range(15):
                counts[:] = 0.0
                lo, hi = MAX_POINTS, 0
                for s in unseen:
                    p = (
                        score5(table, h1[k[0]], h1[k[1]], h1[k[2]], h1[k[3]], s, False)
                        + deal_points(h2, b, first, s, table)
                        + 2 * (RANK[s] == JACK)
                    )
                    counts[p] += 1.0
                    lo = min(lo, p)
                    hi = max(hi, p + 1)
                    if s == st:
                        x[d, 15 * a + b] = p
                _expect(counts, lo, hi, unseen.shape[0], w_next, col)
                q[d, :, 15 * a + b] = col
        seen[st] = True
    return x, phi, q


@njit(cache=True, parallel=True)
def bound_games(decks, variant2, wins, coefs, after, table, rand):
    """(bound, path): every deck's penalised value and, in Patience, the path_value of the
    policy coefs plays (the deck policy's with the deck value, win's with none; NaN in
    Patience II), spread over threads; rand[i]: deck i's uniforms, coefs
    the deck value and after the after value for patience_terms (Patience only)."""
    bound = np.empty(decks.shape[0])
    path = np.full(decks.shape[0], np.nan)
    for i in prange(decks.shape[0]):
        if variant2:
            x, phi, q = patience2_terms(decks[i], wins, table)
        else:
            x, phi, q, picks = patience_terms(decks[i], wins, coefs, after, table, rand[i])
            path[i] = path_value(x, phi, q, picks, WIN_AT)
        bound[i] = penalised_value(x, phi, q, WIN_AT)
    return bound, path
