"""The full-screen table driven headless by Textual's Pilot through the real command: ``play``
picks the table (as on a terminal) and its App runs under Pilot, answering each decision as a
script says, while the transcript's lines for the same answers are kept to play it again."""

import asyncio
import io

from clihelp import run
from rich.console import Console

from cribsolve.cli import play as play_command
from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.table.replay import show_score
from cribsolve.tui.app import TableApp
from cribsolve.tui.cards import Hand

WAIT = 600  # seconds for the referee's next decision (a first game compiles)


def screen_text(app) -> str:
    """The screen as plain text, as App.export_screenshot draws it (there as SVG)."""
    console = Console(
        width=app.size.width,
        height=app.size.height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


async def next_decision(app, pilot, last=None, seconds=WAIT):
    """The next decision the table shows (not ``last``), or None once the game is over."""
    for _ in range(int(seconds / 0.02)):
        if app.decision is not None and app.decision is not last:
            await pilot.pause()
            return app.decision
        if app.finished:
            return None
        await pilot.pause(0.02)
    raise AssertionError("no decision came")


def first_fitting(app):
    """(the keys, the transcript's line) of a plain answer to the decision shown: the first
    cards thrown, the first card that fits laid, the cards kept (draw), pass (bid), the right
    count."""
    d, spec = app.decision, app.spec
    if d.kind == "throw":
        n = len(d.hand) - spec.kept
        keys = [str(i) for i in range(1, n + 1)] + ["enter"]
        return keys, format_cards(d.hand[:n])
    if d.kind == "play":
        i = app.query_one(Hand).usable.index(True)
        return [str(i + 1)], format_card(d.hand[i])
    if d.kind == "draw":
        return ["enter"], "none"
    if d.kind == "bid":
        return ["p"], "pass"
    total = str(show_score(list(d.held), list(d.cuts), spec, d.crib).total)
    return [*total, "enter"], total


def play_table(monkeypatch, args, drive, size=(80, 24)):
    """(exit status, stdout, stderr, the app) of ``cribsolve play ARGS`` at the table, the app
    run under Pilot at ``size`` by ``drive(app, pilot)``."""
    apps = []

    async def under_pilot(app):
        async with app.run_test(size=size) as pilot:
            await drive(app, pilot)
            await pilot.pause()
        return app.return_value

    monkeypatch.setattr(play_command, "_full_screen", lambda plain: not plain)
    monkeypatch.setattr(
        TableApp, "run", lambda app: apps.append(app) or asyncio.run(under_pilot(app))
    )
    code, out, err = run("play", "--variant", "cribbage", *args)
    return code, out, err, apps[0] if apps else None


def whole_game(answers: list, screens: list = None, reviewed: list = None):
    """A drive: every decision answered by first_fitting (its transcript lines kept in
    ``answers``; ``screens``: each decision and the screen's text at it); ``reviewed``: r at
    the end, the review's screen kept, Escape; then q."""

    async def drive(app, pilot):
        d = None
        while (d := await next_decision(app, pilot, d)) is not None:
            keys, line = first_fitting(app)
            answers.append(line)
            if screens is not None:
                screens.append((d, screen_text(app)))
            await pilot.press(*keys)
        if reviewed is not None:
            await pilot.press("r")
            for _ in range(int(WAIT / 0.05)):
                await pilot.pause(0.05)
                if "\ndeal 1: " in (text := screen_text(app)):
                    break
            reviewed.append(text)
            await pilot.press("escape")
        await pilot.press("q")

    return drive
