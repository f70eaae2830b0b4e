"""Ctrl-C in a long simulate kept nowhere (no --checkpoint) prints what its finished chunks
played, marked partial, and says how to keep a run's work next time (issue 68)."""

import json

import pytest
from clihelp import run

from cribsolve.infra import runner


@pytest.fixture
def ctrl_c_after(monkeypatch):
    """Ctrl-C as the ``k``-th chunk is about to be handed on (the chunks before it finished)."""

    def after(k):
        results = runner.Local.results

        def stopping(self, job, todo):
            for i, item in enumerate(results(self, job, todo)):
                if i == k:
                    raise KeyboardInterrupt
                yield item

        monkeypatch.setattr(runner.Local, "results", stopping)

    return after


@pytest.mark.parametrize(
    "args, chunk",
    [
        (["--variant", "patience", "--policy", "ev"], 20_000),
        (["--variant", "cribbage", "--policy", "random"], 2_000),
    ],
)
def test_an_interrupted_run_prints_its_finished_games_marked_partial(ctrl_c_after, args, chunk):
    whole = run("simulate", *args, "-n", 2 * chunk, "--seed", 4, "--quiet")
    ctrl_c_after(2)
    code, out, err = run("simulate", *args, "-n", 3 * chunk, "--seed", 4, "--quiet")
    assert code == 130
    first, rest = out.split("\n", 1)
    assert first == f"partial: interrupted after {2 * chunk:,} of the {3 * chunk:,} games asked"
    assert rest == whole[1]  # the first two chunks are the games of a run of two
    assert err.strip() == (
        f"cribsolve: interrupted; the figures above are of the first {2 * chunk:,} of "
        f"{3 * chunk:,} games (partial); --checkpoint FILE keeps a run's finished games, and "
        "the same command again resumes from them"
    )


def test_an_interrupted_run_in_json_says_it_is_partial(ctrl_c_after):
    ctrl_c_after(1)
    code, out, _ = run(
        "simulate", "--variant", "patience", "--policy", "ev", "-n", "60000", "--json", "--quiet"
    )
    d = json.loads(out)
    assert code == 130 and d["partial"] is True and d["asked"] == 60_000 and d["n"] == 20_000


def test_an_interrupt_before_any_chunk_finished_prints_nothing(ctrl_c_after):
    ctrl_c_after(0)
    code, out, err = run("simulate", "--variant", "patience", "--policy", "ev", "-n", "40000")
    assert code == 130 and out == "" and err.strip().endswith("cribsolve: interrupted")


def test_an_interrupted_checkpointed_run_keeps_its_chunks_and_prints_nothing(
    ctrl_c_after, tmp_path
):
    ctrl_c_after(1)
    ck = tmp_path / "run.ck"
    code, out, err = run(
        "simulate",
        "--variant",
        "patience",
        "--policy",
        "ev",
        "-n",
        "40000",
        "--checkpoint",
        ck,
        "--quiet",
    )
    assert code == 130 and out == "" and f"--checkpoint {ck} keeps the chunks" in err
