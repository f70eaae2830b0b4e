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
        assert img[..., :3].std() > 0.05  # not a blank page
    else:
        root = ET.fromstring(data)
        assert root.tag in ("svg", "{http://www.w3.org/2000/svg}svg")
        assert len(list(root.iter())) > 50  # axes, ticks and marks, not an empty page
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".cribsolve-")]


COMMANDS = [
    (["simulate", "--variant", "patience", "-n", "300", "--quiet"], "png"),
    (["simulate", "--variant", "cribbage", "-n", "40", "--quiet"], "svg"),
    (["distribution", "--crib"], "png"),
    (["crib-table", "--dealer", "--quiet"], "svg"),
    (["odds", "--table", "--quiet"], "png"),
    (["best-discard", *HAND, "--dealer", "--distribution", "--top", "3"], "png"),
    (["best-discard", *HAND, "--variant", "patience"], "svg"),
    (["bracket", "-n", "3", "--quiet"], "png"),
]


@pytest.mark.parametrize(
    "args,ext",
    [
        # the bracket compiles Patience's bound (half a minute)
        pytest.param(a, e, marks=[pytest.mark.slow] if a[0] == "bracket" else [])
        for a, e in COMMANDS
    ],
    ids=[" ".join(a[:2] + [e]) for a, e in COMMANDS],
)
def test_plot_writes_an_image(tmp_path, args, ext):
    path = tmp_path / f"out.{ext}"
    code, out, err = run(*args, "--plot", path)
    assert code == 0, err
    check_image(path, ext)
    said = f"cribsolve: wrote the picture to {path}\n"
    assert (said not in err) if "--quiet" in args else err.endswith(said)


@pytest.mark.parametrize(
    "args,said",
    [
        (["simulate", "--variant", "patience", "-n", "300", "--plot", "{dir}/s.png"], ["picture"]),
        (["odds", "--table", "--plot", "{dir}/o.png"], ["picture"]),
        (["odds", "--table", "--csv", "{dir}/o.csv"], ["table"]),
        (
            ["odds", "--table", "--csv", "{dir}/o.csv", "--plot", "{dir}/o.svg"],
            ["table", "picture"],
        ),
    ],
)
def test_a_file_written_is_said(tmp_path, args, said):
    """A command whose output is a file says where it went (odds --table prints nothing else),
    one line each on stderr."""
    args = [a.format(dir=tmp_path) for a in args]
    code, out, err = run(*args)
    assert code == 0, err
    files = [a for a in args if a.startswith(str(tmp_path))]
    assert err.splitlines()[-len(said) :] == [
        f"cribsolve: wrote the {what} to {f}" for what, f in zip(said, files)
    ]


@pytest.mark.slow
def test_variations_plot(tmp_path):
    path = tmp_path / "rules.png"
    code, _, err = run("variations", "-n", "4", "--quiet", "--plot", path)
    assert code == 0, err
    check_image(path, "png")


LONG = [  # each command, with work long enough that reaching it fails (see no_work)
    ["simulate", "-n", "1e9", "--quiet"],
    ["simulate", "--variant", "cribbage", "-n", "1e9", "--quiet"],
    ["distribution"],
    ["crib-table", "--dealer", "--quiet"],
    ["odds", "--table", "--game-length", "361", "--quiet"],
    ["best-discard", *HAND, "--dealer"],
    ["best-discard", *HAND, "--variant", "patience"],
    ["variations", "-n", "1e9", "--quiet"],
    ["bracket", "-n", "1e9", "--quiet"],
]


@pytest.mark.parametrize(
    "bad,message",
    [
        ("out.jpg", "must end in .png or .svg"),
        ("out", "must end in .png or .svg"),
        ("missing/out.png", "does not exist"),
        ("folder.png", "is a directory"),
    ],
)
@pytest.mark.parametrize("args", LONG, ids=lambda a: " ".join(a[:3]))
def test_bad_plot_path_refused_before_the_work(tmp_path, no_work, args, bad, message):
    (tmp_path / "folder.png").mkdir()
    code, out, err = run(*args, "--plot", tmp_path / bad)
    assert code == 2 and out == ""
    assert err.startswith("cribsolve:") and message in err and len(err.splitlines()) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["folder.png"]


@pytest.mark.parametrize(
    "args,message",
    [
        (
            ["simulate", "--variant", "shuffle", "--win-only", "-n", "1", "--plot", "{dir}/s.png"],
            "needs exact scores",
        ),
        (
            ["odds", "--my-score", "1", "--their-score", "2", "--dealer", "--plot", "{dir}/o.png"],
            "does not apply to a single position",
        ),
        (
            ["best-discard", *HAND, "--variant", "patience2", "--plot", "{dir}/d.png"],
            "does not apply to Patience II's first discard",
        ),
        (
            ["best-discard", *HAND, "--dealer", "--starter", "5D", "--plot", "{dir}/d.png"],
            "does not apply to a sampled house-rule deal",
        ),
        (
            ["distribution", "--csv", "{dir}/same.png", "--plot", "{dir}/same.png"],
            "name the same file",
        ),
    ],
)
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
    rows = [
        (a, b, s, 100 * RANK_CHARS.index(a) + RANK_CHARS.index(b) + 0.5 * s)
        for i, a in enumerate(RANK_CHARS)
        for b in RANK_CHARS[i:]
        for s in ((False,) if a == b else (False, True))
    ]
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
    values = [
        SimpleNamespace(discard=parse_cards(["2H 9C"]), net=3.0, distribution={2: 0.5, 4: 0.5}),
        SimpleNamespace(discard=parse_cards(["2S 9C"]), net=3.0, distribution=alike),
        SimpleNamespace(discard=parse_cards(["JD 5D"]), net=1.0, distribution={0: 1.0}),
    ]
    ax = discard_figure(values, "h", "x").axes[0]
    assert len(ax.lines) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "throw 2H 9C = 2S 9C: mean 3.00",
        "throw JD 5D: mean 1.00",
    ]


