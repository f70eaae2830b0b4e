"""Who sits at the table, by place from the person (``Table``): a module of its own that loads
nothing heavy, for the full-screen table's first screen; record.py, which reads records, and
the rest take it from there."""

from __future__ import annotations

from dataclasses import dataclass

WHO = ("you", "they")
DEAL_KEYS = ("me", "them", "throw", "their throw", "starter", "play")  # two players


@dataclass(frozen=True)
class Table:
    """The players of a record as its player sees them: by place from me, round to my left
    (0 me, 1 at my left, ..., the last at my right), each named; the sides the board keeps
    (one a player, or two teams: me and across, left and right). The deal passes to the
    left; a player's seat in a deal (the engine's: 0 the dealer's left, the dealer last)
    follows from the dealer's place."""

    players: int = 2
    partners: bool = False

    @property
    def names(self) -> tuple:
        return {2: WHO, 3: ("you", "left", "right"), 4: ("you", "left", "across", "right")}[
            self.players
        ]

    def whose(self, place: int) -> str:
        if self.players == 2 or place == 0:
            return ("your", "their")[place]
        return f"{self.names[place]}'s"

    @property
    def sides(self) -> int:
        return 2 if self.partners else self.players

    @property
    def side_names(self) -> tuple:
        return WHO if self.partners else self.names

    def side(self, place: int) -> int:
        return place % self.sides

    def hand_key(self, place: int) -> str:
        return "me" if place == 0 else "them" if self.players == 2 else self.names[place]

    def throw_key(self, place: int) -> str:
        return (
            "throw"
            if place == 0
            else "their throw"
            if self.players == 2
            else f"{self.names[place]} throw"
        )

    @property
    def deal_keys(self) -> tuple:
        if self.players == 2:
            return DEAL_KEYS
        others = [k for p in range(1, self.players) for k in (self.hand_key(p), self.throw_key(p))]
        return ("me", "throw", *others) + ("crib card",) * (self.players == 3) + ("starter", "play")

    @property
    def dealer_words(self) -> tuple:
        return ("me", "them") if self.players == 2 else ("me", *self.names[1:])

    def seat(self, place: int, dealer: int) -> int:
        """The seat in a deal (0 the dealer's left) of the player at ``place``."""
        return (place - dealer - 1) % self.players

    def place(self, seat: int, dealer: int) -> int:
        return (dealer + 1 + seat) % self.players
