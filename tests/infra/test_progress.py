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
