"""kill -9 at random moments (issue 64, item 6): a checkpointed run and a game, each killed
again and again at moments drawn from a seeded random.Random (the moments are the test's to
repeat; where in the work they land is the machine's), then the same command, or for a game
the resume its record says, to the end: the same output, byte for byte, as a run that was
never killed, and never a file that the next run cannot read."""

import os
import random
import subprocess
import sys
import tempfile
import time

import pytest
from clihelp import share_compiled

from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra.checkpoint import _RECORD, MAGIC


@pytest.fixture
def env(tmp_path):
    """The commands' environment: a cache of their own whose compiled kernels are this run's
    (a kill never lands in the run's tables), compiled as at the command line, silently."""
    cache = tmp_path / "cache"
    cache.mkdir()
    share_compiled(str(cache / "numba"))
    return dict(
        os.environ, CRIBSOLVE_CACHE=str(cache), CRIBSOLVE_COMPILED="1", CRIBSOLVE_QUIET_COMPILE="1"
    )


def _start(args, env, stdin=b""):
    with tempfile.TemporaryFile() as f:
        f.write(stdin)
        f.seek(0)
        return subprocess.Popen(
            [sys.executable, "-m", "cribsolve", *map(str, args)],
            stdin=f,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )


def _finish(args, env, stdin=b""):
    """(exit status, stdout, stderr, seconds) of a run left to end."""
    start = time.monotonic()
    p = _start(args, env, stdin)
    out, err = p.communicate()
    return p.returncode, out, err, time.monotonic() - start


def _reference(args, env, stdin=b""):
    """(stdout, seconds) of a run never killed, timed with its kernels compiled (a run that
    compiled them, as the first of a test run does, is run again to time it)."""
    loud = {k: v for k, v in env.items() if k != "CRIBSOLVE_QUIET_COMPILE"}
    code, out, err, took = _finish(args, loud, stdin)
    assert code == 0, err
    if b"compiling" in err:
        code, out, err, took = _finish(args, env, stdin)
        assert code == 0, err
    return out, took


def _killed(args, env, after, stdin=b"") -> bool:
    """Run ``args`` and SIGKILL it ``after`` seconds on; whether it was still running then."""
    p = _start(args, env, stdin)
    try:
        p.communicate(timeout=after)
        return False
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        assert p.returncode == -9
        return True


def _moment(rng, took, left):
    """When to kill a run that took ``took`` seconds never killed, ``left`` of its work still
    to do (at least its start's share): at random within most of that, so that each kill is
    likely to land before the end."""
    return rng.uniform(0.05, 0.8) * took * max(left, 0.3)


def _whole_chunks(path) -> int:
    """Chunks a checkpoint file holds whole (its header checked), as Checkpoint reads it."""
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        return 0
    assert data.startswith(MAGIC) and data.count(b"\n", len(MAGIC)) >= 1, data[:200]
    at, n = data.index(b"\n", len(MAGIC)) + 1, 0
    while at + _RECORD.size <= len(data):
        _, length, _ = _RECORD.unpack_from(data, at)
        if at + _RECORD.size + length > len(data):
            break
        at, n = at + _RECORD.size + length, n + 1
    return n


def _kill_a_checkpointed_run(tmp_path, env, n, kills, seed):
    ck = tmp_path / "run.ckpt"
    args = ["simulate", "--variant", "patience", "-n", n, "--seed", 3, "--json", "--quiet"]
    clean, took = _reference(args, env)
    rng, kept, killed = random.Random(seed), 0, 0
    for _ in range(kills):
        left = 1 - kept / -(
            -n // SOLITAIRES["patience"].chunk
        )  # the share of the chunks still to run
        if not _killed([*args, "--checkpoint", ck], env, _moment(rng, took, left)):
            break  # it ended before its moment came: nothing left to kill
        killed += 1
        if ck.exists():
            now = _whole_chunks(ck)
            assert now >= kept  # a kill never loses a chunk already kept
            kept = now
    code, out, err, _ = _finish([*args, "--checkpoint", ck], env)
    assert (code, err) == (0, b"")
    assert out == clean
    assert killed  # the run was cut short at least once
    assert [f for f in os.listdir(tmp_path) if f.startswith(".cribsolve-")] == []


def test_a_checkpointed_run_killed_at_random_moments_ends_with_the_same_numbers(tmp_path, env):
    """Cribbage Patience over 2 chunks of 20,000 games, killed up to 3 times."""
    _kill_a_checkpointed_run(tmp_path, env, 40_000, 3, seed=1)


@pytest.mark.slow
def test_a_long_checkpointed_run_killed_many_times_ends_with_the_same_numbers(tmp_path, env):
    """10 chunks, killed up to 10 times."""
    _kill_a_checkpointed_run(tmp_path, env, 200_000, 10, seed=2)


ENTER = b"\n" * 2000  # Enter at every prompt: the adviser's choice


def _game_over(rec) -> bool:
    from cribsolve.games.cribbage.table.record import load_record
    from cribsolve.games.cribbage.table.replay import replay

    return bool(replay(load_record(str(rec))).winner)


def _kill_a_game(tmp_path, env, seed, kills, rng_seed):
    clean = tmp_path / "clean.txt"
    play = ["play", "--variant", "cribbage", "--plain", "--quiet"]
    new = [*play, "--seed", seed, "--record"]
    _, took = _reference([*new, clean], env, ENTER)
    assert clean.read_text().count("\ndeal ") >= 3
    rec, whole = tmp_path / "game.txt", clean.read_text().count("\ndeal ")
    rng, deals, killed = random.Random(rng_seed), 0, 0
    for _ in range(kills):
        text = rec.read_text() if rec.exists() else ""
        # as the game says when it is stopped: no deal kept, the same command; else --resume
        args = [*play, "--resume", rec] if "\ndeal " in text else [*new, rec]
        if "\ndeal " in text and _game_over(rec):
            break
        if not _killed(args, env, _moment(rng, took, 1 - deals / whole), ENTER):
            if killed:
                break
            # finished before its moment (the reference ran on a busier machine): again from
            # the start, sooner, so that every run is killed at least once
            rec.unlink(missing_ok=True)
            took /= 2
            continue
        killed += 1
        text = rec.read_text() if rec.exists() else ""
        assert clean.read_text().startswith(text)  # whole deals, each as the game's
        if "\ndeal " in text:
            assert text.count("\ndeal ") >= deals  # a kill never loses a deal kept
            deals = text.count("\ndeal ")
    text = rec.read_text() if rec.exists() else ""
    if "\ndeal " not in text:
        code, _, err, _ = _finish([*new, rec], env, ENTER)
        assert code == 0, err
    elif not _game_over(rec):
        code, _, err, _ = _finish([*play, "--resume", rec], env, ENTER)
        assert code == 0, err
    assert rec.read_text() == clean.read_text()
    assert killed


def test_a_game_killed_at_random_moments_resumes_to_the_same_record(tmp_path, env):
    """A game to 121 against expert (9 deals), killed up to 3 times."""
    _kill_a_game(tmp_path, env, 3, 3, rng_seed=1)


@pytest.mark.slow
def test_games_killed_many_times_resume_to_the_same_records(tmp_path, env):
    """Two more games, killed up to 8 times each."""
    for seed, rng_seed in [(5, 2), (8, 3)]:
        folder = tmp_path / str(seed)
        folder.mkdir()
        _kill_a_game(folder, env, seed, 8, rng_seed)
