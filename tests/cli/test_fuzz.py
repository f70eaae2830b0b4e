"""Bad input, everywhere: one line on stderr naming the argument, exit status 2, no traceback,
no output file, and the check made before any long work starts."""

import os
from math import comb

import click
import pytest
from clihelp import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cribsolve.cli import cli
from cribsolve.cli.options import GAMES_MAX, Number

HAND = ["5H", "5S", "JD", "6C", "7C", "KH"]
GRID = "AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD TD".split()
NAMES = [r + s for r in "A23456789TJQK" for s in "CDHS"]


def all_but(cards, leave):
    """Every card not in ``cards`` but ``leave`` of them, as one CARDS word."""
    rest = [c for c in NAMES if c not in cards]
    return " ".join(rest[: len(rest) - leave])


@pytest.fixture(autouse=True)
def compiled(monkeypatch):
    # In-process commands must not switch this process's kernels to plain Python (_quick).
    monkeypatch.setenv("CRIBSOLVE_COMPILED", "1")


def assert_refused(code, out, err):
    assert "Traceback" not in err
    assert code == 2, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cribsolve: "), err
    assert out == ""


REPORTED = [
    # -n: inf, nan, overflow, a hang, fractions, out of range
    ["simulate", "-n", "inf"],
    ["simulate", "-n", "nan"],
    ["simulate", "-n", "1e400"],
    ["simulate", "-n", "1e99"],
    ["simulate", "-n", "-inf"],
    ["simulate", "-n", "1.5"],
    ["simulate", "-n", "0"],
    ["simulate", "-n", "-3"],
    ["simulate", "-n", ""],
    ["simulate", "-n", "1_000_000_001"],
    ["simulate", "-n", "1e9999999999999999999999"],
    ["simulate", "--variant", "cribbage", "-n", "1e99"],
    # seeds on every variant
    *[
        ["simulate", "--variant", v, "-n", "10", "--seed", s]
        for v in ("patience", "patience2", "shuffle", "cribbage")
        for s in ("-1", "4294967296")
    ],
    ["best-discard", *HAND, "--variant", "patience2", "--seed", "-1"],
    # sizes that ran out of memory or never finished
    ["score", "--whole-deck", "--jokers", "1000000000000"],
    ["score", "--whole-deck", "--decks", "1000000000000"],
    ["score", "5H", "--starter", "5C", "--target", "99999999999999999999"],
    ["odds", "--game-length", "1000000", "--my-score", "1", "--their-score", "1", "--dealer"],
    ["odds", "--game-length", "1", "--my-score", "0", "--their-score", "0", "--dealer"],
    ["odds", "--my-score", "99999999999999999999", "--their-score", "1", "--dealer"],
    ["odds", "--my-score", "-1", "--their-score", "1", "--dealer"],
    ["odds", "--my-score", "121", "--their-score", "1", "--dealer"],
    ["odds", "--game-length", "61", "--my-score", "61", "--their-score", "1", "--dealer"],
    ["simulate", "--variant", "cribbage", "--game-length", "1000000", "-n", "1"],
    ["simulate", "--variant", "cribbage", "--game-length", "1", "-n", "1"],
    ["best-discard", *HAND, "--variant", "patience", "--top", "-15"],
    ["best-discard", *HAND, "--dealer", "--top", "16"],
    [
        "best-discard",
        *HAND,
        "--variant",
        "patience",
        "--score",
        "99999999999999999999",
        "--deal",
        "1",
    ],
    ["best-discard", *HAND, "--variant", "patience", "--score", "-1", "--deal", "1"],
    ["best-discard", *HAND, "--variant", "patience", "--score", "10", "--deal", "6"],
    ["best-discard", *HAND, "--variant", "patience2", "--score", "10", "--deal", "5"],
    ["best-discard", *HAND, "--variant", "patience2", "--samples", "99999999999"],
    ["best-discard", *HAND, "--variant", "patience2", "--samples", "1"],
    ["best-discard", *HAND, "--variant", "patience2", "--samples", "nan"],
    ["best-play", "TS 2C", "--count", "31"],
    ["best-play", "TS 2C", "--count", "-1"],
    ["bracket", "--variant", "patience", "--next-hands", "1001"],
    ["bracket", "--variant", "patience", "--next-hands", "-1"],
    ["bracket", "--variant", "patience", "--samples", "0.5"],
    ["shuffle", *GRID, "--starter", "5D", "--time-limit", "nan"],
    ["shuffle", *GRID, "--starter", "5D", "--time-limit", "inf"],
    ["shuffle", *GRID, "--starter", "5D", "--time-limit", "-1"],
    ["shuffle", *GRID, "--starter", "5D", "--time-limit", "1e400"],
    # counts past 64 bits, and wild cards past a few seconds of substitutions
    ["score", "--whole-deck", "--decks", "8"],
    ["score", "--whole-deck", "--decks", "5", "--jokers", "16"],
    ["score", "--whole-deck", "--decks", "2", "--target", "200"],
    ["score", "--whole-deck", "--decks", "3", "--wild", "K"],
    [
        "score",
        "5H",
        "KD",
        "KH",
        "KC",
        "KS",
        "--starter",
        "KD",
        "--starter",
        "KH",
        "--decks",
        "2",
        "--wild",
        "K",
    ],
    # more starters than the two-cut-cards variation has
    ["score", "5H", "5S", "--starter", "KD", "--starter", "KH", "--starter", "KC"],
    # so many cards seen that what is hidden cannot be dealt (nan, a division by zero, or
    # reading past the end of an array)
    ["best-discard", *HAND, "--dealer", "--throw-model", "uniform", "--seen", all_but(HAND, 2)],
    [
        "best-discard",
        *HAND[:5],
        "--pone",
        "--throw-model",
        "uniform",
        "--seen",
        all_but(HAND[:5], 3),
    ],
    ["best-discard", *HAND, "--variant", "patience", "--seen", all_but(HAND, 2)],
    ["best-discard", *HAND, "--variant", "patience", "--seen", all_but(HAND, 0)],
    [
        "best-discard",
        *HAND,
        "--variant",
        "patience2",
        "--crib-cards",
        "2C 3C",
        "--seen",
        all_but(HAND + ["2C", "3C"], 0),
    ],
    ["best-discard", *HAND, "--variant", "patience2", "--seen", all_but(HAND, 6)],
    ["best-play", "TS 2C 3D 8H", "--seen", all_but(["TS", "2C", "3D", "8H"], 3)],
    [
        "best-play",
        "TS 2C",
        "--played",
        "5H 4D 8S",
        "--count",
        "17",
        "--seen",
        all_but(["TS", "2C", "5H", "4D", "8S"], 2),
    ],
    # empty card arguments
    ["score", "", "2H", "3H", "4H", "--starter", "5C"],
    ["score", "2H", "3H", "4H", "5D", "--starter", ""],
    ["score", "2H", "3H", "4H", "5D", "--starter", "5C", "--wild", ""],
    ["score", " , ", "--starter", "5C"],
    ["best-discard", *HAND, "--dealer", "--seen", ""],
    ["best-discard", "", *HAND, "--dealer"],
    ["best-discard", *HAND, "--variant", "patience", "--seen", ""],
    ["best-discard", *HAND, "--variant", "patience2", "--crib-cards", ""],
    ["best-discard", *HAND, "--variant", "patience2", "--crib-cards", "2C 3C", "--kept", ""],
    ["best-play", ""],
    ["best-play", "TS", "--played", ""],
    ["best-play", "TS", "--seen", ""],
    ["shuffle", "", *GRID[1:], "--starter", "5D"],
    ["shuffle", *GRID, "--starter", ""],
    # numbers that were accepted and meant nothing
    ["simulate", "--jobs", "0", "-n", "10"],
    ["simulate", "--jobs", "257", "-n", "10"],
    ["best-discard", *HAND, "--dealer", "--top", "0"],
    ["best-discard", *HAND, "--variant", "patience", "--deal", "1"],
    ["best-discard", *HAND, "--variant", "patience", "--score", "10"],
    # options of another command or variant
    ["best-discard", *HAND, "--variant", "patience", "--starter", "QD"],
    ["best-discard", *HAND, "--variant", "patience", "--dealer"],
    ["best-discard", *HAND, "--variant", "patience2", "--pone"],
    ["best-discard", *HAND, "--variant", "patience", "--throw-model", "uniform"],
    ["best-discard", *HAND, "--variant", "patience", "--rules", "standard"],
    ["best-discard", *HAND, "--variant", "patience", "--batch", "-"],
    ["best-discard", *HAND, "--variant", "patience", "--crib-cards", "2C 3C"],
    ["best-discard", *HAND, "--variant", "patience", "--samples", "100"],
    ["best-discard", *HAND, "--variant", "patience", "--seed", "3"],
    ["best-discard", *HAND, "--variant", "patience2", "--crib-cards", "2C 3C", "--samples", "100"],
    ["best-discard", *HAND, "--variant", "patience2", "--kept", "2C 3C 4C 8D"],
    ["best-discard", *HAND, "--variant", "patience2", "--distribution"],
    *[
        ["best-discard", *HAND, "--dealer", opt, val]
        for opt, val in [
            ("--seen", "5H"),
            ("--crib-cards", "2C 3C"),
            ("--kept", "2C 3C 4C 8D"),
            ("--samples", "100"),
            ("--seed", "1"),
            ("--score", "10"),
            ("--deal", "1"),
        ]
    ],
    ["best-discard", "--batch", "-", "--dealer", "--seen", "QD"],
    ["best-discard", "--batch", "-", "--dealer", "--top", "1"],
    ["best-discard", "--batch", "-", "--dealer", "--json"],
    ["best-discard", "--batch", "-", "--dealer", "--distribution"],
    ["score", "--batch", "-", "--json"],
    ["simulate", "--variant", "patience", "--win-only", "-n", "10"],
    ["simulate", "--variant", "cribbage", "--win-only", "-n", "10"],
    ["simulate", "--variant", "shuffle", "--policy", "heuristic", "--win-only", "-n", "10"],
    ["simulate", "--variant", "patience", "--game-length", "61", "-n", "10"],
    ["simulate", "--variant", "shuffle", "--opponent-policy", "greedy", "-n", "10"],
    ["simulate", "--variant", "patience", "--policy", "optimal", "-n", "10"],
    ["simulate", "--variant", "shuffle", "--policy", "ev", "-n", "10"],
    ["simulate", "--variant", "cribbage", "--policy", "ev", "-n", "10"],
    ["simulate", "--variant", "patience2", "--policy", "greedy", "-n", "10"],
    ["bracket", "--variant", "patience2", "--next-hands", "8", "-n", "10"],
    ["odds", "--table", "--my-score", "3"],
    ["odds", "--table", "--json"],
    ["odds", "--table"],
    ["odds", "--my-score", "1", "--their-score", "1"],
    ["odds", "--their-score", "1", "--dealer"],
    # Cribbage Square: a grid of 15 or full, cards twice, options of another variant
    ["best-place", *GRID[:15], "--card", "5D"],
    ["best-place", *GRID, "--card", "5D"],
    ["best-place", "--", *GRID[1:], "--card", "2C"],
    ["best-place", "--", *GRID[1:], "--card", "5D", "--seen", "2C"],
    ["best-place", "--", *GRID[1:], "--card", "5D", "--waste", "2D"],
    [
        "best-place",
        "--",
        *GRID[1:],
        "--card",
        "5D",
        "--variant",
        "square-waste",
        "--waste",
        "2D 3D 4D 6D 7D 8D",
    ],
    ["best-place", "--", *GRID[1:], "--card", "5D", "--seen", all_but(GRID[1:] + ["5D"], 0)],
    ["best-place", "--", *GRID[1:], "--card", "5D", "--playouts", "10001"],
    ["best-place", "--", *GRID[1:], "--card", "JK"],
    ["best-place", "--", *GRID[1:], "--card", ""],
    ["best-place", "", *GRID[1:], "--card", "5D"],
    ["best-place", "--", *GRID[1:]],
    ["best-place", "--", *GRID[1:], "--card", "5D", "--variant", "square-reserve1"],
    ["simulate", "--variant", "square-waste", "--policy", "clairvoyant", "-n", "10"],
    ["simulate", "--variant", "square", "--win-only", "-n", "10"],
    ["simulate", "--variant", "square-reserve2", "--win-only", "-n", "10"],
    ["simulate", "--variant", "square", "--policy", "optimal", "-n", "10"],
    ["simulate", "--variant", "square", "--opponent-policy", "greedy", "-n", "10"],
    *[
        ["simulate", "--variant", v, "-n", "10", "--seed", "-1"]
        for v in ("square", "square-reserve1")
    ],
    ["deal", "--variant", "square-waste", "--pysol-game", "0"],
    # unknown things
    ["score", "ZZ", "--starter", "5C"],
    ["score", "--nope"],
    ["nope"],
    ["simulate", "--variant", "nope"],
    ["best-discard", *HAND, "--variant", "nope"],
    ["cache", "nope"],
]


