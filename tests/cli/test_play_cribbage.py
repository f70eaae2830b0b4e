"""cribsolve play --variant cribbage over stdin: a scripted game to its end whose closing
summary is the review of the record it wrote, hints equal to best-discard's and best-play's
own output, bad input answered with one line and the prompt again, end of input and Ctrl-C
leaving a record review reads, and the options that do not apply refused in one line."""

import io
import json
import re
import sys

import pytest
from clihelp import run

from cribsolve.cli import main

# the transcript (--plain): the tests read its lines; the screen has tests of its own
PLAY = ("play", "--variant", "cribbage", "--plain")
SCREEN = ("play", "--variant", "cribbage")


@pytest.mark.slow
def test_a_scripted_game_ends_with_the_review_of_its_record(tmp_path):
    rec = tmp_path / "game.txt"
    code, out, err = run(
        *PLAY,
        "--seed",
        3,
        "--game-length",
        31,
        "--opponent-policy",
        "greedy",
        "--record",
        rec,
        stdin=b"\n" * 400,
    )
    assert code == 0, err
    assert "game over: " in out and f"the whole table: cribsolve review {rec}" in out
    summary = out.splitlines()[-3:-1]
    code, review_out, err = run("review", rec, "--quiet")
    assert code == 0, err
    assert review_out.splitlines()[-2:] == summary
    final = re.search(r"game over: (you|they) wins? (\d+)-(\d+)", out)
    assert summary[1] == f"{final[1]} won {final[2]}-{final[3]}"


@pytest.mark.parametrize(
    "show,play",
    [
        (("--lowball", "--hand-size", 5, "--crib-size", 2), ()),
        (("--wild", "K", "--target", 16), ("--stinkhole", "--peg-limit", 41)),
    ],
)
@pytest.mark.slow
def test_a_scripted_house_rule_game_reviews_to_the_same_result(tmp_path, show, play):
    """Enter at every prompt, under two sets of switches: the record names the rules, and
    review's replay of it ends where the game did, with the summary the game printed; the
    throw's hint is best-discard's own sampled table for that hand."""
    rec = tmp_path / "game.txt"
    code, out, err = run(
        *PLAY,
        "--seed",
        4,
        "--pone",
        "--game-length",
        31,
        "--opponent-policy",
        "greedy",
        "--coach",
        "--record",
        rec,
        *show,
        *play,
        stdin=b"\n" * 400,
    )
    assert code == 0, err
    assert "rules: " in rec.read_text()
    code, review_out, err = run("review", rec, "--quiet")
    assert code == 0, err
    assert review_out.splitlines()[-2:] == out.splitlines()[-3:-1]
    final = re.search(r"game over: (you|they) wins? (\d+)-(\d+)", out)
    assert review_out.splitlines()[-1] == f"{final[1]} won {final[2]}-{final[3]}"
    hand = _hand(out)
    code, bd, err = run("best-discard", *hand, "--pone", *show, "--json")
    assert code == 0, err
    sampled = {
        " ".join(d["discard"]): [d["hand"], d["crib"], d["net"]] for d in json.loads(bd)["discards"]
    }
    for throw, figures in _rows(out, "throw"):
        assert figures[:3] == [round(x, 2) for x in sampled[throw]]


def _hand(out):
    line = next(s for s in out.splitlines() if s.startswith("  your cards: "))
    return [w.split(":")[1] for w in line.split()[2:]]


def _rows(out, head):
    """The rows of the hint table under the line starting with ``head``."""
    lines = out.splitlines()
    i = next(
        k
        for k, s in enumerate(lines)
        if s.split()[:1] == [head] and "mine" in s or "value" in s and s.split()[:1] == [head]
    )
    rows = []
    for s in lines[i + 1 :]:
        m = re.match(r"  ((?:[2-9TJQKA][CDHS] ?)+?)\s+(-?\d+\.\d\d(?:\s+-?\d+\.\d\d)*)$", s)
        if not m:
            break
        rows.append((m[1].strip(), [float(x) for x in m[2].split()]))
    return rows


def test_the_hints_are_best_discard_and_best_play(tmp_path):
    """As the pone (they deal): ? at the throw, then ? at your lead."""
    code, out, err = run(
        *PLAY,
        "--seed",
        11,
        "--pone",
        "--record",
        tmp_path / "g.txt",
        stdin=b"?\n\n?\n",
    )
    assert code == 0, err
    hand = _hand(out)
    throws = _rows(out, "throw")
    code, bd, err = run("best-discard", *hand, "--pone", "--pegging", "--json")
    assert code == 0, err
    expect = [
        (" ".join(d["discard"]), [d["hand"], d["crib"], d["net"], d["pegging"], d["value"]])
        for d in json.loads(bd)["discards"]
    ]
    assert [r[0] for r in throws] == [e[0] for e in expect]
    assert [r[1] for r in throws] == [[round(x, 2) for x in e[1]] for e in expect]
    thrown = re.search(r"you throw (\S\S \S\S)", out)[1]
    starter = re.search(r"the starter: (\S\S)", out)[1]
    kept = [c for c in hand if c not in thrown.split()]
    lays = _rows(out, "lay")
    code, bp, err = run(
        "best-play", "--hand", " ".join(kept), "--pone", "--seen", f"{thrown} {starter}", "--json"
    )
    assert code == 0, err
    expect = [(p["card"], [p["mine"], p["theirs"], p["margin"]]) for p in json.loads(bp)["plays"]]
    assert lays == [(c, [round(x, 2) for x in f]) for c, f in expect]
    assert "game stopped in deal 1" in out and "no deal was finished" in out


