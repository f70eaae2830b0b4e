"""The odds table against games played out:
python benchmarks/bench_odds.py [N] [POLICY] [partners]

For positions across the board (near the end above all), plays N games (default 1e5) from
each, both players (with ``partners``: both teams of two) following POLICY (default greedy),
and prints the time to build or load the table, its P(win), the played-out rate with its 95%
interval, the difference in points, and the games per second.
"""

import sys
import time

from cribsolve.games.cribbage.deals.odds import odds_table
from cribsolve.games.cribbage.deals.simulate import played_out
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.infra.stats import wilson

POSITIONS = [
    (120, 120, False),
    (116, 116, False),
    (100, 110, True),
    (119, 112, True),
    (105, 117, False),
    (118, 104, False),
    (110, 110, True),
    (90, 80, True),
    (60, 75, False),
    (0, 0, True),
]


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 100_000
    policy = sys.argv[2] if len(sys.argv) > 2 else "greedy"
    partners = len(sys.argv) > 3 and sys.argv[3] == "partners"
    spec = CribbageSpec(players=4, hand_size=5, partners=True) if partners else CribbageSpec()
    t = time.perf_counter()
    win = odds_table(spec, policy=policy)
    print(f"table ({spec.describe()}): {time.perf_counter() - t:.1f} s to build or load")
    worst = 0.0
    for mine, theirs, i_deal in POSITIONS:
        played_out(spec, mine, theirs, i_deal, 10, policy=policy)
        t = time.perf_counter()
        wins = played_out(spec, mine, theirs, i_deal, n, seed=1, policy=policy)
        sec = time.perf_counter() - t
        p, rate = win[1 if i_deal else 0, mine, theirs], wins / n
        lo, hi = wilson(wins, n)
        worst = max(worst, abs(p - rate))
        print(
            f"{mine:3d}-{theirs:3d} {'I deal  ' if i_deal else 'they deal'}: table "
            f"{p:7.2%}  played out {rate:7.2%} [{lo:.2%}, {hi:.2%}]  diff "
            f"{100 * (p - rate):+5.2f} pts  ({n / sec:,.0f} games/s)"
        )
    print(f"largest difference: {100 * worst:.2f} points ({policy}, {n:,} games a position)")


if __name__ == "__main__":
    main()