@pytest.mark.parametrize("args", REPORTED, ids=lambda a: " ".join(a)[:70])
def test_reported_bad_input_is_one_line_and_exit_2(args):
    assert_refused(*run(*args, stdin=b"5H 5S JD 6C 7C KH\n"))


@pytest.mark.parametrize(
    "args, game",
    [
        ([*HAND[:5], "JK", "--variant", "patience"], "Cribbage Patience"),
        ([*HAND, "--variant", "patience2", "--seen", "JK"], "Cribbage Patience II"),
    ],
)
def test_a_joker_in_a_solitaire_names_the_game_not_an_option_it_lacks(args, game):
    code, out, err = run("best-discard", *args)
    assert (code, out, err) == (2, "", f"cribsolve: jokers are not dealt in {game}\n")


def test_a_joker_in_shuffle_names_the_game():
    code, out, err = run("shuffle", *GRID[:15], "JK", "--starter", "5D")
    assert (code, out, err) == (2, "", "cribsolve: jokers are not dealt in Cribbage Shuffle\n")


OUTPUT_CASES = [
    ["simulate", "--variant", "patience", "-n", "1e9", "--quiet", "--csv", "{bad}"],
    ["simulate", "--variant", "patience", "-n", "1e9", "--quiet", "--histogram-csv", "{bad}"],
    [
        "simulate",
        "--variant",
        "patience",
        "-n",
        "1e9",
        "--quiet",
        "--csv",
        "{ok}",
        "--histogram-csv",
        "{bad}",
    ],
    ["simulate", "--variant", "cribbage", "-n", "1e9", "--quiet", "--csv", "{bad}"],
    ["simulate", "--variant", "patience", "-n", "1e9", "--quiet", "--checkpoint", "{bad}"],
    ["bracket", "-n", "1e9", "--quiet", "--csv", "{bad}"],
    ["bracket", "-n", "1e9", "--quiet", "--csv", "{ok}", "--checkpoint", "{bad}"],
    ["odds", "--table", "--game-length", "1000", "--quiet", "--csv", "{bad}"],
    ["distribution", "--csv", "{bad}"],
    ["crib-table", "--dealer", "--quiet", "--csv", "{bad}"],
    ["best-discard", *HAND, "--dealer", "--csv", "{bad}"],
    [
        "best-discard",
        *HAND,
        "--variant",
        "patience2",
        "--score",
        "5",
        "--deal",
        "1",
        "--csv",
        "{bad}",
    ],
]


