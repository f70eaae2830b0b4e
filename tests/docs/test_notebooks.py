"""Every notebook runs from top to bottom and shows the figures it promises, so none can rot;
the stored copies carry those figures, and a number they print agrees with the results page
(docs/results.md) and the library."""

import functools
import os
import pathlib
import re

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).parent.parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
FIGURES = {  # the figures each notebook draws
    "cribbage_odds.ipynb": 2,  # the odds surface, the dealer's edge
    "house_rules.ipynb": 2,  # the rules side by side, deals per game against top hand
    "solitaire_odds.ipynb": 2,  # final-score distributions, win rates
}


def outputs(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def images(nb) -> int:
    return sum("image/png" in o.get("data", {}) for o in outputs(nb))


def text(nb) -> str:
    return "".join(o.get("text", "") for o in outputs(nb))


@functools.lru_cache(maxsize=None)
def executed(path):
    """The notebook run as Jupyter runs it: with the inline backend (an MPLBACKEND such as Agg
    in the environment would draw every figure off screen)."""
    nb = nbformat.read(path, as_version=4)
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    ).execute(env=env)
    return nb


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
@pytest.mark.slow
def test_notebook_executes_and_shows_its_figures(path):
    nb = executed(path)
    assert "Traceback" not in text(nb) and text(nb).strip()
    assert images(nb) == FIGURES[path.name]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stored_with_its_figures(path):
    nb = nbformat.read(path, as_version=4)
    assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
    assert images(nb) == FIGURES[path.name]


def readme_figure(label: str) -> float:
    """The cribsolve column of a row of the two-player comparison table (docs/results.md)."""
    readme = (ROOT / "docs" / "results.md").read_text()
    return float(re.search(rf"^\| {label} \|[^|]*\| ([\d.]+)%", readme, re.M).group(1))


def test_first_deal_agrees_with_readme_and_library():
    from cribsolve.games.cribbage.deals.odds import odds_table

    out = text(executed(ROOT / "notebooks" / "cribbage_odds.ipynb"))
    m = re.search(r"first deal: table ([\d.]+)%, simulated ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\]", out)
    table, simulated, lo, hi = map(float, m.groups())
    assert table == pytest.approx(100 * odds_table()[1, 0, 0], abs=0.005)
    assert table == readme_figure("first deal from the odds table")
    # the notebook's 2,000 games and the results page's 100,000 agree within the notebook's 95% CI
    assert lo <= simulated <= hi
    assert lo <= readme_figure("first dealer wins") <= hi


@pytest.mark.slow
def test_solitaire_rates_agree_with_the_command_line():
    """Each policy's rate as the notebook prints it, its calls made one after another in one
    kernel, is the command line's for the same games made alone (Patience's win once read
    clairvoyance's 34.9% there, after the policies before it)."""
    from clihelp import run

    out = text(executed(ROOT / "notebooks" / "solitaire_odds.ipynb"))
    rows = re.findall(r"^ *(\w+) +(\w+): win +([\d.]+)%", out, re.M)
    assert len(rows) == 8
    for variant, policy, rate in rows:
        code, stdout, _ = run(
            "simulate", "--variant", variant, "--policy", policy, "-n", "2000", "--seed", "1"
        )
        cli = float(re.search(r"win rate \(>= 80\): ([\d.]+)%", stdout).group(1))
        assert code == 0 and f"{cli:.2f}" == rate, (variant, policy)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_a_notebook_uses_the_public_api_only(path):
    """A notebook is what an analyst writes: it reaches cribsolve by its public names only
    (``import cribsolve as cs``), which keep their place from release to release."""
    import cribsolve

    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"(from|import) cribsolve\.", code)
    used = set(re.findall(r"\bcs\.(\w+)", code))
    assert used and used <= set(cribsolve.__all__)
