"""The package's shape (docs/architecture.md): imports only go down the layers and never make a
circle. import-linter holds the contracts in pyproject.toml; the circle check is written here
too, from the source's own import statements, so it does not rest on that tool alone."""

import ast
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def import_graph(package_dir: pathlib.Path) -> dict[str, set[str]]:
    """{module: package modules it imports, function bodies included} for the package folder."""
    name = package_dir.name
    modules = {}
    for path in package_dir.rglob("*.py"):
        parts = [name, *path.relative_to(package_dir).with_suffix("").parts]
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for mod, path in modules.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                targets = [
                    f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                    for a in node.names
                ]
            else:
                continue
            out |= {t for t in targets if t in modules and t != mod}
        graph[mod] = out
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_package_has_no_import_circle():
    graph = import_graph(ROOT / "cribsolve")
    assert len(graph) > 40 and "cribsolve.games.cribbage.players.open_search" in graph
    assert cycles(graph) == []


def test_a_planted_circle_is_found(tmp_path):
    pkg = tmp_path / "planted"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from planted.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import x\n")  # in a function
    (pkg / "c.py").write_text("from . import a\nx = 1\n")
    (pkg / "d.py").write_text("import planted.a\n")  # reaches it, not in it
    assert cycles(import_graph(pkg)) == [["planted.a", "planted.c", "planted.sub.b"]]


def test_the_import_contracts_hold():
    lint = pathlib.Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0 and "0 broken" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
