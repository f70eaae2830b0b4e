"""What the README and the documentation pages (docs/*.md) claim about the command line holds.

Refusals. A sentence (or a clause after a ';') that says something is refused (a word
'refuse', 'refused' or 'refuses') and names an option in backquotes (`--name`) must be checked
by a comment on the same page, placed after its paragraph:

    <!-- refused: cribsolve COMMAND ... -->

whose commands, together, give every option the sentence names. Each such command is run
(stdin empty, a fresh data folder, a time limit) and must exit with status 2, a usage error,
and one line on stderr. A page that says `play` refuses `--decks` while `play` plays it fails
here: either its check runs a game (not status 2), or the sentence has no check.
"""

import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CHECK = re.compile(r"<!-- refused: (cribsolve [^>]*?) -->")
OPTION = re.compile(r"`(--[a-z][\w-]*)")


def name(page: pathlib.Path) -> str:
    return page.relative_to(ROOT).as_posix()


def prose(page: pathlib.Path) -> str:
    """The page without its fenced blocks (examples, not claims) and its check comments."""
    return CHECK.sub("", FENCE.sub("", page.read_text()))


def sentences(text: str):
    for paragraph in re.split(r"\n\s*\n", text):
        yield from re.split(r"(?<=[.!?])\s+(?=[A-Z`(])|(?<=;)\s+", " ".join(paragraph.split()))


def refusals(page: pathlib.Path):
    """(sentence, options it names) of each sentence that says something is refused."""
    return [
        (s, OPTION.findall(s))
        for s in sentences(prose(page))
        if re.search(r"\brefuse[sd]?\b", s, re.I)
    ]


def checks(page: pathlib.Path) -> list[str]:
    return CHECK.findall(page.read_text())


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_refusal_of_an_option_has_a_check(page):
    commands = checks(page)
    for sentence, options in refusals(page):
        for option in options:
            assert any(re.search(rf"{option}\b", c) for c in commands), (
                f"{name(page)} says {option} is refused and no <!-- refused: ... --> "
                f"comment on the page runs it: {sentence[:160]}"
            )


def all_checks():
    return [
        pytest.param(command, id=f"{name(page)}:{command[:60]}")
        for page in PAGES
        for command in checks(page)
    ]


@pytest.mark.parametrize("command", all_checks())
def test_a_refusal_the_docs_claim_is_made(command, tmp_path):
    args = shlex.split(command)[1:]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cribsolve", *args],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
            env=dict(os.environ, XDG_DATA_HOME=str(tmp_path), COLUMNS="100"),
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`{command}` ran on for a minute: it is not refused")
    assert done.returncode == 2, f"`{command}` exits {done.returncode}, not refused"
    assert done.stderr.startswith("cribsolve: ") and len(done.stderr.splitlines()) == 1


def test_the_checks_are_found():
    assert len(all_checks()) >= 4
