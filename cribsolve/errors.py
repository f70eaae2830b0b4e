"""The mistakes a user can make, as exceptions whose message is one line for them.

The CLI catches ``CribsolveError`` alone: it prints ``cribsolve: <message>`` on stderr and exits
with status 2. Anything else that escapes is a fault of ours and keeps its traceback.
"""


class CribsolveError(ValueError):
    """A user mistake (a bad option, file or position); the message says what to do."""


class CardError(CribsolveError):
    """A card or card list the user typed is not valid."""


class RecordError(CribsolveError):
    """A game record that cannot be read: the message names the line and what is wrong."""


class TableError(CribsolveError):
    """A table file that must not be used: the message says why (it is then rebuilt)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, with what the user keeps and how to go on (a checkpointed run): the CLI says
    ``cribsolve: interrupted; <message>``."""
