"""The person at the full-screen table, as the referee sees it: a match.Player whose every
decision is handed to the app and waited for in the referee's thread, while the person answers
with keys or the mouse in the app's. A Player by its methods, not by subclassing: match.py
loads numba, which the table's first screen does not wait for."""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

STOP = object()  # the person left the table: the referee's next wait raises EOFError


@dataclass(frozen=True)
class Count:
    """Counting yourself: the show the person counts (not a replay.Decision: no choice of
    cards, and the review has no row for it)."""

    held: tuple
    cuts: tuple
    crib: bool
    kind: str = "count"


class Seat:
    def __init__(self, spec, ask, say, coach: bool = False):
        """``ask(decision)``: show a decision (called in the referee's thread); ``say``: a line
        for the log (the coach's)."""
        self.spec, self.ask, self.say, self.coach = spec, ask, say, coach
        self.match = None
        self.asked = False  # a decision was asked: the game is under way
        self.stopped = False
        self._answers = queue.Queue()
        self._lock = threading.Lock()
        self._rows = (None, None)  # (decision, its options): the adviser's, worked out once

    def join(self, match) -> None:
        self.match = match

    def answer(self, value) -> None:
        """The person's answer to the decision shown (the app's thread)."""
        self._answers.put(value)

    def stop(self) -> None:
        self.stopped = True
        self._answers.put(STOP)

    def options(self, d) -> list:
        """The adviser's options for ``d`` (advice.options), worked out once whichever thread
        asks first: the hint panel's, the adviser's choice, the coach's line."""
        from cribsolve.games.cribbage.table import advice

        with self._lock:
            if self._rows[0] is not d:
                self._rows = (d, advice.options(d, self.spec))
            return self._rows[1]

    def _wait(self, d):
        if self.stopped:
            raise EOFError
        self.asked = True
        self.ask(d)
        value = self._answers.get()
        if value is STOP:
            raise EOFError
        return value

    def throw(self, d):
        return self._wait(d)

    def redraw(self, d):
        return self._wait(d)

    def lay(self, d):
        return self._wait(d)[0]

    def bid(self, d):
        return self._wait(d)[0]

    def count(self, held, cuts, crib):
        return self._wait(Count(tuple(held), tuple(cuts), crib))

    def after(self, d) -> None:
        from cribsolve.games.cribbage.table import advice

        if self.coach:
            line = advice.cost_line(d, self.options(d), self.spec)
            if line:
                self.say(line)
