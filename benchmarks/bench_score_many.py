"""Throughput of score_many from Python: python benchmarks/bench_score_many.py

Prints 4 + starter hands scored per second on one thread, warm, for 1e6 and 1e7 random hands
(standard deck and rules, int64 codes, the check of every card included); two cut cards and
kings wild (the general kernels); and what the first call of a fresh process costs, with the
compiled kernels on disk and on an empty cache folder (compiling them).
"""

import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from cribsolve.core.rules import ruleset
from cribsolve.core.scoring.many import score_many

FIRST_CALL = """
import time
import numpy as np
t = time.perf_counter()
from cribsolve.core.scoring.many import score_many
score_many(np.array([[16, 17, 18, 41]]), np.array([19]))
print(time.perf_counter() - t)
"""


def first_call(cache: str) -> float:
    """Seconds of import and first call of score_many in a new process on ``cache``."""
    env = dict(os.environ, CRIBSOLVE_CACHE=cache, CRIBSOLVE_QUIET_COMPILE="1")
    done = subprocess.run(
        [sys.executable, "-c", FIRST_CALL], env=env, check=True, capture_output=True, text=True
    )
    return float(done.stdout)


def random_rows(n: int, rng):
    """(n, 6) different cards a row (1e6 rows drawn, then repeated: drawing 1e7 of them would
    cost more than scoring them)."""
    drawn = min(n, 1_000_000)
    rows = np.concatenate(
        [np.argsort(rng.random((100_000, 52)), axis=1)[:, :6] for _ in range(drawn // 100_000)]
    )
    return np.tile(rows, (n // drawn, 1))


def per_second(score, held, starters, **kw) -> float:
    """Hands a second of the best of 5 warm calls."""
    held, starters = np.ascontiguousarray(held), np.ascontiguousarray(starters)
    score(held[:10], starters[:10], **kw)
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        score(held, starters, **kw)
        best = min(best, time.perf_counter() - t)
    return len(held) / best


def main():
    numba.set_num_threads(1)
    rng = np.random.default_rng(0)
    for n in (1_000_000, 10_000_000):
        rows = random_rows(n, rng)
        rate = per_second(score_many, rows[:, :4], rows[:, 4])
        print(f"score_many, {n:.0e} hands, 1 thread, warm: {rate / 1e6:6.1f} M hands/s")
    rows = random_rows(1_000_000, rng)
    rate = per_second(score_many, rows[:, :4], rows[:, 4:6])
    print(f"  two cut cards (the general kernels): {rate / 1e6:6.2f} M hands/s")
    kings = dict(rules=ruleset(wild_rank=13))
    rate = per_second(score_many, rows[:100_000, :4], rows[:100_000, 4], **kings)
    print(f"  kings wild (the general kernels): {rate / 1e6:6.2f} M hands/s")
    with tempfile.TemporaryDirectory(prefix="cribsolve-bench-") as cache:
        compiling = first_call(cache)
        loading = first_call(cache)
    print(
        f"first call in a new process (import included): {loading:.2f} s with the kernels "
        f"compiled, {compiling:.1f} s compiling them"
    )


if __name__ == "__main__":
    main()
