import pytest


@pytest.fixture(autouse=True)
def _compiled_behind():
    """Each test of the table waits, at its end, for what its game compiles in a thread behind
    it (jit.later: the kernels of a game's end), as the game it broke off leaves it running:
    that thread parses source (infra/source.py) while pytest's own thread parses the next test
    module, and Python 3.11's parser fails when two threads parse at once ("AST constructor
    recursion depth mismatch")."""
    yield
    from cribsolve.infra import jit

    jit.wait_later("the kernels of the game's end")
