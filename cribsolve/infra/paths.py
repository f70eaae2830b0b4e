"""Where cribsolve keeps what it computes once (tables, compiled kernels), and its one way of
saying so: on stderr while a command runs, else (the library, called from Python) as a line
of the ``cribsolve`` logger.

The cache folder is $CRIBSOLVE_CACHE, else $XDG_CACHE_HOME/cribsolve, else ~/.cache/cribsolve.
"""

from __future__ import annotations

import os

_warned: set[str] = set()
_commands = 0  # commands running in this process (the CLI's main): they say on stderr


def cache_dir() -> str:
    return os.environ.get("CRIBSOLVE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cribsolve"
    )


class command:
    """While a command runs (the CLI's main), ``say`` writes on stderr; a library prints
    nothing unasked, so outside one it logs."""

    def __enter__(self):
        global _commands
        _commands += 1

    def __exit__(self, *exc):
        global _commands
        _commands -= 1


def in_command() -> bool:
    return _commands > 0


def say(msg: str, warning: bool = False) -> None:
    """One line to the user on stderr, prefixed like every other (above a progress bar, when
    one is drawn: the compile notice comes in the middle of a command's bar); called from
    Python, a line of the ``cribsolve`` logger (INFO, or WARNING for ``warning``)."""
    if not in_command():
        import logging

        logging.getLogger("cribsolve").log(logging.WARNING if warning else logging.INFO, msg)
        return
    from cribsolve.infra.progress import write

    write(f"cribsolve: {msg}")


def clip(text: str, width: int = 80) -> str:
    """What a person typed, shown back no wider than a line (a pasted page is not echoed)."""
    return text if len(text) <= width else text[: width - 3] + "..."


def unwritable(error: OSError) -> None:
    """Say once per run that the cache folder cannot be written (tables and compiled code
    are then kept in memory or in a temporary folder)."""
    if cache_dir() not in _warned:
        _warned.add(cache_dir())
        say(
            f"cannot write the cache folder {cache_dir()} ({error.strerror or error}); "
            "computing in memory for this run",
            warning=True,
        )


def data_dir() -> str:
    """Where cribsolve keeps what the user makes (game records): $XDG_DATA_HOME/cribsolve, else
    ~/.local/share/cribsolve."""
    return os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "cribsolve"
    )
