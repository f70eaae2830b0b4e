"""Cribbage Shuffle: the exact search, checked piece by piece and against a wider scan."""

import json
from itertools import permutations

import numpy as np
import pytest
from clihelp import run

from cribsolve import ruleset, score_hand
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.solitaire import shuffle as sh
from cribsolve.games.solitaire.simulate import simulate

PYSOL = ruleset("pysol")


def deal(seed):
    p = np.random.default_rng(seed).permutation(52)
    return p[:16].astype(np.int64), int(p[16])


def mask(positions):
    return sum(1 << int(i) for i in positions)


def test_group_values_are_show_scores():
    cards, st = deal(1)
    val = sh.group_values(cards, st, rank_table())
    for g in [(0, 1, 2, 3), (3, 7, 11, 15), (2, 5, 9, 14)]:
        assert (
            val[mask(g)] == score_hand(cards[list(g)].tolist(), [st], PYSOL, itemized=False).total
        )


def test_partition_enumeration_and_dynamic_program():
    cards, st = deal(2)
    val = sh.group_values(cards, st, rank_table())
    best = sh.best_partition_values(val)
    n, parts, vals = sh.partitions_at_least(val, best, 0, sh.ALL_PARTITIONS)
    assert n == 2_627_625  # 16! / (4!^4 4!)
    assert vals.max() == best[sh.FULL]
    assert (np.bitwise_or.reduce(parts, axis=1) == sh.FULL).all()
    # the DP's value of an 8-card set, by brute force over its 35 splits
    eight = mask(range(8, 16))
    brute = max(
        val[mask((8,) + rest)] + val[eight ^ mask((8,) + rest)]
        for rest in __import__("itertools").combinations(range(9, 16), 3)
    )
    assert best[eight] == brute


def test_best_columns_by_brute_force():
    cards, st = deal(3)
    val = sh.group_values(cards, st, rank_table())
    rows = np.array([mask(range(4 * i, 4 * i + 4)) for i in range(4)], dtype=np.int64)
    brute = max(
        sum(val[mask((j, 4 + p2[j], 8 + p3[j], 12 + p4[j]))] for j in range(4))
        for p2 in permutations(range(4))
        for p3 in permutations(range(4))
        for p4 in permutations(range(4))
    )
    assert sh.best_columns(rows, val, 0)[0] == brute
    assert sh.best_columns(rows, val, brute + 1)[0] == -1


@pytest.mark.parametrize("seed", [4, 5])
def test_optimum_against_every_row_partition(seed):
    """Scan every row partition that could beat the optimum by the weak bound columns <= the
    best partition (not the transposition argument the search uses): none does."""
    cards, st = deal(seed)
    sol = sh.solve(cards, st)
    opt = sol.total - sol.heels
    val = sh.group_values(cards, st, rank_table())
    best = sh.best_partition_values(val)
    pstar = best[sh.FULL]
    n, parts, vals = sh.partitions_at_least(val, best, opt + 1 - pstar, sh.ALL_PARTITIONS)
    for p, v in zip(parts, vals):
        assert sh.best_columns(p, val, opt + 1 - v)[0] == -1
    assert sol.optimal and sol.upper_bound == sol.total


@pytest.mark.parametrize("seed", range(6, 12))
def test_reported_grid_rescored_and_never_beaten_by_local_search(seed):
    cards, st = deal(seed)
    sol = sh.solve(cards, st)
    rows = [sol.grid[4 * i : 4 * i + 4] for i in range(4)]
    cols = [sol.grid[i::4] for i in range(4)]
    rescored = [score_hand(h, [st], PYSOL, itemized=False).total for h in rows + cols]
    assert rescored == sol.rows + sol.columns
    assert sum(rescored) + (2 if st // 4 == 10 else 0) == sol.total
    assert sorted(sol.grid) == sorted(cards.tolist())
    val = sh.group_values(cards, st, rank_table())
    rng = np.random.default_rng(seed)
    for _ in range(20):
        _, local = sh.improve_by_swaps(rng.permutation(16).astype(np.int64), val)
        assert local + sol.heels <= sol.total
    assert sol.optimal and sol.heuristic <= sol.total


def test_time_limit_reports_a_bound_not_below_the_optimum():
    """Stopped at once, the search still bounds the optimum that a full search proves."""
    cards, st = deal(13)
    early, full = sh.solve(cards, st, time_limit=0), sh.solve(cards, st)
    assert full.optimal and early.total <= full.total <= early.upper_bound


def test_shuffle_cli_json():
    cards = "AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD TD".split()
    code, out, _ = run("shuffle", *cards, "--starter", "5D", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["optimal"] and obj["total"] == obj["upper_bound"]
    assert obj["total"] == sum(obj["rows"]) + sum(obj["columns"]) + obj["heels"]
    assert sorted(c for r in obj["grid"] for c in r) == sorted(cards)


@pytest.mark.parametrize(
    "args",
    [
        ["AC", "2C", "--starter", "5D"],
        ["AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD TD", "--starter", "TD"],
        ["AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD JD", "--starter", "5D"],
        ["AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD TD"],
    ],
)
def test_shuffle_bad_input(args):
    code, out, err = run("shuffle", *args)
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_simulate_shuffle_modes_agree_on_wins():
    exact = simulate("shuffle", None, 200, seed=3)
    decided = simulate("shuffle", "optimal", 200, seed=3, win_only=True)
    heur = simulate("shuffle", "heuristic", 200, seed=3)
    assert exact.wins == decided.wins >= heur.wins
    assert decided.as_dict()["histogram"] is None and sum(exact.histogram.values()) == 200
    assert exact.as_dict() == simulate("shuffle", None, 200, seed=3, jobs=1).as_dict()
