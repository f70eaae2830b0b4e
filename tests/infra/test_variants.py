"""Compile what runs (infra/jit.variant, game.flags): a copy of a kernel binds its flags all the
way down its calls, a greedy game under the standard rules compiles no search and no house
rule's code, and a copy's numbers are the kernel's own."""

import os
import subprocess
import sys

import numpy as np
import pytest

from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import deal, game
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
from cribsolve.games.cribbage.players import policies
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw import values
from cribsolve.infra import jit
from cribsolve.infra.jit import variant

GREEDY = np.array([CRIBBAGE_POLICIES["greedy"]] * 2)
EXPERT = np.array([CRIBBAGE_POLICIES["expert"], CRIBBAGE_POLICIES["greedy"]])


def bound(kernel, *path):
    """The global reached from ``kernel`` through the names ``path``, each in the one before
    it (a copy's globals are its bindings over its module's)."""
    for name in path:
        kernel = kernel.py_func.__globals__[name]
    return kernel


def test_flags_name_the_players_and_rules_in_play():
    std = CribbageSpec().as_array()
    assert game.flags(GREEDY, std) == {
        "LOOKAHEAD_ON": False,
        "EXPERT1_ON": False,
        "EXPERT_ON": False,
        "EXPERTN_ON": False,
        "WILD_ON": False,
        "GENERAL_ON": False,
        "DRAW_ON": False,
        "BID_ON": False,
        "BOARD_ON": False,
    }
    f = game.flags(EXPERT, CribbageSpec(wild_rank=13, draw=True).as_array(), np.zeros((1, 2, 1, 1)))
    assert f["EXPERT_ON"] and f["WILD_ON"] and f["DRAW_ON"] and f["BOARD_ON"]
    assert f["GENERAL_ON"]  # the expert's throw weighs its pegging table
    assert not f["EXPERT1_ON"] and not f["LOOKAHEAD_ON"] and not f["BID_ON"]
    assert not f["EXPERTN_ON"]  # the expert of three or four players: not at two
    three = game.flags(
        EXPERT[:1].repeat(3, axis=0), CribbageSpec(players=3, hand_size=5).as_array()
    )
    assert three["EXPERTN_ON"] and not three["EXPERT_ON"]
    for spec in (
        CribbageSpec(players=3, hand_size=5),
        CribbageSpec(starters=2),
        CribbageSpec(two_cribs=True),
        CribbageSpec(choose_cut=True),
    ):
        assert game.flags(GREEDY, spec.as_array())["GENERAL_ON"], spec


def test_a_copy_binds_its_flags_down_its_calls_and_only_where_they_are_defined():
    copy = variant(game._play_games, **game.flags(GREEDY, CribbageSpec().as_array()))
    assert copy is not game._play_games
    copied = bound(copy, "play_game", "play_deal")
    assert copied.py_func.__globals__["DRAW_ON"] is False
    counted = bound(copied, "count_deal")
    assert bound(counted, "show_points").py_func.__globals__["WILD_ON"] is False
    assert bound(counted, "play", "choose").py_func.__globals__["EXPERT_ON"] is False
    assert "WILD_ON" not in copied.py_func.__globals__  # deal.py has no such flag
    # the kernels it calls that reach no flag are the kernels themselves, shared
    assert bound(copied, "deal_options") is values.deal_options
    # as written, every flag is on: such a copy is the kernel itself, and so is a repeat
    assert variant(policies.choose, LOOKAHEAD_ON=True, EXPERT_ON=True) is policies.choose
    assert variant(game._play_games, WILD_ON=False) is variant(game._play_games, WILD_ON=False)
    # the module's own flags and kernels stay as written
    assert deal.play_deal.py_func.__globals__["DRAW_ON"] is True


