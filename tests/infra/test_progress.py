"""Progress bars read as words: whole counts, the unit a plural noun after a space."""

import io
import re
import sys

from cribsolve.infra.progress import bar, meter


class Terminal(io.StringIO):
    def isatty(self):
        return True


def drawn(monkeypatch, total, unit, updates):
    """What a bar of ``unit`` writes to a terminal after ``updates``, its last line."""
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with bar(total, "counting", unit=unit) as pb:
        for k in updates:
            pb.update(k)
    return re.split(r"[\r\n]", err.getvalue().rstrip("\n"))[-1]


def test_a_count_with_no_total_is_a_whole_number_of_things(monkeypatch):
    line = drawn(monkeypatch, None, "decision", [1] * 34)
    assert line.startswith("counting: 34 decisions [")
    assert re.search(r"[\d.,]+ decisions/s\]$", line), line
    assert "34.0" not in line


def test_a_count_of_a_total_names_the_things_once(monkeypatch):
    line = drawn(monkeypatch, 2000, "game", [500, 500])
    assert "| 1,000/2,000 games [" in line, line
    assert re.search(r"[\d.,]+ games/s\]$", line), line


def test_the_rate_reads_as_words():
    assert meter(34, None, 4.08, unit="decision") == "34 decisions [00:04, 8.3 decisions/s]"
    assert meter(1, None, 4.0, unit="decision") == "1 decision [00:04, 4.0 s/decision]"
    line = meter(340_000, 1_000_000, 4.0, unit="game", prefix="games", ncols=90)
    assert line.startswith("games:  34%|") and line.endswith(
        "| 340,000/1,000,000 games [00:04<00:07, 85,000 games/s]"
    )


def test_a_line_said_while_a_bar_is_drawn_goes_above_the_bar(monkeypatch):
    from cribsolve.infra.paths import say

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with bar(100, "games under each rule", unit="game") as pb:
        pb.update(3)
        say("compiling the kernels this command needs")
        pb.update(3)
    text = err.getvalue()
    before, after = text.split("cribsolve: compiling the kernels this command needs\n")
    assert before.endswith("\r") or before.endswith("\n")  # the bar's text was cleared first
    assert "3/100 games" in after  # and the bar drawn again below


COMPILE_UNDER_A_BAR = """
import io, sys

class Terminal(io.StringIO):
    def isatty(self):
        return True

err = sys.stderr = Terminal()
from cribsolve.infra import jit, paths
from cribsolve.infra.progress import bar

numba = jit._load_numba()
with paths.command(), bar(2000, "games under each rule", unit="game") as pb:
    pb.update(400)
    numba.njit(lambda x: x + 1)(1)  # a real compile: the notice and the spinner
    pb.update(400)
sys.__stdout__.write(err.getvalue())
"""


def test_the_compile_notice_does_not_break_into_a_bar(tmp_path):
    """variations drew its bar, then compiled a rule's kernels: the notice was glued to the
    bar's text ("... 0/2000 [00:00<?, ?game/s]cribsolve: compiling ...")."""
    import os
    import subprocess

    env = {**os.environ, "CRIBSOLVE_CACHE": str(tmp_path)}
    env.pop("CRIBSOLVE_QUIET_COMPILE", None)
    r = subprocess.run(
        [sys.executable, "-c", COMPILE_UNDER_A_BAR], env=env, capture_output=True, text=True
    )
    assert r.returncode == 0, r.stderr
    lines = re.split(r"[\r\n]", r.stdout)
    notice = [line for line in lines if "compiling the kernels" in line]
    assert len(notice) == 1 and notice[0].startswith("cribsolve: compiling"), r.stdout
    after = r.stdout.split(notice[0], 1)[1]
    assert "400/2,000 games" in after and "800/2,000 games" in after


def test_a_resumed_bar_starts_at_what_was_done(monkeypatch):
    """900 games read back from a checkpoint: drawn at once, and not counted as played in no
    time (the speed would be thousands of games a second)."""
    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    with bar(3000, "patience2", unit="game") as pb:
        pb.resume(900)
        drawn = re.split(r"[\r\n]", err.getvalue())[-1]
    assert "| 900/3,000 games [" in drawn and drawn.endswith("? games/s]"), drawn


def test_the_compile_notice_fits_an_80_column_line():
    from cribsolve.infra.spinner import NOTICE

    assert len(f"cribsolve: {NOTICE}") < 80
