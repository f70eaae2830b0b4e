"""The public surface held against a committed snapshot (tests/api/surface.json): every name
of ``cribsolve.__all__``, each function's signature and the fields of the result it returns,
the rules' fields, the errors' bases. An accidental change fails here; a deliberate one
updates the snapshot (``CRIBSOLVE_UPDATE_SURFACE=1 python -m pytest tests/api/test_surface.py``)
and the changelog in the same commit."""

import dataclasses
import inspect
import json
import os
import typing
from pathlib import Path

import cribsolve
from cribsolve.api.results import Result

SNAPSHOT = Path(__file__).with_name("surface.json")


def _describe(obj) -> dict:
    if isinstance(obj, type) and issubclass(obj, BaseException):
        return {"error": [b.__name__ for b in obj.__mro__[1:] if b is not object]}
    if dataclasses.is_dataclass(obj):
        return {"fields": {f.name: _default(f) for f in dataclasses.fields(obj)}}
    if isinstance(obj, type):
        return {"class": str(inspect.signature(obj))}
    out = {"signature": str(inspect.signature(obj))}
    returns = typing.get_type_hints(obj).get("return")
    if isinstance(returns, type) and issubclass(returns, Result):
        out["returns"] = {"type": returns.__name__, "fields": list(returns.FIELDS)}
        if returns.TABLE:
            out["returns"]["table"] = returns.TABLE
    return out


def _default(f) -> str:
    if f.default is not dataclasses.MISSING:
        return repr(f.default)
    if f.default_factory is not dataclasses.MISSING:
        return f"{f.default_factory.__name__}()"
    return "required"


def surface() -> dict:
    return {name: _describe(getattr(cribsolve, name)) for name in sorted(cribsolve.__all__)}


def test_the_public_surface_is_the_committed_snapshot():
    now = surface()
    if os.environ.get("CRIBSOLVE_UPDATE_SURFACE"):
        SNAPSHOT.write_text(json.dumps(now, indent=1, ensure_ascii=False) + "\n")
    assert now == json.loads(SNAPSHOT.read_text())


def test_every_public_name_resolves_and_is_listed():
    assert sorted(set(cribsolve.__all__)) == sorted(cribsolve.__all__)
    for name in cribsolve.__all__:
        assert getattr(cribsolve, name) is not None
    assert "__version__" not in cribsolve.__all__