def test_bad_input_at_every_prompt_is_one_line_then_the_prompt(tmp_path):
    script = b"zz\n1\n1 2 3\n9\n1 2\n" + b"\n" * 5 + b"x\n-1\n" + b"\n" * 60
    code, out, err = run(
        *PLAY,
        "--seed",
        2,
        "--dealer",
        "--count-yourself",
        "--game-length",
        31,
        "--opponent-policy",
        "greedy",
        "--record",
        tmp_path / "g.txt",
        stdin=script,
    )
    assert code == 0, err
    lines = out.splitlines()
    for bad, says in [
        ("zz", "unknown card"),
        ("1", "1 card named"),
        ("1 2 3", "3 cards named"),
        ("9", "there is no card 9"),
        ("x", "type the points"),
        ("-1", "type the points"),
    ]:
        i = next(k for k, s in enumerate(lines) if s.endswith(": " + bad) or s == bad)
        assert says in lines[i + 1], (bad, lines[i + 1])
        assert lines[i + 2].lstrip().startswith(("throw 2", "your count")), lines[i + 2]


class _Interrupted(io.StringIO):
    """Lines, then Ctrl-C."""

    def readline(self, *args):
        line = super().readline(*args)
        if not line:
            raise KeyboardInterrupt
        return line


def test_ctrl_c_keeps_the_record_of_the_deals_finished(tmp_path, monkeypatch):
    rec = tmp_path / "g.txt"
    monkeypatch.setattr(sys, "stdin", _Interrupted("\n" * 12))
    monkeypatch.setattr(
        sys,
        "argv",
        ["cribsolve", *PLAY, "--seed", 5, "--opponent-policy", "greedy", "--record", str(rec)],
    )
    with pytest.raises(SystemExit) as stop:
        main()
    assert stop.value.code == 130
    code, out, err = run("review", rec, "--quiet")
    assert code == 0, err
    assert "with the game unfinished" in out


@pytest.mark.parametrize("rules", [(), ("--lowball",)])
@pytest.mark.slow
def test_a_resumed_game_is_the_game_played_through(tmp_path, rules):
    """Broken off after a few deals (end of input), then --resume: the record and the closing
    summary are those of the same game played without a break (same seed, same answers)."""
    whole, part = tmp_path / "whole.txt", tmp_path / "part.txt"
    args = (
        *PLAY,
        "--seed",
        8,
        "--pone",
        "--game-length",
        61,
        "--opponent-policy",
        "greedy",
        *rules,
    )
    code, out_whole, err = run(*args, "--record", whole, stdin=b"\n" * 400)
    assert code == 0, err
    code, out, err = run(*args, "--record", part, stdin=b"\n" * 14)
    assert code == 0, err
    # each command the stop suggests on a line of its own, to be copied whole
    assert f"go on with:\n  cribsolve play --variant cribbage --resume {part}\n" in out
    assert out.endswith(f"or review them:\n  cribsolve review {part}\n")
    kept = part.read_text()
    assert 0 < kept.count("\ndeal ") < whole.read_text().count("\ndeal ")
    code, out, err = run(*PLAY, "--resume", part, stdin=b"\n" * 400)
    assert code == 0, err
    assert part.read_text() == whole.read_text()
    assert out.splitlines()[-3:-1] == out_whole.splitlines()[-3:-1]
    code, out, err = run(*PLAY, "--resume", part)
    assert code == 2 and "the game is over" in err


