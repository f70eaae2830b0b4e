"""Every time the README, the documentation pages (docs/*.md) and the notebooks' text cells
give says where it was measured, since a time means nothing without its machine (the
house-rules notebook's "about half a minute" took 106-142 s on 2 cores).

The rule: a paragraph (text between blank lines, a table being one; fenced blocks and inline
code left out) that gives a time figure, a number or a range of two and then a unit (s, ms,
us, second(s), min, minute(s), hour(s): "12 s", "6-22 minutes", "9 min 42 s"), or "a
minute", "half a minute", "an hour", must also
name the machine ("2 cores", "2-core", "two cores", "both cores"), or name the benchmark
script it comes from (benchmarks/NAME.py), or give every one of its times as a range ("0.1-0.2
s"), the spread a reader may see.
"""

import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).parent.parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NUMBER = r"\d[\d,]*(?:\.\d+)?"
UNIT = r"(?:s|ms|us|seconds?|min|minutes?|hours?)\b"
TIME = re.compile(rf"\b{NUMBER}(?:-{NUMBER})? {UNIT}|\b(?:half )?an? (?:minute|hour)\b")
RANGE = re.compile(rf"\b{NUMBER}-{NUMBER} {UNIT}")
SAID = re.compile(r"\b(?:2|two)[ -]cores?\b|\bboth cores\b|benchmarks/\w+\.py", re.I)


def paragraphs(page: pathlib.Path):
    text = re.sub(r"^```.*?^```", "", page.read_text(), flags=re.S | re.M)
    for paragraph in re.split(r"\n\s*\n", text):
        yield " ".join(paragraph.split())


def unsaid(paragraph: str) -> bool:
    prose = re.sub(r"`[^`]*`", "", paragraph)  # a time in code is an option's value
    times, ranges = TIME.findall(prose), RANGE.findall(prose)
    return bool(times) and not SAID.search(paragraph) and len(ranges) < len(times)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_time_says_its_machine(page):
    bare = [p[:200] for p in paragraphs(page) if unsaid(p)]
    assert not bare, f"times with no machine, range or benchmark: {bare}"


@pytest.mark.parametrize("path", sorted((ROOT / "notebooks").glob("*.ipynb")), ids=lambda p: p.name)
def test_every_time_in_a_notebook_says_its_machine(path):
    cells = json.loads(path.read_text())["cells"]
    text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    bare = [p[:200] for p in re.split(r"\n\s*\n", text) if unsaid(" ".join(p.split()))]
    assert not bare, f"times with no machine, range or benchmark: {bare}"


def test_the_rule_finds_times():
    assert unsaid("It took about 4 minutes.") and unsaid("| simulate | 39 s |")
    assert not unsaid("6-22 minutes, depending on load") and not unsaid("12 s on 2 cores")
    assert not unsaid("a median of 24 ms (benchmarks/bench_shuffle.py)")
    assert not unsaid("Five 5s, 10S and 1s are cards; -n 1e4 games")
