"""The engine's throws (values.py) against a brute-force enumeration of every starter and crib."""

import numpy as np
import pytest

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.rules.pegging import seed_kernels
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw import values


def brute_throw_value(dealt, keep, disc, unseen, first, dealer, spec):
    """E[hand] + sign * E[crib] over every unknown starter and opponent throw (uniform)."""
    from itertools import combinations

    from slow_scorer import slow_score

    t = len(disc)
    total, n = 0.0, 0
    for i, s in enumerate(unseen):
        starters = ([first] if first >= 0 else []) + [s]
        h = sum(slow_score([dealt[j] for j in keep], starters, spec.target).values())
        others = unseen[:i] + unseen[i + 1 :]
        for opp in combinations(others, t):
            c = sum(
                slow_score(
                    [dealt[j] for j in disc] + list(opp), starters, spec.target, True
                ).values()
            )
            total += h + (c if dealer else -c)
            n += 1
    return total / n


@pytest.mark.parametrize(
    "rules,dealer",
    [
        ({"hand_size": 7}, True),
        ({"hand_size": 8}, False),
        ({"starters": 2}, True),
        ({"hand_size": 7, "crib_size": 6}, False),
    ],
)
def test_throw_values_against_brute_force(rules, dealer):
    """Exact where the crib is 4 cards and one starter; the sampled crib of the other deals
    averages to the exact value."""
    spec = CribbageSpec(**rules)
    pr = spec.as_array()
    rng = np.random.default_rng(len(str(rules)))
    cards = rng.permutation(52)
    h, t = spec.hand_size, spec.crib_size // 2
    dealt = cards[:h]
    first = int(cards[h]) if spec.starters == 2 else -1
    unseen = sorted(cards[h + 1 : h + 13].tolist())
    keep_idx, disc_idx = values.throw_options(h, t)
    options = [0, len(keep_idx) // 2, len(keep_idx) - 1]
    exact = [
        brute_throw_value(dealt.tolist(), keep_idx[o], disc_idx[o], unseen, first, dealer, spec)
        for o in options
    ]
    runs = []
    for seed in range(1 if spec.starters == 1 and t == 2 else 60):
        seed_kernels(seed)
        runs.append(
            values.expected_throw_values(
                dealt,
                keep_idx,
                disc_idx,
                np.array(unseen, dtype=np.int64),
                first,
                dealer,
                rank_table(),
                pr,
            )[options]
        )
    got = np.mean(runs, axis=0)
    tolerance = 1e-9 if len(runs) == 1 else 0.6
    assert np.abs(got - exact).max() < tolerance, (got, exact)
