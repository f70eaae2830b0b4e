"""The table: the board, the deal (the dealer, whose crib, the starter, the play and its count),
your hand, the adviser's hint, the prompt and the log, each in its place, from 80 x 24 up. The
referee (the game that ``play`` hands over: its _game) runs in a thread of its own, so the
table is up at once and the first game compiles behind it."""

from __future__ import annotations

import threading
import time

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.message import Message
from textual.widgets import Footer, Input, RichLog, Static

from cribsolve.core.notation import format_cards
from cribsolve.tui import history
from cribsolve.tui.board import Board
from cribsolve.tui.cards import WIDE, Hand
from cribsolve.tui.seat import Seat
from cribsolve.tui.view import view


class Said(Message):
    """A line of the game, and the table as it stood when it was said (None: before the
    match)."""

    def __init__(self, text: str, table, ended: bool):
        super().__init__()
        self.text, self.table, self.ended = text, table, ended


class Asked(Message):
    def __init__(self, decision, table):
        super().__init__()
        self.decision, self.table = decision, table


class Done(Message):
    """Work run behind the table came back: ``then(result)``, in the app's thread."""

    def __init__(self, then, result):
        super().__init__()
        self.then, self.result = then, result


READY = "getting the game ready: {} s (a first game compiles what it runs, once for this version)"
HINT_HELP = "hint: ? shows the adviser's table for each decision; a takes its first choice"


