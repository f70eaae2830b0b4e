"""The facts of PySolFC's three cribbage solitaires, stated once for every command: the name,
the deals in a game, the score that wins, the policies that play it, the strongest of them, and
the games in a simulated chunk. Light on purpose (no numpy): the CLI reads it to build options.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Solitaire:
    name: str                 # as PySolFC names it
    deals: int                # hands dealt in a game
    win_at: int               # the score that wins
    policies: tuple           # what simulate plays; the first is the default
    best: str                 # the strongest policy measured (bracket's lower side)
    chunk: int                # games in a simulated chunk (a pure function of its index)


SOLITAIRES = {
    "patience": Solitaire("Cribbage Patience", 5, 80, ("ev", "win", "random", "clairvoyant"),
                          "win", 20_000),
    "patience2": Solitaire("Cribbage Patience II", 4, 80,
                           ("ev", "win", "lookahead", "random", "clairvoyant"), "lookahead",
                           20_000),
    "shuffle": Solitaire("Cribbage Shuffle", 1, 61, ("optimal", "heuristic"), "optimal", 200),
}
PATIENCES = ("patience", "patience2")     # the two dealt hand by hand, with a win table
