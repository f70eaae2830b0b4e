"""Every example printed in the README is run, and its output must match: the README cannot
drift from what the program says."""
import os
import pathlib
import re
import subprocess
import sys

import pytest

README = (pathlib.Path(__file__).parent.parent.parent / "README.md").read_text()
TIMING = re.compile(r"\d+(\.\d+)? ?(ms|s)\b")     # times vary from run to run


def examples():
    """(command, expected output) of each '$ cribsolve ...' line in a fenced block."""
    found = []
    for block in re.findall(r"```\n(.*?)```", README, flags=re.S):
        lines = block.splitlines()
        for i, line in enumerate(lines):
            if line.startswith("$ cribsolve"):
                out = []
                for nxt in lines[i + 1:]:
                    if nxt.startswith("$ "):
                        break
                    out.append(nxt)
                found.append((line[2:], "\n".join(out)))
    return found


@pytest.mark.parametrize("command,expected", examples(), ids=lambda x: x[:60])
def test_readme_example(command, expected):
    shell = command.replace("cribsolve", f"{sys.executable} -m cribsolve", 1)
    out = subprocess.run(shell, shell=True, capture_output=True, text=True,
                         env=dict(os.environ, COLUMNS="100")).stdout
    assert TIMING.sub("T", out.rstrip()) == TIMING.sub("T", expected.rstrip())


def test_readme_has_examples():
    assert len(examples()) >= 8
