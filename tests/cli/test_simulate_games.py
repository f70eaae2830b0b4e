"""simulate --games and --deals: a row per game (per deal) that adds up to the summary printed,
the same rows from a run resumed from its checkpoint, in CSV, gzip CSV or Parquet, and a file
never left half-written."""

import json
import os
import pathlib
import re
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from clihelp import interrupting, run

from cribsolve.games.cribbage.deals import simulate as cribbage_sim
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.solitaire import simulate as sim
from cribsolve.games.solitaire.facts import SOLITAIRES
from cribsolve.infra import export

PARTS = ("pegging", "hand", "crib", "heels")
CRIBBAGE = ["--variant", "cribbage", "-n", "200", "--seed", "3", "--game-length", "61"]


def summary(*args) -> dict:
    code, out, err = run("simulate", *args, "--json", "--quiet")
    assert code == 0, err
    return json.loads(out)


def cribbage(tmp_path, *rules):
    """The summary, the games and the deals of a small run under ``rules``."""
    games, deals = tmp_path / "games.csv", tmp_path / "deals.csv"
    d = summary(*CRIBBAGE, *rules, "--games", games, "--deals", deals)
    return d, pd.read_csv(games), pd.read_csv(deals)


def check_cribbage(d, games, deals, players):
    """The rows against the summary: wins, deals per game, skunks, the points per deal of each
    seat (complete deals), and the scores as the points by part add them up."""
    assert list(games.game) == list(range(d["n"]))
    assert (games.winner == games.first_dealer).sum() == d["wins"]
    assert (games.winner == 1).mean() == pytest.approx(d["player_win_rate"])
    assert (games.winner == 0).sum() == d["ties"]
    assert games.deals.mean() == pytest.approx(d["deals_per_game"])
    assert games.skunk.mean() == pytest.approx(d["skunk_rate"])
    assert games.double_skunk.mean() == pytest.approx(d["double_skunk_rate"])
    done = deals[deals.complete]
    assert len(done) == d["complete_deals"]

    def seat(k, part):  # seat k of each deal, 0 at the dealer's left
        player = (done.dealer + k) % players + 1
        points = done[[f"p{p}_{part}" for p in range(1, players + 1)]].to_numpy()
        return points[np.arange(len(done)), player - 1].mean()

    dealer = players - 1
    assert seat(dealer, "pegging") == pytest.approx(d["dealer_pegging"])
    assert seat(0, "pegging") == pytest.approx(d["pone_pegging"])
    assert seat(dealer, "hand") == pytest.approx(d["dealer_hand"])
    assert seat(0, "hand") == pytest.approx(d["pone_hand"])
    assert seat(dealer, "crib") == pytest.approx(d["crib"])
    assert seat(0, "crib") == pytest.approx(d["pone_crib"])
    assert seat(dealer, "heels") == pytest.approx(d["heels"])
    for k, by_seat in enumerate(d.get("points_by_seat", ())):
        assert seat(k, "pegging") == pytest.approx(by_seat["pegging"])
        assert seat(k, "hand") == pytest.approx(by_seat["hand"])
    # every deal of every game, its points from the score before it to the next one's
    assert (deals.groupby("game").size().to_numpy() == games.deals.to_numpy()).all()
    for p in range(1, players + 1):
        mine = [f"p{p}_{part}" for part in PARTS]
        assert (games[f"p{p}_score"] == games[mine].sum(axis=1)).all()
        assert (deals.groupby("game")[mine].sum().to_numpy() == games[mine].to_numpy()).all()
        after = deals[f"p{p}_before"] + deals[mine].sum(axis=1)
        following = deals.groupby("game")[f"p{p}_before"].shift(-1)
        last = following.isna()
        assert (after[~last] == following[~last]).all()
        assert (after[last].to_numpy() == games[f"p{p}_score"].to_numpy()).all()
    assert deals.starter.str.fullmatch(r"[A2-9TJQK][CDHS]").all()


