"""Faults of the machine, tested the way SQLite tests itself (issue 64): the disk fills at the
n-th write, for every n, of a checkpointed run with its CSV, a table build, compiled code and a
game record, and compiled code in the cache is cut short or overwritten. Each time: one line
(exit status 1 where the command cannot go on), what is on disk whole, and the same command,
once there is room, ending with the numbers of a run that met no fault."""

import builtins
import errno
import io
import os
import re
import shutil
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from clihelp import run

from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra import jit, paths, spinner, store

FULL = os.strerror(errno.ENOSPC)


class FullDisk:
    """Within, the disk under ``folder`` fills at the ``at``-th write to a file there (counted
    through os.write and the file objects opened there): that write goes out short (os.write)
    or fails, and every later one fails with ENOSPC, until the disk is freed as the context
    ends. ``writes`` counts the writes tried (``at=0``: none fails)."""

    def __init__(self, folder, at: int = 0):
        self.folder, self.at, self.writes = os.path.realpath(folder) + os.sep, at, 0
        self._patch = pytest.MonkeyPatch()

    def _full(self) -> bool:
        self.writes += 1
        return 0 < self.at <= self.writes

    def _here(self, file) -> bool:
        if isinstance(file, int):
            file = os.readlink(f"/proc/self/fd/{file}")
        return os.path.realpath(os.fsdecode(file)).startswith(self.folder)

    def __enter__(self):
        write, opener = os.write, io.open

        def os_write(fd, data):
            if not self._here(fd) or not self._full():
                return write(fd, data)
            if self.writes == self.at and len(data) > 1:
                return write(fd, bytes(data)[: len(data) // 2])  # the disk fills mid-write
            raise OSError(errno.ENOSPC, FULL)

        def open_(file, mode="r", *args, **kwargs):
            f = opener(file, mode, *args, **kwargs)
            return _Filling(f, self) if set(mode) & set("wax+") and self._here(file) else f

        self._patch.setattr(os, "write", os_write)
        self._patch.setattr(io, "open", open_)
        self._patch.setattr(builtins, "open", open_)
        return self

    def __exit__(self, *exc):
        self._patch.undo()


class _Filling:
    """A file object on a FullDisk: its writes counted, and failed once the disk is full."""

    def __init__(self, f, disk):
        self._f, self._disk = f, disk

    def write(self, data):
        if self._disk._full():
            raise OSError(errno.ENOSPC, FULL)
        return self._f.write(data)

    def __getattr__(self, name):
        return getattr(self._f, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), err
    return err[:-1]


@pytest.fixture
def small_chunks(monkeypatch):
    """Patience II in chunks of 300 games: 3,000 games are 10 chunks."""
    monkeypatch.setitem(SOLITAIRES, "patience2", replace(SOLITAIRES["patience2"], chunk=300))


def test_a_full_disk_at_each_write_of_a_checkpointed_run_and_its_csv(tmp_path, small_chunks):
    """Writes: the checkpoint's header, its 10 chunks, the CSV's row. A fault in the
    checkpoint keeps its whole chunks; in the CSV leaves it as it was; either way the same
    command again prints the numbers and writes the row of a run that met no fault."""

    def simulate(folder):
        args = ("--checkpoint", folder / "run.ckpt", "--csv", folder / "table.csv")
        return run("simulate", "-n", 3000, "--seed", 5, "--quiet", *args)

    (tmp_path / "clean").mkdir()
    with FullDisk(tmp_path / "clean") as disk:
        clean = simulate(tmp_path / "clean")
    assert clean[0] == 0 and disk.writes == 12
    table = (tmp_path / "clean" / "table.csv").read_bytes()
    for n in range(1, disk.writes + 1):
        folder = tmp_path / str(n)
        folder.mkdir()
        with FullDisk(folder, at=n):
            code, out, err = simulate(folder)
        assert (code, out) == (1, ""), (n, err)
        ck, csv = folder / "run.ckpt", folder / "table.csv"
        said = {
            1: f"cannot write {ck} ({FULL}); it is as it was: free space and run the same "
            "command again",
            12: f"cannot write {csv} ({FULL}); it is as it was: free space and run the same "
            "command again",
        }.get(
            n,
            f"cannot write {ck} ({FULL}); it keeps the {n - 2} chunk{'s' * (n != 3)} "
            "finished: free space and run the same command again",
        )
        assert one_line(err) == f"cribsolve: {said}", n
        assert sorted(os.listdir(folder)) == ["run.ckpt"] * (n > 1) + ["table.csv"] * (n == 12)
        assert n < 12 or csv.read_bytes() == b""  # made, as another run may append to it
        assert simulate(folder) == clean, n
        assert csv.read_bytes() == table, n


def _small_table():
    """A kept table of a kind made for the test: its build costs nothing."""
    store.load("faults", {"n": 3}, lambda: {"x": np.arange(3.0), "y": np.ones((2, 2), int)})
    return store.load("faults", {"n": 3}, None)["x"]


def _odds_tables():
    """The odds table at 21 points, and the table of deals it is built from."""
    from cribsolve.games.cribbage.deals import odds
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    return odds.odds_table(CribbageSpec(game_length=21), deals=2_000)


@pytest.mark.parametrize(
    "build", [_small_table, pytest.param(_odds_tables, marks=pytest.mark.slow)]
)
def test_a_full_disk_at_each_write_of_a_table_build(tmp_path, monkeypatch, capfd, build):
    """A table the disk has no room for is used from memory, said once; nothing half-written
    stays, and the next build with room keeps it."""
    from cribsolve import catalog

    monkeypatch.setitem(store.KINDS, "faults", store.Kind(1, lambda arrays, params: None))

    def built(cache):
        monkeypatch.setenv("CRIBSOLVE_CACHE", str(cache))
        monkeypatch.setattr(store, "_memo", {})
        monkeypatch.setattr(paths, "_warned", set())
        return build()

    (tmp_path / "clean").mkdir()
    with FullDisk(tmp_path / "clean") as disk:
        clean = built(tmp_path / "clean")
    kept = sorted(os.listdir(tmp_path / "clean"))
    assert kept and disk.writes > len(kept)
    capfd.readouterr()
    for n in range(1, disk.writes + 1):
        cache = tmp_path / str(n)
        cache.mkdir()
        with FullDisk(cache, at=n):
            assert np.array_equal(built(cache), clean), n
        assert capfd.readouterr().err == (
            f"cribsolve: cannot write the cache folder {cache} ({FULL}); computing in memory "
            "for this run\n"
        ), n
        assert set(os.listdir(cache)) < set(kept), n  # whole tables only
        assert np.array_equal(built(cache), clean) and capfd.readouterr().err == "", n
        assert sorted(os.listdir(cache)) == kept, n
        assert all(catalog.status(str(cache / f))[1] == "current" for f in kept), n


def _twice(x):
    return 2 * x


@pytest.fixture
def own_compiled(tmp_path, monkeypatch):
    """numba's cache in a folder of the test's, and nothing said yet in this process."""
    numba = jit._load_numba()
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("CRIBSOLVE_CACHE", str(tmp_path))
    monkeypatch.setattr(paths, "_warned", set())
    monkeypatch.setattr(jit, "_load_said", False, raising=False)
    monkeypatch.setattr(jit, "_saving", True, raising=False)
    monkeypatch.setattr(spinner, "_noticed", False, raising=False)
    return lambda: numba.njit(cache=True)(_twice)  # a fresh dispatcher: it reads the cache


def test_a_full_disk_at_each_write_of_compiled_code(tmp_path, own_compiled, monkeypatch, capfd):
    """numba's cache writer ended the command with [Errno 28]: the code is used from memory,
    said once, and no more saves are tried in the process."""
    with FullDisk(tmp_path) as disk:
        assert own_compiled()(21) == 42
    writes = disk.writes
    assert writes >= 2  # the index, the code
    for n in range(1, writes + 1):
        shutil.rmtree(tmp_path / "numba")
        monkeypatch.setattr(jit, "_saving", True, raising=False)
        monkeypatch.setattr(paths, "_warned", set())
        capfd.readouterr()
        with FullDisk(tmp_path, at=n) as disk:
            assert own_compiled()(21) == 42 and own_compiled()(1.5) == 3.0
        assert disk.writes == n  # not tried again
        assert capfd.readouterr().err == (
            f"cribsolve: cannot write the cache folder {tmp_path} ({FULL}); computing in memory "
            "for this run\n"
        ), n
        assert not [f for _, _, fs in os.walk(tmp_path) for f in fs if ".tmp." in f], n


@pytest.mark.parametrize("part", ["nbi", "nbc"])
@pytest.mark.parametrize("how", ["cut short", "garbage"])
def test_damaged_compiled_code_is_compiled_again(tmp_path, own_compiled, capfd, part, how):
    """numba ended every command that loaded it with UnpicklingError until `cache clear`."""
    assert own_compiled()(21) == 42
    (path,) = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path) for f in fs if f.endswith(part)]
    data = open(path, "rb").read()
    with open(path, "wb") as f:
        f.write(data[: len(data) // 2] if how == "cut short" else os.urandom(len(data)))
    capfd.readouterr()
    assert own_compiled()(21) == 42
    said = one_line(capfd.readouterr().err)
    assert re.fullmatch(
        rf"cribsolve: cannot load the compiled code {re.escape(path)} \(\w+\); compiling it again",
        said,
    ), said
    fresh = own_compiled()
    assert fresh(21) == 42 and capfd.readouterr().err == ""  # mended: loaded, not compiled
    assert fresh.stats.cache_hits and not fresh.stats.cache_misses


def test_a_command_with_damaged_compiled_code_answers_with_one_line(tmp_path):
    """At the command line, the one line in place of the compile notice, and the answer."""
    hand = ["score", "5H", "5D", "5S", "JC", "--starter", "5C"]
    env = dict(os.environ, CRIBSOLVE_CACHE=str(tmp_path), CRIBSOLVE_COMPILED="1")
    env.pop("CRIBSOLVE_QUIET_COMPILE", None)

    def score():
        r = subprocess.run(
            [sys.executable, "-m", "cribsolve", *hand], env=env, capture_output=True, text=True
        )
        assert r.returncode == 0, r.stderr
        assert r.stdout.endswith("total 29  (fifteens 16, pairs 12, runs 0, flush 0, nobs 1)\n")
        return r.stderr

    assert "compiling the kernels" in score()
    (index,) = [
        os.path.join(d, f)
        for d, _, fs in os.walk(tmp_path)
        for f in fs
        if f.startswith("kernels.score_parts") and f.endswith(".nbi")
    ]
    code = index[: -len("nbi")] + "1.nbc"
    for path, spoil in [(index, lambda b: b[:20]), (code, lambda b: os.urandom(len(b)))]:
        with open(path, "rb") as f:
            data = f.read()
        with open(path, "wb") as f:
            f.write(spoil(data))
        said = one_line(score())
        assert said.startswith(f"cribsolve: cannot load the compiled code {path} ("), said
        assert said.endswith("); compiling it again"), said
        assert score() == ""


PLAY = ("play", "--variant", "cribbage", "--plain", "--seed", 3, "--game-length", 31)
PLAY += ("--opponent-policy", "greedy")


def test_a_full_disk_at_each_write_of_a_game_record(tmp_path):
    """Writes: the record's header, then each deal as it ends. A fault keeps the deals
    finished, and the game goes on from them (--resume) to the record of a game that met
    none; with no deal kept, the same command plays it from its start."""
    clean = tmp_path / "clean.txt"
    with FullDisk(tmp_path) as disk:
        code, out, err = run(*PLAY, "--record", clean, stdin=b"\n" * 400)
    assert code == 0, err
    assert disk.writes == 1 + clean.read_text().count("deal ") >= 3
    for n in range(1, disk.writes + 1):
        rec = tmp_path / f"{n}.txt"
        with FullDisk(tmp_path, at=n):
            code, out, err = run(*PLAY, "--record", rec, stdin=b"\n" * 400)
        assert code == 1, (n, err)
        deals = max(n - 2, 0)
        said = (
            f"it keeps the {deals} deal{'s' * (deals != 1)} finished: free space and go on "
            f"with: cribsolve play --variant cribbage --resume {rec}"
            if deals
            else "it holds no deal: free space and run the same command with --seed 3"
        )
        assert one_line(err) == f"cribsolve: cannot write {rec} ({FULL}); {said}", n
        assert rec.read_text().count("deal ") == deals, n  # whole deals only
        again = ("--resume", rec) if deals else (*PLAY[4:], "--record", rec)
        code, out, err = run(*PLAY[:4], *again, stdin=b"\n" * 400)
        assert code == 0, (n, err)
        assert rec.read_text() == clean.read_text(), n


def test_output_to_a_full_disk_is_one_line(tmp_path):
    """stdout on a full disk (here /dev/full): one line and status 1, not Python's traceback
    and its second one as it exits."""
    env = {k: v for k, v in os.environ.items() if k != "CRIBSOLVE_COMPILED"}  # plain Python
    with open("/dev/full", "w") as full:
        r = subprocess.run(
            [sys.executable, "-m", "cribsolve", "score", "5H", "5D", "5S", "JC", "--starter", "5C"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
    assert (r.returncode, r.stderr) == (1, f"cribsolve: the output: {FULL}\n")


@pytest.mark.parametrize(
    "output",
    [pytest.param(("--plot", "d.png"), marks=pytest.mark.slow), ("--csv", "d.csv")],
    ids=["plot", "csv"],
)
def test_a_full_disk_at_each_write_of_a_file_replaced_whole(tmp_path, output):
    """A picture or a CSV written whole: the file before it stays as it was, and no temporary
    file is left beside it."""
    pytest.importorskip("matplotlib")
    option, name = output
    path = tmp_path / name
    args = ("distribution", option, path)
    with FullDisk(tmp_path) as disk:
        assert run(*args)[0] == 0
    made, writes = path.read_bytes(), disk.writes
    # every n of a short file; of a long one (a row or a block a write), its first and last
    for n in range(1, writes + 1) if writes <= 20 else (1, 2, 3, writes // 2, writes - 1, writes):
        path.write_bytes(b"before")
        with FullDisk(tmp_path, at=n):
            code, out, err = run(*args)
        assert code == 1 and one_line(err) == (
            f"cribsolve: cannot write {path} ({FULL}); it is as it was: free space and run the "
            "same command again"
        ), (n, err)
        assert os.listdir(tmp_path) == [name] and path.read_bytes() == b"before", n
        assert run(*args)[0] == 0 and path.read_bytes() == made, n
