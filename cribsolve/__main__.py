"""``python -m cribsolve``: the command line."""
from .cli import main

main()
