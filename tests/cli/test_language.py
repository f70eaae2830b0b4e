"""One language across the commands: a concept is spelled one way wherever it is an option
(walked over every command), the old spellings still work for a release with a note, and
contradictory options are refused."""

import json

import click
import pytest
from clihelp import run

from cribsolve.cli import cli
from cribsolve.cli.options import Number, show

# concept -> (the spelling every command uses, spellings no command may show)
SPELLINGS = {
    "the seat": ("--dealer", ["--me", "--seat", "--who-deals"]),
    "cards already seen": ("--seen", ["--known", "--exposed"]),
    "the cut card": ("--starter", ["--cut", "--cut-card"]),
    "the hand": ("CARDS", ["--hand", "--cards"]),
    "a crib's cards": ("--crib-cards", ["--crib-hand"]),
    "a computer player": ("--opponent-policy", ["--opponent", "--computer"]),
    "the opponent's throw to the crib": ("--throw-model", ["--opponent", "--crib-model"]),
}
HAND = ["5H", "5S", "JD", "6C", "7C", "KH"]


def _commands():
    ctx = click.Context(cli, info_name="cribsolve")
    for name in cli.list_commands(ctx):
        cmd = cli.get_command(ctx, name)
        subs = (
            [cmd]
            if not isinstance(cmd, click.Group)
            else [cmd.get_command(ctx, s) for s in cmd.list_commands(ctx)]
        )
        yield from ((name, c) for c in subs)


def test_no_concept_is_spelled_two_ways():
    shown = {}
    for name, cmd in _commands():
        for p in cmd.params:
            if not getattr(p, "hidden", False):
                for spelling in p.opts + list(getattr(p, "secondary_opts", [])):
                    shown.setdefault(spelling, set()).add(name)
        if isinstance(cmd.params[0] if cmd.params else None, click.Argument):
            assert cmd.params[0].human_readable_name in ("CARDS", "GAME", "ACTION"), name
    for concept, (ours, others) in SPELLINGS.items():
        for other in others:
            assert other not in shown, f"{concept}: {sorted(shown[other])} spell it {other}"
    crib = [p for _, cmd in _commands() for p in cmd.params if "--crib" in p.opts]
    assert crib and all(p.is_flag for p in crib)  # --crib: count as the crib, always
    for name in ("best-discard", "best-play", "odds", "crib-table", "play"):
        assert name in shown["--dealer"] and name in shown["--pone"], name
    assert {"best-discard", "best-play"} <= shown["--seen"]


def test_a_count_says_its_range_one_way_and_samples_means_one_thing():
    """Every count typed as a Number states its bounds in its help as its error does ('2 to
    1e5'); --samples is one option wherever it is taken (the draws of a sampled analysis:
    same bounds, same default), and the bracket's hands drawn for its bound, another thing,
    are --next-hands."""
    samples = {}
    for name, cmd in _commands():
        for p in cmd.params:
            if isinstance(p.type, Number):
                assert f"{show(p.type.lo)} to {show(p.type.hi)}" in p.help, (name, p.opts)
            if "--samples" in p.opts:
                samples[name] = (p.type.lo, p.type.hi, p.default)
    assert len(samples) >= 3 and len(set(samples.values())) == 1
    assert "bracket" not in samples
    lo, hi, _ = next(iter(samples.values()))
    for args in (
        ["best-discard", *HAND, "--variant", "patience2"],
        ["best-play", "AC", "3D"],
        ["play", "--variant", "patience2", "--seed", "1"],
    ):
        code, out, err = run(*args, "--samples", str(hi + 1))
        assert code == 2 and out == "" and len(err.splitlines()) == 1
        assert (
            f"'--samples': '{hi + 1}' is not a whole number from {show(lo)} to {show(hi)}" in err
        ), err


@pytest.mark.parametrize(
    "args",
    [
        ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--dealer", "--pone"],
        ["best-play", "AC", "3D", "--played", "KH 8S", "--pone", "--dealer"],
        ["odds", "--my-score", "3", "--their-score", "5", "--dealer", "--pone"],
        ["play", "--variant", "cribbage", "--pone", "--dealer"],
    ],
)
def test_both_seats_at_once_are_refused(args):
    code, out, err = run(*args)
    assert code == 2 and out == "" and err.strip() == "cribsolve: give --dealer or --pone, not both"


