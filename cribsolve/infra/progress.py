"""Progress bars for long jobs: on stderr, off with --quiet or when stderr is not a terminal;
and a line said while a bar is drawn, which goes above the bar rather than into it."""

import functools
import sys

# tqdm's own formats glue the unit to the count and scale small counts to floats ("34.0decision
# [00:04, 8.33decision/s]"); ours read as words: "34 decisions [00:04, 8.3 decisions/s]"
WITH_TOTAL = (
    "{percentage:3.0f}%|{bar}| {count}/{total_count} {units} "
    "[{elapsed}<{remaining}, {speed}{postfix}]"
)
WITHOUT_TOTAL = "{count} {units} [{elapsed}, {speed}{postfix}]"


def _plural(unit: str, n) -> str:
    return unit if n == 1 else unit + "s"


def speed(rate, unit: str) -> str:
    """Things a second, or seconds a thing when slower than one a second."""
    units = _plural(unit, 2)
    if not rate:
        return f"? {units}/s"
    if rate < 1:
        return f"{1 / rate:.1f} s/{unit}"
    return f"{rate:,.0f} {units}/s" if rate >= 100 else f"{rate:.1f} {units}/s"


def meter(n, total, elapsed, rate=None, unit="it", initial=0, **kwargs) -> str:
    """tqdm's line with whole counts and the unit as a word (tqdm.format_meter's arguments)."""
    from tqdm import tqdm

    kwargs.pop("bar_format", None)
    if rate is None and elapsed:
        rate = (n - initial) / elapsed
    return tqdm.format_meter(
        n,
        total,
        elapsed,
        rate=rate,
        unit=unit,
        initial=initial,
        bar_format=("{desc}: " if kwargs.get("prefix") else "")
        + (WITH_TOTAL if total else WITHOUT_TOTAL),
        count=f"{int(n):,}",
        total_count=f"{int(total):,}" if total else "?",
        units=_plural(unit, total or n),
        speed=speed(rate, unit),
        **kwargs,
    )


def _drawn() -> list:
    """The bars on the screen now (tqdm keeps those neither closed nor disabled; none before
    tqdm is imported, and nothing here imports it)."""
    tqdm = sys.modules.get("tqdm")
    return list(tqdm.tqdm._instances) if tqdm is not None else []


def write(line: str) -> None:
    """``line`` on stderr; while a bar is drawn, above it (tqdm clears the bar, writes the
    line and draws the bar again), not glued to the bar's text."""
    if _drawn():
        sys.modules["tqdm"].tqdm.write(line, file=sys.stderr)
    else:
        print(line, file=sys.stderr)


def redraw() -> None:
    """Draw the bars again, after something (the compiling spinner) wrote over their line."""
    for b in _drawn():
        b.refresh()


@functools.cache
def _tqdm():
    """tqdm, drawing its line with ``meter``."""
    from tqdm import tqdm

    class Bar(tqdm):
        format_meter = staticmethod(meter)

    return Bar


class bar:
    """A tqdm bar counting ``unit`` (a word in the singular: "game"). ``lazy``: drawn at the
    first update, for a job that may find its result already kept (a table built once): then
    nothing is drawn and tqdm, about 17 ms of a single answer's start-up, is never imported.
    """

    def __init__(self, total, desc: str, quiet: bool = False, unit: str = "it", lazy: bool = False):
        self._args = dict(
            total=total,
            desc=desc,
            unit=unit,
            file=sys.stderr,
            dynamic_ncols=True,
            disable=quiet or not sys.stderr.isatty(),
        )
        self._bar = None
        if not lazy:
            self._made()

    def _made(self):
        if self._bar is None:
            self._bar = _tqdm()(**self._args)
        return self._bar

    def update(self, n=1):
        self._made().update(n)

    __call__ = update  # a job's progress(k) can be the bar itself, which has resume()

    def resume(self, n):
        """Start at ``n`` things done before (a run resumed from its checkpoint): counted, and
        left out of the speed."""
        b = self._made()
        b.n += n
        b.initial = b.last_print_n = b.n
        b.refresh()

    def set_postfix(self, **kwargs):
        self._made().set_postfix(**kwargs)

    def close(self):
        if self._bar is not None:
            self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
