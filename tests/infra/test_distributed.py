"""Chunks run on a Dask cluster of worker processes, or read back from a checkpoint, give the
very numbers of a plain local run: whatever the workers, the order chunks finish in, an
interruption, or a worker killed mid-run."""

import json
import logging
import os
import signal
import subprocess
import sys
from dataclasses import replace

import pytest
from clihelp import interrupting
from clihelp import run as cli
from distributed import Client, LocalCluster

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.deals import simulate as cribbage_sim
from cribsolve.games.cribbage.deals.simulate import simulate_cribbage
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.solitaire import simulate as sim
from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra import runner
from cribsolve.infra.checkpoint import Checkpoint


@pytest.fixture
def small_chunks(monkeypatch):
    """Many chunks from few games. Each chunk's size travels in its arguments, so the workers
    need no patch."""
    monkeypatch.setitem(SOLITAIRES, "patience2", replace(SOLITAIRES["patience2"], chunk=300))
    monkeypatch.setattr(cribbage_sim, "CRIBBAGE_CHUNK", 100)


@pytest.fixture(scope="module")
def cluster():
    """A real LocalCluster: a scheduler and two worker processes (not threads)."""
    with LocalCluster(
        n_workers=2,
        processes=True,
        threads_per_worker=1,
        dashboard_address=":0",
        silence_logs=logging.ERROR,
    ) as c:
        with Client(c, set_as_default=False) as client:
            yield runner.Cluster(client, threads=1)


def solitaire(**kw):
    """Everything a Patience II run reports, as bytes (10 chunks of 300 with small_chunks)."""
    r = sim.simulate("patience2", "ev", 3000, 5, **kw)
    return json.dumps(r.as_dict()).encode() + r.deal_histograms.tobytes()


SPEC = CribbageSpec(target=16, game_length=61)


def cribbage(**kw):
    """Every game's row of a two-player run under house rules (12 chunks of 100)."""
    r = simulate_cribbage(1200, "greedy", "random", 7, spec=SPEC, **kw)
    return r.rows.tobytes()


class Backwards(runner.Local):
    """Chunks finishing in the reverse order of their index."""

    def results(self, job, todo):
        yield from reversed(list(super().results(job, todo)))


def test_results_are_merged_in_chunk_order_whatever_order_they_finish(small_chunks):
    done = []
    assert solitaire(where=Backwards(), progress=done.append) == solitaire()
    assert done == [300] * 10
    assert cribbage(where=Backwards()) == cribbage()


@pytest.mark.slow
def test_a_cluster_of_processes_gives_the_local_numbers(cluster, small_chunks):
    done = []
    assert solitaire(where=cluster, progress=done.append) == solitaire()
    assert sorted(done) == [300] * 10
    assert cribbage(where=cluster) == cribbage()
    assert len(cluster.client.run(os.getpid)) == 2  # both worker processes were there


def interrupted_after(chunks):
    """A progress callback that stops the run (as Ctrl-C would) after ``chunks`` chunks."""
    done = []

    def progress(games):
        done.append(games)
        if len(done) == chunks:
            raise KeyboardInterrupt

    return progress


def test_a_resumed_run_equals_an_uninterrupted_one(tmp_path, small_chunks):
    path = str(tmp_path / "run.ckpt")
    with pytest.raises(KeyboardInterrupt):
        solitaire(progress=interrupted_after(3), checkpoint=path)
    with open(path, "ab") as f:  # a crash in the middle of writing the fourth chunk
        f.write(b"\x03" + bytes(50))
    done = []
    assert solitaire(progress=done.append, checkpoint=path) == solitaire()
    assert done == [900] + [300] * 7  # three chunks read back, seven computed
    done.clear()
    assert solitaire(progress=done.append, checkpoint=path) == solitaire()
    assert done == [3000]  # a finished run is all read back


class Progress:
    """A progress callback with resume(), as a progress bar has."""

    def __init__(self):
        self.calls = []

    def __call__(self, games):
        self.calls.append(games)

    def resume(self, games):
        self.calls.append(("resumed at", games))


def test_a_resumed_run_tells_its_progress_where_it_starts(tmp_path, small_chunks):
    """A bar counted the chunks read back as games played at once (and drew 0 until the next
    chunk ended): told apart, it starts at them."""
    path = str(tmp_path / "run.ckpt")
    with pytest.raises(KeyboardInterrupt):
        solitaire(progress=interrupted_after(3), checkpoint=path)
    done = Progress()
    assert solitaire(progress=done, checkpoint=path) == solitaire()
    assert done.calls == [("resumed at", 900)] + [300] * 7


def test_ctrl_c_in_a_checkpointed_run_says_how_to_resume(tmp_path, monkeypatch, small_chunks):
    path = tmp_path / "run.ckpt"
    args = ["simulate", "-n", "3000", "--seed", "5", "--quiet"]
    with monkeypatch.context() as m:
        interrupting(m, 3)
        code, out, err = cli(*args)  # kept nowhere: the two chunks finished, said partial
    assert (code, out.split("\n")[0]) == (
        130,
        "partial: interrupted after 600 of the 3,000 games asked",
    )
    assert "games (partial); --checkpoint FILE keeps a run's finished games" in err
    with monkeypatch.context() as m:
        interrupting(m, 3)
        code, out, err = cli(*args, "--checkpoint", path)
    assert (code, out) == (130, "")
    assert err.strip() == (
        f"cribsolve: interrupted; --checkpoint {path} keeps the chunks finished so far: the "
        "same command again resumes from them"
    )
    assert cli(*args, "--checkpoint", path) == cli(*args)


