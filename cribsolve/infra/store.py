"""Tables that are slow to compute and cheap to keep (rank points, opponent model, odds, win
tables), stored so that a user never sees a stale or damaged one.

A table's key digests its kind, its parameters, the data version (DATA_VERSION) and the
kind's schema number, raised by hand when the kind's numbers change; never source text, so a
docstring edit or a module move re-keys nothing. The rules among its parameters are those its
kind declares that its build reads (register, rules_key), not picked by each call: a rule read
but left out would serve a table built under other rules (tests/infra/test_table_keys.py). A
forgotten raise is caught by behaviour: a test rebuilds a small seeded table of every kind
against a committed digest (tests/infra/test_golden_tables.py). On load the key, the arrays'
digest and the kind's own checks are verified, and anything wrong is rebuilt with one line on
stderr; files are written under a temporary name and moved into place. The default tables
ship in ``cribsolve/data`` (``python -m cribsolve.catalog``), the others live in the cache
folder (infra/paths.py); a kind that grows as it is used (the expert's first cards) may be in
both, read together. This module knows no builder: each registers its kind here.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import numpy as np

from cribsolve.errors import TableError
from cribsolve.infra.paths import cache_dir, say, unwritable
from cribsolve.infra.source import PACKAGE

SHIPPED = os.path.join(PACKAGE, "data")


# Raised by hand when every table's numbers change at once (a new deck order, say); a single
# kind's change raises that kind's schema number instead.
DATA_VERSION = 1


@dataclass(frozen=True)
class Kind:
    """A family of tables: its schema number and a check of its arrays."""

    schema: int
    check: Callable[[dict, dict], None]  # (arrays, params) -> None or raise TableError


@dataclass(frozen=True)
class Reads:
    """The rules fields (of a CribbageSpec, or the show's RuleSet) a kind's build reads, each
    in its key; ``added``: those read since its tables shipped, keyed only where they differ
    from their defaults, so the shipped keep their keys."""

    fields: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


KINDS: dict[str, Kind] = {}
READS: dict[str, Reads] = {}


def register(
    kind: str,
    schema: int,
    check: Callable[[dict, dict], None],
    reads: tuple[str, ...] = (),
    added: tuple[str, ...] = (),
) -> None:
    """Declare ``kind``: ``schema`` is raised whenever the numbers its builder makes change;
    ``reads`` and ``added`` as Reads' fields."""
    KINDS[kind] = Kind(schema, check)
    READS[kind] = Reads(reads, added)


def rules_key(kind: str, rules) -> dict:
    """The fields of ``rules`` that ``kind`` reads (register), as parameters of its key."""
    r, default = READS[kind], type(rules)()
    return {
        f: getattr(rules, f)
        for f in r.fields
        if f not in r.added or getattr(rules, f) != getattr(default, f)
    }


def table_key(kind: str, params: dict) -> str:
    blob = json.dumps(
        {"kind": kind, "params": params, "data": DATA_VERSION, "schema": KINDS[kind].schema},
        sort_keys=True,
    )
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
    except Exception as e:  # noqa: BLE001 - any unreadable file is one verdict: rebuild it
        raise TableError(f"unreadable ({type(e).__name__})") from None
    expect(
        isinstance(meta, dict) and meta.get("digest") == _digest(arrays),
        "damaged (its contents do not match its digest)",
    )
    return meta, arrays


def verify(path: str, kind: str, params: dict, checks: bool = True) -> dict:
    """The arrays of the table file at ``path`` if it is the current table of (kind, params).
    ``checks=False`` skips the kind's own checks: for a shipped table, which passed them when
    the catalog made it (and passes them in the tests); its key and digest say it is still
    that table, and the checks cost a single answer about 10 ms."""
    meta, arrays = read(path)
    expect(
        meta.get("kind") == kind and meta.get("params") == params,
        f"for other parameters ({meta.get('kind')} {meta.get('params')})",
    )
    expect(
        meta.get("key") == table_key(kind, params), "stale (made under another schema of its kind)"
    )
    for k, a in arrays.items():
        expect(a.dtype.kind not in "fc" or bool(np.isfinite(a).all()), f"not finite in {k}")
    if checks:
        KINDS[kind].check(arrays, params)
    return arrays


def write(path: str, kind: str, params: dict, arrays: dict) -> None:
    """Write atomically: a temporary file beside ``path``, then moved into place."""
    from cribsolve import __version__

    meta = {
        "kind": kind,
        "params": params,
        "key": table_key(kind, params),
        "version": __version__,
        "digest": _digest(arrays),
    }
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


def find(kind: str, params: dict) -> dict | None:
    """The current table (kind, params) read from the package or the cache folder, or None
    where none is; not kept in memory (_find keeps it)."""
    for folder in (SHIPPED, cache_dir()):
        found = _current(folder, kind, params)
        if found is not None:
            return found
    return None


def find_each(kind: str, params: dict, shipped: bool = True) -> list[dict]:
    """Every current table (kind, params), read afresh: the package's (unless not ``shipped``),
    then the cache folder's. For a kind that grows as it is used, shipped grown by one set of
    runs and kept growing by the user's."""
    folders = (SHIPPED, cache_dir()) if shipped else (cache_dir(),)
    return [f for f in (_current(d, kind, params) for d in folders) if f is not None]


def _current(folder: str, kind: str, params: dict) -> dict | None:
    path = os.path.join(folder, file_name(kind, params))
    if not os.path.exists(path):
        return None
    try:
        return verify(path, kind, params, checks=folder != SHIPPED)
    except TableError as e:
        if folder != SHIPPED:
            say(f"table {path} is {e}; rebuilding it", warning=True)
    return None


def _find(kind: str, params: dict) -> dict | None:
    """find, kept in memory for the process."""
    memo = (kind, json.dumps(params, sort_keys=True))
    if memo not in _memo:
        found = find(kind, params)
        if found is None:
            return None
        _memo[memo] = found
    return _memo[memo]


_locks: dict[tuple, threading.RLock] = {}  # one per table: its load and build run once
_locks_lock = threading.Lock()


def _lock(memo: tuple) -> threading.RLock:
    with _locks_lock:
        return _locks.setdefault(memo, threading.RLock())


def load(kind: str, params: dict, build: Callable[[], dict]) -> dict:
    """The arrays of table (kind, params): found and checked, or built by ``build()`` and kept.
    Once a process for each table, however many threads ask at once: the others wait for it
    (a build that loads other tables takes their locks within its own, never the reverse)."""
    from cribsolve.infra.jit import require_compiled

    memo = (kind, json.dumps(params, sort_keys=True))
    found = _memo.get(memo)
    if found is not None:
        return found
    with _lock(memo):
        found = _find(kind, params)
        if found is not None:
            return found
        require_compiled(f"building the {kind} table")
        arrays = keep(kind, params, build())
        _memo[memo] = arrays
        return arrays


def keep(kind: str, params: dict, arrays: dict) -> dict:
    """Check ``arrays`` as table (kind, params) and write them to the cache folder, replacing
    any there (load's last step; for a kind that grows as it is used, each step)."""
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    KINDS[kind].check(arrays, params)
    path = os.path.join(cache_dir(), file_name(kind, params))
    try:
        write(path, kind, params, arrays)
    except OSError as e:
        unwritable(e)
    return arrays


@contextmanager
def ignoring_shipped():
    """Within, the tables shipped in the package are not used (current ones in the cache folder
    are); yields {(kind, params as JSON): arrays} of every table found or built meanwhile."""
    global SHIPPED
    shipped, SHIPPED = SHIPPED, os.path.join(cache_dir(), "none")
    _memo.clear()
    try:
        yield _memo
    finally:
        SHIPPED = shipped
