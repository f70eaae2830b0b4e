"""The one door to numba: every kernel module takes ``njit`` and ``prange`` from here.

Two reasons. numba's own cache checks only the file a function is written in, so a change to
a function it inlines from another module goes unnoticed, while a comment's edit recompiles the
file; here the compiled cache lives in the user cache folder under a key made of the code the
kernels are built from (without docstrings and comments), its version and numba's, so a change
to any kernel compiles afresh, an edit elsewhere compiles nothing, and nothing is ever written
into the installed package. And a command
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
    """A digest of the code kernels are built from (source.kernels: no docstring or comment, no
    module of the CLI, the record or the review) and of the versions in play. Worked out once
    per state of the files: a compiled answer would otherwise spend 0.2 s parsing."""
    import hashlib
    import json

    from cribsolve import __version__
    files = sorted(source.module_file(m) for m in source.library())
    stamp = hashlib.sha256(json.dumps(
        [__version__, sys.version_info[:2], source.PACKAGE]
        + [(f, os.stat(f).st_mtime_ns, os.stat(f).st_size) for f in files]).encode()).hexdigest()
    memo = os.path.join(cache_dir(), "numba", "code-key.json")
    try:
        with open(memo) as f:
            kept = json.load(f)
        if kept["stamp"] == stamp:
            return kept["key"]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    lib = source.digest(source.kernels())
    key = hashlib.sha256(f"{__version__} {sys.version_info[:2]} {lib}".encode()).hexdigest()[:16]
    try:
        os.makedirs(os.path.dirname(memo), exist_ok=True)
        tmp = f"{memo}.{os.getpid()}.tmp"
        with open(tmp, "w") as f:
            json.dump({"stamp": stamp, "key": key}, f)
        os.replace(tmp, memo)
    except OSError:
        pass
    return key


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
        _keyed_by_code(numba)
        _say_when_compiling(numba)
        _numba = numba
    return _numba


def _keyed_by_code(numba) -> None:
    """Our kernels' cache entries are fresh while the code key is (it names their folder):
    numba's own check, a digest of the file's bytes, would recompile a file's kernels at a
    comment's edit, and the line number in an entry's name at any line added above it. Other
    numba code in the process keeps numba's own check."""
    from numba.core import caching

    class ByCode(caching.UserProvidedCacheLocator):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._tag = getattr(py_func, "_variant", "c")   # variant(): its bindings' digest

        def get_source_stamp(self):
            return os.path.basename(numba.config.CACHE_DIR)

        def get_disambiguator(self):
            return self._tag    # the index tells same-named functions apart by their bytecode

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.abspath(py_file).startswith(source.PACKAGE + os.sep):
                return None
            return super().from_function(py_func, py_file)

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl     # renamed in 0.61
    if not any(c.__name__ == "ByCode" for c in impl._locator_classes):
        impl._locator_classes.insert(0, ByCode)


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


_variants: dict = {}


def variant(kernel, **names):
    """A compiled copy of ``kernel`` in which each global name in ``names`` is bound to the
    value given: a constant, or another variant. numba drops a branch whose condition is a
    constant global before it compiles anything, so a copy with ``USES_BID=False`` never
    compiles the bid, and a caller's copy bound to a callee's copy compiles only what that
    copy reaches: a command compiles the kernels of the rules and players in play. Made once
    per binding; its compiled code is kept under a name made of the bindings."""
    import hashlib
    import types

    memo = (kernel, tuple(sorted(names.items(), key=lambda kv: kv[0])))
    if memo in _variants:
        return _variants[memo]
    py = getattr(kernel, "py_func", kernel)
    spelled = ",".join(f"{k}={getattr(v, '_variant', None) or getattr(v, '__qualname__', v)!r}"
                       for k, v in memo[1])
    tag = "v" + hashlib.sha256(spelled.encode()).hexdigest()[:12]
    copy = types.FunctionType(py.__code__, {**py.__globals__, **names}, py.__name__,
                              py.__defaults__, py.__closure__)
    copy.__qualname__, copy.__module__, copy.__doc__ = py.__qualname__, py.__module__, py.__doc__
    copy.__kwdefaults__ = py.__kwdefaults__
    copy._variant = tag
    options = {k: v for k, v in getattr(kernel, "targetoptions", {}).items() if k != "nopython"}
    out = copy if _python else _load_numba().njit(cache=True, **options)(copy)
    if not _python:
        out._variant = tag
    _variants[memo] = out
    return out


def set_threads(jobs: int | None) -> None:
    """Use ``jobs`` threads in parallel kernels (None: all cores)."""
    if jobs and not _python:
        numba = _load_numba()
        numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))


def __getattr__(name):
    if name == "prange":
        return range if _python else _load_numba().prange
    raise AttributeError(name)
