"""The examples in the public API's docstrings (the Python API page shows them) run and give
what they say."""

import doctest
import importlib
import pkgutil

import pytest

import cribsolve.api

MODULES = [m.name for m in pkgutil.iter_modules(cribsolve.api.__path__, "cribsolve.api.")]


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_run(name):
    failed, tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert failed == 0


def _page_examples():
    """The ```python blocks of the README and the docs pages written as a session (>>>)."""
    import pathlib
    import re

    root = pathlib.Path(__file__).parent.parent.parent
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", page.read_text(), re.S)):
            if ">>>" in block:
                yield pytest.param(page.name, block, id=f"{page.name}-{i}")


@pytest.mark.parametrize("page, block", list(_page_examples()))
def test_the_pages_python_sessions_run(page, block):
    test = doctest.DocTestParser().get_doctest(block, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
