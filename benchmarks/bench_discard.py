"""Discard analysis speed: python benchmarks/bench_discard.py

Prints the compute time of one exact 6-card analysis (15 discards, uniform and optimal
opponent) and the batch rate in hands per second on all threads.
"""

import time

import numpy as np

from cribsolve import parse_cards
from cribsolve.games.cribbage.throw.best_discard import best_discard, best_discard_batch


def main():
    hand = parse_cards(["5H 5S JD 6C 7C KH"])
    for model in ("uniform", "optimal"):
        best_discard(hand, "dealer", opponent=model)
        reps = 200
        t = time.perf_counter()
        for _ in range(reps):
            best_discard(hand, "dealer", opponent=model)
        ms = (time.perf_counter() - t) / reps * 1e3
        print(f"one 6-card analysis, opponent {model}: {ms:.2f} ms")
    rng = np.random.default_rng(0)
    hands = [rng.permutation(52)[:6].tolist() for _ in range(10_000)]
    best_discard_batch(hands[:8], "dealer", "optimal")
    t = time.perf_counter()
    best_discard_batch(hands, "dealer", "optimal")
    sec = time.perf_counter() - t
    print(
        f"batch, 10,000 six-card hands: {len(hands) / sec:,.0f} hands/s "
        f"({sec / len(hands) * 1e3:.2f} ms per hand; MichaelCook/cribbage ~200 ms)"
    )


if __name__ == "__main__":
    main()
