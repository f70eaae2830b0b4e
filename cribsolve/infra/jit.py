"""The one door to numba: every kernel module takes ``njit`` and ``prange`` from here.

Two reasons. numba's own cache checks only the file a function is written in, so a change to
a function it inlines from another module goes unnoticed; here the compiled cache lives in the
user cache folder under a key made of the package's whole code, its version and numba's, so any
change compiles afresh and nothing is ever written into the installed package. And a command
that answers one question can run the kernels as plain Python (``use_python``): importing numba
and loading its cache costs about a second, the question a few milliseconds.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from cribsolve.infra import source
from cribsolve.infra.paths import cache_dir, unwritable

_python = False
_lean = False
_numba = None
# What numba imports, if installed, as it loads and readies its compiler: SciPy (a version
# check, then np.dot and np.linalg; 0.2 s here) and cffi (cffi functions; 0.05 s). No kernel of
# ours calls either.
EXTRAS = ("scipy", "cffi")


class NeedsCompiled(RuntimeError):
    """Raised where plain Python would take too long: the caller should start compiled."""


def require_compiled(what: str) -> None:
    """Refuse long work (``what``) in a process that runs its kernels as plain Python."""
    if _python:
        raise NeedsCompiled(what)


def in_python() -> bool:
    """Whether kernels run as plain Python in this process."""
    return _python


def use_python() -> None:
    """Run every kernel imported from now on as plain Python (for single answers)."""
    global _python
    if _numba is not None:
        return                      # numba is already loaded: keep using it
    _python = True


def lean() -> None:
    """Ready numba, when it loads, without its SciPy and cffi support (EXTRAS): where they are
    installed that is 0.3 s of the 0.8 s a compiled answer takes. For the command line, which
    owns its process: a library user's own numba code keeps np.dot and cffi."""
    global _lean
    _lean = True


def code_key() -> str:
    """A digest of every module of the package (the CLI aside) and of the versions in play."""
    import hashlib

    from cribsolve import __version__
    lib = source.digest(source.library())
    return hashlib.sha256(f"{__version__} {sys.version_info[:2]} {lib}".encode()).hexdigest()[:16]


def numba_cache_dir() -> str:
    """Where compiled kernels are kept: <cache folder>/numba/<numba version>-<code key>."""
    from importlib.metadata import version

    return os.path.join(cache_dir(), "numba", f"{version('numba')}-{code_key()}")


def _load_numba():
    global _numba
    if _numba is None:
        with _without(EXTRAS if _lean else ()):
            import numba
            if _lean:           # ready the compiler now, as the first kernel would
                from numba.core.registry import cpu_target
                cpu_target.target_context.refresh()
                cpu_target.typing_context.refresh()

        path = numba_cache_dir()
        try:
            os.makedirs(path, exist_ok=True)
            if not os.access(path, os.W_OK):
                raise PermissionError(13, "Permission denied")
        except OSError as e:
            import tempfile

            unwritable(e)
            path = os.path.join(tempfile.gettempdir(), f"cribsolve-{os.getuid()}",
                                os.path.basename(path))
            os.makedirs(path, exist_ok=True)
        numba.config.CACHE_DIR = path
        _say_when_compiling(numba)
        _numba = numba
    return _numba


@contextmanager
def _without(names):
    """Within, the modules ``names`` not imported yet look not installed to an import (None in
    sys.modules); afterwards they import as usual."""
    hidden = [name for name in names if name not in sys.modules]
    sys.modules.update(dict.fromkeys(hidden))
    try:
        yield
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]


def _say_when_compiling(numba) -> None:
    """Say once, on stderr, when a kernel is really compiled (not loaded from the cache): a
    first run waits a minute or more, and should not wait in silence."""
    from numba.core import event

    from cribsolve.infra.paths import say

    import time

    log = os.environ.get("CRIBSOLVE_COMPILE_LOG")    # benchmarks: each function and its seconds

    class Notice(event.Listener):
        said = False
        stack = []                  # [start, seconds of nested compiles] of each open compile

        def on_start(self, ev):
            Notice.stack.append([time.perf_counter(), 0.0])
            if not Notice.said and not os.environ.get("CRIBSOLVE_QUIET_COMPILE"):
                Notice.said = True
                say("compiling the kernels this command needs, once for this version of "
                    "cribsolve (a first run takes a minute or more; later runs load them in "
                    "about a second)")

        def on_end(self, ev):
            start, nested = Notice.stack.pop()
            took = time.perf_counter() - start
            if Notice.stack:
                Notice.stack[-1][1] += took
            if log:
                with open(log, "a") as f:
                    f.write(f"{ev.data['dispatcher'].py_func.__qualname__}\t{took - nested:.3f}\n")

    event.register("numba:compile", Notice())


def njit(*args, **kwargs):
    """numba.njit, or (after use_python) the function itself."""
    if _python:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f
    return _load_numba().njit(*args, **kwargs)


def set_threads(jobs: int | None) -> None:
    """Use ``jobs`` threads in parallel kernels (None: all cores)."""
    if jobs and not _python:
        numba = _load_numba()
        numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))


def __getattr__(name):
    if name == "prange":
        return range if _python else _load_numba().prange
    raise AttributeError(name)
