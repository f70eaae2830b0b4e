"""The one digest of our source code, for everything kept on disk that code made: a table is
keyed by the code its builder reaches through imports, compiled kernels by every module but the
CLI's (numba's own cache checks only the file a function is written in).
"""
from __future__ import annotations

import os
import re

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# How tables are kept, kernels compiled and chunks run (and kept) does not change what a table
# holds (tests hold a run's chunks equal wherever they run).
PLUMBING = {"cribsolve.infra.store", "cribsolve.infra.jit", "cribsolve.infra.runner",
            "cribsolve.infra.checkpoint", "cribsolve.infra.paths", "cribsolve.infra.source"}


def module_file(name: str) -> str | None:
    """The source file of package module ``name`` ('cribsolve.x.y'), if it is one."""
    base = os.path.join(PACKAGE, *name.split(".")[1:])
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.exists(path):
            return path
    return None


# An import statement at the start of a line (or after a ';'): ``from X import names`` (names
# in parentheses may run over lines) or ``import X``. Reading the text this way costs a
# millisecond where parsing every module cost a tenth of a second at each table load; tests
# hold it equal to a walk of the parsed source for every module of the package.
_IMPORT = re.compile(r"(?:^|;)[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
                     r"|import[ \t]+([^\n#;]*))", re.M)


def imports(name: str, path: str) -> set[str]:
    """Package modules imported anywhere in the file (function bodies included)."""
    package = name if path.endswith("__init__.py") else name.rsplit(".", 1)[0]
    out = set()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for frm, names, plain in _IMPORT.findall(text):
        if plain:
            out |= {a.split()[0] for a in plain.split(",") if a.strip().startswith("cribsolve")}
            continue
        dots = len(frm) - len(frm.lstrip("."))
        if dots:
            base = package.rsplit(".", dots - 1)[0] if dots > 1 else package
            mod = f"{base}.{frm[dots:]}" if frm[dots:] else base
        elif frm.startswith("cribsolve"):
            mod = frm
        else:
            continue
        out.add(mod)
        names = re.sub(r"#[^\n]*", "", names.strip("()"))
        out |= {f"{mod}.{a.split()[0]}" for a in names.split(",") if a.strip()}  # 'from . import x'

    return out


def digest(modules) -> str:
    """sha256 over the names and sources of ``modules`` (package module names), in order."""
    import hashlib      # here: the command line loads this module before any table

    h = hashlib.sha256()
    for name in sorted(set(modules)):
        path = module_file(name)
        if path is not None:
            h.update(name.encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def reached(module: str) -> set[str]:
    """``module`` and every package module it reaches by imports, the plumbing left out."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen or name in PLUMBING or module_file(name) is None:
            continue
        seen.add(name)
        todo.extend(imports(name, module_file(name)))
    return seen


def library() -> set[str]:
    """Every package module outside the CLI (``cribsolve.cli``), whose edits change no kernel."""
    out = set()
    for folder, dirs, files in os.walk(PACKAGE):
        rel = os.path.relpath(folder, PACKAGE)
        parts = [] if rel == "." else rel.split(os.sep)
        if parts[:1] == ["cli"]:
            continue
        for f in files:
            if f.endswith(".py"):
                mod = ["cribsolve", *parts] + ([] if f == "__init__.py" else [f[:-3]])
                out.add(".".join(mod))
    return out
