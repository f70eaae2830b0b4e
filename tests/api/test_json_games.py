"""The API of odds, variations, bracket, shuffle, best-place and deal: each result's
``to_dict()`` is what its command prints with ``--json``, on the docs' examples (smaller n
where they simulate), and its table comes as rows and a data frame."""

import csv
import json

import pytest
from clihelp import run

from cribsolve.api.odds import odds, odds_table
from cribsolve.api.rules import Rules
from cribsolve.api.solitaires import best_place, bracket, deal, shuffle
from cribsolve.api.variations import variations
from cribsolve.errors import CardError, CribsolveError

SHUFFLE = "AC 2C 3C 4C 5H 6H 7H 8H 9S TS JS QS KD QD JD TD"
SQUARE = ["5H 6H 7C KD", "JD 5C -- QS", "4D -- 9S 9C", "-- 2C -- 3H"]

# (command line, the same call in Python)
CASES = [
    (
        ["odds", "--my-score", "35", "--their-score", "37", "--dealer"],
        lambda: odds(my_score=35, their_score=37, dealer=True),
    ),
    (
        "odds --my-score 120 --their-score 89 --pone --objective game-points".split(),
        lambda: odds(my_score=120, their_score=89, dealer=False, objective="game-points"),
    ),
    (
        "odds --my-score 120 --their-score 120 --pone --play-out 300 --seed 4".split(),
        lambda: odds(my_score=120, their_score=120, dealer=False, play_out=300, seed=4),
    ),
    (
        "odds --players 4 --partners --my-score 100 --their-score 90 --pone".split(),
        lambda: odds(
            my_score=100,
            their_score=90,
            dealer=False,
            rules=Rules(players=4, partners=True, hand_size=5),
        ),
    ),
    (
        "variations -n 3 --seed 1".split(),
        lambda: variations(n=3, seed=1),
    ),
    (
        "bracket -n 100 --seed 1".split(),
        lambda: bracket(n=100, seed=1),
    ),
    (
        "bracket --variant patience -n 40 --seed 2 --next-hands 3".split(),
        lambda: bracket(variant="patience", n=40, seed=2, next_hands=3),
    ),
    (
        "bracket --variant square -n 20 --seed 1".split(),
        lambda: bracket(variant="square", n=20, seed=1),
    ),
    (
        ["shuffle", *SHUFFLE.split(), "--starter", "5D"],
        lambda: shuffle(SHUFFLE, starter="5D"),
    ),
    (["shuffle", "--pysol-game", "5"], lambda: shuffle(pysol_game=5)),
    (
        ["best-place", *SQUARE, "--card", "5S", "--playouts", "100"],
        lambda: best_place(SQUARE, card="5S", playouts=100),
    ),
    (
        ["best-place", *SQUARE, "--card", "5S", "--variant", "square-waste", "--waste", "8D"],
        lambda: best_place(" ".join(SQUARE), card="5S", variant="square-waste", waste="8D"),
    ),
    (
        "deal --variant patience --pysol-game 1".split(),
        lambda: deal(variant="patience", pysol_game=1),
    ),
    (
        "deal --variant square-waste --pysol-game ms40000".split(),
        lambda: deal(variant="square-waste", pysol_game="ms40000"),
    ),
]


@pytest.mark.parametrize("line, call", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_to_dict_is_the_commands_json(line, call):
    quiet = ["--quiet"] if line[0] in ("odds", "bracket", "variations") else []
    code, out, err = run(*line, "--json", *quiet)
    assert code == 0, err
    assert call().to_dict() == json.loads(out)


def test_the_odds_table_rows_are_its_csv(tmp_path):
    path = tmp_path / "odds.csv"
    assert run("odds", "--table", "--csv", path, "--quiet")[0] == 0
    with open(path, newline="") as f:
        written = list(csv.DictReader(f))
    t = odds_table()
    rows = t.rows
    assert len(rows) == len(written) == 2 * 121 * 121
    assert [str(v) for v in rows[5000].values()] == list(written[5000].values())
    at = next(r for r in rows if (r["my_score"], r["their_score"], r["dealer"]) == (35, 37, "me"))
    assert at["win_probability"] == odds(my_score=35, their_score=37, dealer=True).win_probability
    frame = t.to_pandas()
    assert list(frame.columns) == ["my_score", "their_score", "dealer", "win_probability"]
    assert len(frame) == len(rows)


def test_variations_and_bracket_rows_are_their_csv(tmp_path):
    v = variations(n=2, seed=3, policy="random")
    frame = v.to_pandas()
    assert list(frame["rule"])[:2] == ["standard", "target 16"]
    assert (frame["games"] == 2).all()
    path = tmp_path / "bracket.csv"
    assert run("bracket", "-n", "20", "--seed", "1", "--quiet", "--csv", path)[0] == 0
    with open(path, newline="") as f:
        written = list(csv.DictReader(f))
    b = bracket(n=20, seed=1)
    assert [{k: str(x) for k, x in r.items()} for r in b.rows] == written
    assert b.to_arrow().num_rows == len(written)
    square = bracket(variant="square", n=20, seed=1).rows
    assert [r["measure"] for r in square] == ["win_rate", "ev_rate", "gain", "clairvoyant", "width"]


def test_cards_as_codes_and_mistakes_as_the_commands_lines():
    from cribsolve.core.notation import parse_cards

    assert (
        shuffle(parse_cards([SHUFFLE]), starter=parse_cards(["5D"])[0]).total
        == shuffle(SHUFFLE, starter="5D").total
    )
    cells = [None if w == "--" else w for w in " ".join(SQUARE).split()]
    assert best_place(cells, card="5S", playouts=0) == best_place(SQUARE, card="5S", playouts=0)
    with pytest.raises(CardError, match="give exactly 16 grid cards, not 2"):
        shuffle("AC 2C", starter="5D")
    with pytest.raises(CardError, match="--card: unknown card 'ZZ'"):
        best_place(SQUARE, card="ZZ")
    with pytest.raises(CribsolveError, match="give --my-score, --their-score and --dealer"):
        odds(my_score=3, their_score=4)
    with pytest.raises(CribsolveError, match="'--my-score': 130 is not a score below"):
        odds(my_score=130, their_score=4, dealer=True)
    with pytest.raises(CribsolveError, match="--next-hands does not apply to --variant square"):
        bracket(variant="square", n=10, next_hands=3)
    with pytest.raises(ValueError, match="not a PySolFC game number"):
        deal(variant="patience", pysol_game=0)


def test_progress_is_drawn_only_when_asked(capsys):
    deal(variant="patience", pysol_game=1)
    odds(my_score=35, their_score=37, dealer=True, play_out=20)
    assert capsys.readouterr() == ("", "")
    seen = []

    class Bar:
        def __init__(self, total, desc, unit):
            seen.append((total, desc, unit))

        def update(self, n=1):
            seen.append(n)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass

    odds(my_score=35, their_score=37, dealer=True, play_out=20, progress=Bar)
    assert seen == [(20, "playing the position out", "game"), 20]
