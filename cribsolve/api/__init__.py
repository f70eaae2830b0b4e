"""The public Python API, one function per command: ``import cribsolve as cs`` reaches every
name (``cribsolve.__all__``). Each returns a frozen result whose ``to_dict()`` is what the
command prints with ``--json``; the CLI is a skin over these functions."""