def test_cribbage_rows_add_up_to_the_summary_and_leave_it_as_it_was(tmp_path):
    d, games, deals = cribbage(tmp_path)
    check_cribbage(d, games, deals, 2)
    assert d == summary(*CRIBBAGE)
    plain = run("simulate", *CRIBBAGE, "--quiet")
    assert run("simulate", *CRIBBAGE, "--quiet", "--games", tmp_path / "g.csv") == plain


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules,players",
    [(["--two-cribs"], 2), (["--players", "3", "--hand-size", "5"], 3)],
    ids=["two-cribs", "three-players"],
)
def test_cribbage_rows_under_house_rules(tmp_path, rules, players):
    d, games, deals = cribbage(tmp_path, *rules)
    check_cribbage(d, games, deals, players)


def test_the_rows_from_python():
    """The engine's functions hand back the rows as numpy columns (``games``, ``deals``)."""
    res = cribbage_sim.simulate_cribbage(
        50, seed=1, spec=CribbageSpec(game_length=61), games=True, deals=True
    )
    assert all(isinstance(c, np.ndarray) and len(c) == 50 for c in res.games.values())
    assert all(len(c) == res.games["deals"].sum() for c in res.deals.values())
    played = sim.simulate("patience2", "ev", 50, 1, games=True).games
    assert (played["deal1"] + played["deal2"] + played["deal3"] + played["deal4"]).tolist() == (
        played["score"].tolist()
    )


@pytest.mark.parametrize("variant", list(SOLITAIRES))
def test_solitaire_rows_add_up_to_the_summary(tmp_path, variant):
    n = 20 if variant == "shuffle" else 100  # Shuffle proves each optimum: slower
    args = ["--variant", variant, "-n", n, "--seed", "4"]
    path = tmp_path / "games.csv"
    d = summary(*args, "--games", path)
    assert d == summary(*args)
    games = pd.read_csv(path)
    assert list(games.game) == list(range(n))
    assert games.win.sum() == d["wins"]
    assert games.score.mean() == pytest.approx(d["mean"])
    assert games.score.std(ddof=0) == pytest.approx(d["std"])
    assert {str(k): v for k, v in sorted(games.score.value_counts().items())} == d["histogram"]
    deals = [c for c in games if c.startswith("deal")]
    assert len(deals) == (SOLITAIRES[variant].deals if len(d["mean_per_deal"]) > 1 else 0)
    if deals:
        assert (games[deals].sum(axis=1) == games.score).all()
        assert games[deals].mean().tolist() == pytest.approx(d["mean_per_deal"])


def test_the_pandas_query_of_the_results_page_runs(tmp_path, monkeypatch, capsys):
    page = (pathlib.Path(__file__).parents[2] / "docs" / "results.md").read_text()
    query = re.search(r"## Every game as rows.*?```python\n(.*?)```", page, re.S)[1]
    summary(*CRIBBAGE, "--games", tmp_path / "games.parquet")
    monkeypatch.chdir(tmp_path)
    exec(query, {})
    assert capsys.readouterr().out.split()[:3] == ["mean", "size", "deals"]


def test_win_only_rows_hold_the_win_alone(tmp_path):
    path = tmp_path / "games.csv"
    d = summary("--variant", "shuffle", "-n", "20", "--win-only", "--games", path)
    games = pd.read_csv(path)
    assert list(games) == ["game", "win"] and games.win.sum() == d["wins"]


