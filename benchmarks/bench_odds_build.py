"""What an odds table costs to get: each `odds` question below as a whole process on a fresh
cache folder (cold: it compiles its kernels and builds or loads the table), then with the
kernels kept but the table and its deals removed (built again, warm), then once more (the
table kept). A table shipped in the package is loaded, never built.

    python benchmarks/bench_odds_build.py [--only NAME ...]
"""

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

CLI = [sys.executable, "-m", "cribsolve", "odds", "--quiet"]
ROWS = {
    "three": ["--players", "3", "--scores", "116,116,116", "--dealer-player", "1"],
    "page-241": [
        *("--decks", "2", "--hand-size", "8", "--starters", "2", "--game-length", "241"),
        *("--my-score", "200", "--their-score", "210", "--dealer"),
    ],
    "partners": ["--players", "4", "--partners", "--my-score", "100", "--their-score", "110"]
    + ["--dealer"],
}


def run(args, cache):
    """Wall seconds of one run on ``cache``."""
    t = time.perf_counter()
    subprocess.run(
        CLI + args,
        env=dict(os.environ, CRIBSOLVE_CACHE=cache),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(ROWS), help="these rows only")
    a = ap.parse_args()
    print(f"{'table':10} {'cold s':>8} {'built warm s':>13} {'kept s':>8}")
    for name in a.only or ROWS:
        with tempfile.TemporaryDirectory(prefix="cribsolve-odds-") as cache:
            cold = run(ROWS[name], cache)
            for f in glob.glob(os.path.join(cache, "odds*.npz")):
                os.unlink(f)
            for f in glob.glob(os.path.join(cache, "deals-*.npz")):
                os.unlink(f)
            warm = run(ROWS[name], cache)
            kept = run(ROWS[name], cache)
        print(f"{name:10} {cold:8.1f} {warm:13.1f} {kept:8.2f}", flush=True)


if __name__ == "__main__":
    main()
