"""The pegging board, drawn by the transcript's own Screen (a track a side, the front and back
pegs, the skunk lines) within the width the window gives it."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget

from cribsolve.games.cribbage.table.screen import Screen
from cribsolve.games.cribbage.table.seats import Table

NARROWEST = 40  # Screen's own floor: below it the board is cut, not squeezed


class Board(Widget):
    DEFAULT_CSS = "Board { height: auto; }"

    def __init__(self, spec, **kw):
        super().__init__(**kw)
        self.spec = spec
        self.names = Table(spec.players, spec.partners).side_names
        self.scores = self.backs = (0,) * len(self.names)

    def show(self, scores, backs) -> None:
        if (scores, backs) != (self.scores, self.backs):
            self.scores, self.backs = scores, backs
            self.refresh()

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.names) + 1  # the ruler, a track a side

    def render(self) -> Text:
        s = self.spec
        width = max(NARROWEST, self.content_size.width)
        screen = Screen(self.names, s.game_length, s.lowball, width, colour=True)
        return Text.from_ansi("\n".join(screen.board(self.scores, self.backs)))
