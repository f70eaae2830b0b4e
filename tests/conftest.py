import os
import sys
import tempfile

import pytest

sys.path.insert(0, os.path.dirname(__file__))


def _run_cache() -> str:
    """Tables and compiled kernels are kept in a private cache made for this run, not the
    user's (CRIBSOLVE_TEST_CACHE names one to keep between runs while developing; CI never sets
    it). pytest-xdist's workers share one, named by their run's id, so a kernel one worker
    compiled the others load rather than compile again."""
    if os.environ.get("CRIBSOLVE_TEST_CACHE"):
        return os.environ["CRIBSOLVE_TEST_CACHE"]
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if not run:
        return tempfile.mkdtemp(prefix="cribsolve-test-cache-")
    path = os.path.join(tempfile.gettempdir(), f"cribsolve-test-cache-{run}")
    os.makedirs(path, exist_ok=True)
    return path


os.environ["CRIBSOLVE_CACHE"] = _run_cache()
# Commands run in-process keep numba's kernels (a single answer would otherwise switch this
# process to plain Python); the plain-Python path is tested in subprocesses.
os.environ["CRIBSOLVE_COMPILED"] = "1"
# Every test run compiles afresh: the one-line notice of a real compile (infra/jit.py) would
# be one more line of stderr in tests that count them; test_store checks the notice itself.
os.environ["CRIBSOLVE_QUIET_COMPILE"] = "1"
# Kernels compile here as at the command line: numba readied without SciPy and cffi (jit.lean),
# so a kernel that needs either fails a test rather than only the command.
from cribsolve.infra import jit  # noqa: E402

jit.lean()


def _no_work(*args, **kwargs):
    raise AssertionError("long work started before the output path was checked")


@pytest.fixture
def no_work(monkeypatch):
    """Every long computation a command could start fails the test if it is reached."""
    import cribsolve.core.scoring.table as table
    import cribsolve.games.cribbage.deals.odds as odds
    import cribsolve.games.cribbage.deals.simulate as cribbage
    import cribsolve.games.cribbage.throw.best_discard as discard
    import cribsolve.games.cribbage.throw.crib_model as opponent
    import cribsolve.games.solitaire.discard as solitaire
    import cribsolve.games.solitaire.simulate as simulate

    for mod, name in [
        (simulate, "simulate"),
        (cribbage, "simulate_cribbage"),
        (simulate, "win_table"),
        (odds, "odds_table"),
        (table, "distribution"),
        (opponent, "crib_table_rows"),
        (opponent, "pair_weights"),
        (solitaire, "solitaire_discard"),
        (discard, "best_discard"),
    ]:
        monkeypatch.setattr(mod, name, _no_work)


@pytest.fixture(autouse=True)
def _as_a_command():
    """In-process tests see what a command says on stderr (the library, called from Python,
    logs it instead: tests/api/test_manners.py checks that in a process of its own)."""
    from cribsolve.infra import paths

    with paths.command():
        yield
