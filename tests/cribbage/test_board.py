"""Throws ranked by P(win) of the game (win_choices.py)."""

import json

import numpy as np
from clihelp import run

from cribsolve.core.notation import parse_cards
from cribsolve.games.cribbage.deals import win_choices
from cribsolve.games.cribbage.rules.spec import CribbageSpec

HAND = parse_cards(["5H 5S JD 6C 7C KH"])


def test_near_the_end_the_most_points_is_not_the_most_wins():
    """Pone at 115 against 118: the dealer needs 3, and the pone's hand counts before the
    dealer's. Throwing J-K keeps the most points (5-5-6-7, at least 8 in hand), but its low
    cards feed the dealer's pegging; keeping 5-5-J-7 (6 in hand for sure) wins more."""
    rows = win_choices.throw_odds(HAND, False, 115, 118, CribbageSpec(), samples=1500, seed=3)
    by_points = max(rows, key=lambda r: r.mine - r.theirs)
    assert sorted(by_points.discard) == sorted(parse_cards(["JD KH"]))
    assert rows[0] is not by_points
    assert rows[0].win - by_points.win > 3 * (rows[0].se + by_points.se)


def test_more_points_never_hurt():
    """The same shuffles from a better score: no throw's P(win) goes down."""
    spec = CribbageSpec()
    low = {
        tuple(r.discard): r.win
        for r in win_choices.throw_odds(HAND, True, 100, 110, spec, samples=300)
    }
    high = {
        tuple(r.discard): r.win
        for r in win_choices.throw_odds(HAND, True, 108, 110, spec, samples=300)
    }
    assert all(high[k] >= low[k] - 1e-12 for k in low)
    assert np.mean([high[k] - low[k] for k in low]) > 0.02


def test_best_discard_with_the_scores():
    code, out, _ = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--pone",
        "--my-score",
        "115",
        "--their-score",
        "118",
        "--samples",
        "400",
        "--json",
        "--quiet",
    )
    rows = json.loads(out)["discards"]
    assert code == 0 and len(rows) == 15
    assert [r["win"] for r in rows] == sorted((r["win"] for r in rows), reverse=True)
    code, _, err = run(
        "best-discard", "5H", "5S", "JD", "6C", "7C", "KH", "--pone", "--my-score", "115"
    )
    assert code == 2 and "--their-score" in err
    code, _, err = run(
        "best-discard",
        "5H",
        "5S",
        "JD",
        "6C",
        "7C",
        "KH",
        "--pone",
        "--my-score",
        "115",
        "--their-score",
        "3",
        "--two-cribs",
    )
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_a_card_that_wins_at_once():
    """Dealer at 119 against 119 after the pone's 5H: TS makes 15 for 2 and the game; any
    other card leaves the pone its chance to score first."""
    ts, kd = parse_cards(["TS KD"])
    rows = win_choices.play_odds(
        parse_cards(["TS 2C 3D 8H"]),
        parse_cards(["5H"]),
        1,
        kd,
        parse_cards(["4S 4C"]),
        119,
        119,
        samples=300,
    )
    assert rows[0] == (ts, 1.0, 0.0)
    assert all(p < 0.9 for _, p, _ in rows[1:])


def test_best_play_with_the_scores():
    args = ["best-play", "TS 2C 3D 8H", "--played", "5H", "--dealer"]
    code, out, _ = run(
        *args,
        "--thrown",
        "4S 4C",
        "--starter",
        "KD",
        "--my-score",
        "115",
        "--their-score",
        "117",
        "--samples",
        "300",
        "--json",
    )
    plays = json.loads(out)["plays"]
    assert code == 0 and [p["card"] for p in plays][0] == "TS"
    assert [p["win"] for p in plays] == sorted((p["win"] for p in plays), reverse=True)
    code, _, err = run(*args, "--my-score", "115", "--their-score", "117")
    assert code == 2 and "--starter" in err


def test_the_longest_game_is_one_figure():
    from cribsolve.cli.odds import odds
    from cribsolve.games.cribbage.rules.spec import ODDS_LENGTH_MAX

    length = next(p for p in odds.params if p.name == "game_length")
    assert length.type.max == win_choices.LONGEST == ODDS_LENGTH_MAX
    code, _, err = run(
        "odds",
        "--game-length",
        str(win_choices.LONGEST + 1),
        "--my-score",
        "1",
        "--their-score",
        "1",
        "--dealer",
    )
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_best_play_takes_the_starter_and_throw_in_seen_too():
    args = [
        "best-play",
        "5H TD 4C 3S",
        "--played",
        "KS",
        "--my-score",
        "110",
        "--their-score",
        "115",
        "--starter",
        "2D",
        "--thrown",
        "AC 9S",
        "--samples",
        "200",
        "--json",
    ]
    code, out, err = run(*args, "--seen", "AC 9S 2D")
    assert code == 0, err
    assert json.loads(out) == json.loads(run(*args)[1])
