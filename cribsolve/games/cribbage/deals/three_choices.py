"""Throws and cards weighed by a three-player board: each choice's P(win) of the game, for
``best-discard --players 3 --scores`` and ``best-play --players 3 --scores`` (docs/odds.md,
"Three players"). As win_choices does for two: each choice is played out on the same shuffles
of the unseen cards, every seat greedy, and each played deal is valued as the three-player
table values one (three_odds.deal_wins); standard errors are over the shuffles.
"""

from __future__ import annotations

import numpy as np

from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.cribbage.deals.deal import part_count, trace_length
from cribsolve.games.cribbage.deals.game import flags
from cribsolve.games.cribbage.deals.three_odds import (
    SEATS,
    deal_wins,
    three_error,
    three_odds_table,
    three_rows,
)
from cribsolve.games.cribbage.deals.win_choices import BoardThrow, board_throws, played_throws
from cribsolve.games.cribbage.players.policies import GREEDY, deal_unseen, play
from cribsolve.games.cribbage.rules.pegging import TURN, lay, log_points
from cribsolve.games.cribbage.throw.values import show_points
from cribsolve.infra.jit import njit, threaded, variant


def check_board3(spec, board) -> None:
    """Refuse a three-player board the table cannot weigh, before anything is built."""
    if three_error(spec):
        raise CribsolveError(three_error(spec))
    if spec.lowball:
        raise CribsolveError("the three-player odds are of the game to more points, not lowball")
    if len(board) != SEATS or not all(0 <= v < spec.game_length for v in board):
        raise CribsolveError(f"give three scores below the game length ({spec.game_length})")


def _wins(parts, traces, board, seat, spec, n_choices, samples):
    """(each choice's P(win) for ``seat``, its standard error, each seat's mean points in the
    deal [choice, seat]) from its ``samples`` rollouts (rows choice by choice)."""
    rows, _, times = three_rows(parts, traces)
    win = three_odds_table(spec)
    p = deal_wins(win, np.array(board, dtype=np.int64), rows, times, spec.game_length)
    p = p[:, seat].reshape(n_choices, samples)
    points = rows.reshape(n_choices, samples, SEATS).mean(axis=1)
    return p.mean(axis=1), p.std(axis=1, ddof=1) / np.sqrt(samples), points


def throw_odds3(hand, seat, board, spec, known=(), samples=1000, seed=0) -> list[BoardThrow]:
    """Every throw of ``hand`` (dealt to ``seat``: 0 at the dealer's left, 2 the dealer) from
    ``board`` (the scores seat by seat), the most likely to win first. ``mine``: my points
    in the deal; ``theirs``: the mean of the other two players'."""
    check_board3(spec, board)
    parts, traces, keep_idx, disc_idx = played_throws(hand, seat, spec, known, samples, seed)
    p, se, points = _wins(parts, traces, board, seat, spec, len(keep_idx), samples)
    others = (points.sum(axis=1) - points[:, seat]) / (SEATS - 1)
    return board_throws(hand, keep_idx, disc_idx, points[:, seat], others, p, se)


