"""The odds table: P(win) from every board position between two sides (two players, or two teams),
and the skunk table beside it for game points. Whole deals are simulated once per rule set and
policy and kept; a dynamic program replays each from every position as the game counts it,
nothing assumed independent (docs/odds.md). The standard game's tables to 121 ship with the
package.
"""

from __future__ import annotations

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.deals.roster import policy_key
from cribsolve.games.cribbage.rules.reach import SKUNK, after_deal, by_totals, reach_times
from cribsolve.games.cribbage.rules.spec import FIELDS, TABLE_FIELDS, CribbageSpec
from cribsolve.infra.jit import njit, prange
from cribsolve.infra.store import expect, load, register, rules_key

DEALS = {
    "greedy": 200_000,
    "lookahead": 100_000,
    "expert": 40_000,
    "expert1": 40_000,
    "random": 200_000,
}
SEED = 121
CHUNK = 5_000


def deal_records(
    spec: CribbageSpec, deals: int, seed: int = SEED, policy: str = "greedy", progress=None
) -> dict:
    """``deals`` whole deals under ``spec`` (its game length plays no part), both players
    following ``policy``: {"parts": rows of deal.PARTS, "traces": each deal's heels and
    play, pegging.log_points}."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals.game import deal_outcomes
    from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, tables_for

    seeds = np.random.default_rng(seed).integers(0, 2**62, size=deals)
    pol = np.array([CRIBBAGE_POLICIES[policy]] * spec.players)
    expert = tables_for([policy], spec)
    parts, traces = [], []
    for start in range(0, deals, CHUNK):
        p, t = deal_outcomes(
            seeds[start : start + CHUNK], pol, rank_table(spec.target), spec.as_array(), expert
        )
        parts.append(p)
        traces.append(t.astype(np.int16))
        if progress:
            progress(len(p))
    return {"parts": np.concatenate(parts), "traces": np.concatenate(traces)}


@njit(cache=True, parallel=True)
def _reach_table(plays, times, length, line, groups, group, weights, by_dealer, by_pone):
    """reach[d, a, b]: P(the side at a reaches ``length`` before the side at b, which is
    then under ``line``), d = 1 when that side deals next, averaged over the deals. A
    deal whose play (heels and pegging) cannot take anyone to the length counts by its
    totals alone, so the deals stand as ``groups`` (the distinct rows of by_totals; deal k's
    is group[k]) with their ``weights``; only the deals whose play can (``by_dealer``,
    ``by_pone``: the deals in falling order of the dealer's and the pone's side's ``plays``)
    are played out card by card (after_deal, on the group's row: its play is in ``times``)
    in place of their group's share. The cost grows with the groups, not the deals."""
    reach = np.zeros((2, length, length))
    k_n = plays.shape[0]
    for total in range(2 * length - 2, -1, -1):
        lo, hi = max(0, total - length + 1), min(length - 1, total)
        for i in prange(2 * (hi - lo + 1)):
            a, d = lo + i // 2, i % 2
            b = total - a
            dealer, pone = (a, b) if d else (b, a)
            need_d, need_p = length - dealer, length - pone
            acc = 0.0
            for g in range(groups.shape[0]):
                acc += weights[g] * by_totals(reach, d, dealer, pone, groups[g], length, line)
            for side, by, need in ((0, by_dealer, need_d), (1, by_pone, need_p)):
                j = 0
                while j < k_n and plays[by[j], side] >= need:
                    k = by[j]
                    if side == 0 or plays[k, 0] < need_d:  # each deal once
                        g = group[k]
                        acc += after_deal(
                            reach, d, a, b, groups[g], times[k], length, line
                        ) - by_totals(reach, d, dealer, pone, groups[g], length, line)
                    j += 1
            reach[d, a, b] = acc / k_n
    return reach


def reach_table(parts, traces, length, line=None, seats=2):
    """_reach_table from deal_records' arrays (``seats``: 2, or 4 as two teams); ``line``: the
    other's score a win must leave it under (None: every win). Where every win counts, the
    dealer's side's play is grouped with its first hand (fewer groups, the same table)."""
    rows, plays, times = reach_times(parts, traces, seats)
    if line is None:
        rows[:, 1] += rows[:, 0]
        rows[:, 0] = 0
        line = length
    groups, group, weights = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
    by_dealer = np.argsort(-plays[:, 0], kind="stable")
    by_pone = np.argsort(-plays[:, 1], kind="stable")
    return _reach_table(
        plays,
        times,
        length,
        line,
        groups,
        group.ravel(),
        weights.astype(np.float64),
        by_dealer,
        by_pone,
    )


def _check_deals(arrays, params):
    from cribsolve.games.cribbage.deals.deal import part_count

    seats = params.get("players", 2)
    parts, traces = arrays.get("parts"), arrays.get("traces")
    expect(
        parts is not None and parts.shape == (params["deals"], part_count(seats)),
        "not a table of deals",
    )
    expect(traces is not None and traces.shape[0] == params["deals"], "no traces of the deals")
    expect(
        int(parts.min()) >= 0 and int(parts[:, 0].max()) <= 2 * params["starters"],
        "impossible deal points",
    )
    # the trace holds the same points as the parts it orders, seat by seat
    pts = traces[:, 1:] // seats * (np.arange(traces.shape[1] - 1) < traces[:, :1])
    for seat in range(seats):
        heels = parts[:, 0] if seat == seats - 1 else 0
        expect(
            np.array_equal(
                (pts * (traces[:, 1:] % seats == seat)).sum(axis=1), parts[:, seats - seat] + heels
            ),
            "the traces do not add up to the play",
        )


def _check_odds(arrays, params):
    win, n = arrays.get("win"), params["game_length"]
    expect(win is not None and win.shape == (2, n, n), "not an odds table")
    expect(
        float(win.min()) >= -1e-9 and float(win.max()) <= 1 + 1e-9, "probabilities outside [0, 1]"
    )
    # (a, b, I deal) is (b, a, they deal) seen from the other side: the two add to 1
    expect(float(np.abs(win[1] + win[0].T - 1).max()) < 1e-9, "the two seats do not add to 1")


def _check_skunks(arrays, params):
    skunk, n = arrays.get("skunk"), params["game_length"]
    expect(skunk is not None and skunk.shape == (2, n, n), "not a table of skunks")
    expect(
        float(skunk.min()) >= -1e-9 and float(skunk.max()) <= 1 + 1e-9,
        "probabilities outside [0, 1]",
    )
    expect(
        float(np.abs(skunk[:, :, max(params["line"], 0) :]).max(initial=0)) == 0,
        "a skunk with the loser past the line",
    )


# The tables read every rule of the game (the stink hole only in their key: it acts at the
# game's end, which their whole deals never reach), the deals all but those two; the fields
# beyond the two-player game are keyed only where in play (the shipped tables keep their keys).
DEAL_FIELDS = tuple(f for f in FIELDS if f not in ("game_length", "stinkhole"))
register("deals", 1, _check_deals, reads=DEAL_FIELDS, added=TABLE_FIELDS)
register("odds", 1, _check_odds, reads=FIELDS, added=TABLE_FIELDS)
register("skunks", 1, _check_skunks, reads=FIELDS, added=TABLE_FIELDS)


def kept_deals(spec, deals, policy, progress):
    """The simulated deals the tables are made from (deal_records, kept on disk)."""
    return load(
        "deals",
        {"deals": deals, "seed": SEED, **policy_key(policy), **rules_key("deals", spec)},
        lambda: deal_records(spec, deals, SEED, policy, progress),
    )


def odds_table(
    spec: CribbageSpec = CribbageSpec(),
    progress=None,
    deals: int | None = None,
    policy: str = "greedy",
) -> np.ndarray:
    """win[d, a, b]: P(I win) from every position below the game length (a mine, b theirs,
    d = 1 when I deal next), from ``deals`` simulated deals under ``spec`` with both players
    following ``policy``."""
    deals = deals or DEALS[policy]

    def compute():
        rec = kept_deals(spec, deals, policy, progress)
        reach = reach_table(rec["parts"], rec["traces"], spec.game_length, seats=spec.players)
        return {"win": 1.0 - reach if spec.lowball else reach}

    return load(
        "odds", {"deals": deals, "seed": SEED, **policy_key(policy), **odds_key(spec)}, compute
    )["win"]


def sides_error(spec: CribbageSpec) -> str | None:
    """Why the odds cannot be weighed for ``spec``'s table (three players, each on a score of
    its own), or None: two players, or two teams of partners."""
    if spec.players == 2 or spec.partners:
        return None
    return (
        f"the odds are built for two sides (two players, or --players 4 --partners), "
        f"not {spec.players} players each on a score of their own"
    )


def odds_key(spec: CribbageSpec, kind: str = "odds") -> dict:
    """The rules in the key of ``kind`` (odds, skunks) of a spec whose odds are of two sides."""
    if sides_error(spec):
        raise CribsolveError(sides_error(spec))
    return rules_key(kind, spec)


OBJECTIVES = ("win", "game-points")
NO_SKUNKS = "game points count skunks, and lowball has none: use --objective win"


def skunk_table(
    spec: CribbageSpec = CribbageSpec(),
    progress=None,
    deals: int | None = None,
    policy: str = "greedy",
) -> np.ndarray:
    """skunk[d, a, b]: P(I win and the other is under the skunk line, the game length less
    SKUNK), as odds_table from the same deals."""
    if spec.lowball:
        raise CribsolveError(NO_SKUNKS)
    deals = deals or DEALS[policy]
    line = spec.game_length - SKUNK

    def compute():
        rec = kept_deals(spec, deals, policy, progress)
        return {
            "skunk": reach_table(rec["parts"], rec["traces"], spec.game_length, line, spec.players)
        }

    return load(
        "skunks",
        {
            "deals": deals,
            "seed": SEED,
            **policy_key(policy),
            "line": line,
            **odds_key(spec, "skunks"),
        },
        compute,
    )["skunk"]


def objective_table(
    spec: CribbageSpec, objective: str = "win", progress=None, policy: str = "greedy"
) -> np.ndarray:
    """The value of every position (as odds_table) by ``objective``: "win", P(I win), or
    "game-points", my expected game points by the American Cribbage Congress's tournament
    scoring: 2 for a win, 3 for a skunk (the loser short of the skunk line; a double skunk
    counts no more), 0 for a loss."""
    win = odds_table(spec, progress, policy=policy)
    if objective == "win":
        return win
    return 2.0 * win + skunk_table(spec, progress, policy=policy)
