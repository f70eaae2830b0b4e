"""Cribbage Shuffle: python benchmarks/bench_shuffle.py [DEALS]

For DEALS random deals (default 1000): the time to a proven optimum (median, 90th percentile,
slowest), and how often the heuristic start (best partition + best columns + swaps) falls
short of the optimum and by how much; then the throughput of the win-only decision at 61.
"""

import sys
import time

import numpy as np

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import shuffle as sh


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 1000
    rng = np.random.default_rng(2026)
    deals = np.array([rng.permutation(52)[:17] for _ in range(n)], dtype=np.int64)
    sh.solve(deals[0, :16], deals[0, 16])
    times, gaps, totals = [], [], []
    for d in deals:
        sol = sh.solve(d[:16], d[16])
        assert sol.optimal
        times.append(sol.seconds)
        gaps.append(sol.total - sol.heuristic)
        totals.append(sol.total)
    times, gaps, totals = map(np.array, (times, gaps, totals))
    print(
        f"{n} deals, one thread, proven optimum: median {np.median(times) * 1e3:.1f} ms, "
        f"90% {np.percentile(times, 90) * 1e3:.1f} ms, slowest {times.max() * 1e3:.0f} ms"
    )
    print(f"optimum: mean {totals.mean():.2f}, wins at 61 {np.mean(totals >= 61):.1%}")
    short = gaps > 0
    print(
        f"heuristic short of the optimum in {short.mean():.1%} of deals; by "
        f"{gaps[short].mean():.2f} points on average when short, at most {gaps.max()}; "
        f"heuristic wins {np.mean(totals - gaps >= 61):.1%}"
    )
    table = rank_table()
    sh.solve_many(deals[:2], table, sh.WIN_AT)
    t = time.perf_counter()
    sh.solve_many(deals, table, sh.WIN_AT)
    sec = time.perf_counter() - t
    print(
        f"win-only decision at 61, all threads: {n / sec:.0f} deals/s "
        f"(1e5 deals in {1e5 / (n / sec) / 60:.1f} min)"
    )
    t = time.perf_counter()
    sh.solve_many(deals, table, 0)
    sec = time.perf_counter() - t
    print(f"exact optimum, all threads: {n / sec:.0f} deals/s")


if __name__ == "__main__":
    main()
