"""Tables that are slow to compute and cheap to keep (rank points, opponent model, odds, win
tables), stored so that a user never sees a stale or damaged one.

Each table has a kind, the parameters that shape it, and a key: a digest of the kind, the
parameters, the package version and the code of every module the builder's module imports
(followed through the package). A file holds its arrays, that metadata and a digest of the
arrays. On load everything is checked (key, digest, the kind's own checks of shapes and
ranges); anything wrong is rebuilt with one line on stderr. Files are written under a temporary
name and moved into place, so concurrent builders and interrupted runs leave whole files only;
when the cache folder cannot be written, the table is computed in memory with one warning.

The default tables ship inside the package (``cribsolve/data``, made by
``python -m cribsolve.tables``) so a fresh install answers at once; the user cache folder is
$CRIBSOLVE_CACHE, else $XDG_CACHE_HOME/cribsolve, else ~/.cache/cribsolve.
"""
from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from dataclasses import dataclass
from typing import Callable

import numpy as np

PACKAGE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(PACKAGE, "data")


class TableError(ValueError):
    """A table file that must not be used: the message says why."""


def cache_dir() -> str:
    return os.environ.get("CRIBSOLVE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cribsolve")


def _module_file(name: str) -> str | None:
    """The source file of package module ``name`` ('cribsolve.x.y'), if it is one."""
    parts = name.split(".")[1:]
    base = os.path.join(PACKAGE, *parts)
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(path):
            return path
    return None


