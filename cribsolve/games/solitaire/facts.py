"""The facts of PySolFC's cribbage solitaires, stated once for every command: the name,
the deals in a game, the score that wins, the policies that play it, the strongest of them, and
the games in a simulated chunk. Light on purpose (no numpy): the CLI reads it to build options.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Solitaire:
    name: str  # as PySolFC names it
    deals: int  # hands dealt in a game
    win_at: int  # the score that wins
    policies: tuple  # what simulate plays; the first is the default
    best: str  # the strongest policy measured (bracket's lower side)
    chunk: int  # games in a simulated chunk (a pure function of its index)


# bracket's hands drawn per Patience deal to charge the bound for the next hand: the bound's
# excess over its limit falls about as 1/M (17.56% at 2, 15.75% at 8, 15.23% at 32 on the
# first 4,000 decks of seed 1, benchmarks/bench_bracket.py), at a cost about linear in M
NEXT_HANDS = 32


SOLITAIRES = {
    "patience": Solitaire(
        "Cribbage Patience", 5, 80, ("ev", "win", "deck", "random", "clairvoyant"), "deck", 20_000
    ),
    "patience2": Solitaire(
        "Cribbage Patience II",
        4,
        80,
        ("ev", "win", "lookahead", "random", "clairvoyant"),
        "lookahead",
        20_000,
    ),
    "shuffle": Solitaire("Cribbage Shuffle", 1, 61, ("optimal", "heuristic"), "optimal", 200),
    # Square's chunks are Shuffle's size, so a seed deals both the same decks (see square.py)
    "square": Solitaire(
        "Cribbage Square", 1, 61, ("ev", "random", "lookahead", "clairvoyant"), "lookahead", 200
    ),
    "square-waste": Solitaire(
        "Cribbage Square (Waste)", 1, 61, ("ev", "random", "lookahead"), "lookahead", 200
    ),
    "square-reserve1": Solitaire(
        "Cribbage Square (1 Reserve)", 1, 61, ("ev", "random", "lookahead"), "lookahead", 200
    ),
    "square-reserve2": Solitaire(
        "Cribbage Square (2 Reserves)", 1, 61, ("ev", "random", "lookahead"), "lookahead", 200
    ),
}
PATIENCES = ("patience", "patience2")  # the two dealt hand by hand, with a win table


@dataclass(frozen=True)
class Square:
    """What sets PySolFC's four Cribbage Squares apart (pysollib/games/special/cribbage.py):
    beside the 4 x 4 grid, ``piles`` piles of up to PILE_CARDS cards, which give cards back
    unless they are a waste; PySolFC sets 35 - 5 x piles cards aside unseen, so the talon
    holds 16 cards for the grid, 5 per pile and the starter (always its last card)."""

    game: int  # PySolFC's game number
    piles: int  # piles beside the grid (0, 1 or 2)
    waste: bool  # True: a card put there never leaves it

    @property
    def set_aside(self) -> int:
        return 35 - PILE_CARDS * self.piles

    @property
    def dealt(self) -> int:
        """Talon cards that may be dealt before the grid is full (the starter follows)."""
        return 16 + PILE_CARDS * self.piles


PILE_CARDS = 5
SQUARES = {
    "square": Square(805, 0, False),
    "square-waste": Square(806, 1, True),
    "square-reserve1": Square(807, 1, False),
    "square-reserve2": Square(808, 2, False),
}
