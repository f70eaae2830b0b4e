"""infra/jit.py: the command line readies numba without SciPy and cffi (jit.lean)."""

import subprocess
import sys

PROBE = """
import importlib.util, sys
from cribsolve.infra import jit
jit.lean()
from cribsolve.core.scoring.table import entry_points
print(entry_points(14 ** 4 * 5 + 14 ** 3 * 5 + 14 ** 2 * 5 + 14 * 5 + 10, 15))  # 5 5 5 5 T
print('scipy' in sys.modules, 'cffi' in sys.modules)
for name in ('scipy', 'cffi'):          # hidden only while numba readied itself
    if importlib.util.find_spec(name):
        __import__(name)
print('imported')
"""


def test_lean_numba_runs_kernels_without_scipy_or_cffi():
    """Where they are installed numba would import them as it loads (0.3 s of a compiled
    answer); no kernel of ours needs either, and afterwards they import as usual."""
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:3] == ["28", "False False", "imported"]
