"""The odds of three players, each on a score of its own: P(win) of each from every three scores
and the dealer, by the two-player table's method (deals/odds.py): whole deals simulated once,
each replayed from every position as the game counts it, the play card by card, then the hands
from the dealer's left round to the dealer and the crib (docs/odds.md).
"""

from __future__ import annotations

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.rules.reach import MISS, point_times
from cribsolve.games.cribbage.rules.spec import FIELDS, TABLE_FIELDS, CribbageSpec
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import expect, load, register, rules_key

SEATS = 3
# Fewer deals than two players' 200,000: each of the 121^3 positions weighs every distinct
# deal total (about 10,000 of them here); docs/odds.md gives the error this leaves.
DEALS3 = 60_000


def three_rows(parts, traces):
    """(rows, plays, times) of three-player deals: rows[k] = each seat's points in the deal
    (seat 0 at the dealer's left, the dealer last: heels, play, hand and crib), the order the
    show counts them; plays[k] = each seat's heels and play; times as reach.point_times."""
    peg = parts[:, SEATS:0:-1]  # parts[:, 1:1 + SEATS] holds the pegging from the dealer back
    plays = peg.astype(np.int64)
    plays[:, SEATS - 1] += parts[:, 0]
    rows = plays + parts[:, 1 + SEATS : 1 + 2 * SEATS]
    rows[:, SEATS - 1] += parts[:, 1 + 2 * SEATS]
    times = point_times(traces.astype(np.int64), SEATS, SEATS, max(1, int(plays.max())))
    return rows, plays, times


@njit(cache=True)
def _first_total(row, need):
    """The first seat in counting order (seat 0, seat 1, the dealer) whose points in a deal
    with this ``row`` of totals reach its ``need``, or -1."""
    for s in range(SEATS):
        if row[s] >= need[s]:
            return s
    return -1


@njit(cache=True)
def _by_totals(win, a, b, c, need, row, w, acc):
    """Add ``w`` times a deal's outcome from (a, b, c) (seat 0's score, seat 1's, the
    dealer's; each ``need``s the rest) to acc (each seat's P(win)) for a deal whose play
    takes nobody to the end: the first in counting order to reach it wins, otherwise the next
    deal's, seat 1 at the dealer's left and seat 0 dealing."""
    s = _first_total(row, need)
    if s >= 0:
        acc[s] += w
    else:
        nxt = win[b + row[1], c + row[2], a + row[0]]
        acc[0] += w * nxt[2]
        acc[1] += w * nxt[0]
        acc[2] += w * nxt[1]


@njit(cache=True)
def _in_play(times, need, top):
    """The seat whose play points (heels included) reach its ``need`` first in a deal with
    these times (a deal where someone's do)."""
    first, seat = MISS, -1
    for s in range(SEATS):
        if need[s] <= top and times[s, need[s]] < first:
            first, seat = times[s, need[s]], s
    return seat


@njit(cache=True, parallel=True)
def _play_ends(rows, plays, times, caps, by_seat):
    """fix[n0, n1, n2, s]: over the deals whose play takes a seat to its need (n0 for seat 0,
    n1, n2; a need at its cap is out of reach of any deal), the deals seat s wins in the play
    less those it would win by its totals. Such a deal's totals reach a need too, so neither
    reads the table: the fix depends on the needs alone (``by_seat[s]``: the deals in falling
    order of seat s's play)."""
    fix = np.zeros((caps[0] + 1, caps[1] + 1, caps[2] + 1, SEATS))
    k_n, top = plays.shape[0], times.shape[2] - 1
    for n0 in prange(1, caps[0] + 1):
        need = np.empty(SEATS, dtype=np.int64)
        for n1 in range(1, caps[1] + 1):
            for n2 in range(1, caps[2] + 1):
                need[0], need[1], need[2] = n0, n1, n2
                for s in range(SEATS):
                    j = 0
                    while j < k_n and plays[by_seat[s, j], s] >= need[s]:
                        k = by_seat[s, j]
                        j += 1
                        if s > 0 and plays[k, 0] >= need[0]:
                            continue  # each deal once
                        if s > 1 and plays[k, 1] >= need[1]:
                            continue
                        fix[n0, n1, n2, _in_play(times[k], need, top)] += 1.0
                        fix[n0, n1, n2, _first_total(rows[k], need)] -= 1.0
    return fix


@njit(cache=True, parallel=True)
def _three_table(length, groups, weights, fix, k_n):
    """win[a, b, c, s]: P(seat s wins) from seat 0 (the dealer's left) at a, seat 1 at b and
    the dealer at c, averaged over the k_n deals. As odds._reach_table: the deals stand as
    their distinct ``groups`` of totals with their ``weights``, and those whose play can reach
    someone's need are replayed card by card in place of their group's share (the ``fix`` of
    _play_ends at the needs, capped)."""
    win = np.zeros((length, length, length, SEATS))
    caps = np.array(fix.shape[:SEATS]) - 1
    for total in range(SEATS * (length - 1), -1, -1):
        lo, hi = max(0, total - 2 * (length - 1)), min(length - 1, total)
        for a in prange(lo, hi + 1):
            need = np.empty(SEATS, dtype=np.int64)
            acc = np.zeros(SEATS)
            for b in range(max(0, total - a - length + 1), min(length - 1, total - a) + 1):
                c = total - a - b
                need[0], need[1], need[2] = length - a, length - b, length - c
                acc[:] = fix[min(need[0], caps[0]), min(need[1], caps[1]), min(need[2], caps[2])]
                for g in range(groups.shape[0]):
                    _by_totals(win, a, b, c, need, groups[g], weights[g], acc)
                win[a, b, c] = acc / k_n
    return win


