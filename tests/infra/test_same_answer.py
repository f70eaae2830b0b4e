"""The same call gives the same answer whatever ran before it: in one process after any other
calls (their compiled copies, loaded tables and memos), on a cache folder filled by other
commands, and on 1, 2 or 4 threads. Each call is a command of samecall.CALLS; its answer made
alone, in a fresh process, is the reference.

What these tests first caught: jit.variant's copies took the qualified name of the kernel
they copy, numba names machine code by module, qualified name and a per-process counter, so
two copies compiled in two processes at the same count shared symbols once both were loaded
from the cache; the first loaded ran for both (Patience's win policy read clairvoyance's rate,
Patience II's read ev's, and bracket crashed on a NULL array descriptor).
"""

import json
import os
import random
import subprocess
import sys

import pytest
from samecall import CALLS

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(HERE, "samecall.py")


def calls(names, cache=None, threads=None) -> dict:
    """{name: [exit status, stdout]} of ``names`` made in that order in one fresh process,
    on the cache folder ``cache`` (default: this run's) with numba's pool of ``threads``."""
    env = dict(os.environ)
    if cache is not None:
        env["CRIBSOLVE_CACHE"] = str(cache)
    if threads is not None:
        env["NUMBA_NUM_THREADS"] = str(threads)
    r = subprocess.run(
        [sys.executable, SCRIPT, *names], capture_output=True, text=True, env=env, timeout=1800
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def alone(names, cache=None) -> dict:
    """Each call of ``names`` made alone, each in a fresh process of its own, one after the
    other on the one cache folder (so each may load what the ones before compiled)."""
    out = {}
    for name in names:
        out.update(calls([name], cache))
    return out


def assert_same(got: dict, want: dict, how: str) -> None:
    for name in want:
        assert got[name][0] == 0, f"{name} {how}: exit status {got[name][0]}"
        assert got[name] == want[name], f"{name} {how}: another answer than alone"


# The policies of the notebook that first showed it, made alone in an order that compiled two
# copies at the same count (Patience's win then read clairvoyance's rate, Patience II's ev's).
QUICK = [
    "patience-clairvoyant",
    "patience2-win",
    "patience-win",
    "patience-ev",
    "patience2-clairvoyant",
    "patience-random",
    "patience2-ev",
]


def test_the_same_calls_in_shuffled_orders_give_the_answers_made_alone():
    want = alone(QUICK)
    for seed in (1, 2):
        order = QUICK[:]
        random.Random(seed).shuffle(order)
        assert_same(calls(order), want, f"in the order {order}")


@pytest.mark.slow
def test_every_call_in_shuffled_orders_gives_its_answer_made_alone(filled):
    cache, want = filled
    for seed in (1, 2):
        order = list(CALLS)
        random.Random(seed).shuffle(order)
        assert_same(calls(order, cache), want, f"after others (seed {seed})")


@pytest.fixture(scope="module")
def filled():
    """This run's cache folder, filled by the tests before and then by every call of CALLS,
    each made alone in a process of its own (every variant, policy and several rules): the
    folder, and each call's answer."""
    return os.environ["CRIBSOLVE_CACHE"], alone(CALLS)


# Those that loaded another's code from a filled cache, and one of each other kind.
HISTORY = ["patience-win", "patience2-win", "bracket-patience", "cribbage-lowball", "discard"]


@pytest.mark.slow
def test_a_cache_filled_by_other_commands_gives_the_answers_of_an_empty_one(filled, tmp_path):
    _, on_filled = filled
    for name in HISTORY:
        empty = tmp_path / name
        assert_same(calls([name], empty), {name: on_filled[name]}, "on an empty cache")


def test_one_two_and_four_threads_give_the_same_rows_first_calls_included():
    """Each process's first call compiles or loads its kernels while its games are split over
    the threads; --jobs picks how many of numba's four run them (samecall's NAME@J)."""
    names = ["patience-win", "cribbage-greedy"]
    want = alone(names)
    for jobs in (1, 2, 4):
        got = {}
        for name in names:
            got[name] = calls([f"{name}@{jobs}"], threads=4)[f"{name}@{jobs}"]
        assert_same(got, want, f"on {jobs} threads")
