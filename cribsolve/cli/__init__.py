"""The command line: a thin skin of click over the library."""
from cribsolve.cli.main import cli, main  # noqa: F401