@pytest.mark.slow
def test_a_copy_plays_the_games_of_the_kernel_itself():
    """The generic kernels (every branch compiled) against the copies, with and without house
    rules: the same rows."""
    for spec, pol in (
        (CribbageSpec(game_length=61), GREEDY),
        (CribbageSpec(game_length=61, wild_rank=13, draw=True), GREEDY),
    ):
        pr, table = spec.as_array(), rank_table(spec.target)
        seeds = np.arange(40, dtype=np.int64) * 7919
        whole = game._play_games(
            seeds, pol, table, pr, deal.NO_EXPERT, game.NO_START, game.NO_BOARD
        )
        assert (game.play_games(seeds, pol, table, pr) == whole).all()


@pytest.mark.slow
def test_a_greedy_standard_game_compiles_no_search_and_no_house_rule(tmp_path):
    """As a command compiles it, on a fresh cache folder: whatever a greedy game under the
    standard rules never runs is never compiled."""
    log = tmp_path / "compiled.log"
    env = dict(os.environ, CRIBSOLVE_CACHE=str(tmp_path), CRIBSOLVE_COMPILE_LOG=str(log))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "cribsolve",
            "simulate",
            "--variant",
            "cribbage",
            "-n",
            "20",
            "--quiet",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    # A variant copy is compiled as <kernel>__v<digest>: counted under its kernel's name.
    compiled = {
        line.split("\t")[0].split("[")[0].split("__v")[0] for line in log.read_text().splitlines()
    }
    assert {"_play_games", "play_deal", "greedy_choice", "ev_discard"} <= compiled
    never = {
        "open_choice",
        "infoset_choice",
        "expert_holdings",
        "lookahead_choice",
        "_bid",
        "_redraws",
        "redraw",
        "best_wild",
        "throw_values",
        "board_throw",
    }
    assert not compiled & never, compiled & never


def test_threaded_rows_are_the_same_for_any_thread_count():
    seeds = np.arange(1, 200, dtype=np.int64)
    spec = CribbageSpec(game_length=31)
    pr, table = spec.as_array(), rank_table(spec.target)
    before = jit._load_numba().get_num_threads()
    try:
        jit.set_threads(1)
        one = game.play_games(seeds, GREEDY, table, pr)
        jit.set_threads(2)
        two = game.play_games(seeds, GREEDY, table, pr)
    finally:
        jit.set_threads(before)
    assert (one == two).all() and one.shape == (len(seeds), 7 + deal.part_count(2))


def test_the_spinner_says_what_compiles_and_clears_its_line(monkeypatch):
    import io
    import time

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    from cribsolve.infra.spinner import Spinner

    s = Spinner()
    s.what = "play_deal"
    time.sleep(0.5)
    s.stop()
    out = err.getvalue()
    assert "compiling play_deal" in out and out.endswith("\r\033[K")


def test_a_kernel_called_with_constants_compiles_once_for_their_plain_types():
    """numba alone would compile ``inner`` twice: for (Literal 0, Literal True) and for
    (int64, bool)."""

    @jit.njit
    def inner(x, flag):
        return x + 1 if flag else x

    @jit.njit
    def outer(y):
        return inner(0, True) + inner(y, False)

    assert outer(5) == 6
    assert len(inner.signatures) == 1


def test_a_row_of_another_length_is_still_refused_in_plain_words():
    @jit.njit
    def put(a, b):
        a[0] = b

    with pytest.raises(ValueError, match="different size"):  # not numba's formatted shapes
        put(np.zeros((2, 3)), np.zeros(2))


def test_later_works_in_the_background_and_wait_later_waits_for_it():
    import time

    done = []
    jit.later(lambda: (time.sleep(0.3), jit.wait_later("x"), done.append(1)))  # no self-wait
    assert not done
    jit.wait_later("x")
    assert done == [1]

    def fails():
        raise ValueError("from the work")

    jit.later(fails)
    with pytest.raises(ValueError, match="from the work"):  # in the waiting thread
        jit.wait_later("x")
    jit.wait_later("x")  # nothing left to wait for
