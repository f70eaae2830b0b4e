"""The review of the game just played, one key from its end: each of your decisions beside the
best, as ``cribsolve review`` prints it (games/cribbage/table/review.py)."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.screen import Screen
from textual.widgets import Footer, Static


def review_lines(path: str) -> list:
    from cribsolve.games.cribbage.table.record import load_record
    from cribsolve.games.cribbage.table.replay import replay
    from cribsolve.games.cribbage.table.review import review, text_lines

    game = replay(load_record(path))
    return text_lines(game, review(game))


class ReviewScreen(Screen):
    DEFAULT_CSS = "#review { width: auto; text-wrap: nowrap; }"
    BINDINGS = [Binding("escape,r", "app.pop_screen", "back to the table")]

    def __init__(self, path: str):
        super().__init__()
        self.path = path

    def compose(self):
        with ScrollableContainer():
            yield Static(f"reviewing {self.path}...", id="review")
        yield Footer()

    def on_mount(self) -> None:
        self.app.behind(lambda: review_lines(self.path), self._shown)

    def _shown(self, lines) -> None:
        text = f"cribsolve: {lines}" if isinstance(lines, Exception) else "\n".join(lines)
        self.query_one("#review", Static).update(Text(text))
