"""What a person sees while numba compiles: one line on stderr the first time a kernel is
really compiled (not loaded from the cache), a spinner on a terminal while it compiles, and
``quiet`` (the command's --quiet) to keep the spinner off. jit.py, which does the compiling,
calls these; nothing here changes what is compiled.
"""

from __future__ import annotations

import os
import sys

# the compile notice: one line within 80 columns, "cribsolve: " before it
NOTICE = "compiling the kernels this command needs; later runs load them"
_quiet = False
_noticed = False  # the one line of a command that compiles was said


def notice(text: str, warning: bool = False) -> None:
    """Say ``text`` as the one line of a command that compiles (the compile notice, or why
    code kept is compiled again): the notice then says nothing more."""
    from cribsolve.infra.paths import say

    global _noticed
    _noticed = True
    say(text, warning)


def quiet() -> None:
    """No spinner while compiling (the command's --quiet); the one line still says so."""
    global _quiet
    _quiet = True


class Spinner:
    """While numba compiles, on a terminal: one line on stderr redrawn five times a second
    with the seconds so far and the kernel at hand, cleared when compiling stops. numba's
    compiler lets a thread run between its steps, and LLVM's work leaves the GIL free."""

    FRAMES = "|/-\\"

    def __init__(self):
        import threading
        import time

        self.what, self.start, self._time = "", time.perf_counter(), time.perf_counter
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self):
        i = 0
        while not self._stop.wait(0.2):
            line = (
                f"{self.FRAMES[i % 4]} compiling {self.what} "
                f"({self._time() - self.start:.0f} s; once for this version)"
            )
            sys.stderr.write("\r\033[K" + line[:79])
            sys.stderr.flush()
            i += 1

    def stop(self):
        from cribsolve.infra.progress import redraw

        self._stop.set()
        self._thread.join()
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()
        redraw()  # a command's bar, which the spinner's line replaced


def spins() -> bool:
    """Whether a wait shows a spinner: on a terminal, unless quiet."""
    from cribsolve.infra.paths import in_command

    return (
        not _quiet
        and not os.environ.get("CRIBSOLVE_QUIET_COMPILE")
        and in_command()
        and sys.stderr.isatty()
    )


def say_when_compiling(numba) -> None:
    """Say once, on stderr, when a kernel is really compiled (not loaded from the cache), and
    on a terminal keep a spinner going while it compiles: a first run waits, and should not
    wait in silence (a compile in another thread, later()'s, spins nothing: the person may be
    at a prompt). CRIBSOLVE_COMPILE_LOG names a file that gets each compiled function and its
    own seconds (nested compiles left out), for benchmarks/bench_cold.py."""
    import threading
    import time

    from numba.core import event

    log = os.environ.get("CRIBSOLVE_COMPILE_LOG")

    class Notice(event.Listener):
        stack = []  # [start, seconds of nested compiles] of each open compile
        spinner = None

        def on_start(self, ev):
            Notice.stack.append([time.perf_counter(), 0.0])
            if not _noticed and not os.environ.get("CRIBSOLVE_QUIET_COMPILE"):
                notice(NOTICE)
            if (
                Notice.spinner is None
                and len(Notice.stack) == 1
                and spins()
                and threading.current_thread() is threading.main_thread()
            ):
                Notice.spinner = Spinner()
            if Notice.spinner is not None:
                Notice.spinner.what = ev.data["dispatcher"].py_func.__name__

        def on_end(self, ev):
            start, nested = Notice.stack.pop()
            took = time.perf_counter() - start
            if Notice.stack:
                Notice.stack[-1][1] += took
            elif Notice.spinner is not None:
                Notice.spinner.stop()
                Notice.spinner = None
            if log:
                with open(log, "a") as f:
                    py = ev.data["dispatcher"].py_func
                    f.write(f"{py.__qualname__}\t{took - nested:.3f}\t{ev.data['args']}\n")

    event.register("numba:compile", Notice())
