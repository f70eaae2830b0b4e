"""The expert near the end of a game: its throw by the board (board_throw.board_throw) and
pegging out when a card wins at once (policies.peg_out), on hand-worked positions."""

import json

import numpy as np
import pytest
from clihelp import run

from cribsolve.core.cards import RANK
from cribsolve.core.notation import parse_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals import board_throw
from cribsolve.games.cribbage.deals.roster import tables_for
from cribsolve.games.cribbage.deals.win_choices import board_for
from cribsolve.games.cribbage.players import policies
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.computer import Computer
from cribsolve.games.cribbage.throw.values import deal_options, throw_values

HAND = parse_cards(["5H 5S JD 6C 7C KH"])
SPEC = CribbageSpec()


def _peg_out(hand, series, need, choice=3):
    cards = np.array(parse_cards([hand]), dtype=np.int64)
    ranks = [int(RANK[c]) for c in parse_cards([series])]
    ser = np.zeros(8, dtype=np.int64)
    ser[: len(ranks)] = ranks
    count = sum(min(r, 10) for r in ranks)
    st = np.array([len(ranks), count, 0, 1], dtype=np.int64)
    i = policies.peg_out(cards, np.zeros(4, dtype=np.bool_), ser, st, need, SPEC.as_array(), choice)
    return i


def test_the_expert_lays_the_card_that_wins_now():
    """At K-3 (13): the 2 makes fifteen for 2, the 9, 4 and K score nothing."""
    assert _peg_out("9S 2C 4H KD", "KS 3D", need=2) == 1
    assert _peg_out("9S 2C 4H KD", "KS 3D", need=3) == 3  # nothing wins: its own choice
    assert _peg_out("9S 2C 4H KD", "KS 3D", need=3, choice=0) == 0
    # at T-8-7 (25): a 7 would pair for 2 but makes 32; the 6 makes 31 for 2
    assert _peg_out("7S 6C 4H KD", "TS 8D 7H", need=2) == 1


@pytest.mark.slow
def test_the_expert_throws_by_the_board():
    """Pone at 115 against 118 (test_board's hand-worked case): the points say throw J-K;
    the expert, weighing the board, keeps a hand that counts its 3 before the dealer can."""
    pr, table = SPEC.as_array(), rank_table()
    expert, board = tables_for(["expert"], SPEC), board_for(["expert"], SPEC)
    dealt = np.array(HAND, dtype=np.int64)
    keep_idx, disc_idx = deal_options(6, pr)
    values = throw_values(
        dealt,
        0,
        table,
        pr,
        keep_idx,
        disc_idx,
        -1,
        np.bincount(dealt, minlength=53).astype(np.int64),
        0,
        expert[0][1],
    )
    by_points = int(np.argmax(values))
    assert sorted(dealt[disc_idx[by_points]]) == sorted(parse_cards(["JD KH"]))
    pick = board_throw.board_throw(dealt, 0, 115, 118, table, pr, expert, board)
    assert pick != by_points
    assert pick in np.argsort(-values)[: board_throw.BOARD_THROWS]
    assert board_throw.board_throw(dealt, 0, 115, 118, table, pr, expert, board) == pick


def test_the_opponent_in_the_board_deals_throws_as_the_throw_model_values_its_six():
    """board_throw.model_throw reads the throw model's kept shares; inference.option_values values
    each way to keep four of six ranks directly: the four kept is one of the best."""
    from itertools import combinations

    from cribsolve.games.cribbage.deals.roster import expert_tables
    from cribsolve.games.cribbage.players import inference

    pr, table = SPEC.as_array(), rank_table()
    shares = expert_tables(SPEC, ())[1]
    crib = inference.crib_values(table)
    _, disc_idx = deal_options(6, pr)
    rng = np.random.default_rng(3)
    for _ in range(300):
        six = rng.permutation(52)[:6].astype(np.int64)
        seat = int(rng.integers(2))
        o = board_throw.model_throw(six, seat, shares, disc_idx)
        kept = sorted(int(RANK[c]) for q, c in enumerate(six) if q not in disc_idx[o])
        ranks = RANK[six].astype(np.int64)
        vals = inference.option_values(ranks, seat, table, crib)
        best = {
            tuple(sorted(int(ranks[q]) for q in range(6) if q not in (i, j)))
            for (i, j), v in zip(combinations(range(6), 2), vals)
            if v >= vals.max() - 1e-9
        }
        assert tuple(kept) in best
    assert board_throw.model_throw(six, 0, inference.NO_MODEL, disc_idx) == -1


