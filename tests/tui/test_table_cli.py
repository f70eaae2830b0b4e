"""Which front end ``play --variant cribbage`` opens: the table on a terminal or where a Textual
driver is named, the transcript with --plain, in a pipe or without Textual; --web refused in
one line (exit 2) without the table extra, with --plain or --width, and --port without --web;
the command --web serves is the same command less --web and --port; --width asks for the table
drawn line by line."""

import importlib.util
import sys

import pytest
from clihelp import run

from cribsolve.cli import play

WEB = ("play", "--variant", "cribbage", "--web")


def _without(monkeypatch, *modules):
    find = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name in modules else find(name, *a)
    )


@pytest.mark.parametrize("missing", ["textual", "textual_serve"])
def test_web_without_the_table_extra_is_one_line(monkeypatch, missing):
    _without(monkeypatch, missing)
    code, out, err = run(*WEB, "--seed", 1)
    assert code == 2 and out == ""
    assert err == (
        "cribsolve: --web needs the table extra (Textual and textual-serve): pip install "
        "'cribsolve[table]'\n"
    )


@pytest.mark.parametrize(
    "args,says",
    [
        ((*WEB, "--plain"), "--plain is the transcript"),
        (("play", "--variant", "cribbage", "--port", 9000), "--port goes with --web"),
        (("play", "--variant", "patience", "--web"), "--web does not apply to --variant patience"),
        ((*WEB, "--width", 100), "--width does not apply to --web"),
    ],
)
def test_web_options_out_of_place_are_refused(args, says):
    code, out, err = run(*args)
    assert code == 2 and says in err and len(err.splitlines()) == 1


def test_the_served_command_is_this_one_less_web_and_port(monkeypatch):
    monkeypatch.setattr(
        sys,
        "argv",
        ["cribsolve", "play", "--web", "--variant", "cribbage", "--port", "8100", "--seed", "4"]
        + ["--two-cribs", "--port=8200"],
    )
    assert play._served_command() == [
        sys.executable, "-m", "cribsolve", "play", "--variant", "cribbage", "--seed", "4",
        "--two-cribs",
    ]  # fmt: skip


class _Tty:
    def isatty(self):
        return True


def test_the_table_on_a_terminal_the_transcript_otherwise(monkeypatch):
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setattr(sys, "stdin", _Tty())
    monkeypatch.setattr(sys, "stdout", _Tty())
    assert play._full_screen(plain=False) and not play._full_screen(plain=True)
    _without(monkeypatch, "textual")
    assert not play._full_screen(plain=False)


def test_a_textual_driver_named_opens_the_table_in_a_pipe(monkeypatch):
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert play._full_screen(plain=False)
    monkeypatch.delenv("TEXTUAL_DRIVER")
    assert not play._full_screen(plain=False)  # pytest's stdin is no terminal


def test_width_on_a_terminal_is_the_table_drawn_line_by_line(monkeypatch, tmp_path):
    from cribsolve.tui.app import TableApp

    monkeypatch.setattr(play, "_full_screen", lambda plain: not plain)
    monkeypatch.setattr(TableApp, "run", lambda app: pytest.fail("the full-screen table"))
    code, out, err = run(
        "play", "--variant", "cribbage", "--width", 60, "--seed", 1, "--record",
        tmp_path / "g.txt", "--opponent-policy", "greedy", stdin=b"",
    )  # fmt: skip
    assert code == 0, err
    assert "game stopped in deal 1" in out and max(map(len, out.splitlines())) <= 60
