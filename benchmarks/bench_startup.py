"""Whole-process time of single answers beside the floor (python alone, python + numpy, numba
loaded and readied), the batch scorer's work beyond start-up, and what a cold command pays to
compile.

    python benchmarks/bench_startup.py [--runs 7]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

PY = sys.executable
CLI = [PY, "-m", "cribsolve"]
ROWS = [
    ("python -c pass", [PY, "-c", "pass"]),
    ('python -c "import numpy"', [PY, "-c", "import numpy"]),
    ('python -c "import numba"', [PY, "-c", "import numba"]),
    # the floor of a compiled answer: numba loaded and its compiler readied as the CLI does
    (
        "numba readied as the CLI does",
        [
            PY,
            "-c",
            "import os; os.environ['OPENBLAS_NUM_THREADS']"
            " = '1'; from cribsolve.infra import jit; jit.lean(); "
            "jit.njit(lambda: 0)",
        ],
    ),
    ("cribsolve --help", CLI + ["--help"]),
    ("score one hand", CLI + ["score", "5H", "5S", "5C", "JD", "--starter", "5D"]),
    (
        "best-discard one hand (optimal opponent)",
        CLI + ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--dealer"],
    ),
    ("best-discard 5 cards", CLI + ["best-discard", "5H", "5S", "JD", "6C", "7C", "--dealer"]),
    ("odds one position", CLI + ["odds", "--my-score", "35", "--their-score", "37", "--dealer"]),
    (
        "best-play (compiled)",
        CLI
        + [
            "best-play",
            "TS 2C 3D 8H",
            "--played",
            "5H",
            "--count",
            "5",
            "--seen",
            "KD 4S 4C",
            "--dealer",
        ],
    ),
]


def timed(cmd, stdin=None, env=None):
    """(wall seconds, peak resident MB) of one run of ``cmd``."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    assert os.waitstatus_to_exitcode(status) == 0, cmd
    return wall, usage.ru_maxrss / 1024


def median_time(cmd, runs, **kw):
    timed(cmd, **kw)  # warm: caches and page cache
    return statistics.median(timed(cmd, **kw)[0] for _ in range(runs))


def hands_file(path, n):
    from cribsolve.core.notation import format_card

    rng = np.random.default_rng(0)
    names = np.array([format_card(c) for c in range(52)])
    with open(path, "w") as f:
        for start in range(0, n, 100_000):
            hands = np.argsort(rng.random((min(n - start, 100_000), 52)), axis=1)[:, :5]
            f.write("\n".join(" ".join(r) for r in names[hands]) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    print(f"whole process, median of {args.runs} warm runs")
    for name, cmd in ROWS:
        print(f"  {name:<42} {median_time(cmd, args.runs):6.3f} s")

    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "hands.txt")
        hands_file(path, 2_000_000)
        one = os.path.join(tmp, "one.txt")
        hands_file(one, 1)
        batch = CLI + ["score", "--batch"]
        for n in (10, 10_000):  # small files: scored in numpy, numba never loaded
            small = os.path.join(tmp, f"small{n}.txt")
            hands_file(small, n)
            took = median_time(batch + [small], args.runs)
            print(f"  {f'score --batch, {n:,} lines (numpy)':<42} {took:6.3f} s")
        # a large file's start-up: one line through a pipe, which the kernels read compiled
        start = median_time(["sh", "-c", f"cat {one} | {' '.join(batch)} -"], 3)
        wall = median_time(batch + [path], 3)
        peak = timed(batch + [path])[1]
        print(
            f"  score --batch, 2,000,000 lines: {wall:.2f} s in all, {wall - start:.2f} s "
            f"beyond the {start:.2f} s start-up; peak {peak:.0f} MB"
        )

        cold = dict(os.environ, CRIBSOLVE_CACHE=os.path.join(tmp, "cold"))
        for name, cmd in [
            (
                "score --wild K (compiles the scorer)",
                CLI + ["score", "5H", "KS", "5C", "JD", "--starter", "5D", "--wild", "K"],
            ),
            (
                "simulate -n 1000 (compiles Patience II)",
                CLI + ["simulate", "-n", "1000", "--quiet"],
            ),
        ]:
            first = timed(cmd, env=cold)[0]
            later = median_time(cmd, 3, env=cold)
            print(f"  cold {name:<40} first {first:5.2f} s, later {later:5.2f} s")
        shutil.rmtree(os.path.join(tmp, "cold"), ignore_errors=True)


if __name__ == "__main__":
    main()