@pytest.mark.parametrize(
    "bad", ["missing/out.csv", "folder", "link.csv", "readonly/out.csv", "", "sub/"]
)
@pytest.mark.parametrize("args", OUTPUT_CASES, ids=lambda a: " ".join(a[:3]))
def test_output_paths_are_checked_before_any_work(tmp_path, monkeypatch, no_work, args, bad):
    (tmp_path / "folder").mkdir()
    (tmp_path / "readonly").mkdir()
    (tmp_path / "target.csv").write_text("x\n")
    os.symlink(tmp_path / "target.csv", tmp_path / "link.csv")
    real_access = os.access
    ro = str(tmp_path / "readonly")
    # as root every folder is writable: stand in for a read-only one
    monkeypatch.setattr(
        os,
        "access",
        lambda p, mode, *a, **k: (
            False if os.path.abspath(p) == ro and mode & os.W_OK else real_access(p, mode, *a, **k)
        ),
    )
    monkeypatch.chdir(tmp_path)
    ok = str(tmp_path / "ok.csv")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    argv = [a.replace("{bad}", bad).replace("{ok}", ok) for a in args]
    assert_refused(*run(*argv))
    assert sorted(p.name for p in tmp_path.rglob("*")) == before
    assert (tmp_path / "target.csv").read_text() == "x\n"


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only folder")
def test_read_only_folder(tmp_path, no_work):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        assert_refused(*run("simulate", "-n", "1e9", "--csv", ro / "x.csv", "--quiet"))
        assert list(ro.iterdir()) == []
    finally:
        ro.chmod(0o755)


