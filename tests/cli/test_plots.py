"""--plot FILE: every command that draws writes a readable image of the kind its extension
names, refuses what it cannot draw before the work, and never leaves half a file."""
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from clihelp import run

HAND = ["5H", "5S", "JD", "6C", "7C", "KH"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def check_image(path, ext):
    data = path.read_bytes()
    if ext == "png":
        from matplotlib.image import imread

        assert data.startswith(PNG_SIGNATURE)
        img = imread(path)
        assert img.ndim == 3 and img.shape[2] in (3, 4)
        assert 200 <= img.shape[0] <= 2000 and 200 <= img.shape[1] <= 2000
        assert img[..., :3].std() > 0.05          # not a blank page
    else:
        root = ET.fromstring(data)
        assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
        assert len(list(root.iter())) > 50        # axes, ticks and marks, not an empty page
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".cribsolve-")]


COMMANDS = [
    (["simulate", "--variant", "patience", "-n", "300", "--quiet"], "png"),
    (["simulate", "--variant", "cribbage", "-n", "40", "--quiet"], "svg"),
    (["distribution", "--crib"], "png"),
    (["crib-table", "--dealer", "--quiet"], "svg"),
    (["odds", "--table", "--quiet"], "png"),
    (["best-discard", *HAND, "--dealer", "--distribution", "--top", "3"], "png"),
    (["best-discard", *HAND, "--variant", "patience"], "svg"),
]


@pytest.mark.parametrize("args,ext", COMMANDS,
                         ids=[" ".join(a[:2] + [e]) for a, e in COMMANDS])
def test_plot_writes_an_image(tmp_path, args, ext):
    path = tmp_path / f"out.{ext}"
    code, out, err = run(*args, "--plot", path)
    assert code == 0, err
    check_image(path, ext)


@pytest.mark.slow
def test_variations_plot(tmp_path):
    path = tmp_path / "rules.png"
    code, _, err = run("variations", "-n", "4", "--quiet", "--plot", path)
    assert code == 0, err
    check_image(path, "png")


LONG = [   # each command, with work long enough that reaching it fails (see no_work)
    ["simulate", "-n", "1e9", "--quiet"],
    ["simulate", "--variant", "cribbage", "-n", "1e9", "--quiet"],
    ["distribution"],
    ["crib-table", "--dealer", "--quiet"],
    ["odds", "--table", "--game-length", "361", "--quiet"],
    ["best-discard", *HAND, "--dealer"],
    ["best-discard", *HAND, "--variant", "patience"],
    ["variations", "-n", "1e9", "--quiet"],
]


@pytest.mark.parametrize("bad,message", [
    ("out.jpg", "must end in .png or .svg"), ("out", "must end in .png or .svg"),
    ("missing/out.png", "does not exist"), ("folder.png", "is a directory")])
@pytest.mark.parametrize("args", LONG, ids=lambda a: " ".join(a[:3]))
def test_bad_plot_path_refused_before_the_work(tmp_path, no_work, args, bad, message):
    (tmp_path / "folder.png").mkdir()
    code, out, err = run(*args, "--plot", tmp_path / bad)
    assert code == 2 and out == ""
    assert err.startswith("cribsolve:") and message in err and len(err.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["folder.png"]


@pytest.mark.parametrize("args,message", [
    (["simulate", "--variant", "shuffle", "--win-only", "-n", "1", "--plot", "{dir}/s.png"],
     "needs exact scores"),
    (["odds", "--my-score", "1", "--their-score", "2", "--dealer", "--plot",
      "{dir}/o.png"], "does not apply to a single position"),
    (["best-discard", *HAND, "--variant", "patience2", "--plot", "{dir}/d.png"],
     "does not apply to Patience II's first discard"),
    (["best-discard", *HAND, "--dealer", "--starter", "5D", "--plot", "{dir}/d.png"],
     "does not apply to a sampled house-rule deal"),
    (["distribution", "--csv", "{dir}/same.png", "--plot", "{dir}/same.png"],
     "name the same file"),
])
def test_plot_refused_where_it_cannot_draw(tmp_path, no_work, args, message):
    code, out, err = run(*[a.format(dir=tmp_path) for a in args])
    assert code == 2 and out == ""
    assert err.startswith("cribsolve:") and message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", LONG, ids=lambda a: " ".join(a[:3]))
def test_plot_without_matplotlib(tmp_path, monkeypatch, no_work, args):
    # None in sys.modules makes `import matplotlib` raise ImportError, as if not installed
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run(*args, "--plot", tmp_path / "s.png")
    assert code == 2 and out == ""
    assert err == "cribsolve: --plot needs matplotlib: pip install 'cribsolve[plot]'\n"
    assert list(tmp_path.iterdir()) == []


def test_interrupted_plot_leaves_the_old_file(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    path = tmp_path / "s.png"
    path.write_bytes(b"old")

    def broken(self, f, **kwargs):
        f.write(b"\x89PNG half")
        raise KeyboardInterrupt
    monkeypatch.setattr(Figure, "savefig", broken)
    code, _, err = run("simulate", "-n", "10", "--quiet", "--plot", path)
    assert code == 130 and path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["s.png"]


def test_crib_map_puts_suited_above_the_diagonal():
    from cribsolve.cli import plots
    from cribsolve.core.notation import RANK_CHARS

    # a made-up table whose value says which cell it belongs in
    rows = [(a, b, s, 100 * RANK_CHARS.index(a) + RANK_CHARS.index(b) + 0.5 * s)
            for i, a in enumerate(RANK_CHARS) for b in RANK_CHARS[i:]
            for s in ((False,) if a == b else (False, True))]
    grid = plots.crib_table_figure(rows, "dealer", "optimal").axes[0].images[0].get_array()
    for i in range(13):
        for j in range(13):
            lo, hi = min(i, j), max(i, j)
            assert grid[i, j] == 100 * lo + hi + 0.5 * (i < j)


def test_score_histogram_shows_every_game():
    from cribsolve.cli import plots
    from cribsolve.games.solitaire.simulate import simulate

    res = simulate("patience2", "random", 500, seed=3)
    ax = plots.simulate_figure(res).axes[0]
    bars = [(p.get_x() + p.get_width() / 2, p.get_height()) for p in ax.patches]
    assert sum(h for _, h in bars) == pytest.approx(100)
    won = sum(h for x, h in bars if x >= res.win_at)
    assert won == pytest.approx(100 * res.win_rate)
    assert f"{100 * res.win_rate:.2f}%" in ax.get_title()
    assert np.isclose(ax.lines[0].get_xdata()[0], res.win_at - 0.5)


def test_throws_of_one_distribution_share_a_line():
    """Two throws alike but for suits draw one line, named for both, not two on top of each
    other."""
    pytest.importorskip("matplotlib")
    from types import SimpleNamespace

    from cribsolve import parse_cards
    from cribsolve.cli.plots import discard_figure

    alike = {2: 0.5, 4: 0.5 + 1e-15}
    values = [SimpleNamespace(discard=parse_cards(["2H 9C"]), net=3.0,
                              distribution={2: 0.5, 4: 0.5}),
              SimpleNamespace(discard=parse_cards(["2S 9C"]), net=3.0, distribution=alike),
              SimpleNamespace(discard=parse_cards(["JD 5D"]), net=1.0, distribution={0: 1.0})]
    ax = discard_figure(values, "h", "x").axes[0]
    assert len(ax.lines) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "throw 2H 9C = 2S 9C: mean 3.00", "throw JD 5D: mean 1.00"]
