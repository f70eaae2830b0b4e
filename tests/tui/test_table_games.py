"""Whole games at the full-screen table under Textual's Pilot: the record a game at the table
writes is the record of the same seeded game played through the transcript with the same
answers, its closing lines are the transcript's, at every decision the board shows the scores
the referee holds, within the width, and r at the end shows the game's review."""

import re

import pytest
from clihelp import run
from tablehelp import play_table, whole_game

TRACK = re.compile(r"^ *(you|they|left|right) +\|([.:oO]+)\| +(\d+) *$")
GAME = ("--seed", 3, "--game-length", 61, "--opponent-policy", "greedy")


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [(), ("--two-cribs",), ("--players", 3), ("--count-yourself",), ("--bid",), ("--draw",)],
    ids=["standard", "two-cribs", "three-players", "count-yourself", "bid", "draw"],
)
def test_a_game_at_the_table_is_the_transcripts_game(monkeypatch, tmp_path, rules):
    answers, screens, reviewed = [], [], []
    table, plain = tmp_path / "table.txt", tmp_path / "plain.txt"
    code, out, err, app = play_table(
        monkeypatch, (*GAME, *rules, "--record", table), whole_game(answers, screens, reviewed)
    )
    assert code == 0, err
    assert "game over: " in out and f"the whole table: cribsolve review {table}" in out
    code, transcript, err = run(
        "play",
        "--variant",
        "cribbage",
        "--plain",
        *GAME,
        *rules,
        "--record",
        plain,
        stdin="".join(f"{a}\n" for a in answers).encode(),
    )
    assert code == 0, err
    assert table.read_text() == plain.read_text()
    closing = transcript[transcript.index("\ngame over: ") + 1 :]
    assert out == closing.replace(str(plain), str(table))
    assert len(screens) == len(answers) > 10
    assert " decision   yours  best " in reviewed[0]  # r: the review of the game just played
    for d, text in screens:
        lines = text.splitlines()
        assert max(map(len, lines)) <= 80
        if d.kind != "count":
            assert [int(m[3]) for m in map(TRACK.match, lines) if m] == list(d.scores)
