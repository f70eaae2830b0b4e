"""The one door to numba: every kernel module takes ``njit`` and ``prange`` from here.

Two reasons. numba's own cache checks only the file a function is written in, so a change to
a function it inlines from another module goes unnoticed, while a comment's edit recompiles the
file; here the compiled cache lives in the user cache folder under a key made of the code the
kernels are built from (without docstrings and comments), its version and numba's, so a change
to any kernel compiles afresh, an edit elsewhere compiles nothing, and nothing is ever written
into the installed package. And a command that answers one question can run the kernels as
plain Python (``use_python``): importing numba and loading its cache costs about a second, the
question a few milliseconds. What a person sees while numba compiles is spinner.py's.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from cribsolve.infra import source
from cribsolve.infra.paths import cache_dir, unwritable
from cribsolve.infra.spinner import Spinner, notice, say_when_compiling, spins

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
        return  # numba is already loaded: keep using it
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
    stamp = hashlib.sha256(
        json.dumps(
            [__version__, sys.version_info[:2], source.PACKAGE]
            + [(f, os.stat(f).st_mtime_ns, os.stat(f).st_size) for f in files]
        ).encode()
    ).hexdigest()
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


# How compiled code is named and kept, raised when that changes (or this module's way of
# compiling does): 2, each variant() copy under a name of its own (entries of 1 could hand one
# copy's code to another), in a folder named by its package; 3, each kernel's entry fresh while
# its own key is (source.kernel_key), in one folder for every state of the code.
SCHEME = 3


def numba_cache_dir() -> str:
    """Where compiled kernels are kept: <cache folder>/numba/<numba version>-j<scheme>. Each
    kernel's entry there is keyed by its own code and its callees' (source.kernel_key)."""
    from importlib.metadata import version

    return os.path.join(cache_dir(), "numba", f"{version('numba')}-j{SCHEME}")


def _load_numba():
    global _numba
    if _numba is None:
        with _without(EXTRAS if _lean else ()):
            import numba

            if _lean:  # ready the compiler now, as the first kernel would
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
            path = os.path.join(
                tempfile.gettempdir(), f"cribsolve-{os.getuid()}", os.path.basename(path)
            )
            os.makedirs(path, exist_ok=True)
        numba.config.CACHE_DIR = path
        _keyed_by_code(numba)
        _forgiving_cache()
        _plain_shape_error()
        say_when_compiling(numba)
        _numba = numba
    return _numba


def _keyed_by_code(numba) -> None:
    """Each of our kernels' cache entries is fresh while its own key is (source.kernel_key: its
    code and its callees'): numba's own check, a digest of the file's bytes, would recompile a
    file's kernels at a comment's edit, and the line number in an entry's name at any line
    added above it. Other numba code in the process keeps numba's own check."""
    from numba.core import caching

    from cribsolve import __version__

    class ByCode(caching.UserProvidedCacheLocator):
        def __init__(self, py_func, py_file):
            super().__init__(py_func, py_file)
            self._py_func = py_func
            self._tag = getattr(py_func, "_variant", "c")  # variant(): its bindings' digest
            # a folder named by the module's package, not by a digest of where it is installed:
            # the same code installed again elsewhere (pip install after pip install -e) loads
            # what the first compiled
            root = os.path.dirname(source.PACKAGE)
            package = os.path.relpath(os.path.dirname(os.path.abspath(py_file)), root)
            self._cache_path = os.path.join(numba.config.CACHE_DIR, package.replace(os.sep, "."))

        def get_source_stamp(self):
            # worked out when the entry is first read (_forgiving_cache's _load_index): as
            # the module is imported, the kernels it calls may not be defined yet
            return lambda: f"{__version__} {source.kernel_key(self._py_func)}"

        def get_disambiguator(self):
            return self._tag  # the index tells same-named functions apart by their bytecode

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.abspath(py_file).startswith(source.PACKAGE + os.sep):
                return None
            return super().from_function(py_func, py_file)

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in 0.61
    if not any(c.__name__ == "ByCode" for c in impl._locator_classes):
        impl._locator_classes.insert(0, ByCode)


_load_said = False  # a load that failed was said
_saving = True  # compiled code is saved (until the machine fails a save)