@njit(cache=True)
def deal_wins(win, scores, rows, times, length):
    """out[k, s]: P(seat s wins) from ``scores`` (seat 0, seat 1, the dealer; the points of
    the deal so far in them) over the rest of deal k, as three_rows gives it (its play card by
    card, then its totals in counting order), the deals after it from ``win``."""
    out = np.zeros((rows.shape[0], SEATS))
    need = length - scores
    top = times.shape[2] - 1
    for k in range(rows.shape[0]):
        s = _in_play(times[k], need, top)
        if s >= 0:
            out[k, s] = 1.0
        else:
            _by_totals(win, scores[0], scores[1], scores[2], need, rows[k], 1.0, out[k])
    return out


def three_table(parts, traces, length):
    """_three_table from deal_records' arrays of three-player deals."""
    rows, plays, times = three_rows(parts, traces)
    # groups in order of the next deal's table entries they read (seat 0's score last there)
    groups, weights = np.unique(rows[:, [1, 2, 0]], axis=0, return_counts=True)
    groups = np.ascontiguousarray(groups[:, [2, 0, 1]])
    by_seat = np.stack([np.argsort(-plays[:, s], kind="stable") for s in range(SEATS)])
    fix = _play_ends(rows, plays, times, rows.max(axis=0) + 1, by_seat)
    return _three_table(length, groups, weights.astype(np.float64), fix, len(rows))


def _check_odds3(arrays, params):
    win, n = arrays.get("win"), params["game_length"]
    expect(win is not None and win.shape == (n, n, n, SEATS), "not a three-player odds table")
    expect(
        float(win.min()) >= -1e-9 and float(win.max()) <= 1 + 1e-9, "probabilities outside [0, 1]"
    )
    # someone wins every game
    expect(float(np.abs(win.sum(axis=3) - 1).max()) < 1e-9, "the three seats do not add to 1")


register("odds3", 1, _check_odds3, reads=FIELDS, added=TABLE_FIELDS)  # as the odds (odds.py)


def three_error(spec: CribbageSpec) -> str | None:
    """Why the three-player table cannot be built for ``spec``, or None."""
    if spec.players != SEATS or spec.partners:
        return "the three-player odds are of three players, each on a score of its own"
    if spec.stinkhole:
        return "the three-player odds do not model the stink hole"
    return None


def three_odds_table(spec: CribbageSpec, progress=None, deals: int = DEALS3) -> np.ndarray:
    """win[a, b, c, s] (as _three_table) from ``deals`` greedy deals under ``spec``, built once
    and kept."""
    from cribsolve.games.cribbage.deals.odds import SEED, kept_deals

    if three_error(spec):
        raise CribsolveError(three_error(spec))

    def compute():
        rec = kept_deals(spec, deals, "greedy", progress)
        return {"win": three_table(rec["parts"], rec["traces"], spec.game_length)}

    key = {"deals": deals, "seed": SEED, "policy": "greedy", **rules_key("odds3", spec)}
    return load("odds3", key, compute)["win"]


def seat_of(player: int, dealer: int) -> int:
    """The seat (0 at the dealer's left, 2 the dealer) of ``player`` (players 0, 1, 2, each at
    the left of the one before) when ``dealer`` deals."""
    return (player - dealer - 1) % SEATS


def seat_scores(scores, dealer: int) -> list[int]:
    """The players' ``scores`` seat by seat when ``dealer`` deals (seat_of)."""
    return [int(scores[(dealer + 1 + s) % SEATS]) for s in range(SEATS)]


def player_odds(win: np.ndarray, scores, dealer: int) -> np.ndarray:
    """Each player's P(win) from ``scores`` (players 0, 1, 2, each at the left of the one
    before) when ``dealer`` deals next, read from the seat-by-seat table."""
    at = win[tuple(seat_scores(scores, dealer))]
    return np.array([at[seat_of(p, dealer)] for p in range(SEATS)])


def three_played_out(
    spec: CribbageSpec, scores, dealer: int, games: int, seed: int = 0, progress=None
) -> np.ndarray:
    """Games each player wins out of ``games`` played from these scores, ``dealer`` dealing
    next, all greedy: the direct check of the table."""
    from cribsolve.games.cribbage.deals.odds import CHUNK
    from cribsolve.games.cribbage.deals.simulate import cribbage_games

    start = np.array([*scores, dealer])
    wins = np.zeros(SEATS, dtype=np.int64)
    for begin in range(0, games, CHUNK):
        rows = cribbage_games(
            ("greedy", "greedy"), spec, [seed, begin], min(CHUNK, games - begin), start
        )
        wins += np.bincount(rows[:, 0], minlength=SEATS)
        if progress:
            progress(len(rows))
    return wins
