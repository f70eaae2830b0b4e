"""The three-player odds table: its dynamic program against a slow replay of the same deals,
and the table against games played out from positions near the end."""

import json
import math
from functools import lru_cache

import numpy as np
import pytest
from clihelp import run

from cribsolve.games.cribbage.deals import three_odds
from cribsolve.games.cribbage.deals.odds import deal_records
from cribsolve.games.cribbage.rules.spec import CribbageSpec

THREE = CribbageSpec(players=3, hand_size=5)


def slow_deal(p, tr, score, length, later):
    """Each seat's P(win) from ``score`` (seat 0 at the dealer's left, seat 1, the dealer)
    over one deal (its parts p and trace tr) replayed point by point: the trace (heels, then
    the play), the hands from the dealer's left round to the dealer, then the crib;
    ``later(a, b, c)``: the next deal's odds, seat 0 dealing."""
    score, done = list(score), None
    for code in tr[1 : 1 + tr[0]]:
        score[code % 3] += code // 3
        if score[code % 3] >= length:
            done = code % 3
            break
    for seat, pts in enumerate((p[4], p[5], p[6] + p[7])):
        if done is None:
            score[seat] += pts
            done = seat if score[seat] >= length else None
    if done is not None:
        return np.eye(3)[done]
    nxt = later(score[1], score[2], score[0])  # seat 1 is at the next dealer's left
    return np.array((nxt[2], nxt[0], nxt[1]))


def slow_three(parts, traces, length):
    """The table by memoised recursion over the deals (slow_deal), no shared code with it."""
    deals = list(zip(parts.tolist(), traces.tolist()))

    @lru_cache(maxsize=None)
    def win(a, b, c):
        return sum(slow_deal(p, tr, (a, b, c), length, win) for p, tr in deals) / len(deals)

    return win


def test_the_table_equals_a_slow_replay_of_its_deals():
    """Positions no deal can finish from, positions only a show can, and positions the play
    can, for each seat."""
    rec = deal_records(THREE, 40, seed=5)
    length = 25
    table = three_odds.three_table(rec["parts"], rec["traces"], length)
    slow = slow_three(rec["parts"], rec["traces"], length)
    for a in range(0, length, 4):
        for b in range(1, length, 5):
            for c in range(2, length, 3):
                assert table[a, b, c] == pytest.approx(slow(a, b, c), abs=1e-12)
    three_odds._check_odds3({"win": table}, {"game_length": length})


def test_each_deal_from_any_scores_equals_its_slow_replay():
    """deal_wins (the three-player throws' and cards' P(win) deal by deal) against
    slow_deal, the later deals read from the same table."""
    rec = deal_records(THREE, 40, seed=6)
    length = 25
    table = three_odds.three_table(rec["parts"], rec["traces"], length)
    rows, _, times = three_odds.three_rows(rec["parts"], rec["traces"])
    later = lambda a, b, c: table[a, b, c]  # noqa: E731
    for score in [(0, 0, 0), (20, 3, 11), (24, 24, 24), (10, 22, 23), (23, 9, 17)]:
        got = three_odds.deal_wins(table, np.array(score), rows, times, length)
        for k, (p, tr) in enumerate(zip(rec["parts"].tolist(), rec["traces"].tolist())):
            assert got[k] == pytest.approx(slow_deal(p, tr, score, length, later), abs=1e-12)


def test_players_sit_round_the_dealer():
    """Player 0 deals: it is the last seat, the player at its left seat 0."""
    assert [three_odds.seat_of(p, 0) for p in range(3)] == [2, 0, 1]
    assert [three_odds.seat_of(0, d) for d in range(3)] == [2, 1, 0]
    assert three_odds.seat_scores((5, 6, 7), 1) == [7, 5, 6]


def test_the_table_reads_by_player_and_dealer():
    """Player p sits at the left of player p - 1; the seat at the dealer's left is seat 0."""
    win = np.zeros((3, 3, 3, 3))
    win[0, 1, 2] = (0.5, 0.3, 0.2)  # seat 0 at 0, seat 1 at 1, the dealer at 2
    # player 1 deals: player 2 is seat 0 and player 0 seat 1
    assert list(three_odds.player_odds(win, (1, 2, 0), 1)) == [0.3, 0.2, 0.5]
    assert list(three_odds.player_odds(win, (2, 0, 1), 0)) == [0.2, 0.5, 0.3]


def test_two_sides_are_not_three():
    with pytest.raises(three_odds.CribsolveError, match="three players"):
        three_odds.three_odds_table(CribbageSpec(), deals=10)
    with pytest.raises(three_odds.CribsolveError, match="stink hole"):
        three_odds.three_odds_table(CribbageSpec(players=3, hand_size=5, stinkhole=True))


def test_played_out_starts_from_the_three_scores():
    """One point short against 0 and 0, dealing: the others cannot reach 121 in a deal and
    the dealer nearly always scores."""
    wins = three_odds.three_played_out(THREE, (0, 0, 120), 2, 200, seed=1)
    assert wins.sum() == 200 and wins[2] >= 198
    wins = three_odds.three_played_out(THREE, (120, 0, 0), 0, 200, seed=1)
    assert wins[0] >= 198


@pytest.mark.parametrize(
    "args,says",
    [
        (["--scores", "1,2", "--dealer-player", "1"], "is not three scores from 0 to 120"),
        (["--scores", "1,2,121", "--dealer-player", "1"], "is not three scores from 0 to 120"),
        (["--scores", "1,x,3", "--dealer-player", "1"], "is not three scores"),
        (["--scores", "1,2,3"], "give --scores A,B,C and --dealer-player N"),
        (["--scores", "1,2,3", "--dealer-player", "1", "--table"], "--table does not apply"),
        (["--scores", "1,2,3", "--dealer-player", "1", "--policy", "expert"], "--policy does"),
    ],
)
def test_bad_three_player_questions_are_refused_in_one_line(args, says):
    code, out, err = run("odds", "--players", "3", *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and not out


def test_two_sides_are_not_asked_for_three_scores():
    code, out, err = run("odds", "--scores", "1,2,3", "--my-score", "1", "--their-score", "2")
    assert code == 2 and "--scores does not apply to two sides" in err


def test_odds_of_three_players_with_games_played_out():
    """A short game: each player's P(win) adds to 1, and the games played out are the
    position's, player 3 one point short and dealing."""
    code, out, err = run(
        "odds", "--players", "3", "--game-length", "31", "--scores", "0,5,30",
        "--dealer-player", "3", "--play-out", "300", "--json", "--quiet",
    )  # fmt: skip
    got = json.loads(out)
    assert code == 0 and got["scores"] == [0, 5, 30] and got["dealer"] == 3
    assert sum(got["win_probability"]) == pytest.approx(1, abs=1e-9)
    assert got["win_probability"][2] > 0.99 and got["played_out"]["win_rate"][2] > 0.97


@pytest.mark.slow
@pytest.mark.parametrize(
    "scores,dealer", [((116, 116, 116), 0), ((110, 114, 106), 1), ((95, 100, 90), 2)]
)
def test_the_table_agrees_with_games_played_out(scores, dealer):
    """20,000 games from each position, all greedy, against the table: each player's rate
    within 3 standard errors of the games plus a point for the table's own sampling."""
    games = 20_000
    p = three_odds.player_odds(three_odds.three_odds_table(THREE), scores, dealer)
    rate = three_odds.three_played_out(THREE, scores, dealer, games, seed=9) / games
    for q, r in zip(p, rate):
        assert abs(r - q) < 0.01 + 3 * math.sqrt(q * (1 - q) / games)
