"""--help of every command and sub-command, and a start-up that stays light: the group loads a
command's module only when asked, and no command module imports numpy or numba to say what it
does."""

import subprocess
import sys

import click
import pytest
from clihelp import run

from cribsolve.cli import COMMANDS, cli


def _paths():
    """The path of every command under the group, each loaded as the group loads it."""

    def walk(cmd, path, ctx):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            yield path + [name]
            if isinstance(sub, click.Group):
                yield from walk(sub, path + [name], click.Context(sub, ctx, info_name=name))

    return list(walk(cli, [], click.Context(cli, info_name="cribsolve")))


def test_the_group_lists_every_command_sorted_and_by_its_own_name():
    ctx = click.Context(cli, info_name="cribsolve")
    names = cli.list_commands(ctx)
    assert names == sorted(COMMANDS) and len(names) == len(COMMANDS)
    for name in names:
        assert cli.get_command(ctx, name).name == name
    assert cli.get_command(ctx, "nope") is None


@pytest.mark.parametrize("path", _paths(), ids=" ".join)
def test_help_of_every_command(path):
    code, out, err = run(*path, "--help")
    assert code == 0 and err == "", err
    assert out.startswith(f"Usage: cribsolve {' '.join(path)} [OPTIONS]")


def test_group_help_lists_every_command():
    code, out, _ = run("--help")
    assert code == 0 and out.startswith("Usage: cribsolve [OPTIONS] COMMAND [ARGS]...")
    listed = out.split("Commands:\n", 1)[1].split()
    assert all(name in listed for name in COMMANDS)


def test_a_mistyped_command_is_told_the_close_name():
    code, out, err = run("scor")
    assert code == 2 and out == "" and "No such command 'scor'" in err
    if hasattr(click.exceptions, "NoSuchCommand"):  # click 8.4 and later suggest
        assert "Did you mean 'score'?" in err


PROBE = """
import sys
from cribsolve.cli import main
sys.argv = ["cribsolve", "--help"]
try:
    main()
except SystemExit as e:
    assert not e.code, e.code
heavy = sorted(m for m in ("numpy", "numba") if m in sys.modules)
print(" ".join(heavy) or "light", file=sys.stderr)
"""


def test_help_imports_neither_numpy_nor_numba():
    r = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "Commands:" in r.stdout
    assert r.stderr.strip().splitlines()[-1] == "light"


def test_importing_the_cli_loads_no_command():
    code = (
        "import sys, cribsolve.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('cribsolve.cli.')), "
        "'numpy' in sys.modules, 'numba' in sys.modules)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["['cribsolve.cli.checks']", "False", "False"]


def test_an_option_of_one_value_given_twice_is_refused():
    """click keeps the last value of a repeated option silently; a user who typed two cut
    cards to best-discard would get an answer for the second alone."""
    for args in (
        [
            "best-discard",
            "5H",
            "5S",
            "JD",
            "6C",
            "7C",
            "KH",
            "--dealer",
            "--starter",
            "5D",
            "--starter",
            "6D",
        ],
        ["odds", "--my-score", "30", "--my-score=40", "--their-score", "3"],
        ["simulate", "-n", "10", "-n", "20"],
    ):
        code, out, err = run(*args)
        assert code == 2 and out == "" and "given 2 times" in err and len(err.splitlines()) == 1
    code, out, _ = run("score", "5H", "5S", "JD", "QC", "--starter", "5C", "--starter", "KD")
    assert code == 0 and "total" in out  # there two cut cards are the rule
