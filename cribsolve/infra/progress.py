"""Progress bars for long jobs: on stderr, off with --quiet or when stderr is not a terminal."""
import sys

from tqdm import tqdm


def bar(total, desc: str, quiet: bool = False, unit: str = "it"):
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, dynamic_ncols=True,
                disable=quiet or not sys.stderr.isatty(), unit_scale=True)