def _forgiving_cache() -> None:
    """Compiled code that cannot be loaded (a file of the cache cut short or overwritten, as a
    crash or a failing disk leaves it) is compiled again, and a save the machine fails (a full
    disk) stops saving for the process: each said once, in one line (the first in place of
    the compile notice). numba would end every command with its traceback instead. A damaged
    index is rewritten by the next save."""
    from numba.core import caching

    files = caching.IndexDataCacheFile
    if getattr(files, "_forgiving", False):
        return
    load_index, load_data, save = files._load_index, files._load_data, caching.Cache.save_overload

    def cannot_load(path: str, e: Exception) -> None:
        global _load_said
        if not _load_said:
            _load_said = True
            why = getattr(e, "strerror", None) or type(e).__name__
            notice(f"cannot load the compiled code {path} ({why}); compiling it again", True)

    def _load_index(self):
        if callable(self._source_stamp):  # ByCode's, the kernel's own key
            self._source_stamp = self._source_stamp()
        try:
            return load_index(self)
        except Exception as e:  # noqa: BLE001 - whatever the damage, compile again
            cannot_load(self._index_path, e)
            return {}

    def _load_data(self, name):
        try:
            return load_data(self, name)
        except FileNotFoundError:
            raise  # removed since the index named it: numba's own miss
        except Exception as e:  # noqa: BLE001
            cannot_load(self._data_path(name), e)
            return None

    def save_overload(self, sig, data):
        global _saving
        if not _saving:
            return
        try:
            save(self, sig, data)
        except OSError as e:
            _saving = False
            unwritable(e)

    files._load_index, files._load_data = _load_index, _load_data
    caching.Cache.save_overload = save_overload
    files._forgiving = True


def _plain_shape_error() -> None:
    """An assignment of an array into a slice or row (``keep[o] = row``) checks the shapes,
    and numba's CPU message for a mismatch formats them with string code that every cold
    command compiled first (40 functions, 1-2 s). The check stays, with numba's own plain
    message ("cannot assign slice from input of different size"); no kernel of ours
    assigns mismatched shapes. Where numba's registry is laid out otherwise, nothing
    changes."""
    from numba.core.typing import templates
    from numba.np import arrayobj

    stub = getattr(arrayobj, "raise_with_shape_context", None)
    plain = getattr(arrayobj, "ol_raise_with_shape_context_generic", None)
    if stub is None or plain is None:
        return
    for func, typ in getattr(templates.builtin_registry, "globals", ()):
        if func is not stub:
            continue
        for template in getattr(typ, "templates", ()):
            if getattr(template, "metadata", {}).get("target") == "CPU":
                template._overload_func = staticmethod(plain)


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


_later: list = []  # [thread, its error] of each work later() started


def later(work) -> None:
    """Run ``work`` (calls that compile kernels) in a thread of its own while the caller goes
    on, with no spinner (the caller may be at a prompt); wait_later() waits for it. numba
    compiles one kernel at a time, so this helps where the caller waits on a person: play
    compiles the kernels of a game's end during its first deal."""
    import threading

    if _python:
        work()
        return
    slot = [None, None]

    def run():
        try:
            work()
        except BaseException as e:  # raised by wait_later, in the caller's thread
            slot[1] = e

    slot[0] = threading.Thread(target=run, daemon=True)
    _later.append(slot)
    slot[0].start()


def wait_later(what: str) -> None:
    """Wait for the work later() started, with a spinner on a terminal saying ``what`` (in
    that work itself: nothing to wait for)."""
    import threading

    if any(thread is threading.current_thread() for thread, _ in _later):
        return
    while _later:
        thread, _ = _later[0]
        if thread.is_alive():
            spinner = Spinner() if spins() else None
            if spinner is not None:
                spinner.what = what
            thread.join()
            if spinner is not None:
                spinner.stop()
        _, error = _later.pop(0)
        if error is not None:
            raise error


def njit(*args, **kwargs):
    """numba.njit, or (after use_python) the function itself."""
    if _python:
        if args and callable(args[0]):
            return args[0]
        return lambda f: f
    numba = _load_numba()
    if args and callable(args[0]):
        return _typed_plainly(numba.njit(*args, **kwargs))
    decorate = numba.njit(*args, **kwargs)
    return lambda f: _typed_plainly(decorate(f))


