"""One pegging player against another on the same deals, each in both seats:
python benchmarks/bench_expert_pair.py [A] [B] [DEALS] [SEED]

Defaults: expert against expert-drawn, 40,000 deals, seed 7. Each deal (the game engine's
deal_outcomes: a fresh deck and kernel seed per deal) is played twice, A the pone and B the
dealer, then B the pone and A the dealer. Both throw as the expert throws, so the hands and
cribs are the same both times (checked) and only the play differs. Prints A's pegging edge a
deal over B, both seats together, with its 95% CI (the deals paired), each seat's part, and
the deals a second of each seating.

2026-12-06, 40,000 deals, seed 7 (expert-drawn: 256 holdings drawn at random): the expert with
its holdings spread pegs -0.0082 a deal [-0.0172, +0.0008] at 64 holdings, +0.0004 [-0.0075,
+0.0083] at 128 (the expert since) and +0.0078 [+0.0004, +0.0152] at 256.
"""

import sys
import time

import numpy as np

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals.deal import PARTS
from cribsolve.games.cribbage.deals.game import deal_outcomes
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES, tables_for
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.values import EXPERT as EXPERT_THROW

DEALER, PONE = PARTS.index("dealer_pegging"), PARTS.index("pone_pegging")


def main():
    a = sys.argv[1] if len(sys.argv) > 1 else "expert"
    b = sys.argv[2] if len(sys.argv) > 2 else "expert-drawn"
    n = int(float(sys.argv[3])) if len(sys.argv) > 3 else 40_000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 7
    spec = CribbageSpec()
    table, pr = rank_table(spec.target), spec.as_array()
    expert = tables_for([a, b, "expert"], spec)
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=n)
    parts = []
    for pone, dealer in ((a, b), (b, a)):
        pol = np.array([[EXPERT_THROW, CRIBBAGE_POLICIES[p][1]] for p in (pone, dealer)])
        deal_outcomes(seeds[:2], pol, table, pr, expert)  # compiled before the clock
        t = time.perf_counter()
        got, _ = deal_outcomes(seeds, pol, table, pr, expert)
        print(f"{pone} pone, {dealer} dealer: {n / (time.perf_counter() - t):,.0f} deals/s")
        parts.append(got)
    ab, ba = parts
    shows = [PARTS.index(p) for p in ("pone_hand", "dealer_hand", "crib")]
    assert (ab[:, shows] == ba[:, shows]).all(), "the throws differ"
    x = ((ab[:, PONE] - ab[:, DEALER]) - (ba[:, PONE] - ba[:, DEALER])) / 2
    half = 1.96 * x.std(ddof=1) / np.sqrt(n)
    print(
        f"{a} pegs {x.mean():+.4f} a deal over {b} [{x.mean() - half:+.4f}, "
        f"{x.mean() + half:+.4f}] ({n:,} deals, seed {seed}; the play differs in "
        f"{np.mean(ab[:, PONE] - ab[:, DEALER] != ba[:, PONE] - ba[:, DEALER]):.1%})"
    )
    print(
        f"its own pegging less {b}'s: as pone {ab[:, PONE].mean() - ba[:, PONE].mean():+.4f}, "
        f"as dealer {ba[:, DEALER].mean() - ab[:, DEALER].mean():+.4f}"
    )


if __name__ == "__main__":
    main()
