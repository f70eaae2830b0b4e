"""The table drawn in plain text (the transcript's board, hand and series), in a module of its
own that loads nothing heavy: the full-screen table draws its first screen with it before numba
is loaded."""

from __future__ import annotations

import re

from cribsolve.core.notation import format_card

_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # a terminal's colour codes, which take no column


def series_cards(played, length: int) -> list:
    """The last ``length`` cards laid (the current series'), from the play so far."""
    laid = [c for c in played if c is not None]  # None: a go
    return laid[len(laid) - length :] if length else []


class Screen:
    """The table drawn in plain text within ``width`` columns, for a terminal, a pipe or a
    screen reader alike: the pegging board (a track a side to the game length, the front peg
    O and the back peg o where the last points came from, the skunk lines :), the hand as
    cards numbered for choosing, and the cards of the current series. ``colour``: the front
    pegs coloured (a terminal only)."""

    def __init__(self, names, length: int, lowball: bool, width: int = 80, colour=False):
        self.names, self.length, self.width, self.colour = list(names), length, width, colour
        self.label = max(len(n) for n in self.names)
        room = max(10, width - self.label - 9)  # indent, label, edges, the score
        self.step = -(-length // room)  # points a column
        self.cols = -(-length // self.step)
        self.skunk = () if lowball else tuple(x for x in (length - 30, length - 60) if x >= 30)

    def fit(self, text: str) -> list:
        """``text`` as lines within the width: a longer line goes on under its own indent."""
        import textwrap

        lines = []
        for line in str(text).split("\n"):
            if len(_STYLE.sub("", line)) <= self.width:  # a coloured peg takes one column
                lines.append(line)
                continue
            indent = " " * (len(line) - len(line.lstrip()))
            lines += textwrap.wrap(
                line, self.width, subsequent_indent=indent + "  ", break_on_hyphens=False
            )
        return lines

    def _col(self, points: int) -> int:
        return (points - 1) // self.step

    def board(self, scores, backs) -> list:
        """The board: a ruler of the game's thirties, then each side's track and score; a
        peg past the game length (two cribs play the deal out) stands at the track's end."""
        ruler = [" "] * (self.cols + 2)
        for mark in [*range(30, self.length - 5, 30), self.length]:
            text = str(mark)
            end = self._col(mark) + 2
            if end - len(text) >= 0 and all(c == " " for c in ruler[end - len(text) : end]):
                ruler[end - len(text) : end] = text
        lines = [f"  {'':<{self.label}} {''.join(ruler).rstrip()}"]
        for k, name in enumerate(self.names):
            track = ["."] * self.cols
            for x in self.skunk:
                track[self._col(x)] = ":"
            back, front = (min(x, self.length) for x in (backs[k], scores[k]))
            if 0 < back < front and self._col(back) != self._col(front):
                track[self._col(back)] = "o"
            if front > 0:
                track[self._col(front)] = self._peg(k)
            lines.append(f"  {name:<{self.label}} |{''.join(track)}| {scores[k]:>3}")
        return lines

    def _peg(self, side: int) -> str:
        if not self.colour:
            return "O"
        import click

        return click.style("O", fg="green" if side == 0 else "red", bold=True)

    def hand(self, hand, title: str = "your hand") -> list:
        """The cards side by side, each with its number below."""
        cards = [format_card(c) for c in hand]
        pad = " " * (len(title) + 2)
        return [
            f"  {pad}" + " ".join(".--." for _ in cards),
            f"  {title}: " + " ".join(f"|{c:<2}|" for c in cards),
            f"  {pad}" + " ".join("'--'" for _ in cards),
            (f"  {pad}" + " ".join(f"{i:^4}" for i in range(1, len(cards) + 1))).rstrip(),
        ]

    def series(self, played, length: int, count: int) -> str:
        """The play so far: the cards of the current series (``length`` of them) and the
        count."""
        laid = " ".join(map(format_card, series_cards(played, length))) if length else "-"
        return f"  the play: {laid}  (count {count})"
