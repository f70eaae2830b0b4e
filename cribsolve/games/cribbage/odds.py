"""The probability of winning two-player cribbage from any board position.

Whole deals are simulated once per rule set and policy (both players following it; kept on
disk): each deal's points by part and, for heels and the play, the order in which they came
(play.log_points). A dynamic program then runs over every position (my score, their score,
who deals) from the top down, averaging over those deals exactly as the game counts them:
heels and the play card by card (whoever reaches the game length first there wins), then the
pone's hand, then the dealer's hand and crib. No stage is assumed independent of another: each
simulated deal is played out from each position. Every deal scores at least one point in the
play (the last card), so each position only needs positions with a larger total. Under
lowball, reaching the game length first loses, so the chance of winning is the chance of not
getting there first. The standard game's table to 121 ships with the package.
"""
from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.spec import TABLE_FIELDS, CribbageSpec
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import expect, load, register

DEALS = {"greedy": 200_000, "lookahead": 100_000, "expert": 40_000, "expert1": 40_000,
         "random": 200_000}
SEED = 121
CHUNK = 5_000
MISS = 127          # reach_times of a total the deal never gets to


def deal_records(spec: CribbageSpec, deals: int, seed: int = SEED, policy: str = "greedy",
                 progress=None) -> dict:
    """``deals`` whole deals under ``spec`` (its game length plays no part), both players
    following ``policy``: {"parts": rows of game.PARTS, "traces": each deal's heels and
    play, play.log_points}."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.game import deal_outcomes
    from cribsolve.games.cribbage.simulate import CRIBBAGE_POLICIES, tables_for

    seeds = np.random.default_rng(seed).integers(0, 2 ** 62, size=deals)
    pol = np.array([CRIBBAGE_POLICIES[policy]] * 2)
    expert = tables_for([policy], spec)
    parts, traces = [], []
    for start in range(0, deals, CHUNK):
        p, t = deal_outcomes(seeds[start:start + CHUNK], pol, rank_table(spec.target),
                             spec.as_array(), expert)
        parts.append(p)
        traces.append(t.astype(np.int16))
        if progress:
            progress(len(p))
    return {"parts": np.concatenate(parts), "traces": np.concatenate(traces)}


@njit(cache=True)
def reach_times(parts, traces):
    """(totals, times): totals[k] = deal k's (dealer's heels and play, pone's play, pone's
    hand, dealer's hand and crib); times[k, seat, t] = the event of its trace at which the
    pone's (seat 0) or the dealer's (seat 1) play points, heels included, first reach t, or
    MISS."""
    k_n = parts.shape[0]
    totals = np.empty((k_n, 4), dtype=np.int64)
    top = 1
    for k in range(k_n):
        totals[k, 0] = parts[k, 0] + parts[k, 1]
        totals[k, 1] = parts[k, 2]
        totals[k, 2] = parts[k, 3]
        totals[k, 3] = parts[k, 4] + parts[k, 5]
        top = max(top, totals[k, 0], totals[k, 1])
    times = np.full((k_n, 2, top + 1), MISS, dtype=np.int8)
    for k in range(k_n):
        got = np.zeros(2, dtype=np.int64)
        for e in range(traces[k, 0]):
            code = traces[k, 1 + e]
            seat, pts = code % 2, code // 2
            for t in range(got[seat] + 1, got[seat] + pts + 1):
                times[k, seat, t] = e
            got[seat] += pts
    return totals, times


@njit(cache=True)
def _mine(other, line):
    """A game I have won counts 1 if the other's score is under ``line`` (the game length:
    every win; the skunk line: a skunk)."""
    return 1.0 if other < line else 0.0


@njit(cache=True)
def after_deal(reach, d, a, b, totals, times, length, line):
    """P(I reach ``length`` first, the other under ``line``) from (a mine, b theirs; d = 1:
    I deal) over one deal with these totals and times (reach_times rows), the later deals
    from ``reach`` (a table of the same before any lowball flip)."""
    dealer, pone = (a, b) if d else (b, a)
    need_d, need_p = length - dealer, length - pone
    top = times.shape[1] - 1
    t_d = times[1, need_d] if need_d <= top else MISS
    t_p = times[0, need_p] if need_p <= top else MISS
    if t_d != t_p:                                  # someone got there in the play
        if (t_d < t_p) != (d == 1):
            return 0.0
        t, other, start = min(t_d, t_p), 1 - d, pone if d else dealer
        got = 0                                     # the other's play points before mine
        while got < top and times[other, got + 1] < t:
            got += 1
        return _mine(start + got, line)
    return by_totals(reach, d, dealer, pone, totals[0], totals[3], totals[1] + totals[2],
                     length, line)


@njit(cache=True)
def by_totals(reach, d, dealer, pone, dealer_play, dealer_show, pone_total, length, line):
    """after_deal for a deal whose play takes nobody to ``length``: only its totals matter
    (the dealer's heels and play, its hand and crib; the pone's whole deal, counted first)."""
    if pone + pone_total >= length:
        return 0.0 if d else _mine(dealer + dealer_play, line)
    nd, np_ = dealer + dealer_play + dealer_show, pone + pone_total
    if nd >= length:
        return _mine(np_, line) if d else 0.0
    return reach[0, nd, np_] if d else reach[1, np_, nd]


@njit(cache=True, parallel=True)
def _reach_table(totals, times, length, line, groups, group, weights, by_dealer, by_pone):
    """reach[d, a, b]: P(the player at a reaches ``length`` before the player at b, who is
    then under ``line``), d = 1 when that player deals next, averaged over the deals. A
    deal whose play (heels and pegging) cannot take anyone to the length counts by its
    totals alone, so the deals stand as ``groups`` (the distinct rows of by_totals' totals;
    deal k's is group[k]) with their ``weights``; only the deals whose play can (``by_dealer``, ``by_pone``: the
    deals in falling order of the dealer's and the pone's play points) are played out card
    by card (after_deal) in place of their group's share. The cost grows with the groups,
    not the deals."""
    reach = np.zeros((2, length, length))
    k_n = totals.shape[0]
    for total in range(2 * length - 2, -1, -1):
        lo, hi = max(0, total - length + 1), min(length - 1, total)
        for i in prange(2 * (hi - lo + 1)):
            a, d = lo + i // 2, i % 2
            b = total - a
            dealer, pone = (a, b) if d else (b, a)
            need_d, need_p = length - dealer, length - pone
            acc = 0.0
            for g in range(groups.shape[0]):
                acc += weights[g] * by_totals(reach, d, dealer, pone, groups[g, 0],
                                              groups[g, 1], groups[g, 2], length, line)
            j = 0
            while j < k_n and totals[by_dealer[j], 0] >= need_d:
                k = by_dealer[j]
                g = group[k]
                acc += after_deal(reach, d, a, b, totals[k], times[k], length, line) - \
                    by_totals(reach, d, dealer, pone, groups[g, 0], groups[g, 1], groups[g, 2],
                              length, line)
                j += 1
            j = 0
            while j < k_n and totals[by_pone[j], 1] >= need_p:
                k = by_pone[j]
                if totals[k, 0] < need_d:           # not counted among the dealer's above
                    g = group[k]
                    acc += after_deal(reach, d, a, b, totals[k], times[k], length, line) - \
                        by_totals(reach, d, dealer, pone, groups[g, 0], groups[g, 1],
                                  groups[g, 2], length, line)
                j += 1
            reach[d, a, b] = acc / k_n
    return reach


def reach_table(parts, traces, length, line=None):
    """_reach_table from deal_records' arrays; ``line``: the other's score a win must leave
    it under (None: every win). Where every win counts, a deal's play and show points are
    grouped as their sum (fewer groups, the same table)."""
    totals, times = reach_times(parts, traces)
    play, show = totals[:, 0], totals[:, 3]
    if line is None:
        play, show, line = np.zeros_like(play), play + show, length
    whole = np.stack([play, show, totals[:, 1] + totals[:, 2]], axis=1)
    groups, group, weights = np.unique(whole, axis=0, return_inverse=True, return_counts=True)
    by_dealer = np.argsort(-totals[:, 0], kind="stable")
    by_pone = np.argsort(-totals[:, 1], kind="stable")
    return _reach_table(totals, times, length, line, groups, group.ravel(),
                        weights.astype(np.float64), by_dealer, by_pone)


def _check_deals(arrays, params):
    from cribsolve.games.cribbage.game import NP

    parts, traces = arrays.get("parts"), arrays.get("traces")
    expect(parts is not None and parts.shape == (params["deals"], NP), "not a table of deals")
    expect(traces is not None and traces.shape[0] == params["deals"], "no traces of the deals")
    expect(int(parts.min()) >= 0 and int(parts[:, 0].max()) <= 2 * params["starters"],
           "impossible deal points")
    # the trace holds the same points as the parts it orders
    pts = traces[:, 1:] // 2 * (np.arange(traces.shape[1] - 1) < traces[:, :1])
    seat = traces[:, 1:] % 2
    expect(np.array_equal((pts * seat).sum(axis=1), parts[:, 0] + parts[:, 1]) and
           np.array_equal((pts * (1 - seat)).sum(axis=1), parts[:, 2]),
           "the traces do not add up to the play")


def _check_odds(arrays, params):
    win, n = arrays.get("win"), params["game_length"]
    expect(win is not None and win.shape == (2, n, n), "not an odds table")
    expect(float(win.min()) >= -1e-9 and float(win.max()) <= 1 + 1e-9, "probabilities outside [0, 1]")
    # (a, b, I deal) is (b, a, they deal) seen from the other side: the two add to 1
    expect(float(np.abs(win[1] + win[0].T - 1).max()) < 1e-9, "the two seats do not add to 1")


def _check_skunks(arrays, params):
    skunk, n = arrays.get("skunk"), params["game_length"]
    expect(skunk is not None and skunk.shape == (2, n, n), "not a table of skunks")
    expect(float(skunk.min()) >= -1e-9 and float(skunk.max()) <= 1 + 1e-9,
           "probabilities outside [0, 1]")
    expect(float(np.abs(skunk[:, :, max(params["line"], 0):]).max(initial=0)) == 0,
           "a skunk with the loser past the line")


register("deals", __name__, _check_deals)
register("odds", __name__, _check_odds)
register("skunks", __name__, _check_skunks)


def _deals(spec, deals, policy, progress):
    """The simulated deals the tables are made from (deal_records, kept on disk)."""
    deal_spec = two_player_key(replace(spec, game_length=CribbageSpec.game_length))
    return load("deals", {"deals": deals, "seed": SEED, "policy": policy, **deal_spec},
                lambda: deal_records(spec, deals, SEED, policy, progress))


def odds_table(spec: CribbageSpec = CribbageSpec(), progress=None, deals: int | None = None,
               policy: str = "greedy") -> np.ndarray:
    """win[d, a, b]: P(I win) from every position below the game length (a mine, b theirs,
    d = 1 when I deal next), from ``deals`` simulated deals under ``spec`` with both players
    following ``policy``."""
    deals = deals or DEALS[policy]

    def compute():
        rec = _deals(spec, deals, policy, progress)
        reach = reach_table(rec["parts"], rec["traces"], spec.game_length)
        return {"win": 1.0 - reach if spec.lowball else reach}
    return load("odds", {"deals": deals, "seed": SEED, "policy": policy,
                         **two_player_key(spec)}, compute)["win"]


def two_player_key(spec: CribbageSpec) -> dict:
    """The spec's fields as a table's key: the two-player game's (tables of a table of three
    or four, or of the five-card game, are not built)."""
    if spec.players > 2 or spec.five_card:
        raise CribsolveError(f"the odds are the two-player game's, not {spec.describe()}")
    return {k: v for k, v in asdict(spec).items() if k not in TABLE_FIELDS}


SKUNK = 30          # a loser more than this short of the game length is skunked (RULES §3)
OBJECTIVES = ("win", "game-points")
NO_SKUNKS = "game points count skunks, and lowball has none: use --objective win"


def skunk_table(spec: CribbageSpec = CribbageSpec(), progress=None, deals: int | None = None,
                policy: str = "greedy") -> np.ndarray:
    """skunk[d, a, b]: P(I win and the other is under the skunk line, the game length less
    SKUNK), as odds_table from the same deals."""
    if spec.lowball:
        raise CribsolveError(NO_SKUNKS)
    deals = deals or DEALS[policy]
    line = spec.game_length - SKUNK

    def compute():
        rec = _deals(spec, deals, policy, progress)
        return {"skunk": reach_table(rec["parts"], rec["traces"], spec.game_length, line)}
    return load("skunks", {"deals": deals, "seed": SEED, "policy": policy, "line": line,
                           **two_player_key(spec)}, compute)["skunk"]


def objective_table(spec: CribbageSpec, objective: str = "win", progress=None,
                    policy: str = "greedy") -> np.ndarray:
    """The value of every position (as odds_table) by ``objective``: "win", P(I win), or
    "game-points", my expected game points by the American Cribbage Congress's tournament
    scoring: 2 for a win, 3 for a skunk (the loser short of the skunk line; a double skunk
    counts no more), 0 for a loss."""
    win = odds_table(spec, progress, policy=policy)
    if objective == "win":
        return win
    return 2.0 * win + skunk_table(spec, progress, policy=policy)


def played_out(spec: CribbageSpec, mine: int, theirs: int, i_deal: bool, games: int,
               seed: int = 0, policy: str = "greedy", progress=None) -> int:
    """Games I win out of ``games`` played from this position (both players following
    ``policy``): the direct check of the table."""
    from cribsolve.games.cribbage.simulate import cribbage_games

    start = np.array([mine, theirs, 0 if i_deal else 1])
    wins = 0
    for begin in range(0, games, CHUNK):
        rows = cribbage_games((policy, policy), spec, [seed, begin], min(CHUNK, games - begin),
                              start)
        wins += int((rows[:, 0] == 0).sum())
        if progress:
            progress(len(rows))
    return wins
