import csv
import io
import json

import pytest
from clihelp import run


def test_best_discard_json_best_first_uniform():
    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--dealer",
        "--throw-model",
        "uniform",
        "--json",
    )
    d = json.loads(out)["discards"]
    assert code == 0 and len(d) == 15
    assert [x["net"] for x in d] == sorted((x["net"] for x in d), reverse=True)
    assert d[0]["discard"] == ["6C", "7C"] and d[0]["keep"] == ["5H", "5S", "JD", "KH"]
    assert set(d[0]) == {"discard", "keep", "hand", "crib", "net", "std", "min", "max"}


def test_best_discard_optimal_opponent_and_known_and_top():
    code, out, _ = run(
        "best-discard",
        "5h 5s jd 6c 7c kh",
        "--pone",
        "--seen",
        "QD",
        "--top",
        "2",
        "--json",
        "--distribution",
    )
    d = json.loads(out)["discards"]
    assert code == 0 and len(d) == 2
    assert abs(sum(d[0]["distribution"].values()) - 1) < 1e-9
    assert d[0]["net"] == pytest.approx(d[0]["hand"] - d[0]["crib"])


def test_optimal_model_prefers_what_players_throw():
    """The pone's model throws K-T far more often than 5-5 (a pone never gives 5s away)."""
    from cribsolve import parse_cards, ruleset
    from cribsolve.games.cribbage.throw.crib_model import optimal_frequencies, pair_class

    f = optimal_frequencies(ruleset())
    kt, ff = pair_class(*parse_cards(["KH TS"])), pair_class(*parse_cards(["5H 5S"]))
    assert f["pone"][kt] > 20 * f["pone"][ff]
    assert abs(f["dealer"].sum() - 1) < 1e-9


def test_batch_rows_with_margin(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("5H 5S JD 6C 7C KH\nAC 2C 3C 4C 5C 6C\n5H 5S JD 6C 7C\n")
    out_csv = tmp_path / "out.csv"
    code, out, _ = run(
        "best-discard", "--batch", f, "--dealer", "--throw-model", "uniform", "--csv", out_csv
    )
    text = out_csv.read_text()
    header = next(csv.reader(io.StringIO(text)))
    assert len(header) == len(set(header))  # no column lost to a repeated name
    rows = list(csv.DictReader(io.StringIO(text)))
    assert code == 0 and len(rows) == 3
    assert rows[0]["dealt"] == "5H 5S JD 6C 7C KH" and float(rows[0]["hand"]) < 30
    assert rows[0]["discard"] == "6C 7C" and float(rows[0]["margin"]) > 0
    assert len(rows[2]["discard"].split()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["best-discard", "5H", "5S", "--dealer"],  # nothing left to keep after the throw
        ["best-discard", "5H", "5H", "JD", "6C", "7C", "KH", "--dealer"],
        ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH"],
        ["best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--pone", "--seen", "5H"],
        ["crib-table"],
    ],
)
def test_bad_input(args):
    code, out, err = run(*args)
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_batch_bad_line(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("5H 5S JD 6C 7C KH\n5H 5S JD\n")
    code, out, err = run("best-discard", "--batch", f, "--dealer")
    assert code == 2 and "line 2" in err and out == ""


def test_crib_table_csv(tmp_path):
    path = tmp_path / "t.csv"
    code, out, _ = run("crib-table", "--dealer", "--throw-model", "uniform", "--csv", path)
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert code == 0 and len(rows) == 13 + 78 * 2
    five_five = next(r for r in rows if r["rank1"] == "5" and r["rank2"] == "5")
    assert 8.0 < float(five_five["crib"]) < 9.0  # published dealer tables: about 8.5


def test_sampled_house_rule_discards():
    """A sampled analysis of the standard deal lands within its errors of the exact one; the
    page's deal (8 cards, a first cut card, two decks) ranks all 28 throws."""
    from cribsolve import parse_cards
    from cribsolve.games.cribbage.throw.best_discard import best_discard

    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--dealer",
        "--crib-size",
        "4",
        "--samples",
        "20000",
        "--json",
    )
    sampled = json.loads(out)
    assert code == 0 and sampled["sampled"]
    exact = {
        tuple(v.discard): v
        for v in best_discard(parse_cards(["5H 5S JD 6C 7C KH"]), "dealer", opponent="uniform")
    }
    for d in sampled["discards"]:
        e = exact[tuple(parse_cards([" ".join(d["discard"])]))]
        assert abs(d["hand"] - e.hand) < 1e-9 and abs(d["net"] - e.net) < 4.5 * d["se"]
    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "4D",
        "3S",
        "--pone",
        "--decks",
        "2",
        "--starter",
        "5D",
        "--samples",
        "200",
        "--json",
    )
    d = json.loads(out)["discards"]
    assert code == 0 and len(d) == 28 and d[0]["net"] >= d[-1]["net"]
    code, _, err = run(
        "best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--pone", "--cut", "5D", "--batch", "-"
    )
    assert code == 2 and "--batch does not apply" in err


