"""Every example printed in the README and in the documentation site's pages (docs/**/*.md) is
run, and its output must match: no page can drift from what the program says.

Two kinds of example, inside fenced blocks (a line of three backticks, a language name allowed
after them, opens a block; a line of three backticks closes it):

- an example: a line '$ cribsolve ...' and the lines after it up to the next '$ ' line or the
  end of the block, which must be its whole standard output (times masked);
- a transcript: a block whose first line is '$ ... | cribsolve ...' (a game played from piped
  answers; '  # ...' after two spaces is a comment), its output shown whole or in pieces cut at
  a line '  ...', each piece a run of the real output's lines, in order.

Tiers: an example runs in the default tier unless its block is marked slow, by the line
'<!-- test: slow -->' as the last non-blank line before the block's opening fence (an HTML
comment: neither GitHub nor the site shows it). A slow block's examples and transcript are
marked pytest.mark.slow and run with `-m slow`. Mark a block slow when it takes more than a few
seconds warm (an expert policy, a large -n); the default tier must stay about 4 minutes.

Each test's id starts with the page it comes from (README.md, docs/odds.md, ...).
"""

import functools
import os
import pathlib
import re
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
TIMING = re.compile(r"\d+(\.\d+)? ?(ms|s)\b")  # times vary from run to run
SLOW = "<!-- test: slow -->"


def name(page: pathlib.Path) -> str:
    return page.relative_to(ROOT).as_posix()


def blocks(page: pathlib.Path):
    """(lines, slow) of each fenced block of the page."""
    found, block, slow, before = [], None, False, ""
    for line in page.read_text().splitlines():
        if block is None:
            if line.startswith("```"):
                block, slow = [], before.strip() == SLOW
            elif line.strip():
                before = line
        elif line.strip() == "```":
            found.append((block, slow))
            block, before = None, ""
        else:
            block.append(line)
    return found


def marks(slow: bool):
    return [pytest.mark.slow] if slow else []


def examples(page: pathlib.Path):
    """(command, expected output, slow) of each '$ cribsolve ...' line in a fenced block."""
    found = []
    for lines, slow in blocks(page):
        for i, line in enumerate(lines):
            if line.startswith("$ cribsolve"):
                out = []
                for nxt in lines[i + 1 :]:
                    if nxt.startswith("$ "):
                        break
                    out.append(nxt)
                found.append((line[2:], "\n".join(out), slow))
    return found


def all_examples():
    return [
        pytest.param(command, expected, id=f"{name(page)}:{command[:60]}", marks=marks(slow))
        for page in PAGES
        for command, expected, slow in examples(page)
    ]


def run(command: str, **env):
    shell = command.replace("cribsolve", f"{sys.executable} -m cribsolve", 1)
    return subprocess.run(
        shell,
        shell=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, COLUMNS="100", **env),
    ).stdout


@functools.lru_cache(maxsize=None)
def output(command: str) -> str:
    """An example's output, run once a process (a command shown on two pages runs once)."""
    return run(command)


@pytest.mark.parametrize("command,expected", all_examples())
def test_readme_example(command, expected):
    out = output(command)
    assert TIMING.sub("T", out.rstrip()) == TIMING.sub("T", expected.rstrip())


def test_readme_has_examples():
    assert len(examples(ROOT / "README.md")) >= 5
    assert sum(len(examples(page)) for page in PAGES) >= 25


RECORD = re.compile(r"(the record: |cribsolve review )\S+")  # a file named by the clock


def transcripts(page: pathlib.Path):
    """(command, shown lines, slow) of each '$ ... | cribsolve ...' block: a game played from
    piped answers, its output shown whole or in pieces cut at a line '  ...'."""
    found = []
    for lines, slow in blocks(page):
        if lines and lines[0].startswith("$ ") and "| cribsolve " in lines[0]:
            first, *shown = lines
            found.append((first[2:].split("  #")[0], shown, slow))
    return found


def all_transcripts():
    return [
        pytest.param(command, shown, id=f"{name(page)}:{command[:60]}", marks=marks(slow))
        for page in PAGES
        for command, shown, slow in transcripts(page)
    ]


@pytest.mark.parametrize("command,shown", all_transcripts())
def test_readme_transcript(command, shown, tmp_path):
    """Each piece shown is a run of the real output's lines, in order (record paths aside)."""
    out = run(command, XDG_DATA_HOME=str(tmp_path))
    lines = [RECORD.sub(r"\1FILE", line) for line in out.rstrip().splitlines()]
    pieces, piece = [], []
    for line in shown + ["  ..."]:
        if line == "  ...":
            pieces.append(piece)
            piece = []
        elif line or piece:  # the blank line after a cut is not output
            piece.append(RECORD.sub(r"\1FILE", line))
    at = 0
    for piece in pieces:
        starts = [
            i for i in range(at, len(lines) - len(piece) + 1) if lines[i : i + len(piece)] == piece
        ]
        assert starts, f"not in the output, in order: {piece[:3]}"
        at = starts[0] + len(piece)


def test_readme_has_transcripts():
    assert len(transcripts(ROOT / "README.md")) >= 2
    assert sum(len(transcripts(page)) for page in PAGES) >= 5


def test_slow_marks_are_read():
    """A mark the parser would miss (a typo, or not right before a fence) is a mistake."""
    for page in PAGES:
        text = page.read_text()
        marked = sum(slow for _, slow in blocks(page))
        assert text.count("<!-- test:") == text.count(SLOW) == marked, name(page)