def test_histogram_csv_for_cribbage_writes_nothing(tmp_path, no_work):
    hist = tmp_path / "hist.csv"
    assert_refused(*run("simulate", "--variant", "cribbage", "-n", "10", "--histogram-csv", hist))
    assert not hist.exists()


def test_appending_to_a_table_with_another_header_is_refused_first(tmp_path, no_work):
    table = tmp_path / "runs.csv"
    table.write_text("a,b,c\n1,2,3\n")
    assert_refused(*run("simulate", "-n", "1e9", "--quiet", "--csv", table))
    assert table.read_text() == "a,b,c\n1,2,3\n"


def test_same_file_for_both_outputs_is_refused(tmp_path, no_work):
    f = tmp_path / "x.csv"
    assert_refused(*run("simulate", "-n", "10", "--csv", f, "--histogram-csv", f))
    assert not f.exists()


def test_no_command_prints_the_usage_line_and_advice():
    for args, path in [((), "cribsolve"), (("cache",), "cribsolve cache")]:
        code, out, err = run(*args)
        assert code == 2 and out == "" and "Traceback" not in err
        assert err.splitlines() == [
            f"Usage: {path} [OPTIONS] COMMAND [ARGS]...",
            f"cribsolve: give a command (see {path} --help)",
        ]


