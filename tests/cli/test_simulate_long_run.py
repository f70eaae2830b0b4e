"""simulate says once, on stderr, when a run without --checkpoint will take over an hour: -n 1e9
started a 40-hour run without a word (issue 68). The estimate is stood in for; no long run."""

import pytest
from clihelp import run

import cribsolve.cli.simulate as simulate_cli

NOTE = (
    "cribsolve: this run may take 40 hours more: --checkpoint FILE keeps its work if it "
    "stops; --scheduler spreads it over a cluster\n"
)
ARGS = ("simulate", "--variant", "patience", "--policy", "random", "-n", "100", "--seed", "1")


@pytest.fixture
def forty_hours(monkeypatch):
    monkeypatch.setattr(simulate_cli, "_seconds_left", lambda first, now, total: 40 * 3600.0)


def test_a_long_run_suggests_a_checkpoint(forty_hours):
    code, out, err = run(*ARGS)
    assert code == 0 and err == NOTE


def test_the_note_leaves_stdout_alone(forty_hours, monkeypatch):
    noted = run(*ARGS)
    monkeypatch.setattr(simulate_cli, "_seconds_left", lambda first, now, total: 60.0)
    assert run(*ARGS) == (0, noted[1], "")


def test_a_checkpoint_or_quiet_says_nothing(forty_hours, tmp_path):
    assert run(*ARGS, "--checkpoint", str(tmp_path / "run.ckpt"))[2] == ""
    assert run(*ARGS, "--quiet")[2] == ""


def test_cribbage_too(forty_hours):
    code, _, err = run("simulate", "--variant", "cribbage", "-n", "20", "--seed", "1")
    assert code == 0 and err == NOTE


def test_the_estimate_leaves_out_the_first_chunk():
    """The first chunk's time holds the compiling: the rate is taken from its end on."""
    assert simulate_cli._seconds_left((30.0, 100), (30.0, 100), 1000) is None
    assert simulate_cli._seconds_left((30.0, 100), (31.0, 200), 1000) == pytest.approx(8.0)
