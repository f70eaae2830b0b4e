"""Run the real console entry point in-process and capture what a user would see."""

import io
import os
import sys
from contextlib import redirect_stderr, redirect_stdout

from cribsolve.cli import main


def run(*args, stdin=None):
    """(exit status, stdout, stderr) of ``cribsolve ARGS``; ``stdin``: bytes, or a text stream
    (one that answers as the prompt asks reads it from sys.stdout)."""
    out, err = io.StringIO(), io.StringIO()
    old_argv, old_stdin = sys.argv, sys.stdin
    sys.argv = ["cribsolve", *map(str, args)]
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin)) if isinstance(stdin, bytes) else stdin
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as e:
        code = e.code or 0
    finally:
        sys.argv, sys.stdin = old_argv, old_stdin
    return code, out.getvalue(), err.getvalue()


def share_compiled(link: str) -> None:
    """Make ``link`` a folder of this run's compiled kernels (the numba part of its cache,
    keyed by the code, so sharing it is safe), for a subprocess whose cache folder is a fresh
    one: compiling the whole engine again there took minutes a test."""
    from cribsolve.infra import jit

    root = os.path.dirname(jit.numba_cache_dir())
    os.makedirs(root, exist_ok=True)
    os.symlink(root, link)


def interrupting(monkeypatch, updates):
    """Ctrl-C (as KeyboardInterrupt) at the ``updates``-th update of a command's bar."""
    from cribsolve.infra.progress import bar

    seen, update = [], bar.update

    def interrupted(self, n=1):
        update(self, n)
        seen.append(n)
        if len(seen) == updates:
            raise KeyboardInterrupt

    monkeypatch.setattr(bar, "update", interrupted)
    monkeypatch.setattr(bar, "__call__", interrupted)
