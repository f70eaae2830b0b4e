"""Throughput of the show scorer: python benchmarks/bench_scoring.py

Prints 5-card hands scored per second (one thread, all threads), the time of the exact
distribution, batch scoring from a file end to end, and what a cold command pays to compile.
"""

import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from cribsolve.core.notation import format_cards
from cribsolve.core.scoring.table import distribution, rank_table, score5_many


def best_of(f, repeat=3):
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    rng = np.random.default_rng(0)
    n = 20_000_000
    hands = np.stack([rng.permutation(52)[:5] for _ in range(200_000)])
    hands = np.tile(hands, (n // len(hands), 1))
    table = rank_table()
    score5_many(table, hands[:10], False)
    threads = numba.get_num_threads()
    for t in sorted({1, threads}):
        numba.set_num_threads(t)
        sec = best_of(lambda: score5_many(table, hands, False))
        print(f"5-card kernel, {t} thread(s): {n / sec / 1e6:8.1f} M hands/s")
    numba.set_num_threads(threads)
    distribution()
    print(
        f"exact distribution (12,994,800 hands), {threads} threads: "
        f"{best_of(distribution) * 1000:.0f} ms"
    )

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hands.txt")
        m = 1_000_000
        with open(path, "w") as f:
            f.write("\n".join(format_cards(h) for h in hands[:m]) + "\n")
        cmd = [sys.executable, "-m", "cribsolve", "score", "--batch", path]
        subprocess.run(cmd, check=True, capture_output=True)
        sec = best_of(lambda: subprocess.run(cmd, check=True, capture_output=True), 2)
        print(
            f"cribsolve score --batch, 1e6 hands, whole process: {sec:.2f} s = "
            f"{m / sec:,.0f} hands/s ({m / sec / 19_000:.0f}x cribbage-scorer's ~19,000/s)"
        )

        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "cold-cache"))
        score_cmd = [
            sys.executable,
            "-m",
            "cribsolve",
            "score",
            "5H",
            "5S",
            "5C",
            "JD",
            "--starter",
            "5D",
        ]
        t = time.perf_counter()
        subprocess.run(score_cmd, check=True, capture_output=True, env=env)
        cold = time.perf_counter() - t
        warm = best_of(lambda: subprocess.run(score_cmd, check=True, capture_output=True, env=env))
        print(f"cribsolve score: cold (compiling) {cold:.1f} s, later processes {warm:.2f} s")


if __name__ == "__main__":
    main()
