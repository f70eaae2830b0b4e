"""Each API function's result is its command's ``--json``: ``to_dict()`` equals what the
command prints, on the docs' examples (a command and the same question asked in Python)."""

import json
import pathlib

import pytest
from clihelp import run

import cribsolve as cs

EXAMPLES = pathlib.Path(__file__).parent.parent.parent / "examples"

# (command line, the same call in Python)
CASES = [
    ("score 5H 5S 5C JD --starter 5D", lambda: cs.score("5H 5S 5C JD", "5D")),
    ("score 4H 5H 6H 7H --starter 8S --crib", lambda: cs.score("4H 5H 6H 7H", "8S", crib=True)),
    (
        "score 5H 5S 5C KD --starter 5D --wild K",
        lambda: cs.score(["5H", "5S", "5C", "KD"], ["5D"], rules=cs.Rules(wild_rank=13)),
    ),
    (
        "score 7H 8S 8D 9C --starter JK --jokers 1 --target 16",
        lambda: cs.score("7H 8S 8D 9C", "JK", rules=cs.Rules(jokers=1, target=16)),
    ),
    ("distribution", lambda: cs.distribution()),
    ("review examples/three.txt", lambda: cs.review(EXAMPLES / "three.txt")),
    (
        "simulate --variant patience -n 200 --policy ev --seed 1",
        lambda: cs.simulate("patience", n=200, policy="ev", seed=1),
    ),
    (
        "simulate --variant cribbage -n 50 --seed 1 --lowball --game-length 61",
        lambda: cs.simulate("cribbage", n=50, seed=1, rules=cs.Rules(lowball=True, game_length=61)),
    ),
    ("distribution --crib --rules pysol", lambda: cs.distribution(crib=True, preset="pysol")),
]


@pytest.mark.parametrize("line, call", CASES, ids=[c[0] for c in CASES])
def test_to_dict_is_the_commands_json(line, call):
    args = [str(EXAMPLES.parent / a) if a.startswith("examples/") else a for a in line.split()]
    code, out, err = run(*args, "--json")
    assert code == 0, err
    assert call().to_dict() == json.loads(out)


def test_a_table_result_gives_rows_a_data_frame_and_an_arrow_table():
    d = cs.distribution()
    rows = d.rows
    assert sum(r["count"] for r in rows) == d.hands == 12_994_800
    # the published count: 4 of the 12,994,800 hands and starters make 29, 76 make 28
    assert rows[29] == {"score": 29, "count": 4, "probability": 4 / 12_994_800}
    assert rows[28]["count"] == 76
    frame = d.to_pandas()
    assert list(frame.columns) == ["score", "count", "probability"]
    assert frame["count"].sum() == d.hands
    assert d.to_arrow().num_rows == len(rows)
    s = cs.score("5H 5S 5C JD", "5D")
    assert sum(r["points"] for r in s.rows) == s.total == 29


def test_a_result_is_frozen_and_hands_out_copies():
    s = cs.score("5H 5S 5C JD", "5D")
    with pytest.raises(AttributeError):
        s.total = 3
    s.to_dict()["breakdown"]["pairs"] = 0
    s.breakdown["pairs"] = 0
    assert s.breakdown["pairs"] == 12
    assert s == cs.score(["5H", "5S", "5C", "JD"], "5D")


def test_a_users_mistake_is_a_value_error_with_the_commands_line():
    with pytest.raises(ValueError, match="card 5H given 2 times"):
        cs.score("5H 5H", "5D")
    with pytest.raises(cs.CardError, match="--starter: unknown card 'ZZ'"):
        cs.score("5H", "ZZ")


def test_a_reviews_rows_are_its_decisions():
    r = cs.review(EXAMPLES / "game1.txt")
    rows = r.rows
    assert len(rows) == sum(len(d["decisions"]) for d in r.deals) > 0
    assert {row["kind"] for row in rows} == {"throw", "play"}
    # each decision not the best lost what it was judged by; the totals add those up
    for kind, group in (("throw", "throws"), ("play", "play")):
        mine = [row["judged"] for row in rows if row["kind"] == kind]
        for by, total in r.lost[group].items():
            assert total == pytest.approx(
                sum(j["lost"] for j in mine if j["by"] == by and j["not_the_best"])
            )
    assert r.to_pandas()["deal"].nunique() == len({row["deal"] for row in rows})


def test_a_simulations_games_are_its_rows_and_add_up_to_its_summary():
    r = cs.simulate("cribbage", n=60, seed=2, games=True, deals=True)
    frame = r.to_pandas()
    assert len(frame) == len(r.rows) == r.n == 60
    assert (frame["winner"] == 1).mean() == pytest.approx(r.player_win_rate)
    assert len(r.deals["game"]) == r.to_dict()["deals_per_game"] * 60
