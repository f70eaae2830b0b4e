"""Results that are expensive to compute once and cheap to keep: arrays in a cache folder.

The folder is $CRIBSOLVE_CACHE, else $XDG_CACHE_HOME/cribsolve, else ~/.cache/cribsolve.
Files are written under a temporary name and moved into place, so a run that is interrupted
never leaves a half-written cache behind.
"""
from __future__ import annotations

import os

import numpy as np

_loaded: dict[str, dict] = {}


def cache_dir() -> str:
    return os.environ.get("CRIBSOLVE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cribsolve")


def cached_arrays(name: str, compute) -> dict[str, np.ndarray]:
    """The arrays stored as ``name``, or ``compute()``'s dict of arrays, stored now."""
    path = os.path.join(cache_dir(), name + ".npz")
    if path not in _loaded:
        if os.path.exists(path):
            with np.load(path) as data:
                _loaded[path] = {k: data[k] for k in data.files}
        else:
            arrays = compute()
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = f"{path}.{os.getpid()}.tmp.npz"
            np.savez(tmp, **arrays)
            os.replace(tmp, path)
            _loaded[path] = arrays
    return _loaded[path]