@pytest.mark.parametrize(
    "args,says",
    [
        ((*PLAY, "--resume", "examples/game1.txt"), "not a game cribsolve play wrote"),
        ((*PLAY, "--resume", "x.txt", "--seed", 3), "--seed does not apply to --resume"),
        ((*PLAY, "--resume", "x.txt", "--lowball"), "--lowball does not apply to --resume"),
        (
            ("play", "--variant", "patience", "--seed", 1, "--pysol-game", 5),
            "give one deal: --pysol-game N or --seed S, not both",
        ),
        (("play", "--variant", "patience"), "give the deal"),
        ((*PLAY, "--five-card", "--opponent-policy", "expert"), "the two-player search"),
        ((*PLAY, "--pysol-game", 5), "--pysol-game does not apply to --variant cribbage"),
        (("play", "--variant", "patience", "--seed", 1, "--coach"), "--coach does not apply"),
        ((*PLAY, "--muggins"), "--muggins goes with --count-yourself"),
        ((*PLAY, "--record", "/nonexistent-folder/x.txt"), "--record"),
    ],
)
def test_options_that_do_not_apply_are_one_line(args, says, no_work):
    code, out, err = run(*args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err


def test_a_pasted_page_is_not_echoed_back(tmp_path):
    """A 300 KB line at a prompt: echoed and answered within a line each."""
    page = b"Q" * 300_000
    script = page + b"\n" + b"\n" * 80
    code, out, err = run(
        *PLAY,
        "--seed",
        2,
        "--dealer",
        "--game-length",
        31,
        "--opponent-policy",
        "greedy",
        "--record",
        tmp_path / "g.txt",
        stdin=script,
    )
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) < 400 and len(out) < 40_000


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 60])
def test_a_whole_game_on_screen_keeps_within_the_width(tmp_path, width):
    """Enter at every prompt of a whole game, drawn for ``width`` columns: the board after the
    scores, the hand as numbered cards, the play's series, and no line wider than asked;
    --plain is the one-line transcript, with the scores at the ends of lines."""
    args = (*SCREEN, "--seed", 6, "--game-length", 61, "--opponent-policy", "greedy", "--coach")
    code, out, err = run(*args, "--width", width, "--record", tmp_path / "a.txt", stdin=b"\n" * 400)
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    assert sum(bool(re.match(r"^  (you|they) +\|[.:oO]+\| +\d+$", line)) for line in lines) > 20
    assert any(line.startswith("  your cards: |") for line in lines)
    assert any(line.startswith("  the play: ") for line in lines)
    code, plain, err = run(*args, "--plain", "--record", tmp_path / "b.txt", stdin=b"\n" * 400)
    assert code == 0, err
    assert "[you 0, they 0]" in plain and "|" not in plain.replace("| ", "")
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()  # the same game


@pytest.mark.slow
def test_a_resumed_game_stopped_at_once_keeps_the_deals_it_had(tmp_path):
    """The message after a resume counts the deals the record holds (it said one more)."""
    rec = tmp_path / "g.txt"
    args = (*PLAY, "--seed", 8, "--game-length", 61, "--opponent-policy", "greedy")
    code, out, err = run(*args, "--record", rec, stdin=b"\n" * 14)
    assert code == 0, err
    k = rec.read_text().count("\ndeal ")
    code, out, err = run(*PLAY, "--resume", rec, stdin=b"")
    assert code == 0, err
    assert f"game stopped in deal {k + 1} " in out
    assert f"keeps the {k} deal{'s' * (k != 1)} finished" in out


class _Counts(io.TextIOBase):
    """stdin that answers as the prompt asks: a count of 3 where you count, else Enter (the
    adviser's choice); end of input after ``answers`` answers."""

    def __init__(self, answers=10_000):
        self.answers = answers

    def readline(self, size=-1):
        if self.answers <= 0:
            return ""
        self.answers -= 1
        prompt = sys.stdout.getvalue()[-200:].rsplit("\n", 1)[-1]  # clihelp.run's stdout
        return "3\n" if "your count for" in prompt else "\n"

    def isatty(self):
        return False


def _run_counting(*args, answers=10_000):
    """(exit status, stdout, stderr) of ``cribsolve ARGS`` with _Counts' answers."""
    return run(*args, stdin=_Counts(answers))


def test_a_muggins_game_resumes_from_the_counts_its_record_keeps(tmp_path):
    """Under muggins the record keeps your counts ('counts:' lines), so a game broken off goes
    on from it (you counting on, as the game had it) to the record of the game played through;
    an older record, with no 'counts' lines, is refused in one line that says why."""
    whole, part = tmp_path / "whole.txt", tmp_path / "part.txt"
    args = (*PLAY, "--seed", 4, "--count-yourself", "--muggins", "--quiet")
    code, out, err = _run_counting(*args, "--record", whole)
    assert code == 0, err
    assert "muggins: the " in out and "\ncounts: " in whole.read_text()
    code, out, err = _run_counting(*args, "--record", part, answers=25)
    assert code == 0, err
    kept = part.read_text()
    assert 0 < kept.count("\ndeal ") < whole.read_text().count("\ndeal ")
    assert kept.count("\ncounts: ") == kept.count("\ndeal ")
    old = tmp_path / "old.txt"
    old.write_text("".join(line for line in kept.splitlines(True) if not line.startswith("counts")))
    code, out, err = run(*PLAY, "--resume", part, "--quiet", stdin=b"")
    assert code == 0, err  # stopped at once: nothing written
    assert part.read_text() == kept
    code, out, err = _run_counting(*PLAY, "--resume", part, "--quiet")
    assert code == 0, err
    assert "your count for your hand: " in out
    assert part.read_text() == whole.read_text()
    code, out, err = run(*PLAY, "--resume", old)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert f"{old}: a game under --muggins whose record has no 'counts' lines" in err
