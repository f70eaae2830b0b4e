"""The full-screen table (cribsolve.tui) headless under Textual's Pilot, in seconds: up at once
while the referee readies the game, every part in its place at 80 x 24 and 120 x 40, a throw by
keys and a card by a click, and leaving mid-deal as the end of input leaves the transcript."""

import asyncio
import re
import threading

import pytest
from tablehelp import next_decision, play_table, screen_text

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_card
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.computer import Computer
from cribsolve.games.cribbage.table.match import Match, Player
from cribsolve.tui.app import TableApp
from cribsolve.tui.cards import Hand

TRACK = re.compile(r"^ *(you|they|left|right) +\|([.:oO]+)\| +(\d+) *$")
GAME = ("--seed", 3, "--game-length", 31, "--opponent-policy", "greedy")


def test_the_table_is_up_before_the_referee_is_ready():
    """The referee readies (compiles) in its own thread: the board and the status line are
    drawn while it has not said a word."""
    go = threading.Event()
    app = TableApp(CribbageSpec(), lambda say, player, quiet: go.wait(5))

    async def look():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            go.set()
            return text

    text = asyncio.run(look())
    assert re.match(r" getting the game ready: \d+ s", text)
    assert [m[1] for m in map(TRACK.match, text.splitlines()) if m] == ["you", "they"]


def _parts(text: str, width: int) -> None:
    """The board, the scores, the deal, the hand and the keys all on the screen, each line
    within the width."""
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= width
    tracks = [m for m in map(TRACK.match, lines) if m]
    assert [m[1] for m in tracks] == ["you", "they"] and all(m[3] == "0" for m in tracks)
    assert any(line.strip().startswith("deal 1: ") for line in lines)
    cards = next(line for line in lines if line.lstrip().startswith("│"))
    assert len(re.findall(r"│\w\w│", cards)) == 6
    assert lines[lines.index(cards) + 2].split()[:6] == ["1", "2", "3", "4", "5", "6"]
    assert any(line.lstrip().startswith("throw 2 to ") for line in lines)
    assert "? hint" in lines[-1] and "q quit" in lines[-1]
    assert any("cribbage to 31 against greedy, seed 3" in line for line in lines)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_throw_by_keys_a_card_by_a_click_then_leaving(monkeypatch, tmp_path, size):
    rec = tmp_path / "g.txt"
    seen = {}

    async def drive(app, pilot):
        d = await next_decision(app, pilot)
        assert d.kind == "throw"
        seen["throw"] = screen_text(app)
        await pilot.press("1", "right", "space", "enter")  # the first two cards
        d = await next_decision(app, pilot, d)
        assert d.kind == "play"
        seen["play"] = screen_text(app)
        hand = app.query_one(Hand)
        i = hand.usable.index(True)
        seen["laid"] = d.hand[i]
        await pilot.click(Hand, offset=(5 * i + 1, 2))
        d = await next_decision(app, pilot, d)
        await pilot.press("q")

    code, out, err, app = play_table(monkeypatch, (*GAME, "--record", rec), drive, size)
    assert code == 0, err
    _parts(seen["throw"], size[0])
    assert "starter " in seen["play"] and re.search(r"^ count \d+", seen["play"], re.M)
    text = rec.read_text()
    assert "game: 31" in text and "\ndeal 1" not in text  # no deal finished
    assert out.startswith("game stopped in deal 1 at ") and out.rstrip().endswith("--seed 3 --pone")
    assert f"you lay {format_card(seen['laid'])}" in "\n".join(app.lines)


class _FirstCards(Player):
    """Throws the first cards, lays the first card that fits; stops after ``stop`` decisions."""

    def __init__(self, spec, stop=None):
        self.spec, self.stop = spec, stop

    def _ask(self):
        if self.stop is not None:
            self.stop -= 1
            if self.stop < 0:
                raise EOFError

    def throw(self, d):
        self._ask()
        return d.hand[: len(d.hand) - self.spec.kept]

    def lay(self, d):
        self._ask()
        return next(c for c in d.hand if d.count + VALUE[RANK[c]] <= self.spec.peg_limit)


def _game_file(path, seed, stop=None):
    spec = CribbageSpec(game_length=31)
    with open(path, "w") as f:
        m = Match(
            spec, _FirstCards(spec, stop), Computer("greedy", spec), lambda *a: None, f.write, seed
        )
        try:
            m.run()
        except EOFError:
            pass
    return m.result.winner


def test_the_table_opens_with_your_record_against_each_computer_player(tmp_path):
    winners = [_game_file(tmp_path / f"{seed}.txt", seed) for seed in (1, 2, 3)]
    assert _game_file(tmp_path / "stopped.txt", 4, stop=6) is None  # a deal finished
    _game_file(tmp_path / "no deal.txt", 5, stop=0)  # passed over: nothing to count
    (tmp_path / "notes.txt").write_text("not a game\n")
    (tmp_path / "now.txt").write_text("")  # the game at the table, left out
    go = threading.Event()
    app = TableApp(
        CribbageSpec(),
        lambda say, player, quiet: go.wait(5),
        record=str(tmp_path / "now.txt"),
        games=str(tmp_path),
    )

    async def look():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(500):
                await pilot.pause(0.02)
                if "against greedy" in screen_text(app):
                    break
            go.set()
            return screen_text(app)

    text = asyncio.run(look())
    won, lost = winners.count("you"), winners.count("they")
    counts = ", ".join(
        f"{n} {how}" for n, how in ((won, "won"), (lost, "lost"), (1, "unfinished")) if n
    )
    assert f"against greedy: {counts}" in text
