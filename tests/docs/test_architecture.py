"""docs/architecture.md is the one map of the code: every module of the package is named in it,
under the heading of its folder, and it names no module that is gone. A new or moved module
fails this test until the map says what it holds."""

import pathlib
import re

ROOT = pathlib.Path(__file__).parent.parent.parent
PAGE = (ROOT / "docs" / "architecture.md").read_text()


def modules_on_disk() -> set[str]:
    """Every module file under cribsolve/, as a path from there; a package's __init__.py
    only where it holds code (most are a docstring)."""
    found = set()
    for path in (ROOT / "cribsolve").rglob("*.py"):
        rel = path.relative_to(ROOT / "cribsolve").as_posix()
        if path.name == "__init__.py":
            body = re.sub(r'^\s*""".*?"""\s*', "", path.read_text(), flags=re.S).strip()
            if not body:
                continue
        found.add(rel)
    return found


def modules_on_page() -> set[str]:
    """The modules the page names: a ``### `cribsolve/folder/` `` heading, then table rows
    whose first cell is a module's file name in backquotes."""
    named, folder = set(), None
    for line in PAGE.splitlines():
        heading = re.match(r"#{2,4} `cribsolve/([\w/]*)`", line)
        if heading:
            folder = heading.group(1).strip("/")
            continue
        row = re.match(r"\| `([\w]+\.py)` \|", line)
        if row and folder is not None:
            named.add(f"{folder}/{row.group(1)}" if folder else row.group(1))
    return named


def test_every_module_is_on_the_map():
    missing = sorted(modules_on_disk() - modules_on_page())
    assert not missing, f"docs/architecture.md does not name: {missing}"


def test_the_map_names_no_module_that_is_gone():
    gone = sorted(modules_on_page() - modules_on_disk())
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"
