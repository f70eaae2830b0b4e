"""A deal's points in the order they came, and what one deal is worth from a board position: who
reaches the game length first in it (the play card by card, then the show in counting order),
otherwise the odds table's chance from the scores after it. The odds table (deals/odds.py) and
the expert's throw near the end (deals/board_throw.py) both weigh deals this way.
"""

import numpy as np

from cribsolve.infra.jit import njit

MISS = 127  # reach_times of a total the deal never gets to
SKUNK = 30  # a loser more than this short of the game length is skunked (RULES §3)


@njit(cache=True)
def reach_times(parts, traces, seats):
    """(rows, plays, times) of a deal's points between two sides, the dealer's and the pone's
    (two players, or two teams of partners, their seats alternating), for by_totals and
    after_deal. rows[k] = deal k's (the dealer's side's heels and play, then each round of the
    show: the dealer's side's hand, the crib with the dealer's, and the pone's side's, which
    is counted first, its play with its first hand); plays[k] = (the dealer's side's heels
    and play, the pone's side's play); times[k, side, t] = the event of its trace at which
    the pone's side's (0) or the dealer's side's (1) play points, heels included, first
    reach t, or MISS."""
    k_n = parts.shape[0]
    rows = np.zeros((k_n, 1 + seats), dtype=np.int64)
    plays = np.zeros((k_n, 2), dtype=np.int64)
    top = 1
    for k in range(k_n):
        plays[k, 0] = parts[k, 0]
        for seat in range(seats):  # seat 0 at the dealer's left; side seat % 2
            plays[k, 1 - seat % 2] += parts[k, seats - seat]
            rows[k, 1 + seat + 1 - 2 * (seat % 2)] = parts[k, 1 + seats + seat]
        rows[k, 0] = plays[k, 0]
        rows[k, seats - 1] += parts[k, 1 + 2 * seats]
        rows[k, 2] += plays[k, 1]
        top = max(top, plays[k, 0], plays[k, 1])
    return rows, plays, point_times(traces, seats, 2, top)


@njit(cache=True)
def point_times(traces, seats, sides, top):
    """times[k, side, t]: the event of deal k's trace (pegging.log_points) at which the play
    points, heels included, of ``side`` (a seat's side: seat % ``sides``, seat 0 at the
    dealer's left) first reach t (up to ``top``), or MISS."""
    k_n = traces.shape[0]
    times = np.full((k_n, sides, top + 1), MISS, dtype=np.int8)
    for k in range(k_n):
        got = np.zeros(sides, dtype=np.int64)
        for e in range(traces[k, 0]):
            code = traces[k, 1 + e]
            side, pts = code % seats % sides, code // seats
            for t in range(got[side] + 1, got[side] + pts + 1):
                times[k, side, t] = e
            got[side] += pts
    return times


@njit(cache=True)
def _mine(other, line):
    """A game I have won counts 1 if the other's score is under ``line`` (the game length:
    every win; the skunk line: a skunk)."""
    return 1.0 if other < line else 0.0


@njit(cache=True)
def after_deal(reach, d, a, b, row, times, length, line):
    """P(I reach ``length`` first, the other under ``line``) from (a mine, b theirs; d = 1:
    my side deals) over one deal with this row and these times (reach_times), the later
    deals from ``reach`` (a table of the same before any lowball flip)."""
    dealer, pone = (a, b) if d else (b, a)
    need_d, need_p = length - dealer, length - pone
    top = times.shape[1] - 1
    t_d = times[1, need_d] if need_d <= top else MISS
    t_p = times[0, need_p] if need_p <= top else MISS
    if t_d != t_p:  # someone got there in the play
        if (t_d < t_p) != (d == 1):
            return 0.0
        t, other, start = min(t_d, t_p), 1 - d, pone if d else dealer
        got = 0  # the other's play points before mine
        while got < top and times[other, got + 1] < t:
            got += 1
        return _mine(start + got, line)
    return by_totals(reach, d, dealer, pone, row, length, line)


@njit(cache=True)
def by_totals(reach, d, dealer, pone, row, length, line):
    """after_deal for a deal whose play takes nobody to ``length``: only its row of totals
    matters (reach_times: the dealer's side's play, then each round of the show, the pone's
    side's hand counted before the dealer's)."""
    nd, np_ = dealer + row[0], pone
    for i in range(1, row.shape[0], 2):
        np_ += row[i + 1]
        if np_ >= length:
            return 0.0 if d else _mine(nd, line)
        nd += row[i]
        if nd >= length:
            return _mine(np_, line) if d else 0.0
    return reach[0, nd, np_] if d else reach[1, np_, nd]