def test_best_discard_with_pegging():
    """--pegging adds the expert's pegging margin of the kept cards and ranks by the sum;
    the hand and crib figures stay the exact ones."""
    from cribsolve.core.notation import parse_cards
    from cribsolve.games.cribbage.players.pegtable import kept_margin
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    hand = ["5H", "5S", "JD", "6C", "7C", "KH"]
    plain = {
        tuple(x["discard"]): x
        for x in json.loads(run("best-discard", *hand, "--dealer", "--json")[1])["discards"]
    }
    code, out, _ = run("best-discard", *hand, "--dealer", "--pegging", "--json")
    d = json.loads(out)["discards"]
    assert code == 0 and len(d) == 15
    assert [x["value"] for x in d] == sorted((x["value"] for x in d), reverse=True)
    for x in d:
        assert x["net"] == plain[tuple(x["discard"])]["net"]
        assert x["value"] == pytest.approx(x["net"] + x["pegging"])
        assert x["pegging"] == kept_margin(parse_cards([" ".join(x["keep"])]), True, CribbageSpec())
    code, _, err = run("best-discard", *hand, "--variant", "patience", "--pegging")
    assert code == 2 and "--pegging" in err


@pytest.mark.parametrize(
    "args,said",
    [
        (
            ["2C", "--dealer"],
            "cribsolve: 7 cards read as --hand-size 7: a house rule (these rules deal 6)\n",
        ),
        (["2C", "--dealer", "--hand-size", "7"], ""),
        (["2C", "--dealer", "--choose-cut"], ""),  # choose-a-cut deals 7
        (["--dealer", "--lowball"], ""),
    ],
)
def test_a_hand_of_another_size_is_said_to_be_a_house_rule(args, said):
    """Seven cards to best-discard were a house-rule game of seven-card hands, said only in
    the header's "(hand size 7)"."""
    code, out, err = run(
        "best-discard", "5H", "5S", "JD", "6C", "4D", "KS", *args, "--samples", "200"
    )
    assert code == 0 and out, err
    assert err == said


def test_a_starter_alone_is_said_to_be_two_cut_cards():
    """--starter alone is the two-cut-cards rule (net 36.9 for 6C 7C, where one cut card
    averaged over gives 17.2), said only in the header's "(starters 2, first cut 5D)": a
    line on stderr says how it was read; the table is the one --starters 2 prints."""
    hand = ["5H", "5S", "JD", "6C", "7C", "KH", "--dealer", "--samples", "200"]
    code, out, err = run("best-discard", *hand, "--starter", "5D")
    assert code == 0 and "(starters 2, first cut 5D)" in out
    assert err == (
        "cribsolve: --starter 5D read as --starters 2: the first of two cut cards, turned "
        "before the throw (leave it out for one cut card, averaged over)\n"
    )
    said = run("best-discard", *hand, "--starter", "5D", "--starters", "2")
    assert said == (0, out, "")