def _all_commands():
    """(path, command) of the group and every command under it, each loaded by its group."""

    def walk(cmd, path, ctx):
        yield path, cmd
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                yield from walk(sub, path + [name], click.Context(sub, ctx, info_name=name))

    return list(walk(cli, [], click.Context(cli, info_name="cribsolve")))


def test_every_option_has_help_and_n_is_a_number():
    for path, cmd in _all_commands():
        for p in cmd.params:
            if isinstance(p, click.Option):
                assert p.help, (path, p.opts)
    code, out, _ = run("simulate", "--help")
    assert code == 0 and "-n NUMBER" in out


@pytest.mark.parametrize(
    "text,n",
    [("1e3", 1000), ("1_000", 1000), ("2000", 2000), ("1E9", 10**9), (" 12 ", 12), ("1.0e2", 100)],
)
def test_number_type_accepts_what_people_type(text, n):
    assert Number(1, GAMES_MAX).convert(text, None, None) == n


def test_whole_deck_counts_are_exact_up_to_the_bound():
    """5 decks and 8 jokers score just under 2**63: exactly, not wrapped around."""

    def exact(decks, jokers):
        counts = [jokers] + [4 * decks] * 13
        ways = [1] + [0] * 15
        for r, n in enumerate(counts):
            v = min(r, 10)
            if v == 0:
                ways = [w * 2**n for w in ways]
                continue
            ways = [
                sum(comb(n, k) * ways[s - k * v] for k in range(n + 1) if k * v <= s)
                for s in range(16)
            ]
        runs = 1
        for c in counts:
            runs *= c or 1
        return 2 * ways[15] + sum(c * (c - 1) for c in counts) + (14 if jokers else 13) * runs

    import json

    for decks, jokers in [(5, 8), (4, 16), (2, 0)]:
        code, out, err = run(
            "score", "--whole-deck", "--decks", decks, "--jokers", jokers, "--json"
        )
        assert code == 0, err
        assert json.loads(out)["total"] == exact(decks, jokers) < 2**63


# --- fuzzing: whatever is typed, exit 0 or 2, never a traceback, one line on error ----------

