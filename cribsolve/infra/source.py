"""What our compiled code is built from: the modules that define kernels and every package
module they reach by imports (a kernel inlines the kernels and constants it calls), read as
code, without docstrings or comments, so that a comment or a docstring edit changes no key.
"""

from __future__ import annotations

import os
import re

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# How kernels are compiled and chunks run (and kept) changes no number (tests hold a run's
# chunks equal wherever they run): the plumbing is no part of the code kernels are built from.
PLUMBING = {
    "cribsolve.infra.store",
    "cribsolve.infra.jit",
    "cribsolve.infra.spinner",
    "cribsolve.infra.runner",
    "cribsolve.infra.checkpoint",
    "cribsolve.infra.paths",
    "cribsolve.infra.source",
}


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
_IMPORT = re.compile(
    r"(?:^|;)[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)"
    r"|import[ \t]+([^\n#;]*))",
    re.M,
)


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


def code(path: str) -> str:
    """The code of the file at ``path``: its syntax tree without docstrings (comments are not
    in the tree, nor are line numbers)."""
    import ast

    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and ast.get_docstring(node, clean=False) is not None
        ):
            node.body = node.body[1:] or [ast.Pass()]
    return ast.dump(tree)


def digest(modules) -> str:
    """sha256 over the names and code (``code``) of ``modules`` (package module names)."""
    import hashlib  # here: the command line loads this module before any table

    h = hashlib.sha256()
    for name in sorted(set(modules)):
        path = module_file(name)
        if path is not None:
            h.update(name.encode())
            h.update(code(path).encode())
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
    """Every package module outside the CLI (``cribsolve.cli``)."""
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


def kernels() -> set[str]:
    """The modules compiled code is built from: each that takes numba from infra/jit, and every
    module those reach by imports."""
    out = set()
    for name in library():
        with open(module_file(name), encoding="utf-8") as f:
            if "from cribsolve.infra.jit import" in f.read() and name not in PLUMBING:
                out |= reached(name)
    return out


def global_names(code) -> set:
    """The global names ``code`` (and any function defined in it) may read."""
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= global_names(const)
    return names


_keys: dict = {}  # id of a function: (the function, its key), for the process


def kernel_key(func) -> str:
    """A digest of what one kernel's compiled code is built from: its code without docstring
    or comment (its decorator included), the values of the globals it reads (a constant, an
    array, a flag bound by jit.variant, an attribute of a package module it reads) and the
    keys of the kernels it calls, all the way down. An edit recompiles the kernel edited and
    those that call it, nothing else."""
    import hashlib

    if id(func) in _keys:
        return _keys[id(func)][1]
    _keys[id(func)] = (func, f"calls itself: {func.__qualname__}")  # a cycle's placeholder
    h = hashlib.sha256(_function_code(func).encode())
    names = global_names(func.__code__)
    for name in sorted(names):
        if name in func.__globals__:
            h.update(f"\0{name}={_value_key(func.__globals__[name], names)}".encode())
    for cell in func.__closure__ or ():
        h.update(f"\0cell={_value_key(cell.cell_contents, names)}".encode())
    h.update(repr(func.__defaults__).encode())
    key = h.hexdigest()[:16]
    _keys[id(func)] = (func, key)  # the function kept: its id is not reused while it is here
    return key


def _function_code(func) -> str:
    """The function's code without its docstring or line numbers (its bytecode, constants and
    names), and its compile options (njit's, read from the kernel of its name)."""
    kernel = func.__globals__.get(func.__name__)
    options = sorted(getattr(kernel, "targetoptions", {}).items())
    return f"{_code(func.__code__, func.__doc__)} {options}"


def _code(code, doc=None) -> str:
    consts = (
        code.co_consts[1:] if doc is not None and code.co_consts[:1] == (doc,) else code.co_consts
    )
    parts = [code.co_code.hex(), repr(code.co_names), repr(code.co_varnames)]
    parts += [_code(c) if hasattr(c, "co_code") else repr(c) for c in consts]
    return " ".join(parts)


def _value_key(value, names) -> str:
    """What a global's value adds to a kernel's key (``names``: the names the kernel reads,
    for the attributes it reads of a package module)."""
    import hashlib
    import types

    py = getattr(value, "py_func", None)
    if py is not None:  # a kernel it calls
        return f"kernel {kernel_key(py)}"
    if isinstance(value, types.ModuleType):
        if not value.__name__.startswith("cribsolve"):
            return f"module {value.__name__}"
        read = sorted(n for n in names if n in vars(value))
        return f"module {value.__name__} " + " ".join(
            f"{n}={_value_key(getattr(value, n), names)}" for n in read
        )
    if hasattr(value, "dtype") and hasattr(value, "tobytes"):  # an array
        digest = hashlib.sha256(value.tobytes()).hexdigest()[:16]
        return f"array {value.dtype.str} {getattr(value, 'shape', ())} {digest}"
    if isinstance(value, (tuple, list)):
        return "(" + ",".join(_value_key(v, names) for v in value) + ")"
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        return repr(value)
    if callable(value):  # a Python function or class numba knows (not its code)
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', '')}"
    kind = f"{type(value).__module__}.{type(value).__qualname__}"
    return f"{kind} {value}" if kind.startswith("numba.") else kind  # numba's types by name
