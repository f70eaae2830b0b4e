"""CSV and JSON output that never leaves a half-written file behind."""
from __future__ import annotations

import contextlib
import csv
import json
import os
import tempfile


@contextlib.contextmanager
def atomic_open(path: str, append: bool = False):
    """Write to a temporary file beside ``path`` and move it into place only on success.

    With ``append`` the existing file is copied first, so an interrupted run leaves it as it was.
    """
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".cribsolve-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            if append and os.path.exists(path):
                with open(path, newline="") as old:
                    f.write(old.read())
            yield f
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def write_csv(path: str, header, rows, append: bool = False) -> None:
    """Write rows under a header; when appending to a non-empty file the header is not repeated."""
    has_content = append and os.path.exists(path) and os.path.getsize(path) > 0
    with atomic_open(path, append=append) as f:
        w = csv.writer(f)
        if not has_content:
            w.writerow(header)
        w.writerows(rows)


def dumps(obj) -> str:
    return json.dumps(obj, indent=2)
