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


KERNEL = """
from cribsolve.infra.jit import njit


@njit(cache=True)
def plus(x):
    return x + 1
"""

INSTALLED = """
import os
from cribsolve.infra import jit, source
source.PACKAGE = os.path.join(os.getcwd(), "pkg")  # these kernels are kept as the package's
from pkg import kernel
print(kernel.plus(1), sum(kernel.plus.stats.cache_hits.values()))
"""


def test_the_same_code_installed_elsewhere_loads_what_the_first_install_compiled(tmp_path):
    """pip install . after pip install -e . puts the same code in another folder: its
    kernels are loaded from the cache, not compiled again (the cache is keyed by the code)."""
    import os

    env = {**os.environ, "CRIBSOLVE_CACHE": str(tmp_path / "cache")}
    hits = []
    for install in ("editable", "site-packages"):
        (tmp_path / install / "pkg").mkdir(parents=True)
        (tmp_path / install / "pkg" / "__init__.py").write_text("")
        (tmp_path / install / "pkg" / "kernel.py").write_text(KERNEL)
        r = subprocess.run(
            [sys.executable, "-c", INSTALLED], cwd=tmp_path / install, env=env, capture_output=True
        )
        assert r.returncode == 0, r.stderr.decode()[-2000:]
        hits.append(r.stdout.decode().split())
    assert hits == [["2", "0"], ["2", "1"]]