JUNK = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            ",",
            "-1",
            "0",
            "1e400",
            "inf",
            "-inf",
            "nan",
            "1.5",
            "1e99",
            "99999999999999999999",
            "-99999999999999999999",
            "0x10",
            "ZZ",
            "JK",
            "5H 5H",
            "\n",
            "--json",
            "é",
            "1_0",
            "--",
        ]
    ),
    st.text(max_size=12),
)
CARD = st.one_of(
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(NAMES),
    st.sampled_from(["JK", "10S", "j♦", "5h", "X2", "1C", "14C", "5X"]),
    JUNK,
)


def hand(lo, hi):
    """Mostly distinct real cards, sometimes duplicates, jokers or junk; as one word or many."""
    distinct = st.lists(st.sampled_from(NAMES), min_size=lo, max_size=hi, unique=True)
    cards = st.one_of(distinct, distinct, distinct, st.lists(CARD, max_size=hi + 2))
    return st.one_of(cards, cards.map(lambda c: [" ".join(c)]))


def value(valid):
    """A valid value four times in five, junk otherwise."""
    return st.one_of(valid, valid, valid, valid, JUNK)


def opt(name, valid):
    return st.tuples(st.just(name), value(valid)).map(list)


def flag(*names):
    return st.sampled_from(names).map(lambda f: [f])


def ints(lo, hi):
    return st.integers(lo, hi).map(str)


def command(base, options, n=3):
    """A valid invocation (``base``) with up to ``n`` options added: right, wrong or junk."""
    extra = st.lists(st.one_of(*options), max_size=n).map(lambda xs: [a for x in xs for a in x])
    return st.tuples(base, extra).map(lambda t: t[0] + t[1])


def seq(*parts):
    return st.tuples(*parts).map(lambda t: [a for p in t for a in p])