def _typed_plainly(dispatcher):
    """``dispatcher``, compiled for the plain types of its arguments when a kernel calls it.
    numba would compile a kernel afresh for each constant it is called with (a literal 0 as
    well as an int64: play_deal twice, 5 s), for the same numbers."""
    from numba.core import types

    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(
            tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()}
        )

    dispatcher.get_call_template = get_call_template
    return dispatcher


_variants: dict = {}


def variant(kernel, **flags):
    """A compiled copy of ``kernel`` in which each global name in ``flags`` that its module
    defines (a constant such as ``WILD_ON``) is bound to the value given, and each kernel of
    ours it calls is such a copy too, all the way down. numba drops a branch whose condition
    is a constant global before it compiles anything, so a copy with ``WILD_ON=False`` never
    compiles the wild-card scorer: a command compiles the code of the rules and players in
    play only. A kernel whose calls reach no flag is itself; copies are made once per set of
    flags, and their compiled code is kept under a name made of their bindings."""
    if _python:
        return kernel
    memo = (kernel, tuple(sorted(flags.items())))
    if memo in _variants:
        return _variants[memo]
    _variants[memo] = kernel  # a call back into it (recursion): itself
    py = kernel.py_func
    bind = {}
    for name in source.global_names(py.__code__):
        if name not in py.__globals__:
            continue
        now = py.__globals__[name]
        if name in flags:
            new = flags[name]
        elif getattr(now, "py_func", None) is not None and now.py_func.__module__.startswith(
            "cribsolve."
        ):
            new = variant(now, **flags)
        else:
            continue
        if new is not now:
            bind[name] = new
    _variants[memo] = _copy(kernel, bind) if bind else kernel
    return _variants[memo]


def _copy(kernel, bind: dict):
    """``kernel`` compiled afresh with the globals ``bind`` bound; cached under a tag of them."""
    import hashlib
    import types

    py = kernel.py_func
    spelled = ",".join(
        f"{k}={getattr(v, '_variant', None) or getattr(v, '__qualname__', v)!r}"
        for k, v in sorted(bind.items())
    )
    tag = "v" + hashlib.sha256(spelled.encode()).hexdigest()[:12]
    copy = types.FunctionType(
        py.__code__, {**py.__globals__, **bind}, py.__name__, py.__defaults__, py.__closure__
    )
    # A name of its own: numba names a function's machine code after its module, its qualified
    # name and a counter of the process that compiled it, so a copy loaded from the cache beside
    # another (or the kernel it copies) compiled in another process under the same name and count
    # would share its symbols, and the first one loaded would run for both.
    copy.__qualname__ = f"{py.__qualname__}__{tag}"
    copy.__module__, copy.__doc__ = py.__module__, py.__doc__
    copy.__kwdefaults__ = py.__kwdefaults__
    copy._variant = tag
    options = {k: v for k, v in kernel.targetoptions.items() if k != "nopython"}
    out = _typed_plainly(_load_numba().njit(cache=True, **options)(copy))
    out._variant = tag
    return out


def threaded(kernel, seeds, *args):
    """``kernel(seeds, *args)`` (rows, one per seed; or a tuple of such arrays) with the
    seeds split among numba's threads, each part in a thread of its own (the kernel is
    nogil). A part's rows are those of its seeds alone, so the rows are the same however many
    threads run. For a kernel whose loop over seeds is the only parallel work: numba's
    parallel=True would cost its compile three to four times as much."""
    if _python:
        return kernel(seeds, *args)
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    numba = _load_numba()
    threads = min(numba.get_num_threads(), max(1, len(seeds)))
    if threads == 1:
        return kernel(seeds, *args)
    parts = np.array_split(np.asarray(seeds), threads)
    # compiled (or loaded) here, once, before any thread calls it
    kernel.compile(tuple(numba.typeof(a) for a in (parts[0], *args)))
    with ThreadPoolExecutor(threads) as pool:
        done = list(pool.map(lambda part: kernel(part, *args), parts))
    if isinstance(done[0], tuple):
        return tuple(np.concatenate(rows) for rows in zip(*done))
    return np.concatenate(done)


def set_threads(jobs: int | None) -> None:
    """Use ``jobs`` threads in parallel kernels (None: all cores)."""
    if jobs and not _python:
        numba = _load_numba()
        numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))


def __getattr__(name):
    if name == "prange":
        return range if _python else _load_numba().prange
    raise AttributeError(name)