class TableApp(App):
    TITLE = "cribsolve: cribbage"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    #status { height: 1; background: $panel; padding: 0 1; }
    #middle { height: 1fr; min-height: 10; max-height: 24; }
    #seat { width: 31; padding: 0 1; }
    #deal, #play { height: auto; }
    #hint { border-left: vkey $primary; padding: 0 0 0 1; }
    #hint-note { height: auto; color: $text-muted; }
    #hint-rows { height: 1fr; scrollbar-size: 1 1; }
    #hint-table { width: auto; text-wrap: nowrap; }
    #prompt { height: auto; max-height: 3; background: $boost; padding: 0 1; }
    #count { display: none; height: 3; }
    #log {
        height: 1fr; min-height: 4; border-top: hkey $primary; padding: 0 1;
        overflow-x: hidden; scrollbar-size-vertical: 1;
    }
    """
    BINDINGS = [
        Binding("question_mark", "hint", "hint"),
        Binding("a", "adviser", "adviser's choice"),
        Binding("pageup", "hint_scroll(-1)", "hint rows", show=False),
        Binding("pagedown", "hint_scroll(1)", "hint rows", show=False),
        Binding("b", "bid(1)", "bid"),
        Binding("p", "bid(0)", "pass"),
        Binding("r", "review", "review"),
        Binding("q", "quit_table", "quit"),
    ]

    def __init__(
        self, spec, game, coach: bool = False, record: str | None = None, games: str | None = None
    ):
        """``game(say, player, quiet)``: the whole game, run in the referee's thread;
        ``record``: the file it writes; ``games``: the folder of the games played before."""
        super().__init__()
        self.spec, self.game, self.record, self.games = spec, game, record, games
        self.seat = Seat(spec, self._ask, self._say, coach)
        self.hinting = coach  # the hint shown at every decision
        self.decision = None  # the decision shown, until answered
        self.closing = None  # the lines said since the game ended or stopped
        self.finished = False  # the game's thread is done
        self.error = None  # what ended it otherwise (raised again when the app is gone)
        self.lines = []  # every line said
        self._start = time.monotonic()

    # ---- the referee's thread ----------------------------------------------------------

    def _say(self, text: str = "") -> None:
        match = self.seat.match
        table = view(match) if match is not None else None
        self.post_message(Said(str(text), table, self.seat.stopped or bool(table and table.over)))

    def _ask(self, d) -> None:
        self.post_message(Asked(d, view(self.seat.match)))

    def _referee(self) -> None:
        error = None
        try:
            self.game(say=self._say, player=self.seat, quiet=True)
        except Exception as e:  # noqa: BLE001 - said on the table, raised again after it
            error = e
        self.post_message(Done(self._finished, error))

    def behind(self, work, then) -> None:
        """``work()`` in a thread of its own, then ``then(result)`` here; a daemon thread, so
        that leaving the table never waits on it."""

        def run():
            try:
                result = work()
            except Exception as e:  # noqa: BLE001 - the caller shows it
                result = e
            self.post_message(Done(then, result))

        threading.Thread(target=run, daemon=True).start()

    # ---- the table ---------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(READY.format(0), id="status")
        yield Board(self.spec, id="board")
        with Horizontal(id="middle"):
            with Vertical(id="seat"):
                yield Static("", id="deal")
                yield Static("", id="play")
                yield Hand(id="hand")
            with Vertical(id="hint"):
                yield Static(HINT_HELP, id="hint-note")
                with ScrollableContainer(id="hint-rows"):
                    yield Static("", id="hint-table")
        yield Static("", id="prompt")
        yield Input(id="count", type="integer", max_length=2, placeholder="your count: 0-99")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Hand).focus()
        self._ticking = self.set_interval(1, self._tick)
        # after the first screen is drawn: the referee's imports would hold it back
        self.call_after_refresh(threading.Thread(target=self._referee, daemon=True).start)
        if self.games:
            self.behind(lambda: history.lines(self.games, self.record), self._history)

    def _history(self, lines) -> None:
        if isinstance(lines, list):
            for line in lines:
                self.query_one(RichLog).write(Text(line))

    def _tick(self) -> None:
        if self.seat.asked or self.finished:
            self._ticking.stop()
        else:
            self._status(READY.format(round(time.monotonic() - self._start)))

    def _status(self, text: str) -> None:
        self.query_one("#status", Static).update(text)

    def _prompt(self, text: str) -> None:
        self.query_one("#prompt", Static).update(text)

    def _draw(self, t) -> None:
        """The board and the deal as View ``t`` has them."""
        if t is None:
            return
        self.query_one(Board).show(t.scores, t.backs)
        if t.deal:
            crib = "both cribs" if t.crib == "both" else f"{t.crib} crib"
            deal = f"deal {t.deal}: {t.dealer} deal{'s' * (t.dealer not in ('you', 'they'))}"
            starter = f"starter {format_cards(t.starters)}" if t.starters else "no starter yet"
            self.query_one("#deal", Static).update(f"{deal}\n{crib} · {starter}")
            holding = ", ".join(f"{name} {n}" for name, n in t.holding)
            play = f"count {t.count}: {format_cards(t.series)}".rstrip(": ")
            self.query_one("#play", Static).update(
                play + (f"\ncards: {holding}" if holding else "")
            )
        self.query_one(Hand).show(t.hand, t.fits)
        self.query_one("#seat").styles.width = max(31, WIDE * len(t.hand) + 1)

    def on_said(self, m: Said) -> None:
        self.lines.append(m.text)
        if m.ended and self.closing is None:
            self.closing = []
        if self.closing is not None:
            self.closing.append(m.text)
        if not self._up():
            return
        self.query_one(RichLog).write(Text(m.text))
        self._draw(m.table)
        if m.text.startswith("game over"):
            self._status(m.text + " · reviewing your decisions")

    def on_asked(self, m: Asked) -> None:
        from cribsolve.games.cribbage.table.terminal import throw_words

        if not self._up():
            return
        d = self.decision = m.decision
        self._draw(m.table)
        self._status(f"the record: {self.record}")
        hand, n = self.query_one(Hand), len(d.hand) if d.kind != "count" else 0
        marks = f"mark with 1-{n} or ←→ Space, then Enter"
        if d.kind == "throw":
            hand.ask(("n", n - self.spec.kept))
            self._prompt(f"throw {throw_words(d, self.spec)}: {marks}")
        elif d.kind == "draw":
            hand.ask(("most", d.limit))
            when = "before" if d.before else "after"
            self._prompt(
                f"throw away up to {d.limit} to draw again ({when} the throw; none: keep "
                f"them): {marks}"
            )
        elif d.kind == "play":
            hand.ask(("one",))
            self._prompt(f"your card (count {d.count}): 1-{n}, or ←→ then Enter, or a click")
        elif d.kind == "bid":
            holder = "you hold it" if d.holder == 0 else "they hold it"
            self._prompt(f"b: bid {d.bid + 1} for the crib, p: pass (the bid is {d.bid}; {holder})")
        else:  # counting yourself
            self._prompt(
                f"your count for your {'crib' if d.crib else 'hand'} "
                f"({format_cards(d.held)} with {format_cards(d.cuts)}): type it, Enter"
            )
            box = self.query_one("#count", Input)
            box.value, box.display = "", True
            box.focus()
        self._show_hint()
        self.refresh_bindings()

    def _answer(self, value) -> None:
        self.decision = None
        self.query_one(Hand).done()
        self._prompt("")
        self._show_hint()
        self.refresh_bindings()
        self.seat.answer(value)

    def check_action(self, action: str, parameters) -> bool:
        """The keys of the moment, the only ones the footer shows."""
        d = self.decision
        if action == "adviser":
            return self._advised()
        if action == "bid":
            return d is not None and d.kind == "bid"
        if action == "review":
            return self.finished and self.error is None and self.record is not None
        return True

    def on_hand_chosen(self, m: Hand.Chosen) -> None:
        if self.decision is not None:
            self._answer(m.cards)

    def on_hand_refused(self, m: Hand.Refused) -> None:
        self.notify(m.why, timeout=3)

    def on_input_submitted(self, m: Input.Submitted) -> None:
        if self.decision is None or self.decision.kind != "count":
            return
        if not m.value.isdigit():
            return self.notify("type the points as a whole number from 0 to 99", timeout=3)
        m.input.display = False
        self.query_one(Hand).focus()
        self._answer(int(m.value))

    def on_done(self, m: Done) -> None:
        if self._up():
            m.then(m.result)

    def _up(self) -> bool:
        """Whether the table is still drawn: the referee's thread and the adviser's may still
        be talking as it closes."""
        return bool(self.query("#status"))

    # ---- the adviser -------------------------------------------------------------------

    def _advised(self) -> bool:
        return self.decision is not None and self.decision.kind != "count"

    def _show_hint(self) -> None:
        table = self.query_one("#hint-table", Static)
        note = self.query_one("#hint-note", Static)
        if not self.hinting or not self._advised():
            table.update("")
            note.update(HINT_HELP)
            return
        d = self.decision
        note.update("hint: working it out...")

        def shown(rows):
            from cribsolve.games.cribbage.table import advice

            if self.decision is not d:
                return
            if isinstance(rows, Exception):
                return note.update(f"hint: {rows}")
            first, *rest = advice.table_lines(d, rows, self.spec)
            note.update(first.strip())
            table.update(Text("\n".join(line[2:] for line in rest)))

        self.behind(lambda: self.seat.options(d), shown)

    def action_hint(self) -> None:
        self.hinting = not self.hinting
        self._show_hint()

    def action_hint_scroll(self, pages: int) -> None:
        rows = self.query_one("#hint-rows", ScrollableContainer)
        (rows.scroll_page_down if pages > 0 else rows.scroll_page_up)()

    def action_adviser(self) -> None:
        if not self._advised():
            return
        d = self.decision

        def take(rows):
            from cribsolve.games.cribbage.table import advice

            if self.decision is d and not isinstance(rows, Exception):
                self._answer(advice.first_choice(d, rows))

        self.behind(lambda: self.seat.options(d), take)

    def action_bid(self, raise_: int) -> None:
        if self.decision is not None and self.decision.kind == "bid":
            self._answer([self.decision.bid + raise_])

    # ---- the end -----------------------------------------------------------------------

    def _finished(self, error) -> None:
        self.finished, self.error = True, error
        self.refresh_bindings()
        if error is not None:
            self._status(f"cribsolve: {error} · q: leave")
            self.query_one(RichLog).write(Text(f"cribsolve: {error}"))
        elif self.seat.stopped:
            self.exit()
        else:
            over = next((x for x in reversed(self.lines) if x.startswith("game over")), "")
            self._status(f"{over} · r: the review · q: leave")

    async def action_quit(self) -> None:
        """Ctrl-Q, Textual's own quit, leaves as q does."""
        self.action_quit_table()

    def action_quit_table(self) -> None:
        """Leave: at once when the game is over or not yet begun; in a game, at the next
        decision, as the end of input leaves the transcript (the record keeps the deals
        finished, and the way to go on is said)."""
        if self.finished or not self.seat.asked:
            return self.exit()
        self._status("leaving the table at your next decision...")
        self.seat.stop()

    def action_review(self) -> None:
        from cribsolve.tui.review import ReviewScreen

        self.push_screen(ReviewScreen(self.record))


def play_table(spec, game, coach: bool, record: str, games: str | None = None) -> None:
    """The game at the full-screen table; when it closes, the game's last lines (the result
    and its review, or how to go on) are left on the terminal, as the transcript ends."""
    import os

    app = TableApp(spec, game, coach, record, games)
    app.run()
    if app.error is not None:
        raise app.error
    if app.closing and "TEXTUAL_DRIVER" not in os.environ:  # served: no terminal to leave
        print("\n".join(app.closing).strip("\n"))
