"""What a first run costs: each command as a whole process on a fresh cache folder (cold: it
compiles every kernel it runs), then again on the same folder (warm: it loads them), with the
number of functions compiled and the seconds numba spent compiling them.

    python benchmarks/bench_cold.py [--only NAME ...] [--list]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

PY = sys.executable
CLI = [PY, "-m", "cribsolve"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = {
    "simulate": ["simulate", "--quiet"],
    "cribbage": ["simulate", "--variant", "cribbage", "-n", "1000", "--quiet"],
    "expert": ["simulate", "--variant", "cribbage", "--policy", "expert", "-n", "100", "--quiet"],
    "best-play": ["best-play", "TS 2C 3D 8H", "--played", "5H", "--seen", "KD 4S 4C", "--dealer"],
    "review": ["review", os.path.join(ROOT, "examples", "game1.txt")],
}


def run(args, cache):
    """(wall seconds, functions compiled, seconds compiling) of one run on ``cache``."""
    log = os.path.join(cache, "compiled.log")
    if os.path.exists(log):
        os.unlink(log)
    env = dict(os.environ, CRIBSOLVE_CACHE=cache, CRIBSOLVE_COMPILE_LOG=log)
    t = time.perf_counter()
    subprocess.run(
        CLI + args, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    wall = time.perf_counter() - t
    if not os.path.exists(log):
        return wall, 0, 0.0
    with open(log) as f:
        rows = [line.split("\t") for line in f if line.strip()]
    return wall, len(rows), sum(float(r[1]) for r in rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", choices=sorted(ROWS), help="these rows only")
    ap.add_argument("--list", action="store_true", help="name the rows and their commands")
    a = ap.parse_args()
    if a.list:
        for name, args in ROWS.items():
            print(f"{name:10} cribsolve {' '.join(args)}")
        return
    print(f"{'command':10} {'cold s':>8} {'compiled':>9} {'compile s':>10} {'warm s':>8}")
    for name in a.only or ROWS:
        with tempfile.TemporaryDirectory(prefix="cribsolve-cold-") as cache:
            cold, n, secs = run(ROWS[name], cache)
            warm, n_warm, _ = run(ROWS[name], cache)
        note = f"  ({n_warm} compiled again when warm)" if n_warm else ""
        print(f"{name:10} {cold:8.1f} {n:9d} {secs:10.1f} {warm:8.2f}{note}", flush=True)


if __name__ == "__main__":
    main()
