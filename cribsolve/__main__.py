"""``python -m cribsolve``: the command line."""

from cribsolve.cli import main

main()
