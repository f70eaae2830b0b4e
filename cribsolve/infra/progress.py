"""Progress bars for long jobs: on stderr, off with --quiet or when stderr is not a terminal."""

import sys


class bar:
    """A tqdm bar. ``lazy``: drawn at the first update, for a job that may find its result
    already kept (a table built once): then nothing is drawn and tqdm, about 17 ms of a
    single answer's start-up, is never imported."""

    def __init__(self, total, desc: str, quiet: bool = False, unit: str = "it", lazy: bool = False):
        self._args = dict(
            total=total,
            desc=desc,
            unit=unit,
            file=sys.stderr,
            dynamic_ncols=True,
            disable=quiet or not sys.stderr.isatty(),
            unit_scale=True,
        )
        self._bar = None
        if not lazy:
            self._made()

    def _made(self):
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(**self._args)
        return self._bar

    def update(self, n=1):
        self._made().update(n)

    def set_postfix(self, **kwargs):
        self._made().set_postfix(**kwargs)

    def close(self):
        if self._bar is not None:
            self._bar.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
