"""``python -m cribsolve``: the command line."""
from cribsolve.cli.main import main

main()
