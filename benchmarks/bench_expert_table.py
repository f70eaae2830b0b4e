"""The expert against the look-ahead at three or four players:
python benchmarks/bench_expert_table.py PLAYERS [GAMES] [DEALS] [--partners]

Paired and in every seat: each game seed is played once with the expert as each player (the
others look-ahead), so over a seed's rotations every seat is the expert's once and its fair
share of the wins is 1/PLAYERS (1/2 for a team of two experts against two look-aheads). Each
deal seed is dealt once with the expert in each seat and once with look-ahead players
only, the same cards: the expert's points per deal against the look-ahead's in that seat.
95% intervals: of the win rate over the seeds (each seed's mean over its rotations), and of
the paired differences. GAMES (default 10,000) is the number of games in all, rounded up to
whole rotations; DEALS (default 5,000) the deal seeds; 0 leaves either out.

Measured on a busy 2-core machine shared with other work (load 5 to 7; 2026-12-06), seed 0,
200 deals per card (policies.SEARCH_DEALS):

    python benchmarks/bench_expert_table.py 3     (and 3 0 5000 for the deals alone)
    10002 games (3334 seeds x 3 rotations) in 845 s: 11.8 games/s
      expert win rate 0.3548 [0.3457, 0.3640] against a fair share of 0.3333: +0.0215 +- 0.0091
      5000 deals x 3 seats: expert 11.071 points per deal, +0.076 +- 0.037 more than the
      look-ahead in its seat (pegging +0.10 +- 0.05 of it on 3,000 deals, throws alike)
    python benchmarks/bench_expert_table.py 4
    10000 games (2500 seeds x 4 rotations) in 1266 s: 7.9 games/s
      expert win rate 0.2732 [0.2646, 0.2818] against a fair share of 0.2500: +0.0232 +- 0.0086
      look-ahead only: 10.8 games/s (300 games)
      5000 deals x 4 seats: expert 10.680 points per deal, +0.062 +- 0.034 more than the
      look-ahead in its seat
    python benchmarks/bench_expert_table.py 4 10000 5000 --partners     (load 3)
    10000 games (5000 seeds x 2 rotations) in 592 s: 16.9 games/s
      expert win rate 0.5433 [0.5340, 0.5526] against a fair share of 0.5000: +0.0433 +- 0.0093
      look-ahead only: 66.0 games/s (300 games)
      5000 deals x 4 seats: expert 10.607 points per deal, +0.089 +- 0.035 more than the
      look-ahead in its seat
"""

import sys
import time

import numpy as np

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals.game import deal_outcomes, play_games
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, tables_for
from cribsolve.games.cribbage.rules.spec import CribbageSpec

EXPERT, LOOKAHEAD = CRIBBAGE_POLICIES["expert"], CRIBBAGE_POLICIES["lookahead"]


def _interval(x):
    """(mean, half-width of its 95% interval) of the per-seed values x."""
    return x.mean(), 1.96 * x.std(ddof=1) / np.sqrt(len(x))


def _lineups(spec):
    """(players the expert plays, the policies of each player) for each rotation."""
    n = spec.players
    if spec.partners:  # two experts as one team, then as the other
        return [
            (
                [p for p in range(n) if p % 2 == t],
                [EXPERT if p % 2 == t else LOOKAHEAD for p in range(n)],
            )
            for t in range(2)
        ]
    return [([e], [EXPERT if p == e else LOOKAHEAD for p in range(n)]) for e in range(n)]


def games(spec, total, seed=0):
    """The expert's wins over every rotation of its seat, paired by seed."""
    lineups = _lineups(spec)
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=-(-total // len(lineups)))
    table, pr, ex = rank_table(spec.target), spec.as_array(), tables_for(["expert"], spec)
    play_games(seeds[:1], np.array(lineups[0][1]), table, pr, ex)  # compiled in one thread
    wins = np.zeros((len(seeds), len(lineups)))
    t = time.perf_counter()
    for r, (mine, pol) in enumerate(lineups):
        out = play_games(seeds, np.array(pol), table, pr, ex)
        team = 2 if spec.partners else spec.players
        wins[:, r] = out[:, 0] == mine[0] % team
    sec = time.perf_counter() - t
    played = wins.size
    share = 1 / len(lineups)
    m, h = _interval(wins.mean(axis=1))
    print(
        f"{played} games ({len(seeds)} seeds x {len(lineups)} rotations) in {sec:.0f} s: "
        f"{played / sec:.1f} games/s"
    )
    print(
        f"  expert win rate {m:.4f} [{m - h:.4f}, {m + h:.4f}] against a fair share of "
        f"{share:.4f}: {m - share:+.4f} +- {h:.4f}"
    )
    base = np.array([LOOKAHEAD] * spec.players)
    few = seeds[: min(300, len(seeds))]
    play_games(few[:1], base, table, pr, ex)
    t = time.perf_counter()
    play_games(few, base, table, pr, ex)
    print(
        f"  look-ahead only: {len(few) / (time.perf_counter() - t):.1f} games/s ({len(few)} games)"
    )


def _seat_points(parts, n):
    """Each seat's points in a deal (rows of deal.part_count parts): pegging, hand, and the
    dealer's crib and heels."""
    pts = parts[:, 1 : 1 + n][:, ::-1] + parts[:, 1 + n : 1 + 2 * n]
    pts[:, n - 1] += parts[:, 0] + parts[:, 1 + 2 * n]
    return pts


def deals(spec, count, seed=0):
    """The expert's points per deal in each seat against the look-ahead's on the same cards."""
    n = spec.players
    seeds = np.random.default_rng([seed, 1]).integers(0, 2**62, size=count)
    table, pr, ex = rank_table(spec.target), spec.as_array(), tables_for(["expert"], spec)

    def points(pol):
        deal_outcomes(seeds[:1], pol, table, pr, ex)  # compiled in one thread
        return _seat_points(deal_outcomes(seeds, pol, table, pr, ex)[0], n)

    base = points(np.array([LOOKAHEAD] * n))
    diff = np.zeros(count)
    mine = np.zeros(count)
    for s in range(n):
        pol = np.array([EXPERT if q == s else LOOKAHEAD for q in range(n)])
        pts = points(pol)
        d = pts[:, s] - base[:, s]
        m, h = _interval(d)
        print(
            f"  seat {s}: expert {pts[:, s].mean():.3f} look-ahead {base[:, s].mean():.3f} "
            f"points per deal, paired difference {m:+.3f} +- {h:.3f}"
        )
        diff += d / n
        mine += pts[:, s] / n
    m, h = _interval(diff)
    print(
        f"  {count} deals x {n} seats: expert {mine.mean():.3f} points per deal, "
        f"{m:+.3f} +- {h:.3f} more than the look-ahead in its seat"
    )


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    players = int(args[0])
    total = int(float(args[1])) if len(args) > 1 else 10_000
    count = int(float(args[2])) if len(args) > 2 else 5_000
    spec = CribbageSpec(players=players, hand_size=5, partners="--partners" in sys.argv)
    print(f"{spec.describe()}: the expert against the look-ahead")
    if total:
        games(spec, total)
    if count:
        deals(spec, count)


if __name__ == "__main__":
    main()
