import json

import pytest
from clihelp import run

from cribsolve import parse_cards, ruleset, score_hand


def test_score_itemized_output():
    code, out, _ = run("score", "5H", "5S", "5C", "JD", "--starter", "5D")
    assert code == 0
    assert out.count("  fifteen ") == 8 and out.count("  pair ") == 6 and "nobs" in out
    assert "total 29" in out


def test_score_json_keys():
    code, out, _ = run("score", "4c", "5d", "6h", "js", "--starter", "jH", "--json")
    obj = json.loads(out)
    assert code == 0
    assert obj["total"] == 6 + 2 + 3  # 4+5+6, 5+JS, 5+JH; two jacks; 4-5-6
    assert set(obj["breakdown"]) == {"fifteens", "pairs", "runs", "flush", "nobs", "heels"}
    assert obj["breakdown"]["heels"] == 2
    expect = score_hand(parse_cards(["4C 5D 6H JS"]), parse_cards(["JH"]))
    assert obj["total"] == expect.total


def test_two_starters_and_switches():
    code, out, _ = run(
        "score",
        "5H",
        "5S",
        "JD",
        "QC",
        "--starter",
        "5C",
        "--starter",
        "KD",
        "--json",
        "--target",
        "16",
    )
    assert code == 0
    rules = ruleset(target=16)
    assert (
        json.loads(out)["total"]
        == score_hand(parse_cards(["5H 5S JD QC"]), parse_cards(["5C KD"]), rules).total
    )


def test_whole_deck_double_with_jokers_shows_categories():
    code, out, _ = run("score", "--whole-deck", "--decks", "2", "--jokers", "2", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["breakdown"]["pairs"] == 13 * 8 * 7 + 2


def test_batch_scores_each_line_in_order(tmp_path):
    lines = ["5H 5S 5C JD 5D", "AH 2C 3D KS QS", "4c 5d 6h js jh", "7H 8H 9H TH"]
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(lines) + "\n")
    code, out, _ = run("score", "--batch", f)
    want = [score_hand(parse_cards([x])[:-1], parse_cards([x])[-1:]).total for x in lines]
    assert code == 0 and out.split() == [str(w) for w in want]
    code, out, _ = run("score", "--batch", "-", "--crib", stdin=b"7H 8H 9H TH AS\n")
    assert out.strip() == "6"