# --- every label inside the picture, whatever the numbers --------------------------------


def drawn_texts(fig, monkeypatch):
    """(text, window extent) of every label the renderer draws (Agg), tick labels and legend
    included: what the picture shows, not the artists it merely holds."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    drawn, draw = [], Text.draw

    def record(self, renderer):
        draw(self, renderer)
        if self.get_visible() and self.get_text():
            drawn.append((self, self.get_window_extent(renderer)))

    monkeypatch.setattr(Text, "draw", record)
    FigureCanvasAgg(fig).draw()
    return drawn


def inside(box, outer):
    return (
        box.x0 >= outer.x0 - 0.5
        and box.x1 <= outer.x1 + 0.5
        and box.y0 >= outer.y0 - 0.5
        and box.y1 <= outer.y1 + 0.5
    )


def _cribbage(long):
    from types import SimpleNamespace

    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    if long:  # every rule at once, and points no game scores
        spec = CribbageSpec(
            target=16,
            peg_limit=41,
            jokers=2,
            decks=2,
            starters=2,
            wild_rank=13,
            stinkhole=True,
            draw=True,
            game_length=361,
            hand_size=8,
        )
        parts = [1234.5678, 12345.678, 0.5, 99.99, 999.999, 23456.7, 1.0]
    else:
        spec, parts = CribbageSpec(), [4.12, 8.0, 4.7, 0.31, 3.6, 7.9, 0.0]
    d = dict(
        zip(
            [
                "dealer_pegging",
                "dealer_hand",
                "crib",
                "heels",
                "pone_pegging",
                "pone_hand",
                "pone_crib",
            ],
            parts,
        ),
        win_rate=1.0,
        win_rate_ci=[0.999, 1.0],
    )
    return SimpleNamespace(
        as_dict=lambda: d,
        spec=spec,
        policy="lookahead",
        opponent_policy="expert",
        n=10**9,
        seed=2**32 - 1,
    )


def _variations(long):
    from cribsolve.games.cribbage.deals.variations import RULES

    big = 12345.678 if long else 1.0
    return (
        [
            {
                "rule": name,
                "first_dealer_wins": i % 2,
                "ci_low": 0.0,
                "ci_high": 1.0,
                "dealer_points": 25 * big,
                "dealer_pegging": 4 * big,
                "dealer_hand": 8 * big,
                "crib": 5 * big,
                "pone_pegging": 3 * big,
                "pone_hand": 8 * big,
                "pone_crib": big,
            }
            for i, (name, _) in enumerate(RULES)
        ],
        10**9,
        2**32 - 1,
        "lookahead",
    )


def _bracket(long):
    d = {
        "variant": "patience2" if long else "patience",
        "n": 10**9,
        "seed": 2**32 - 1,
        "policy": "lookahead",
        "next_hands": 1000,
        "win_rate": 0.9536,
        "win_rate_ci": [0.9523, 0.9549],
        "upper_bound": 1.3141,
        "upper_bound_ci": [1.3131, 1.3151],
        "clairvoyant": 0.9983,
        "clairvoyant_ci": [0.998, 0.9985],
    }
    if long:
        d.update(
            win_policy_rate=0.9433,
            win_policy_rate_ci=[0.9418, 0.9447],
            charged_rate=0.9531,
            charged_rate_ci=[0.9527, 0.9535],
        )
    return (d,)


FIGURES = {
    "cribbage_figure": lambda long: (_cribbage(long),),
    "variations_figure": _variations,
    "bracket_figure": _bracket,
}


@pytest.mark.parametrize("long", [False, True], ids=["usual", "long"])
@pytest.mark.parametrize("name", FIGURES)
def test_every_label_stays_inside_the_figure(monkeypatch, name, long):
    """No title, tick label, legend entry or value runs off the picture, and a value written
    on the plot (a bar's points) stays inside its axes, for numbers far past any game's."""
    pytest.importorskip("matplotlib")
    from cribsolve.cli import plots

    fig = getattr(plots, name)(*FIGURES[name](long))
    drawn = drawn_texts(fig, monkeypatch)
    assert drawn
    for text, box in drawn:
        assert inside(box, fig.bbox), (text.get_text(), box, fig.bbox)
    for ax in fig.axes:
        for text in ax.texts:
            assert inside(text.get_window_extent(), ax.get_window_extent()), text.get_text()


def test_a_simulate_histogram_keeps_its_labels_inside(monkeypatch):
    from cribsolve.cli import plots
    from cribsolve.games.solitaire.simulate import simulate

    fig = plots.simulate_figure(simulate("patience2", "random", 50, seed=2**32 - 1))
    for text, box in drawn_texts(fig, monkeypatch):
        assert inside(box, fig.bbox), text.get_text()
