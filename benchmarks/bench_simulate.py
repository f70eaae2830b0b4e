"""Simulation speed: python benchmarks/bench_simulate.py [N]

Plays N games (default 1e5) of each solitaire with each policy, N/10 with the strongest
(Patience's deck, Patience II's win and lookahead, each Cribbage Square's lookahead), and
N/100 of two-player cribbage in self-play by the expert and by expert-drawn (the expert
before its holdings were spread), and prints games per second with the time 1e6 games would
take, plus the one-answer time of best-discard --variant patience. The expert's speed hangs
on its first cards shipped with the package and kept by earlier runs (first_cards.py): it
says how many there are.

Patience II's lookahead, the same 6,000 games (three chunks of seed 1), rows identical:
151 games/s before each hand's points by starter were counted once (kept_points), 339 after
(2026-12-06, the machine shared with another job). 1e6 games, seed 1: 25 min 10 s with the
machine otherwise idle (`simulate --variant patience2 --policy lookahead -n 1e6 --seed 1`).
Since it plays the last deal exactly and draws up to 128 second hands (2026-12-07): 200-220
games/s warm, 4,000 games of seed 1 in 17.9-20.1 s; 1e5 games in 498 s, compile included.
With each four held cards counted once for every starter and its rows over the unseen cards
in order (2026-12-07, 2 cores, the machine otherwise idle): 4,000 games of seed 2 in 9.9-10.2
s whole process against 18.1-18.5 s, the same rows (403 games/s against 220).
"""

import sys
import time

from cribsolve import parse_cards
from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
from cribsolve.games.cribbage.players import first_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.solitaire import square
from cribsolve.games.solitaire.discard import solitaire_discard
from cribsolve.games.solitaire.facts import SQUARES
from cribsolve.games.solitaire.simulate import simulate


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 100_000
    plays = [(v, p, n) for v in ("patience", "patience2") for p in ("random", "ev", "clairvoyant")]
    strong = [("patience", "deck"), ("patience2", "win"), ("patience2", "lookahead")]
    strong += [(v, "lookahead") for v in SQUARES]
    for variant, policy, games in plays + [(v, p, max(n // 10, 100)) for v, p in strong]:
        play = square.simulate if variant in SQUARES else simulate
        play(variant, policy, 100)
        t = time.perf_counter()
        r = play(variant, policy, games, seed=1)
        sec = time.perf_counter() - t
        print(
            f"{variant:>15} {policy:>11}: {games / sec:9,.0f} games/s  "
            f"(1e6 games in {1e6 / (games / sec):5.0f} s)  win {r.win_rate:.4f}"
        )
    kept = int((first_cards.memo_for(CribbageSpec()) >= 0).sum())
    print(f"the expert's first cards shipped and kept by earlier runs: {kept:,} (they speed it up)")
    for policy in ("expert", "expert-drawn"):
        games = max(n // 100, 100)
        simulate_cribbage(2, policy)
        t = time.perf_counter()
        r = simulate_cribbage(games, policy, seed=11)
        sec = time.perf_counter() - t
        print(
            f"{'cribbage':>15} {policy:>12}: {games / sec:8,.1f} games/s  "
            f"(1e6 games in {1e6 / (games / sec):5.0f} s)  first dealer wins "
            f"{r.as_dict()['win_rate']:.4f}"
        )
    hand = parse_cards(["5H 5S JD 6C 7C KH"])
    solitaire_discard(hand, "patience")
    t = time.perf_counter()
    for _ in range(200):
        solitaire_discard(hand, "patience")
    print(f"best-discard --variant patience: {(time.perf_counter() - t) / 200 * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