@pytest.mark.parametrize(
    "content,msg",
    [
        (b"5H 5S 5C JD 5D\n5H 5H 5C JD 5D\n", "line 2"),
        (b"5H 5S 5C JD 5D\n\n5H ZZ 5C JD 5D\n", "line 3"),
        (b"5H\n", "line 1"),
    ],
)
def test_batch_bad_line_reports_number_and_prints_nothing(tmp_path, content, msg):
    f = tmp_path / "hands.txt"
    f.write_bytes(content)
    code, out, err = run("score", "--batch", f)
    assert code == 2 and out == "" and msg in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["score", "ZZ", "--starter", "5D"],
        ["score", "5H", "5H", "--starter", "5D"],
        ["score", "5H", "6H"],
        ["score", "--starter", "5D"],
        ["score", "5H", "--starter", "5D", "--wild", "Z"],
        ["score", "5H", "--starter", "5D", "--rules", "nope"],
        ["score", "--nope"],
        ["distribution", "--rules", "x"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(args):
    code, out, err = run(*args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_distribution_csv_and_json(tmp_path):
    path = tmp_path / "d.csv"
    code, out, _ = run("distribution", "--csv", path, "--json")
    obj = json.loads(out)
    rows = path.read_text().splitlines()
    assert code == 0 and rows[0] == "score,count,probability" and len(rows) == 31
    assert rows[30].startswith("29,4,") and obj["counts"]["29"] == 4
    assert abs(obj["mean"] - 4.76915) < 1e-5


def test_batch_streams_results_before_the_input_ends():
    """A hand written to the pipe is answered while the pipe is still open."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cribsolve", "score", "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
    )
    proc.stdin.write(b"5H 5S 5C JD 5D\n")
    proc.stdin.flush()
    first = proc.stdout.readline()  # would block forever if output waited for EOF
    proc.stdin.write(b"2C 3C 4C 5C 6C\n")
    proc.stdin.close()
    assert first == b"29\n" and proc.stdout.read() == b"14\n" and proc.wait() == 0


def test_batch_blocks_join_lines_and_number_errors(tmp_path):
    """Blocks cut only at line ends: small blocks give the same totals and line numbers."""
    import io

    from cribsolve.core.rules import ruleset
    from cribsolve.core.scoring.batch import score_stream
    from cribsolve.errors import CardError

    text = b"5H 5S 5C JD 5D\n\n2C 3C 4C 5C 6C\nAH 2H 3H 4H 5H\n"
    for block in (1, 7, 16, 1 << 20):
        out = io.BytesIO()
        score_stream(io.BytesIO(text), out, ruleset(), block=block)
        assert out.getvalue() == b"29\n14\n12\n"
    with pytest.raises(CardError, match="line 3"):
        score_stream(
            io.BytesIO(b"5H 5S 5C JD 5D\n\nZZ 3C 4C 5C 6C\n"), io.BytesIO(), ruleset(), block=4
        )


def test_batch_from_a_file_prints_nothing_unless_every_line_scores(tmp_path):
    """A file is checked to its end first (even past a block); a pipe has its totals printed
    as they come, and its error says how many were printed before it."""
    import io

    from cribsolve.core.rules import ruleset
    from cribsolve.core.scoring.batch import score_stream
    from cribsolve.errors import CardError

    text = b"5H 5S 5C JD 5D\n" * 50 + b"5H ZZ 5C JD 5D\n"
    f = tmp_path / "hands.txt"
    f.write_bytes(text)
    with f.open("rb") as infile:
        out = io.BytesIO()
        with pytest.raises(CardError, match="line 51"):
            score_stream(infile, out, ruleset(), block=64, hold=True)
        assert out.getvalue() == b""
    out = io.BytesIO()
    with pytest.raises(CardError, match=r"line 51: .*\(the \d+ totals of the lines before it"):
        score_stream(io.BytesIO(text), out, ruleset(), block=64)
    assert out.getvalue().startswith(b"29\n")
    code, out, err = run("score", "--batch", f)
    assert code == 2 and out == "" and "line 51" in err


def test_batch_takes_a_byte_order_mark_and_comments_and_refuses_binary(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_bytes(
        b"\xef\xbb\xbf5H 5S 5C JD 5D   # the best hand\n# a comment line\n2C 3C 4C 5C 6C\n"
    )
    code, out, _ = run("score", "--batch", f)
    assert code == 0 and out.split() == ["29", "14"]
    f.write_bytes(b"5H 5S 5C JD 5D\n\x89PNG\x00\xff\xfe 5C\n")
    code, out, err = run("score", "--batch", f)
    assert code == 2 and "line 2: not UTF-8" in err and len(err.strip().splitlines()) == 1


def test_a_batch_file_on_stdin_is_read_again_by_the_compiled_process(tmp_path):
    """A small file redirected to stdin that numpy cannot score (a four-card hand, a bad card)
    makes the process start again compiled: it must find the file from its start again."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "CRIBSOLVE_COMPILED"}
    for content, code, out in (
        (b"5H 5S 5C JD 5D\n5H 5S 5C 5D\n", 0, "29\n20\n"),
        (b"5H 5S 5C JD 5D\n1X 5S 5C JD 5D\n", 2, ""),
    ):
        f = tmp_path / "hands.txt"
        f.write_bytes(content)
        with open(f, "rb") as stdin:
            r = subprocess.run(
                [sys.executable, "-m", "cribsolve", "score", "--batch", "-"],
                stdin=stdin,
                capture_output=True,
                text=True,
                env=env,
            )
        assert (r.returncode, r.stdout) == (code, out), r.stderr
        assert code == 0 or r.stderr.startswith("cribsolve: line 2")
