"""Your hand as cards on the table, chosen with a key (1-9, or the arrows and Space or Enter) or
a click: a card marked to throw stands raised; a card that does not fit the count is dimmed."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widget import Widget

from cribsolve.core.notation import format_card

WIDE = 5  # a card's columns, with the gap after it
RED = "HD"


class Hand(Widget, can_focus=True):
    """The cards, a cursor, and the cards marked; what a decision wants (``ask``): one card to
    lay (``one``), exactly n to throw (``n``), or up to n to draw again (``most``)."""

    DEFAULT_CSS = "Hand { height: 5; width: auto; }"
    BINDINGS = [
        Binding("left", "move(-1)", "card", show=False),
        Binding("right", "move(1)", "card", show=False),
        Binding("space", "mark", "mark", show=False),
        Binding("enter", "enter", "choose", show=False),
        Binding("escape", "clear", "unmark", show=False),
        *(Binding(str(k), f"pick({k - 1})", str(k), show=False) for k in range(1, 10)),
    ]

    class Chosen(Message):
        """The cards the person chose, in the order marked."""

        def __init__(self, cards: list):
            super().__init__()
            self.cards = cards

    class Refused(Message):
        """A key that chose nothing, and why."""

        def __init__(self, why: str):
            super().__init__()
            self.why = why

    def __init__(self, **kw):
        super().__init__(**kw)
        self.cards, self.usable, self.marked, self.cursor = (), (), [], 0
        self.want = None  # None (nothing asked), ("one",), ("n", n) or ("most", n)

    def show(self, cards, usable=()) -> None:
        """The cards held now; ``usable``: which may be laid (the play's count)."""
        if tuple(cards) != self.cards or tuple(usable) != self.usable:
            self.cards, self.usable = tuple(cards), tuple(usable)
            self.marked = [i for i in self.marked if i < len(self.cards)]
            self.cursor = min(self.cursor, max(len(self.cards) - 1, 0))
            self.refresh(layout=True)

    def ask(self, want) -> None:
        self.want, self.marked = want, []
        self.cursor = next((i for i, ok in enumerate(self.usable) if ok), 0)
        self.refresh()

    def done(self) -> None:
        self.want, self.marked = None, []
        self.refresh()

    def get_content_width(self, container, viewport) -> int:
        return max(WIDE * len(self.cards) - 1, 4)

    def render(self) -> Text:
        lines = [Text() for _ in range(5)]  # room to raise a card, the card, its number
        for i, card in enumerate(self.cards):
            name = format_card(card)
            dim = bool(self.usable) and not self.usable[i]
            here = self.want is not None and i == self.cursor
            edge = "bold yellow" if here else "dim" if dim else ""
            face = "dim" if dim else "bold red" if name[-1] in RED else "bold"
            drawn = [
                Text("╭──╮", edge),
                Text.assemble(("│", edge), (f"{name:<2}", face), ("│", edge)),
                Text("╰──╯", edge),
            ]
            top = 0 if i in self.marked else 1
            gap = " " if i else ""
            for k in range(4):
                lines[k].append(gap)
                lines[k].append_text(drawn[k - top] if 0 <= k - top < 3 else Text("    "))
            lines[4].append(gap)
            lines[4].append(f"{i + 1:^4}", "reverse" if here else "")
        return Text("\n").join(lines)

    def on_click(self, event) -> None:
        i = event.x // WIDE
        if 0 <= i < len(self.cards):
            self.cursor = i
            self.action_pick(i)

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def action_mark(self) -> None:
        self._toggle(self.cursor)

    def action_pick(self, i: int) -> None:
        """A card's key or click: lay it, or mark it (again: unmark it)."""
        if self.want is None or i >= len(self.cards):
            return
        self.cursor = i
        if self.want[0] == "one":
            self._lay(i)
        else:
            self._toggle(i)

    def action_enter(self) -> None:
        """Enter: lay the card at the cursor; or choose the cards marked once they are enough
        (with fewer, mark the card at the cursor)."""
        if self.want is None or not self.cards:
            return
        kind = self.want[0]
        if kind == "one":
            return self._lay(self.cursor)
        if kind == "most" or len(self.marked) == self.want[1]:
            return self.post_message(self.Chosen([self.cards[i] for i in self.marked]))
        if self.cursor not in self.marked:
            return self._toggle(self.cursor)
        self.post_message(self.Refused(f"mark {self.want[1]} cards, then Enter"))

    def action_clear(self) -> None:
        self.marked = []
        self.refresh()

    def _lay(self, i: int) -> None:
        if self.usable and not self.usable[i]:
            return self.post_message(self.Refused(f"{format_card(self.cards[i])} does not fit"))
        self.post_message(self.Chosen([self.cards[i]]))

    def _toggle(self, i: int) -> None:
        if self.want is None or self.want[0] == "one":
            return
        if i in self.marked:
            self.marked.remove(i)
        elif len(self.marked) < self.want[1]:
            self.marked.append(i)
        else:
            return self.post_message(
                self.Refused(f"{self.want[1]} marked already: a marked card's key unmarks it")
            )
        self.refresh()