def _imports(name: str, path: str) -> set[str]:
    """Package modules imported anywhere in the file (function bodies included)."""
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(ast.parse(open(path, "rb").read())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("cribsolve")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
            elif (node.module or "").startswith("cribsolve"):
                mod = node.module
            else:
                continue
            out.add(mod)
            out |= {f"{mod}.{a.name}" for a in node.names}   # 'from . import x' of a module
    return out


# How tables are kept, kernels compiled and chunks run (and kept) does not change what a table
# holds (tests hold a run's chunks equal wherever they run).
PLUMBING = {"cribsolve.tables", "cribsolve.jit", "cribsolve.runner", "cribsolve.checkpoint"}


def code_digest(module: str) -> str:
    """Digest of the source of ``module`` and of every package module it reaches by imports."""
    seen, todo = {}, [module]
    while todo:
        name = todo.pop()
        if name in seen or name in PLUMBING:
            continue
        path = _module_file(name)
        if path is None:
            continue
        seen[name] = path
        todo.extend(_imports(name, path))
    h = hashlib.sha256()
    for name in sorted(seen):
        h.update(name.encode())
        with open(seen[name], "rb") as f:
            h.update(f.read())
    return h.hexdigest()


@dataclass(frozen=True)
class Kind:
    """A family of tables: the module whose code builds them and a check of their arrays."""
    module: str
    check: Callable[[dict, dict], None]     # (arrays, params) -> None or raise TableError


KINDS: dict[str, Kind] = {}


def register(kind: str, module: str, check: Callable[[dict, dict], None]) -> None:
    KINDS[kind] = Kind(module, check)


def table_key(kind: str, params: dict) -> str:
    from . import __version__
    blob = json.dumps({"kind": kind, "params": params, "version": __version__,
                       "code": code_digest(KINDS[kind].module)}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def file_name(kind: str, params: dict) -> str:
    return kind + "".join(f"-{k}{v}" for k, v in sorted(params.items())) + ".npz"


def _digest(arrays: dict) -> str:
    h = hashlib.sha256()
    for k in sorted(arrays):
        a = np.ascontiguousarray(arrays[k])
        h.update(f"{k}{a.dtype.str}{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def expect(cond: bool, what: str) -> None:
    """For the kinds' checks: raise TableError(what) unless ``cond``."""
    if not cond:
        raise TableError(what)


def read(path: str) -> tuple[dict, dict]:
    """(metadata, arrays) of a table file whose digest is right; TableError otherwise."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
        meta = json.loads(str(arrays.pop("__meta__")))
    except Exception as e:    # noqa: BLE001 - any unreadable file is one verdict: rebuild it
        raise TableError(f"unreadable ({type(e).__name__})") from None
    expect(isinstance(meta, dict) and meta.get("digest") == _digest(arrays),
           "damaged (its contents do not match its digest)")
    return meta, arrays


def verify(path: str, kind: str, params: dict) -> dict:
    """The arrays of the table file at ``path`` if it is the current table of (kind, params)."""
    meta, arrays = read(path)
    expect(meta.get("kind") == kind and meta.get("params") == params,
           f"for other parameters ({meta.get('kind')} {meta.get('params')})")
    expect(meta.get("key") == table_key(kind, params), "stale (made by other code or version)")
    for k, a in arrays.items():
        expect(a.dtype.kind not in "fc" or bool(np.isfinite(a).all()), f"not finite in {k}")
    KINDS[kind].check(arrays, params)
    return arrays


def write(path: str, kind: str, params: dict, arrays: dict) -> None:
    """Write atomically: a temporary file beside ``path``, then moved into place."""
    from . import __version__
    meta = {"kind": kind, "params": params, "key": table_key(kind, params),
            "version": __version__, "digest": _digest(arrays)}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp.npz"
    try:
        np.savez_compressed(tmp, __meta__=np.array(json.dumps(meta, sort_keys=True)), **arrays)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


_memo: dict[tuple, dict] = {}
_warned: set[str] = set()


def _say(msg: str) -> None:
    print(f"cribsolve: {msg}", file=sys.stderr)


def _find(kind: str, params: dict) -> dict | None:
    """The current table from memory, the package or the cache folder; None if none is."""
    memo = (kind, json.dumps(params, sort_keys=True))
    if memo in _memo:
        return _memo[memo]
    name = file_name(kind, params)
    for folder in (SHIPPED, cache_dir()):
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            continue
        try:
            _memo[memo] = verify(path, kind, params)
            return _memo[memo]
        except TableError as e:
            if folder != SHIPPED:
                _say(f"table {path} is {e}; rebuilding it")
    return None


def unwritable(error: OSError) -> None:
    """Say once per run that the cache folder cannot be written (tables and compiled code
    are then kept in memory or in a temporary folder)."""
    if cache_dir() not in _warned:
        _warned.add(cache_dir())
        _say(f"cannot write the cache folder {cache_dir()} ({error.strerror or error}); "
             "computing in memory for this run")


def load(kind: str, params: dict, build: Callable[[], dict]) -> dict:
    """The arrays of table (kind, params): found and checked, or built by ``build()`` and kept."""
    from .jit import require_compiled

    found = _find(kind, params)
    if found is not None:
        return found
    require_compiled(f"building the {kind} table")
    arrays = {k: np.asarray(v) for k, v in build().items()}
    KINDS[kind].check(arrays, params)
    path = os.path.join(cache_dir(), file_name(kind, params))
    try:
        write(path, kind, params, arrays)
    except OSError as e:
        unwritable(e)
    _memo[(kind, json.dumps(params, sort_keys=True))] = arrays
    return arrays


BUILDERS = ("cribsolve.scoring.table", "cribsolve.analysis.opponent", "cribsolve.odds",
            "cribsolve.simulate", "cribsolve.pegsearch", "cribsolve.inference")


def _register_all() -> None:
    import importlib
    for m in BUILDERS:
        importlib.import_module(m)


def status(path: str) -> tuple[str, str]:
    """(description, state) of a table file: state is current, stale or damaged."""
    _register_all()
    try:
        meta, _ = read(path)
    except TableError as e:
        return "?", f"damaged: {e}"
    kind, params = meta.get("kind"), meta.get("params")
    desc = f"{kind} {json.dumps(params, sort_keys=True)}"
    if kind not in KINDS or not isinstance(params, dict):
        return desc, "stale: unknown kind"
    try:
        verify(path, kind, params)
    except TableError as e:
        return desc, f"stale: {e}" if "stale" not in str(e) else str(e)
    return desc, "current"


def _size(path: str) -> int:
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def inventory() -> list[dict]:
    """Every table and compiled-code folder we keep: where, what, size and state."""
    rows = []
    for folder in (SHIPPED, cache_dir()):
        if not os.path.isdir(folder):
            continue
        for f in sorted(os.listdir(folder)):
            path = os.path.join(folder, f)
            if f.endswith(".npz") and os.path.isfile(path):
                desc, state = status(path)
                rows.append({"path": path, "what": desc, "bytes": _size(path), "state": state,
                             "shipped": folder == SHIPPED})
    numba_root = os.path.join(cache_dir(), "numba")
    if os.path.isdir(numba_root):
        from .jit import numba_cache_dir
        current = numba_cache_dir()
        for d in sorted(os.listdir(numba_root)):
            path = os.path.join(numba_root, d)
            rows.append({"path": path, "what": "compiled kernels", "bytes": _size(path),
                         "state": "current" if path == current else "stale: other code",
                         "shipped": False})
    return rows


def clear() -> list[str]:
    """Remove every table and compiled kernel we keep in the cache folder (never shipped ones)."""
    import shutil
    removed = []
    for row in inventory():
        if row["shipped"]:
            continue
        if os.path.isdir(row["path"]):
            shutil.rmtree(row["path"], ignore_errors=True)
        else:
            os.unlink(row["path"])
        removed.append(row["path"])
    return removed


def ship() -> None:
    """Put the default tables into the package: taken from the cache folder when current,
    else built (the simulated deals behind the odds are too big to ship and stay there)."""
    from .analysis.opponent import optimal_frequencies
    from .inference import throw_model
    from .odds import win_table as odds_table
    from .pegsearch import peg_table
    from .rules import ruleset
    from .scoring.table import rank_table
    from .simulate import win_table
    from .variants.spec import CribbageSpec

    global SHIPPED
    shipped, SHIPPED = SHIPPED, os.path.join(cache_dir(), "none")   # never reuse old ones
    _memo.clear()
    try:
        rank_table(15)
        optimal_frequencies(ruleset("standard"))
        odds_table(CribbageSpec())
        win_table("patience")
        win_table("patience2")
        peg_table(CribbageSpec())
        throw_model(CribbageSpec())
    finally:
        SHIPPED = shipped
    for f in os.listdir(SHIPPED):
        os.unlink(os.path.join(SHIPPED, f))
    for (kind, params), arrays in _memo.items():
        if kind != "deals":
            name = file_name(kind, json.loads(params))
            write(os.path.join(SHIPPED, name), kind, json.loads(params), arrays)
            print(f"shipped {name}")


if __name__ == "__main__":     # run as a script this file is __main__, not the package's module
    from cribsolve.tables import ship as _ship
    _ship()