@pytest.mark.parametrize("scores, by_board", [((115, 118), True), ((40, 50), False), (None, False)])
def test_the_computer_weighs_the_board_near_the_end_only(scores, by_board):
    kept, thrown = Computer("expert", SPEC).throw(HAND, False, 1, 0, scores)
    assert (sorted(thrown) != sorted(parse_cards(["JD KH"]))) == by_board


def test_no_board_where_the_odds_table_does_not_model_the_deal():
    assert board_for(["expert1", "lookahead"], SPEC).shape[0] == 0
    assert board_for(["expert"], CribbageSpec(lowball=True)).shape[0] == 0
    assert board_for(["expert"], CribbageSpec(players=3, hand_size=5)).shape[0] == 0
    assert board_for(["expert"], SPEC, "game-points").shape[0] == 2


@pytest.mark.slow
def test_simulate_weighs_the_board_for_the_expert_only():
    code, _, err = run(
        "simulate", "--variant", "cribbage", "-n", "10", "--objective", "game-points", "--quiet"
    )
    assert code == 2 and "expert" in err and len(err.strip().splitlines()) == 1
    code, _, err = run("simulate", "--variant", "patience", "-n", "10", "--objective", "win")
    assert code == 2 and "--objective" in err
    code, out, err = run(
        "simulate",
        "--variant",
        "cribbage",
        "-n",
        "40",
        "--policy",
        "expert",
        "--opponent-policy",
        "greedy",
        "--objective",
        "game-points",
        "--json",
        "--quiet",
    )
    d = json.loads(out)
    assert code == 0, err
    assert 2 * d["player_win_rate"] <= d["player_game_points"] <= 3 * d["player_win_rate"]


@pytest.mark.slow
def test_the_throw_by_the_board_agrees_with_best_discard():
    """board.throw_odds (best-discard --my-score: every throw, 2,000 shuffles of numpy's
    generator, standard error about 0.01) against the expert's own kernel (4 throws, 64 deals
    of its own generator) on 12 random end positions: the kernel mostly throws best-discard's
    best of its 4, is never far below it, and does better than throwing by points."""
    from cribsolve.games.cribbage.deals import win_choices as board_mod

    pr, table = SPEC.as_array(), rank_table()
    expert, board = tables_for(["expert"], SPEC), board_for(["expert"], SPEC)
    keep_idx, disc_idx = deal_options(6, pr)
    rng = np.random.default_rng(5)
    same, picked, by_points = 0, [], []
    for _ in range(12):
        dealt = rng.permutation(52)[:6].astype(np.int64)
        seat = int(rng.integers(2))
        mine, theirs = (int(x) for x in rng.integers(100, 121, size=2))
        values = throw_values(
            dealt,
            seat,
            table,
            pr,
            keep_idx,
            disc_idx,
            -1,
            np.bincount(dealt, minlength=53).astype(np.int64),
            seat,
            expert[0][1],
        )
        rows = {
            tuple(sorted(r.discard)): r.win
            for r in board_mod.throw_odds(
                dealt.tolist(), bool(seat), mine, theirs, SPEC, samples=2000, seed=1
            )
        }
        win = {
            o: rows[tuple(sorted(dealt[disc_idx[o]].tolist()))]
            for o in np.argsort(-values)[: board_throw.BOARD_THROWS]
        }
        pick = board_throw.board_throw(dealt, seat, mine, theirs, table, pr, expert, board)
        same += win[pick] == max(win.values())
        assert max(win.values()) - win[pick] < 0.08
        picked.append(win[pick])
        by_points.append(win[int(np.argmax(values))])
    assert same >= 9
    assert sum(picked) > sum(by_points)
