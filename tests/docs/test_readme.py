"""Every example printed in the README is run, and its output must match: the README cannot
drift from what the program says."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

README = (pathlib.Path(__file__).parent.parent.parent / "README.md").read_text()
TIMING = re.compile(r"\d+(\.\d+)? ?(ms|s)\b")  # times vary from run to run


def examples():
    """(command, expected output) of each '$ cribsolve ...' line in a fenced block."""
    found = []
    for block in re.findall(r"```\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ cribsolve"):
                out = []
                for nxt in lines[i + 1 :]:
                    if nxt.startswith("$ "):
                        break
                    out.append(nxt)
                found.append((line[2:], "\n".join(out)))
    return found


@pytest.mark.parametrize("command,expected", examples(), ids=lambda x: x[:60])
def test_readme_example(command, expected):
    shell = command.replace("cribsolve", f"{sys.executable} -m cribsolve", 1)
    out = subprocess.run(
        shell, shell=True, capture_output=True, text=True, env=dict(os.environ, COLUMNS="100")
    ).stdout
    assert TIMING.sub("T", out.rstrip()) == TIMING.sub("T", expected.rstrip())


def test_readme_has_examples():
    assert len(examples()) >= 8


RECORD = re.compile(r"(the record: |cribsolve review )\S+")  # a file named by the clock


def transcripts():
    """(command, shown lines) of each '$ ... | cribsolve ...' line: a game played from piped
    answers, its output shown whole or in pieces cut at a line '  ...'."""
    found = []
    for block in re.findall(r"```\n(.*?)```", README, flags=re.S):
        first, *shown = block.splitlines()
        if first.startswith("$ ") and "| cribsolve " in first:
            found.append((first[2:].split("  #")[0], shown))
    return found


@pytest.mark.parametrize("command,shown", transcripts(), ids=lambda x: str(x)[:60])
def test_readme_transcript(command, shown, tmp_path):
    """Each piece shown is a run of the real output's lines, in order (record paths aside)."""
    shell = command.replace("cribsolve", f"{sys.executable} -m cribsolve", 1)
    out = subprocess.run(
        shell,
        shell=True,
        capture_output=True,
        text=True,
        env=dict(os.environ, COLUMNS="100", XDG_DATA_HOME=str(tmp_path)),
    ).stdout
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
    assert len(transcripts()) >= 3