@njit(cache=True, nogil=True)
def _play_rollouts3(
    rows, hands, used, series, st, options, pool, floors, known, crib, seeds, table, pr
):
    """For each row i of ``rows``, the card hands[me, options[o]] laid now on shuffle s (o =
    i // n, s = i % n, n shuffles: seeds): the rest of the deal from here, as rows of parts
    (deal.part_count: this deal's points from now) and traces. The others' unplayed cards
    (-1 in hands) are drawn as policies.deal_unseen draws them (``floors``: their goes); the
    crib's unknown cards (-1 in ``crib``, whose last slot is the starter) from the rest."""
    me, n, k = st[TURN], seeds.shape[0], hands.shape[1]
    parts = np.zeros((rows.shape[0], part_count(SEATS)), dtype=np.int64)
    traces = np.zeros((rows.shape[0], trace_length(pr)), dtype=np.int64)
    pol = np.full(SEATS, GREEDY, dtype=np.int64)
    for r in range(rows.shape[0]):
        i = rows[r]
        o, s = i // n, i % n
        np.random.seed(seeds[s])
        h, u, ser, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        deal_unseen(h, u, me, pool, floors)
        left = np.zeros(53, dtype=np.int64)
        for c in pool:
            left[c] += 1
        for q in range(SEATS):
            for j in range(k):
                if q != me and not u[q, j]:
                    left[h[q, j]] -= 1
                    kn[q, h[q, j]] += 1
        rest = np.empty(left.sum(), dtype=np.int64)
        j = 0
        for c in range(53):
            for _ in range(left[c]):
                rest[j] = c
                j += 1
        rest = np.random.permutation(rest)
        c = crib.copy()
        j = 0
        for q in range(c.shape[0] - 1):
            if c[q] < 0:
                c[q] = rest[j]
                j += 1
        pts = np.zeros(SEATS, dtype=np.int64)
        sc = np.zeros(SEATS, dtype=np.int64)
        lay(h, u, ser, t, options[o], pts, sc, 0, kn, pr)
        log_points(traces[r], me, pts[me], SEATS)
        no_model, no_memo = np.zeros((0, 1, 1)), np.zeros(0, np.int8)  # read-only as globals
        play(h, u, ser, t, pol, kn, pts, sc, 0, pr, traces[r], no_model, no_memo)
        show = np.empty(k + 1, dtype=np.int64)
        show[k] = c[c.shape[0] - 1]
        for q in range(SEATS):
            parts[r, SEATS - q] = pts[q]  # the pegging from the dealer back
            show[:k] = h[q]
            parts[r, 1 + SEATS + q] = show_points(show, k, table, False, pr)
        parts[r, 1 + 2 * SEATS] = show_points(c, c.shape[0] - 1, table, True, pr)
    return parts, traces


def play_odds3(
    hand, played, me, starter, thrown, board, seen=(), spec=None, samples=1000, seed=0
) -> list[tuple]:
    """Every card I may lay now (``played``: the play so far, as bestplay.best_play takes it;
    ``me``: my seat, 0 at the dealer's left; ``thrown``: my card in the crib) from ``board``
    (the scores now seat by seat, this play's points in them): [(card, P(win), its standard
    error)], the most likely to win first."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.players.bestplay import sampled_position

    check_board3(spec, board)
    if spec.starters != 1 or spec.choose_cut:
        raise CribsolveError("the P(win) of a card is weighed with one cut card")
    thrown = [int(c) for c in thrown]
    throw = spec.crib_size // SEATS
    if len(thrown) != throw:
        raise CardError(f"give the {throw} card{'s' * (throw > 1)} you threw to the crib")
    at = sampled_position(hand, played, me, thrown + [int(c) for c in seen], spec, starter)
    unknown = spec.crib_size - throw
    if len(at.pool) < sum(at.now.left) - at.now.left[me] + unknown:
        raise CardError("too few unseen cards for the others' hands and the crib")
    crib = np.full(spec.crib_size + 1, -1, dtype=np.int64)
    crib[:throw] = thrown
    crib[-1] = int(starter)
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=samples)
    pr = spec.as_array()
    kernel = variant(_play_rollouts3, **flags(np.full((SEATS, 2), GREEDY), pr))
    parts, traces = threaded(
        kernel,
        np.arange(len(at.options) * samples),
        at.hands,
        at.used,
        at.series,
        at.st,
        at.options,
        at.pool,
        np.array(at.now.floors, dtype=np.int64),
        at.known,
        crib,
        seeds,
        rank_table(spec.target),
        pr,
    )
    p, se, _ = _wins(parts, traces, board, me, spec, len(at.options), samples)
    cards = [int(at.hands[me, i]) for i in at.options]
    return sorted(zip(cards, p.tolist(), se.tolist()), key=lambda t: -t[1])
