"""Games per second on the local thread pool against a Dask LocalCluster of 1 and 2 worker
processes: python benchmarks/bench_distributed.py [N]

N games of Patience II (ev policy) and N/10 of two-player cribbage (greedy), seed 1, each way.
A cluster's start-up (scheduler, worker processes, each loading the compiled kernels) is timed
apart, before the clock starts; every run's numbers are checked equal to the local run's.
"""

import sys
import time

from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
from cribsolve.games.solitaire.simulate import simulate
from cribsolve.infra.runner import connect

WAYS = [
    ("local thread pool", None),
    ("1 worker process", "local:1"),
    ("2 worker processes", "local:2"),
]


def patience2(n, where=None):
    return simulate("patience2", "ev", n, 1, where=where).as_dict()


def cribbage(n, where=None):
    return simulate_cribbage(n, seed=1, where=where).rows.tobytes()


def warm():
    """Compile or load every kernel the runs use."""
    patience2(100)
    cribbage(10)


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 200_000
    runs = [("patience2 ev", patience2, n), ("cribbage greedy", cribbage, n // 10)]
    local = {}
    print(f"{'':18} {'way':<20} {'games':>8} {'games/s':>9} {'start-up s':>11}")
    for label, scheduler in WAYS:
        t = time.perf_counter()
        with connect(scheduler) as where:
            if scheduler:
                where.client.run(warm)
            else:
                warm()
            startup = time.perf_counter() - t
            for name, play, games in runs:
                t = time.perf_counter()
                result = play(games, where)
                sec = time.perf_counter() - t
                assert local.setdefault(name, result) == result, f"{name}: {label} differs"
                print(f"{name:<18} {label:<20} {games:>8,} {games / sec:>9,.0f} {startup:>11.1f}")


if __name__ == "__main__":
    main()