CARDS_OPT = st.one_of(
    hand(1, 4).map(" ".join),
    st.lists(st.sampled_from(NAMES), min_size=38, max_size=50, unique=True).map(" ".join),
)
OTHER = flag("--table", "--win-only", "--whole-deck", "--nope", "--batch", "--known")
SOLITAIRE = [
    opt("--seen", CARDS_OPT),
    opt("--crib-cards", hand(2, 2).map(" ".join)),
    opt("--kept", hand(4, 4).map(" ".join)),
    opt("--samples", ints(2, 20)),
    opt("--seed", ints(0, 99)),
    seq(opt("--score", ints(0, 100)), opt("--deal", ints(1, 5))),
]
TWO_PLAYER = [
    opt("--seen", CARDS_OPT),
    opt("--throw-model", st.sampled_from(["uniform", "optimal"])),
    flag("--dealer", "--pone"),
    opt("--rules", st.just("standard")),
]
HOUSE = [
    opt("--target", ints(1, 30)),
    opt("--peg-limit", ints(5, 60)),
    flag("--lowball"),
    opt("--jokers", ints(0, 3)),
    opt("--decks", ints(0, 3)),
]
SEVENTEEN = st.lists(st.sampled_from(NAMES), min_size=17, max_size=17, unique=True)
COMMANDS = {
    "score": command(
        seq(st.just(["score"]), hand(4, 5), opt("--starter", st.sampled_from(NAMES))),
        [
            opt("--starter", st.sampled_from(NAMES + ["JK"])),
            opt("--target", ints(1, 200)),
            opt("--jokers", ints(0, 3)),
            opt("--decks", ints(1, 2)),
            opt("--wild", st.sampled_from(["5", "T", "j", "10", "A"])),
            opt("--rules", st.sampled_from(["standard", "pysol"])),
            flag("--crib", "--json", "--whole-deck"),
            OTHER,
        ],
    ),
    "best-discard": command(
        seq(
            st.just(["best-discard"]),
            hand(5, 6),
            st.sampled_from(
                [
                    ["--dealer"],
                    ["--pone", "--throw-model", "uniform"],
                    ["--variant", "patience"],
                    ["--variant", "patience2", "--samples", "20"],
                    ["--variant", "patience2", "--crib-cards", "2C 3C"],
                ]
            ),
        ),
        [
            *TWO_PLAYER,
            *SOLITAIRE,
            opt("--top", ints(1, 15)),
            flag("--distribution", "--json"),
            *HOUSE[3:],
            OTHER,
        ],
    ),
    "simulate": command(
        seq(
            st.just(["simulate", "--quiet", "-n", "10", "--variant"]),
            st.sampled_from(
                ["patience", "patience2", "shuffle", "square", "square-reserve2", "cribbage"]
            ).map(lambda v: [v]),
        ),
        [
            opt("-n", ints(1, 20)),
            opt(
                "--policy",
                st.sampled_from(
                    ["ev", "random", "clairvoyant", "greedy", "lookahead", "optimal", "heuristic"]
                ),
            ),
            opt("--opponent-policy", st.sampled_from(["greedy", "random"])),
            opt("--game-length", ints(2, 61)),
            opt("--seed", ints(0, 99)),
            opt("--jobs", ints(1, 2)),
            flag("--json", "--win-only"),
            *HOUSE,
            OTHER,
        ],
    ),
    "best-play": command(
        seq(st.just(["best-play"]), CARDS_OPT.map(lambda c: [c])),
        [
            opt("--played", CARDS_OPT),
            opt("--seen", CARDS_OPT),
            opt("--count", ints(0, 30)),
            flag("--dealer", "--pone", "--json", "--go"),
            *HOUSE,
            OTHER,
        ],
    ),
    "odds": command(
        seq(
            st.just(["odds"]),
            opt("--my-score", ints(0, 125)),
            opt("--their-score", ints(0, 125)),
            st.sampled_from([["--dealer"], ["--pone"]]),
        ),
        [opt("--game-length", st.just("121")), flag("--json", "--quiet", "--table"), OTHER],
    ),
    "shuffle": command(
        SEVENTEEN.map(lambda c: ["shuffle", *c[:16], "--starter", c[16], "--time-limit", "0.2"]),
        [
            opt("--starter", st.sampled_from(NAMES)),
            opt("--time-limit", st.just("0.1")),
            flag("--json"),
            OTHER,
        ],
        n=2,
    ),
    "best-place": command(
        st.tuples(SEVENTEEN, st.integers(1, 3)).map(
            lambda t: [
                "best-place",
                *(["--"] * t[1] + t[0][t[1] : 16]),
                "--card",
                t[0][16],
                "--samples",
                "4",
            ]
        ),
        [
            opt("--card", CARD),
            opt("--seen", CARDS_OPT),
            opt("--waste", hand(1, 6).map(" ".join)),
            opt("--variant", st.sampled_from(["square", "square-waste", "square-reserve2"])),
            opt("--samples", ints(0, 9)),
            opt("--seed", ints(0, 99)),
            flag("--json"),
            OTHER,
        ],
    ),
    "variations": command(
        st.just(["variations", "--quiet", "-n", "5"]),
        [
            opt("-n", ints(0, 5)),
            opt("--policy", st.sampled_from(["greedy", "random"])),
            opt("--seed", ints(0, 99)),
            flag("--json"),
            OTHER,
        ],
        n=2,
    ),
    "crib-table": command(
        st.just(["crib-table", "--quiet"]),
        [
            opt("--throw-model", st.sampled_from(["uniform", "optimal"])),
            flag("--dealer", "--pone", "--json"),
            OTHER,
        ],
    ),
}


@pytest.mark.parametrize(
    "command",
    [
        # simulate compiles the kernels of all four games (about half a minute on its own), and
        # variations those of every house rule
        pytest.param(c, marks=[pytest.mark.slow] if c in ("simulate", "variations") else [])
        for c in COMMANDS
    ],
)
def test_fuzz_bad_input_never_tracebacks(command):
    @settings(
        max_examples=22,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(COMMANDS[command])
    def check(argv):
        code, out, err = run(*argv, stdin=b"")
        assert "Traceback" not in err, (argv, err)
        assert code in (0, 2), (argv, code, err)
        if code == 2:
            assert len(err.splitlines()) == 1 and err.startswith("cribsolve: "), (argv, err)
            assert out == "", (argv, out)

    check()
