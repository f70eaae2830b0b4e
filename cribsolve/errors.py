"""The mistakes a user can make, and the faults of the machine, as exceptions whose message is
one line for them.

The CLI prints ``cribsolve: <message>`` on stderr for ``CribsolveError`` (exit status 2: what
the user typed) and ``FileFault`` (exit status 1: what the machine did). Anything else that
escapes is a fault of ours and keeps its traceback.
"""

import errno

# The errors of a write that are the machine's, not the user's: the disk full or over quota,
# failing, or its file system gone read-only (what the user named is checked before the work).
MACHINE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS})


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


class Partial(KeyboardInterrupt):
    """Ctrl-C in a run kept nowhere: ``result`` holds the games its finished chunks played (the
    first ones, in order), of the ``asked`` the run was to play."""

    def __init__(self, result, asked: int):
        super().__init__(result, asked)
        self.result, self.asked = result, asked


class FileFault(Exception):
    """The machine failed a write (``MACHINE``): the message names the file and what it keeps.
    Not a CribsolveError: the user typed nothing wrong, and the same command, once the disk
    has room, goes on."""
