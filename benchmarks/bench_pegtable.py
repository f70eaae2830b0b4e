"""The expert's throws with its own pegging table against the same expert throwing by
expert1's: python benchmarks/bench_pegtable.py [DEALS] [SEED] [OPPONENT]

Paired deals (default 20,000, seed 1, the opponent expert1): each deal is played twice from
the same deck with the same kernel seed, the tested player (the expert, pone on even deals,
dealer on odd) throwing once by the information-set pegging table and once by expert1's
open-hands table; all else is equal, so a deal where both tables pick the same throw plays
out identically. Prints the share of deals whose throw differs and the mean gain in the
tested player's margin of the whole deal (pegging, hand and crib; 95% CI), by seat.
"""

import sys
import time

import numpy as np
from numba import njit, prange

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import deal
from cribsolve.games.cribbage.deals.roster import expert_tables
from cribsolve.games.cribbage.players.pegtable import peg_table
from cribsolve.games.cribbage.players.policies import POLICIES
from cribsolve.games.cribbage.rules.pegging import unseen_cards
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.values import EXPERT as EXPERT_THROW


@njit(parallel=True)
def margins(n, seed, table, pr, pegs_a, pegs_b, shares, me_peg, opp_peg):
    """[deal, (margin with table a, with table b, the tested seat)]."""
    out = np.zeros((n, 3))
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)
    for d in prange(n):
        np.random.seed(seed + d)
        deck = np.random.permutation(full)
        me = d % 2
        pol = np.empty((2, 2), dtype=np.int64)
        pol[me, 0], pol[me, 1] = EXPERT_THROW, me_peg
        pol[1 - me, 0], pol[1 - me, 1] = EXPERT_THROW, opp_peg
        for k in range(2):
            np.random.seed(seed + 7 + 1000003 * d)
            scores = np.zeros(2, dtype=np.int64)
            deal.play_deal(
                deck,
                pol,
                scores,
                0,
                table,
                np.zeros(7, dtype=np.int64),
                pr,
                (pegs_a if k == 0 else pegs_b, shares, np.zeros(0, np.int8)),
                deal.FREE,
                np.zeros(deal.trace_length(pr), dtype=np.int64),
            )
            out[d, k] = scores[me] - scores[1 - me]
        out[d, 2] = me
    return out


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 20_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    opponent = sys.argv[3] if len(sys.argv) > 3 else "expert1"
    if opponent == "expert":  # it would read the table under test too
        raise SystemExit("the opponent must be another policy than the expert")
    spec = CribbageSpec()
    pr = spec.as_array()
    open_hands, infoset = peg_table(spec, "open"), peg_table(spec, "infoset")
    shares = expert_tables(spec, ())[1]
    # the expert's table is the second; the opponent (expert1) reads the first
    new, old = np.stack([open_hands, infoset]), np.stack([open_hands, open_hands])
    t = time.perf_counter()
    r = margins(
        n, seed, rank_table(15), pr, new, old, shares, POLICIES["expert"], POLICIES[opponent]
    )
    d = r[:, 0] - r[:, 1]
    print(
        f"{n:,} paired deals (seed {seed}, against {opponent}), "
        f"{time.perf_counter() - t:.0f} s with compiling; throws differ in "
        f"{np.mean(d != 0):.1%} of them"
    )
    for seat, name in ((None, "both seats"), (0, "as pone"), (1, "as dealer")):
        x = d if seat is None else d[r[:, 2] == seat]
        half = 1.96 * x.std(ddof=1) / np.sqrt(x.size)
        print(
            f"  {name:10}  gain {x.mean():+.4f} points a deal [{x.mean() - half:+.4f}, "
            f"{x.mean() + half:+.4f}]"
        )


if __name__ == "__main__":
    main()
