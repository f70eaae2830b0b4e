"""Remake the pictures the README shows (docs/figures/*.png) with the CLI's --plot, and with
--notebooks also run every notebook and store it with its outputs, so the repository shows
the figures after a change.

    python docs/make_figures.py [--notebooks]

Needs the plot extra (pip install -e '.[plot]'); --notebooks also the test extra.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIGURES = ROOT / "docs" / "figures"
COMMANDS = {  # file: the command that draws it (seeded, so a rerun draws the same picture)
    "patience2.png": ["simulate", "--variant", "patience2", "-n", "1e5", "--seed", "1"],
    "odds.png": ["odds", "--table"],
    "crib-table.png": ["crib-table", "--dealer"],
}


def figures() -> None:
    FIGURES.mkdir(parents=True, exist_ok=True)
    for name, args in COMMANDS.items():
        path = FIGURES / name
        print(f"cribsolve {' '.join(args)} --plot {path.relative_to(ROOT)}", flush=True)
        subprocess.run(
            [sys.executable, "-m", "cribsolve", *args, "--quiet", "--plot", str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
        print(f"  {path.stat().st_size / 1000:.0f} kB")


def notebooks() -> None:
    """Execute each notebook as Jupyter would (inline figures) and write it back."""
    import nbformat
    from nbclient import NotebookClient

    os.environ.pop("MPLBACKEND", None)  # an Agg backend would draw no inline image
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        print(f"executing {path.relative_to(ROOT)}", flush=True)
        nb = nbformat.read(path, as_version=4)
        NotebookClient(
            nb,
            timeout=900,
            kernel_name="python3",
            record_timing=False,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        nbformat.write(nb, path)


if __name__ == "__main__":
    figures()
    if "--notebooks" in sys.argv[1:]:
        notebooks()
