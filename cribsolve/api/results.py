"""What the public API returns: frozen data. A result's ``to_dict()`` is exactly what its
command prints with ``--json``; its top-level keys are also attributes (``r.total``), and a
tabular result gives its table as ``rows`` (a list of dicts), ``to_pandas()`` and
``to_arrow()`` (pandas and pyarrow are imported only then: ``pip install 'cribsolve[data]'``).
"""

from __future__ import annotations

import copy
from types import MappingProxyType


class Result:
    """A command's answer as data. ``FIELDS`` names its keys (the signature snapshot holds
    them); ``TABLE`` names the key whose list of dicts is its ``rows``, if it has one."""

    FIELDS: tuple = ()
    TABLE: str | None = None
    ROW: tuple = ("key", "value")  # a histogram table's two columns

    __slots__ = ("_data", "_extra")

    def __init__(self, data: dict, **extra):
        object.__setattr__(self, "_data", MappingProxyType(copy.deepcopy(data)))
        object.__setattr__(self, "_extra", MappingProxyType(extra))  # the text's own details

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __getattr__(self, name):
        data = object.__getattribute__(self, "_data")
        if name in data:
            return copy.deepcopy(data[name])
        raise AttributeError(f"{type(self).__name__!r} has no field {name!r}")

    def __dir__(self):
        return sorted({*super().__dir__(), *self._data})

    def __eq__(self, other):
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    __hash__ = None

    def __repr__(self):
        shown = ", ".join(f"{k}={_short(v)}" for k, v in self._data.items())
        return f"{type(self).__name__}({shown})"

    def to_dict(self) -> dict:
        """The command's ``--json`` object (a fresh copy: change it freely)."""
        return copy.deepcopy(dict(self._data))

    @property
    def rows(self) -> list[dict]:
        """The result's table, one dict a row."""
        if self.TABLE is None:
            raise AttributeError(f"{type(self).__name__} is not a table")
        table = self._data[self.TABLE]
        if isinstance(table, dict):  # a histogram: key -> value
            key, value = self.ROW
            return [{key: _number(k), value: v} for k, v in table.items()]
        return copy.deepcopy(list(table))

    def to_pandas(self):
        """The rows as a pandas DataFrame."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("to_pandas needs pandas: pip install 'cribsolve[data]'") from None
        return pd.DataFrame(self.rows)

    def to_arrow(self):
        """The rows as a pyarrow Table."""
        try:
            import pyarrow as pa
        except ImportError:
            raise ImportError("to_arrow needs pyarrow: pip install 'cribsolve[data]'") from None
        return pa.Table.from_pylist(self.rows)


class _NoBar:
    def update(self, n=1):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def progress_bar(progress, total, desc: str, unit: str):
    """The bar a long API call draws: none (``progress=False``, the default: a library draws
    nothing unasked), tqdm's notebook-aware one (``True``), or the caller's own (a callable
    ``progress(total, desc, unit)`` giving a context manager with ``update(n)``: the CLI's)."""
    if not progress:
        return _NoBar()
    if progress is True:
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=desc, unit=unit)
    return progress(total, desc, unit)


def _number(key: str):
    """A histogram's key as the number it names (JSON keys are strings)."""
    try:
        return int(key)
    except ValueError:
        return key


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
