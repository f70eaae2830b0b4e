"""The table on screen (terminal.Screen): the pegging board drawn after each score with the
front and back pegs where the scores put them, the skunk lines, the hand as numbered cards and
the play's series, every line within the width; without a screen, the transcript as before."""

import re

import pytest
from test_match import Script, play_game

from cribsolve.core.notation import parse_cards
from cribsolve.games.cribbage.rules import announce
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.terminal import Screen

TRACK = re.compile(r"^  (\S.*?) +\|([.:oO]+)\| +(\d+)$")


def test_a_board_puts_each_peg_in_the_column_of_its_score():
    s = Screen(["you", "they"], 121, False, 80)
    ruler, you, they = s.board([101, 90], [97, 85])
    assert s.step == 2  # 121 holes in 61 columns
    mine, theirs = TRACK.match(you).group(2), TRACK.match(they).group(2)
    assert len(mine) == 61 and mine.index("O") == 50 and mine.index("o") == 48  # 101, 97
    assert theirs.index("O") == 44 and theirs.index("o") == 42  # 90, 85
    assert [i for i, c in enumerate(mine) if c in ":o"] == [30, 45, 48]  # 61, 91: skunk lines
    assert ruler.rstrip().endswith("121") and ruler.index("121") + 3 == you.index("|") + 1 + 61
    assert TRACK.match(you).group(3) == "101"


def test_lowball_has_no_skunk_lines_and_nobody_is_off_the_board_at_zero():
    s = Screen(["you", "left", "right"], 61, True, 50)
    for line in s.board([0, 3, 60], [0, 0, 55])[1:]:
        track = TRACK.match(line).group(2)
        assert ":" not in track and len(line) <= 50
    assert "O" not in TRACK.match(s.board([0, 3, 60], [0, 0, 55])[1]).group(2)


def test_the_hand_and_the_series():
    s = Screen(["you", "they"], 121, False)
    top, cards, bottom, numbers = s.hand(parse_cards(["JD 2H 5S"]), "your cards")
    assert cards == "  your cards: |JD| |2H| |5S|"
    assert numbers.split() == ["1", "2", "3"]
    assert numbers.index("1") == cards.index("JD") and numbers.index("3") == cards.index("5S")
    played = parse_cards(["KD QC"]) + [GO, GO] + parse_cards(["5S"])
    assert s.series(played, 1, 5) == "  the play: 5S  (count 5)"
    assert s.series(played, 0, 0) == "  the play: -  (count 0)"


@pytest.mark.parametrize("width", [80, 50])
def test_a_whole_game_draws_the_board_after_every_score_within_the_width(width):
    from cribsolve.games.cribbage.rules.spec import CribbageSpec
    from cribsolve.games.cribbage.table.computer import Computer
    from cribsolve.games.cribbage.table.match import Match

    screen, lines, spec = Screen(["you", "they"], 121, False, width), [], CribbageSpec()
    say = lambda text="", nl=True: lines.extend(screen.fit(text))  # noqa: E731 (as play says)
    m = Match(spec, Script(), Computer("greedy", spec), say, seed=4, screen=screen)
    m.run()
    assert max(len(line) for line in lines) <= width
    tracks = [TRACK.match(line).groups() for line in lines if TRACK.match(line)]
    assert len(tracks) > 40 and [t[0] for t in tracks[:2]] == ["you", "they"]
    for name, track, score in tracks:
        if int(score):
            assert track.index("O") == (min(int(score), 121) - 1) // screen.step
    assert [int(t[2]) for t in tracks[-2:]] == m.scores  # the last board: the final score
    assert not any("[you " in line for line in lines)  # no transcript board at line ends


def test_without_a_screen_the_transcript_is_as_before():
    m, _, lines = play_game(4)
    assert any(line.endswith(f"[you {m.scores[0]}, they {m.scores[1]}]") for line in lines)
    assert not any(TRACK.match(line) for line in lines)


def test_nineteen_says_what_it_means():
    assert announce.cadence([]) == "nineteen, that is nothing (no hand can make 19)"


def test_a_resumed_match_counts_the_deals_finished():
    """A game resumed from a record of k finished deals and stopped at once has finished k
    deals, not k + 1 (the message said 'keeps the k + 1 deals finished')."""
    from cribsolve.games.cribbage.rules.spec import CribbageSpec
    from cribsolve.games.cribbage.table.computer import Computer
    from cribsolve.games.cribbage.table.match import Match
    from cribsolve.games.cribbage.table.record import parse_record
    from cribsolve.games.cribbage.table.replay import replay

    _, text, _ = play_game(5, player=Script(stop_after=12))
    done = replay(parse_record(text))
    assert len(done.deals) >= 1
    spec = CribbageSpec()
    m = Match(spec, Script(stop_after=0), Computer("greedy", spec), lambda *a, **k: None, seed=5)
    with pytest.raises(EOFError):
        m.run(done)
    assert m.result.deals == len(done.deals)


def test_pegs_past_the_game_length_stand_at_the_end_of_the_track():
    """Two cribs play the deal out, so both pegs can pass the game length (issue 64)."""
    s = Screen(["you", "they"], 121, False, 80)
    you, they = (TRACK.match(line).groups() for line in s.board([130, 119], [124, 104])[1:])
    assert you[1].endswith("O") and "o" not in you[1] and you[2] == "130"
    assert they[1].index("o") == 51 and they[1].index("O") == 59  # 104, 119
    wide = TRACK.match(s.board([140, 0], [120, 0])[1]).group(2)
    assert wide.endswith("oO")  # 120 and 140 (at 121)


@pytest.mark.parametrize("width", [80, 60])
def test_a_coloured_board_keeps_each_track_on_one_line(width):
    """The front pegs' colour codes take no column: each track is one line within the width,
    as without colour (at 80 columns it was drawn on three lines, 'you', the track, the score)."""
    plain = Screen(["you", "they"], 121, False, width)
    coloured = Screen(["you", "they"], 121, False, width, colour=True)
    board = coloured.board((65, 58), (63, 56))
    lines = coloured.fit("\n".join(board))
    unstyled = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    assert unstyled == plain.fit("\n".join(plain.board((65, 58), (63, 56))))
    assert len(lines) == 3 and max(map(len, unstyled)) <= width and "\x1b[" in lines[1]