@pytest.mark.slow
def test_old_spellings_give_the_same_answer_with_a_note():
    pairs = [
        (
            ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--pone", "--known", "QD"],
            ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--pone", "--seen", "QD"],
        ),
        (
            ["best-play", "--hand", "TS 2C 3D 8H", "--played", "5H", "--json"],
            ["best-play", "TS", "2C", "3D", "8H", "--played", "5H", "--json"],
        ),
        (
            ["odds", "--my-score", "35", "--their-score", "37", "--dealer", "them", "--json"],
            ["odds", "--my-score", "35", "--their-score", "37", "--pone", "--json"],
        ),
        (
            ["odds", "--my-score", "35", "--their-score", "37", "--dealer=ME", "--json"],
            ["odds", "--my-score", "35", "--their-score", "37", "--dealer", "--json"],
        ),
        (
            ["bracket", "--variant", "patience", "-n", "2", "--samples", "1", "--json", "--quiet"],
            [
                "bracket",
                "--variant",
                "patience",
                "-n",
                "2",
                "--next-hands",
                "1",
                "--json",
                "--quiet",
            ],
        ),
    ]
    hand = ["5H", "5S", "JD", "6C", "7C", "KH", "--dealer", "--json"]
    pairs += [
        (
            ["best-discard", *hand, "--opponent", "uniform"],
            ["best-discard", *hand, "--throw-model", "uniform"],
        ),
        (
            ["crib-table", "--pone", "--opponent", "uniform", "--json"],
            ["crib-table", "--pone", "--throw-model", "uniform", "--json"],
        ),
    ]
    for old, new in pairs:
        (c1, o1, e1), (c2, o2, e2) = run(*old), run(*new)
        assert c1 == c2 == 0 and o1 == o2 and e2 == ""
        assert len(e1.splitlines()) == 1 and "is now spelled" in e1, e1


def test_play_opponent_is_now_the_opponent_policy():
    """play's computer player is spelled as simulate spells it; the old --opponent still reads
    as it (here refused alike, for a solitaire)."""
    (c1, _, e1), (c2, _, e2) = (
        run("play", "--variant", "patience", "--opponent", "greedy"),
        run("play", "--variant", "patience", "--opponent-policy", "greedy"),
    )
    assert (
        c1 == c2 == 2
        and e1 == e2 == "cribsolve: --opponent-policy does not apply to --variant patience\n"
    )


def test_odds_seat_reads_as_before():
    mine = json.loads(
        run("odds", "--my-score", "35", "--their-score", "37", "--dealer", "--json")[1]
    )
    theirs = json.loads(
        run("odds", "--my-score", "35", "--their-score", "37", "--pone", "--json")[1]
    )
    assert mine["dealer"] == "me" and theirs["dealer"] == "them"
    assert mine["win_probability"] > theirs["win_probability"]  # the crib is worth points


@pytest.mark.parametrize(
    "args,says",
    [
        (
            [
                "best-discard",
                "AC",
                "2C",
                "3C",
                "4C",
                "5C",
                "6C",
                "--variant",
                "patience",
                "--score",
                "500",
                "--deal",
                "1",
            ],
            "--score",
        ),
        (
            [
                "best-discard",
                "AC",
                "2C",
                "3C",
                "4C",
                "5C",
                "6C",
                "--variant",
                "patience2",
                "--score",
                "90",
                "--deal",
                "2",
            ],
            "at most 89",
        ),
        (["best-play", "TS", "2C", "3D", "8H", "--seen", "AH 2H 3H 4H"], "sees at most 3"),
        (
            ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--dealer", "--hand-size", "7"],
            "--hand-size",
        ),
        (
            ["odds", "--my-score", "3", "--their-score", "5", "--dealer", "--stinkhole"],
            "--stinkhole",
        ),
    ],
)
def test_impossible_positions_are_refused(args, says):
    code, out, err = run(*args)
    assert code == 2 and out == "" and says in err and len(err.splitlines()) == 1, err


def test_a_bound_is_shown_by_an_example_within_it():
    code, _, err = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--dealer",
        "--wild",
        "K",
        "--samples",
        "1e9",
    )
    assert code == 2 and "1e5" in err and "1e6" not in err
    code, _, err = run("simulate", "-n", "1e99")
    assert code == 2 and "1e6" in err
