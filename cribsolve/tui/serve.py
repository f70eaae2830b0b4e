"""``play --variant cribbage --web``: the same table in a browser, served by textual-serve on
this machine only (127.0.0.1), a game to each tab: each runs the command it was served from."""

from __future__ import annotations

import shlex

from cribsolve.errors import CribsolveError

HOST = "127.0.0.1"


def serve(command: list, port: int) -> None:
    """Serve ``command`` (argv: the play command, without --web) until Ctrl-C."""
    from textual_serve.server import Server

    try:
        Server(shlex.join(command), host=HOST, port=port, title="cribsolve: cribbage").serve()
    except OSError as e:  # the port taken
        raise CribsolveError(
            f"cannot serve on {HOST}:{port}: {e.strerror or e} (another --port?)"
        ) from None
