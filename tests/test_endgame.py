"""The expert's board-aware throw (variants/endgame.py): its deal values against the odds
table's own valuation of whole deals, and its choice against board.throw_odds."""
import numpy as np
import pytest

from cribsolve.notation import parse_cards
from cribsolve.odds import after_deal, reach_times, win_table
from cribsolve.pegging import GREEDY, MAX_EVENTS
from cribsolve.scoring.table import rank_table
from cribsolve.variants import endgame, throws, twoplayer as tp
from cribsolve.variants.spec import CribbageSpec

SPEC = CribbageSpec()
PR = SPEC.as_array()


def test_deal_values_equal_the_odds_tables_reading_of_the_whole_deal():
    """A deal played to its end (twoplayer.play_deal, no game end) and read by after_deal
    (who reached 121 first, from the traces) is worth what _deal_value finds by stopping
    the deal the moment someone gets there."""
    win = win_table(SPEC)
    table = rank_table()
    keep_idx, disc_idx = throws.deal_options(6, PR)
    pol = np.array([[1, GREEDY], [1, GREEDY]])
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(60):
        deck = rng.permutation(52).astype(np.int64)
        scores = rng.integers(85, 121, size=2)
        me = int(rng.integers(2))
        six = [deck[6 * s:6 * s + 6] for s in range(2)]
        theirs = throws.choose_throw(six[1 - me], me == 0, throws.EV, table, PR, keep_idx,
                                     disc_idx, -1, np.bincount(six[1 - me], minlength=53),
                                     1 - me, np.zeros((0, 1)))
        for o in range(0, 15, 4):
            parts = np.zeros(tp.NP, dtype=np.int64)
            trace = np.zeros(MAX_EVENTS + 1, dtype=np.int64)
            forced = np.array([-1, -1])
            forced[me] = o
            tp.play_deal(deck, pol, np.zeros(2, dtype=np.int64), 0, table, parts, PR,
                         tp.NO_EXPERT, forced, trace)
            totals, times = reach_times(parts[None], trace[None])
            want = after_deal(win, me, scores[me], scores[1 - me], totals[0], times[0], 121)
            hands = np.empty((2, 4), dtype=np.int64)
            hands[me] = six[me][keep_idx[o]]
            hands[1 - me] = six[1 - me][keep_idx[theirs]]
            crib = np.concatenate([six[0][disc_idx[o if me == 0 else theirs]],
                                   six[1][disc_idx[o if me == 1 else theirs]]])
            got = endgame._deal_value(hands, crib, deck[12], me, scores.astype(np.int64), 121,
                                      win, table, PR)
            assert got == pytest.approx(want, abs=1e-12)
            checked += want not in (0.0, 1.0)
    assert checked > 20        # not only decided deals


def test_the_board_throw_is_the_one_that_wins_most():
    """Pone at 115 against 118: the most points throw J-K (board.py's own test position);
    the expert keeps a throw that board.throw_odds, played out separately, rates within
    sampling error of the best, and far above J-K."""
    from cribsolve.board import throw_odds
    from cribsolve.pegging import _seed

    hand = parse_cards(["5H 5S JD 6C 7C KH"])
    keep_idx, disc_idx = throws.deal_options(6, PR)
    dealt = np.array(hand, dtype=np.int64)
    usual = throws.choose_throw(dealt, False, throws.EV, rank_table(), PR, keep_idx, disc_idx,
                                -1, np.bincount(dealt, minlength=53), 0, np.zeros((0, 1)))
    assert sorted(dealt[disc_idx[usual]].tolist()) == sorted(parse_cards(["JD KH"]))
    scores = np.array([115, 118], dtype=np.int64)
    assert endgame.applies(PR, win_table(SPEC), scores, 121)
    assert not endgame.applies(PR, win_table(SPEC), np.array([80, 90]), 121)
    _seed(3)
    pick = endgame.board_throw(dealt, 0, scores, 121, np.bincount(dealt, minlength=53), usual,
                               win_table(SPEC), rank_table(), PR, keep_idx, disc_idx)
    odds = {tuple(sorted(t.discard)): t for t in throw_odds(hand, False, 115, 118, SPEC,
                                                             samples=3000, seed=2)}
    chosen = odds[tuple(sorted(dealt[disc_idx[pick]].tolist()))]
    best = max(odds.values(), key=lambda t: t.win)
    assert chosen.win >= best.win - 3 * np.hypot(chosen.se, best.se)
    jk = odds[tuple(sorted(parse_cards(["JD KH"])))]
    assert chosen.win > jk.win + 3 * np.hypot(chosen.se, jk.se)
