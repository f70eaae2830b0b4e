"""Throws and cards weighed by three players' board (best-discard and best-play with --players
3 --scores): positions whose answer is certain by the rules, each seat's hand where it was
dealt, and the commands' one-line refusals. deal_wins, the P(win) of each played deal, is
checked against a slow replay in test_three_odds.py."""

import json

import numpy as np
import pytest
from clihelp import run

from cribsolve.core.notation import parse_cards
from cribsolve.core.scoring.table import rank_table
from cribsolve.games.cribbage.deals.deal import NO_EXPERT
from cribsolve.games.cribbage.deals.game import flags
from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
from cribsolve.games.cribbage.deals.three_choices import play_odds3, throw_odds3
from cribsolve.games.cribbage.deals.win_choices import deal_rollouts
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.throw.values import deal_options
from cribsolve.infra.jit import variant

SHORT = CribbageSpec(players=3, hand_size=5, game_length=31)
FIVES = parse_cards("5C 5D 5H JS 2S".split())  # 5 5 5 J kept: 14 points whatever the cut


def _away(rows, card):
    return next(r for r in rows if r.discard == parse_cards([card]))


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_my_hand_is_dealt_to_my_seat(seat):
    """Each rollout counts the kept 5 5 5 J (14 at least, whatever the cut) in my seat's hand;
    the others' hands rarely reach 14."""
    pr = SHORT.as_array()
    keep_idx, disc_idx = deal_options(5, pr)
    o = next(i for i in range(len(disc_idx)) if FIVES[disc_idx[i][0]] == FIVES[4])
    pol = np.array([CRIBBAGE_POLICIES["greedy"]] * 3)
    unseen = np.array([c for c in range(52) if c not in FIVES], dtype=np.int64)
    seeds = np.random.default_rng(3).integers(0, 2**62, size=60)
    parts, _ = variant(deal_rollouts, **flags(pol, pr))(
        np.arange(o * 60, o * 60 + 60),
        np.array(FIVES, dtype=np.int64),
        unseen,
        seat,
        seeds,
        pol,
        rank_table(15),
        pr,
        NO_EXPERT,
    )
    hands = parts[:, 4:7]  # seat 0's hand, seat 1's, the dealer's
    assert (hands[:, seat] >= 14).all()
    assert (np.delete(hands, seat, axis=1) < 14).mean() > 0.9


def test_a_hand_that_counts_out_first_wins_for_certain():
    """17 of 31 at the dealer's left, who counts first, the others at 0 (no deal takes them to
    31): keeping 5 5 5 J wins every deal (14 points); throwing a five does not always."""
    rows = throw_odds3(FIVES, 0, [17, 0, 0], SHORT, samples=200, seed=1)
    best = _away(rows, "2S")
    assert rows[0] is best or rows[0].win == 1.0
    assert best.win == 1.0 and best.se == 0.0
    assert _away(rows, "5C").win < 1.0
    assert best.mine >= 14 and best.theirs < best.mine


def test_a_card_that_pegs_out_wins_for_certain():
    """At 29 of 31, the count 10: a five makes fifteen for 2 and the game; any other card
    leaves the last point of the play to whoever lays last, and the others stand at 30."""
    hand = parse_cards("5H 5S JD 4C".split())
    got = play_odds3(
        hand,
        parse_cards(["TH"]),
        1,
        parse_cards(["2C"])[0],
        parse_cards(["9S"]),
        [30, 29, 30],
        spec=SHORT,
        samples=200,
    )
    wins = {c: (p, se) for c, p, se in got}
    for five in parse_cards("5H 5S".split()):
        assert wins[five] == (1.0, 0.0)
    for other in parse_cards("JD 4C".split()):
        assert wins[other][0] < 1.0
    assert {c for c, _, _ in got[:2]} == set(parse_cards("5H 5S".split()))


def test_best_discard_weighs_three_players_board():
    """Player 3 deals, so I (player 1) sit at the dealer's left and count first."""
    code, out, err = run(
        "best-discard", *"5C 5D 5H JS 2S".split(), "--players", "3", "--game-length", "31",
        "--scores", "17,0,0", "--dealer-player", "3", "--samples", "100", "--json", "--quiet",
    )  # fmt: skip
    got = json.loads(out)
    assert code == 0 and got["scores"] == [17, 0, 0] and got["dealer_player"] == 3
    assert got["discards"][0]["discard"] == "2S" and got["discards"][0]["win"] == 1.0


def test_best_play_weighs_three_players_board():
    code, out, err = run(
        "best-play", *"5H 5S JD 4C".split(), "--played", "TH", "--players", "3",
        "--game-length", "31", "--scores", "29,30,30", "--dealer-player", "2",
        "--starter", "2C", "--thrown", "9S", "--samples", "100", "--json", "--quiet",
    )  # fmt: skip
    got = json.loads(out)
    assert code == 0 and got["seat_number"] == 1 and got["scores"] == [29, 30, 30]
    assert [p["card"] for p in got["plays"][:2]] in (["5H", "5S"], ["5S", "5H"])
    assert got["plays"][0]["win"] == 1.0 and got["plays"][-1]["win"] < 1.0


@pytest.mark.parametrize(
    "args,says",
    [
        (["best-discard", "5C", "5D", "5H", "JS", "KC", "--scores", "1,2,3",
          "--dealer-player", "1"], "weigh three players' board (--players 3)"),
        (["best-discard", "5C", "5D", "5H", "JS", "KC", "--players", "3", "--scores",
          "1,2,3"], "give --scores A,B,C and --dealer-player N"),
        (["best-discard", "5C", "5D", "5H", "JS", "KC", "--players", "3", "--scores",
          "1,2,3", "--dealer-player", "1", "--dealer"], "--dealer/--pone does not apply"),
        (["best-discard", "5C", "5D", "5H", "JS", "KC", "--players", "3", "--my-score",
          "1", "--their-score", "2", "--dealer"], "three players give --scores"),
        (["best-discard", "5C", "5D", "5H", "JS", "KC", "--players", "3", "--scores",
          "1,2,121", "--dealer-player", "1"], "is not three scores from 0 to 120"),
        (["best-play", "5H", "5S", "6C", "7D", "--players", "3", "--scores", "1,2,3",
          "--dealer-player", "3"], "P(win) needs --starter and --thrown"),
        (["best-play", "5H", "5S", "--players", "4", "--scores", "1,2,3", "--dealer-player",
          "1"], "weigh three players' board"),
        (["best-play", "5H", "5S", "--scores", "1,2,3", "--dealer-player", "1"],
         "weigh three players' board"),
        (["best-play", "5H", "5S", "--players", "3", "--scores", "1,2,3", "--dealer-player",
          "1", "--pone"], "--dealer/--pone does not apply"),
    ],
)  # fmt: skip
def test_bad_three_player_boards_are_refused_in_one_line(args, says):
    code, out, err = run(*args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and not out
