"""best_discard, crib_table and best_play: each result's to_dict() is its command's --json, on
the docs' examples (a command and the same question asked in Python)."""

import json
import shlex

import pytest
from clihelp import run

from cribsolve.api.pegging import best_play
from cribsolve.api.rules import Rules
from cribsolve.api.throw import best_discard, crib_table
from cribsolve.errors import CribsolveError

HAND = "5H 5S JD 6C 7C KH"

# (command line, the same call in Python)
CASES = [
    (f"best-discard {HAND} --dealer --top 2", lambda: best_discard(HAND, dealer=True, top=2)),
    (
        f"best-discard {HAND} --dealer --pegging --distribution",
        lambda: best_discard(HAND.split(), True, pegging=True, distribution=True),
    ),
    (
        f"best-discard {HAND} --pone --my-score 115 --their-score 118 --top 3 --quiet",
        lambda: best_discard(HAND, dealer=False, my_score=115, their_score=118, top=3),
    ),
    (
        f"best-discard {HAND} 4D 3S --dealer --decks 2 --starter 5D --top 4",
        lambda: best_discard(f"{HAND} 4D 3S", True, rules=Rules(decks=2), starter="5D", top=4),
    ),
    (
        "best-discard 5H 5S JD 6C 7H --players 4 --partners --dealer --top 3",
        lambda: best_discard("5H 5S JD 6C 7H", True, rules=Rules(players=4, partners=True), top=3),
    ),
    (
        f"best-discard {HAND} --variant patience --score 50 --deal 4 --top 3",
        lambda: best_discard(HAND, variant="patience", score=50, deal=4, top=3),
    ),
    (
        "best-discard --variant patience --pysol-game 1 --deal 2 --score 21 --top 3",
        lambda: best_discard(variant="patience", pysol_game=1, deal=2, score=21, top=3),
    ),
    ("crib-table --dealer", lambda: crib_table(True)),
    (
        "best-play TS 2C 3D 8H --played 5H --seen 'KD 4S 4C' --dealer",
        lambda: best_play("TS 2C 3D 8H", dealer=True, played="5H", seen="KD 4S 4C"),
    ),
    (
        "best-play 6D 9S KH 7S --played '7H 8C' --players 3 --starter 4D --thrown 2C",
        lambda: best_play(
            "6D 9S KH 7S",
            played="7H 8C",
            rules=Rules(players=3, hand_size=5),
            starter="4D",
            thrown="2C",
        ),
    ),
]
# three players' board: their odds table is built once, in about a minute
SLOW = [
    (
        "best-discard 5H 5S JD 6C 7H --players 3 --scores 100,110,95 --dealer-player 2",
        lambda: best_discard(
            "5H 5S JD 6C 7H", rules=Rules(players=3), scores="100,110,95", dealer_player=2
        ),
    ),
    (
        "best-play 6D 9S KH 7S --played '7H 8C' --players 3 --starter 4D --thrown 2C "
        "--scores 104,110,112 --dealer-player 1",
        lambda: best_play(
            "6D 9S KH 7S",
            played="7H 8C",
            rules=Rules(players=3, hand_size=5),
            starter="4D",
            thrown="2C",
            scores=[104, 110, 112],
            dealer_player=1,
        ),
    ),
]


def _same(line, call):
    code, out, err = run(*shlex.split(line), "--json")
    assert code == 0, err
    assert call().to_dict() == json.loads(out)


@pytest.mark.parametrize("line, call", CASES, ids=[c[0] for c in CASES])
def test_to_dict_is_the_commands_json(line, call):
    _same(line, call)


@pytest.mark.slow
@pytest.mark.parametrize("line, call", SLOW, ids=[c[0] for c in SLOW])
def test_three_players_board_is_the_commands_json(line, call):
    _same(line, call)


def test_the_discards_are_rows_and_a_data_frame(capsys):
    r = best_discard(HAND, dealer=True)
    assert capsys.readouterr().out == ""  # a library prints nothing
    rows = r.rows
    assert rows == r.discards and len(rows) == 15
    assert rows[0]["discard"] == ["6C", "7C"]
    frame = r.to_pandas()
    assert list(frame.columns) == ["discard", "keep", "hand", "crib", "net", "std", "min", "max"]
    assert frame["net"].is_monotonic_decreasing
    table = crib_table(False, throw_model="uniform")
    assert len(table.rows) == 13 + 2 * 78  # pairs, and every two ranks suited and offsuit
    assert table.to_arrow().column_names == ["rank1", "rank2", "suited", "crib"]


def test_a_callers_mistake_is_the_commands_line():
    with pytest.raises(CribsolveError, match="^say whose crib it is: --dealer or --pone$"):
        best_discard(HAND)
    with pytest.raises(ValueError, match="give both --my-score and --their-score"):
        best_discard(HAND, dealer=True, my_score=100)
    with pytest.raises(CribsolveError, match="say whose discards: --dealer or --pone"):
        crib_table(None)
    with pytest.raises(CribsolveError, match=r"Invalid value for '--count': 7 is not the count"):
        best_play("TS 2C 3D 8H", played="5H", count=7)
    with pytest.raises(CribsolveError, match="give your unplayed cards"):
        best_play([])