@pytest.mark.parametrize(
    "args,outputs",
    [
        (CRIBBAGE, {"--games": "games.csv", "--deals": "deals.csv.gz"}),
        (["--variant", "patience2", "-n", "300"], {"--games": "games.csv.gz"}),
    ],
    ids=["cribbage", "patience2"],
)
def test_a_resumed_run_writes_the_rows_of_an_uninterrupted_one(
    tmp_path, monkeypatch, args, outputs
):
    """Three chunks; Ctrl-C after two writes nothing, and the run resumed from its checkpoint
    writes the very bytes of a run never interrupted."""
    monkeypatch.setattr(cribbage_sim, "CRIBBAGE_CHUNK", 70)
    monkeypatch.setitem(SOLITAIRES, "patience2", replace(SOLITAIRES["patience2"], chunk=100))
    whole, resumed = tmp_path / "whole", tmp_path / "resumed"
    whole.mkdir()
    resumed.mkdir()

    def simulate(folder, *more):
        files = [a for option, name in outputs.items() for a in (option, folder / name)]
        return run("simulate", *args, "--quiet", *files, *more)

    code, out, _ = simulate(whole)
    assert code == 0
    checkpoint = ["--checkpoint", tmp_path / "run.ckpt"]
    with monkeypatch.context() as m:
        interrupting(m, 2)
        assert simulate(resumed, *checkpoint)[0] == 130
    assert os.listdir(resumed) == []
    assert simulate(resumed, *checkpoint) == (0, out, "")
    for name in outputs.values():
        assert (resumed / name).read_bytes() == (whole / name).read_bytes()


def test_ctrl_c_while_writing_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "games.csv"
    path.write_text("kept\n")

    def cut_short(f, columns):
        f.write(b"game,score\n0,")
        raise KeyboardInterrupt

    monkeypatch.setattr(export, "_csv_columns", cut_short)
    code, _, _ = run("simulate", "--variant", "patience", "-n", "50", "--quiet", "--games", path)
    assert code == 130
    assert path.read_text() == "kept\n" and os.listdir(tmp_path) == ["games.csv"]


def test_gzip_csv_and_parquet_hold_the_rows_of_the_csv(tmp_path):
    paths = [tmp_path / name for name in ("games.csv", "games.csv.gz", "games.parquet")]
    for path in paths:
        summary(*CRIBBAGE, "--games", path)
    rows = pd.read_csv(paths[0])
    pd.testing.assert_frame_equal(pd.read_csv(paths[1]), rows)
    pd.testing.assert_frame_equal(pd.read_parquet(paths[2]), rows, check_dtype=False)
    again = tmp_path / "again.csv.gz"
    summary(*CRIBBAGE, "--games", again)
    assert again.read_bytes() == paths[1].read_bytes()  # no timestamp in the gzip header


def test_parquet_without_pyarrow_is_one_line_before_any_work(tmp_path, monkeypatch, no_work):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    path = tmp_path / "games.parquet"
    assert run("simulate", "--variant", "cribbage", "-n", "10", "--games", path) == (
        2,
        "",
        f"cribsolve: --games: {path} is Parquet, which needs pyarrow: pip install "
        "'cribsolve[data]'\n",
    )
    assert not path.exists()


def test_deals_are_refused_for_a_solitaire(tmp_path, no_work):
    code, out, err = run("simulate", "--variant", "patience", "--deals", tmp_path / "d.csv")
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert "--deals does not apply to --variant patience" in err


def test_csv_rows_import_neither_pandas_nor_pyarrow(tmp_path):
    code = (
        "import sys; from cribsolve.cli import main; sys.argv = ['cribsolve', 'simulate', "
        f"'-n', '10', '--policy', 'random', '--quiet', '--games', {str(tmp_path / 'g.csv')!r}]; "
        "main(); print(sorted({'pandas', 'pyarrow'} & set(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "[]"


@pytest.mark.slow
def test_rows_from_a_cluster_are_the_local_ones(tmp_path):
    here, there = tmp_path / "here.csv", tmp_path / "there.csv"
    d = summary(*CRIBBAGE, "--games", here, "--deals", tmp_path / "d1.csv")
    assert d == summary(
        *CRIBBAGE, "--games", there, "--deals", tmp_path / "d2.csv", "--scheduler", "local:1"
    )
    assert here.read_bytes() == there.read_bytes()
    assert (tmp_path / "d1.csv").read_bytes() == (tmp_path / "d2.csv").read_bytes()
