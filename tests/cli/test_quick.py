"""Single answers run their kernels as plain Python (no numba): the same output as compiled,
and numba is never imported."""

import os
import subprocess
import sys

import pytest

QUESTIONS = [
    ["score", "5H", "5S", "5C", "JD", "--starter", "5D"],
    ["score", "3H", "3S", "4C", "5D", "JK", "--starter", "JD", "--jokers", "1", "--json"],
    ["score", "--whole-deck", "--decks", "2", "--jokers", "2"],
    ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--dealer", "--distribution"],
    [
        "best-discard",
        "2H",
        "4H",
        "6H",
        "8H",
        "TH",
        "JC",
        "--pone",
        "--seen",
        "AH 3C",
        "--throw-model",
        "uniform",
        "--json",
    ],
    ["best-discard", "5H", "5S", "JD", "6C", "7C", "--dealer", "--top", "2"],
    ["odds", "--my-score", "35", "--their-score", "37", "--dealer"],
    ["cache", "info", "--json"],
]
PROBE = (
    "import sys; from cribsolve.cli import main; sys.argv = ['cribsolve'] + sys.argv[1:]; "
    "main(); print('numba' in sys.modules, file=sys.stderr)"
)


def ask(args, compiled):
    env = {k: v for k, v in os.environ.items() if k != "CRIBSOLVE_COMPILED"}
    if compiled:
        env["CRIBSOLVE_COMPILED"] = "1"
    r = subprocess.run(
        [sys.executable, "-c", PROBE, *args], env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    return r.stdout, r.stderr.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("args", QUESTIONS, ids=lambda a: " ".join(a[:3]))
def test_quick_answer_equals_compiled_and_skips_numba(args):
    quick, quick_numba = ask(args, compiled=False)
    if args[0] == "cache":  # the listing names the current compiled-code folder only
        return
    slow, _ = ask(args, compiled=True)
    assert quick == slow and not quick_numba


@pytest.mark.slow
def test_a_table_that_must_be_built_restarts_compiled(tmp_path):
    """odds for a game length with no shipped table: built once, compiled, then answered."""
    from clihelp import share_compiled

    share_compiled(str(tmp_path / "numba"))  # the table is built afresh, not the kernels
    env = dict(os.environ, CRIBSOLVE_CACHE=str(tmp_path))
    env.pop("CRIBSOLVE_COMPILED", None)
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "cribsolve",
            "odds",
            "--my-score",
            "10",
            "--their-score",
            "12",
            "--dealer",
            "--game-length",
            "31",
            "--quiet",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0 and r.stdout.startswith("10 to 12, you deal next: you win")