@pytest.mark.slow
def test_a_checkpoint_resumes_on_a_cluster(cluster, tmp_path, small_chunks):
    path = str(tmp_path / "run.ckpt")
    with pytest.raises(KeyboardInterrupt):
        cribbage(progress=interrupted_after(5), checkpoint=path)
    assert cribbage(where=cluster, checkpoint=path) == cribbage()
    assert cribbage(where=cluster, checkpoint=path) == cribbage()  # all read back


def test_a_checkpoint_from_other_arguments_is_refused(tmp_path):
    path = tmp_path / "run.ckpt"
    args = ["simulate", "--policy", "random", "--quiet", "--checkpoint", path]
    code, first, _ = cli(*args, "-n", "200", "--seed", "3")
    assert code == 0
    before = path.read_bytes()
    for other, differ in (
        (["-n", "200", "--seed", "4"], "--seed differs"),
        (["-n", "300", "--seed", "3"], "-n differs"),
        (["-n", "300", "--seed", "4"], "-n and --seed differ"),
        (["-n", "200", "--seed", "3", "--variant", "patience"], "--variant differs"),
    ):
        code, out, err = cli(*args, *other)
        assert code == 2 and out == "" and len(err.splitlines()) == 1, err
        assert err == (  # the options by their names ("(n differ)" was the key's)
            f"cribsolve: --checkpoint: {path} is from a run with other arguments: {differ}; "
            "give another file or remove it\n"
        ), err
    assert path.read_bytes() == before
    assert cli(*args, "-n", "200", "--seed", "3") == (0, first, "")
    damaged = tmp_path / "damaged.ckpt"  # its header cut off: said so, left alone
    damaged.write_bytes(before.split(b"\n")[0] + b"\n" + before.split(b"\n")[1][:20])
    code, _, err = cli(*args[:-1], damaged, "-n", "200")
    assert code == 2 and "has a damaged header" in err
    assert damaged.read_bytes() == before.split(b"\n")[0] + b"\n" + before.split(b"\n")[1][:20]
    table = tmp_path / "table.csv"  # not a checkpoint: refused, left alone
    table.write_text("a,b\n1,2\n")
    code, _, err = cli(*args[:-1], table, "-n", "200")
    assert code == 2 and "is not a cribsolve checkpoint" in err
    assert table.read_text() == "a,b\n1,2\n"


def test_two_runs_cannot_share_a_checkpoint(tmp_path):
    path = str(tmp_path / "run.ckpt")
    first = Checkpoint(path, {"n": 1}, 3)
    with pytest.raises(CribsolveError, match="is in use by another run"):
        Checkpoint(path, {"n": 1}, 3)
    first.close()
    Checkpoint(path, {"n": 1}, 3).close()


@pytest.mark.slow
def test_a_killed_worker_changes_nothing(cluster, small_chunks):
    pids = list(cluster.client.run(os.getpid).values())
    killed = []

    def kill_a_worker(games):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    assert cribbage(where=cluster, progress=kill_a_worker) == cribbage()
    assert killed and pids[0] not in cluster.client.run(os.getpid).values()


@pytest.mark.slow
def test_scheduler_on_the_command_line(tmp_path):
    args = [
        "simulate",
        "--variant",
        "cribbage",
        "-n",
        "300",
        "--seed",
        "2",
        "--json",
        "--quiet",
        "--checkpoint",
        tmp_path / "c",
    ]
    code, here, err = cli(*args)
    assert code == 0, err
    assert cli(*args[:-1], tmp_path / "d", "--scheduler", "local:1") == (0, here, "")


@pytest.mark.parametrize(
    "scheduler,says",
    [
        ("local:0", "--scheduler: local:0 is not 1 to 256 workers"),
        ("local:x", "--scheduler: 'local:x' is neither local[:WORKERS] nor the address"),
        ("host", "--scheduler: 'host' is neither"),
    ],
)
def test_a_bad_scheduler_is_one_line(scheduler, says):
    code, out, err = cli("simulate", "-n", "10", "--scheduler", scheduler)
    assert code == 2 and out == "" and err.startswith(f"cribsolve: {says}"), err
    assert len(err.splitlines()) == 1


def test_an_unreachable_scheduler_is_one_line(monkeypatch):
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", "1s")
    code, out, err = cli("variations", "-n", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(
        "cribsolve: --scheduler: cannot reach a Dask scheduler at tcp://127.0.0.1:9"
    ), err


def test_without_dask_the_scheduler_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    assert cli("simulate", "-n", "10", "--scheduler", "local") == (
        2,
        "",
        "cribsolve: --scheduler needs Dask: pip install 'cribsolve[distributed]'\n",
    )


def test_dask_is_imported_only_for_a_scheduler():
    code = (
        "import sys; from cribsolve.cli import main; "
        "sys.argv = ['cribsolve', 'simulate', '-n', '10', '--policy', 'random', '--quiet']; "
        "main(); print(sorted({'dask', 'distributed'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "[]"
