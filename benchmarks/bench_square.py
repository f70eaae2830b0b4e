"""Cribbage Square's policies against each other: python benchmarks/bench_square.py [N] [VARIANT...]

On the first N decks (default 2,000) simulate deals for seed 1, plays ev and lookahead, and
prints each one's win rate and mean score, lookahead's paired gain in win rate and in points
(95% CIs of the paired differences) and the games per second of each; then the time of one
coach decision (best_place with the coach's defaults) on the first card and the tenth.
"""

import sys
import time

import numpy as np

from cribsolve.games.solitaire import square, square_advice
from cribsolve.games.solitaire.facts import SOLITAIRES, SQUARES
from cribsolve.infra.runner import chunks


def scores(variant, policy, n):
    t = time.perf_counter()
    out = np.concatenate(
        [
            square.chunk_points(variant, policy, 1, i, games)[:, 0]
            for i, games in chunks(n, SOLITAIRES[variant].chunk)
        ]
    )
    return out, time.perf_counter() - t


def paired(d):
    half = 1.96 * d.std(ddof=1) / np.sqrt(d.size)
    return f"{d.mean():+.4f} [{d.mean() - half:+.4f}, {d.mean() + half:+.4f}]"


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 2000
    variants = sys.argv[2:] or list(SQUARES)
    square.chunk_points("square", "lookahead", 0, 0, 2)  # compile outside the clock
    for variant in variants:
        ev, t_ev = scores(variant, "ev", n)
        ahead, t_ahead = scores(variant, "lookahead", n)
        win_ev, win_ahead = ev >= square.WIN_AT, ahead >= square.WIN_AT
        print(f"{variant}, {n:,} decks of seed 1:")
        print(
            f"  ev        win {win_ev.mean():.4f}  mean {ev.mean():6.2f}  {n / t_ev:7.1f} games/s"
        )
        print(
            f"  lookahead win {win_ahead.mean():.4f}  mean {ahead.mean():6.2f}  "
            f"{n / t_ahead:7.1f} games/s"
        )
        print(
            f"  gain: win {paired(win_ahead.astype(float) - win_ev)}, "
            f"points {paired((ahead - ev).astype(float))}"
        )
    deck = np.random.default_rng(1).permutation(52)
    square_advice.best_place([None] * 16, int(deck[0]), samples=2, top=3)  # load the kernels
    grid = [None] * 16
    for k in range(10):
        t = time.perf_counter()
        advice = square_advice.best_place(
            grid, int(deck[k]), samples=200, seed=square_advice.ADVICE_SEED, top=3
        )
        if k in (0, 9):
            print(f"coach decision, card {k + 1}: {time.perf_counter() - t:.3f} s")
        grid[advice[0].cell] = int(deck[k])


if __name__ == "__main__":
    main()
