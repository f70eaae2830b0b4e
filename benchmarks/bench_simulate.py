"""Solitaire simulation speed: python benchmarks/bench_simulate.py [N]

Plays N games (default 1e5) of each variant with each policy and prints games per second,
plus the one-answer time of best-discard --variant patience.
"""

import sys
import time

from cribsolve import parse_cards
from cribsolve.games.solitaire.discard import solitaire_discard
from cribsolve.games.solitaire.simulate import simulate


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 100_000
    for variant in ("patience", "patience2"):
        for policy in ("random", "ev", "clairvoyant"):
            simulate(variant, policy, 100)
            t = time.perf_counter()
            r = simulate(variant, policy, n, seed=1)
            sec = time.perf_counter() - t
            print(
                f"{variant:>9} {policy:>11}: {n / sec:9,.0f} games/s  "
                f"(1e6 games in {1e6 / (n / sec):5.0f} s)  win {r.win_rate:.4f}"
            )
    hand = parse_cards(["5H 5S JD 6C 7C KH"])
    solitaire_discard(hand, "patience")
    t = time.perf_counter()
    for _ in range(200):
        solitaire_discard(hand, "patience")
    print(f"best-discard --variant patience: {(time.perf_counter() - t) / 200 * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
