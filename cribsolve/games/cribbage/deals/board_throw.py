"""The expert's throw near the end of a two-player game, weighed by the board: each of its best
throws by points played out on deals of the unseen cards and valued by P(win)."""

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.deals.deal import NP, count_deal
from cribsolve.games.cribbage.players.inference import four_index
from cribsolve.games.cribbage.rules.pegging import (
    MAX_EVENTS,
    unseen_cards,
)
from cribsolve.games.cribbage.rules.reach import SKUNK, after_deal, reach_times
from cribsolve.games.cribbage.rules.spec import CRIB_SIZE, GAME_LENGTH
from cribsolve.games.cribbage.throw.values import EV, choose_throw, deal_options, throw_values
from cribsolve.infra.jit import njit

# The expert's throw by the board (board_throw): weighed when a score is within BOARD_REACH of
# the game length (a deal can end the game: a dealer's hand, crib and play seldom make more),
# among its BOARD_THROWS best throws by points, each played out on BOARD_DEALS deals.
BOARD_REACH, BOARD_THROWS, BOARD_DEALS = 30, 4, 64


@njit(cache=True)
def _mixed(state):
    """splitmix64's output for a state: the board's own generator, so that weighing the board
    leaves the game's random stream as it was."""
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def _shuffle(cards, state):
    """Shuffle ``cards`` in place (Fisher-Yates) from a splitmix64 state; returns the state."""
    for i in range(cards.shape[0] - 1, 0, -1):
        state += np.uint64(0x9E3779B97F4A7C15)
        j = np.int64(_mixed(state) % np.uint64(i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return state


@njit(cache=True)
def model_throw(six, seat, shares, disc_idx):
    """The option (values.deal_options' order, two of six cards thrown) the throw model takes
    with these six cards in ``seat`` (``shares``: inference.keep_shares; the first of its tied
    fours, the first way by suit to throw its ranks), or -1 where the model does not apply:
    the opponent of board_throw's deals, at a small part of an expected-value throw's cost."""
    if shares.shape[0] != 2 or six.shape[0] != 6 or disc_idx.shape[1] != 2:
        return -1
    four = np.empty(4, dtype=np.int64)
    best, pick = 0.0, -1
    for o in range(disc_idx.shape[0]):
        i, j = disc_idx[o, 0], disc_idx[o, 1]
        k = 0
        for q in range(6):
            if q != i and q != j:
                four[k] = RANK[six[q]]
                k += 1
        t1, t2 = min(RANK[six[i]], RANK[six[j]]), max(RANK[six[i]], RANK[six[j]])
        pair = (t1 - 1) * 13 - (t1 - 1) * (t1 - 2) // 2 + t2 - t1  # keep_shares' order
        share = shares[seat, four_index(four), pair]
        if share > best:
            best, pick = share, o
    return pick


@njit(cache=True)
def _throw(cards, o, keep_idx, disc_idx, hand, crib):
    """Option o of ``cards`` (deal_options): the kept into ``hand``, the thrown into the first
    places of ``crib``."""
    for q in range(keep_idx.shape[1]):
        hand[q] = cards[keep_idx[o, q]]
    for q in range(disc_idx.shape[1]):
        crib[q] = cards[disc_idx[o, q]]


@njit(cache=True)
def board_value(board, d, mine, theirs, row, times, pr):
    """A played deal's worth to me by the board's objective: P(win) (board: the odds table,
    odds.odds_table) or expected game points (board: it and the skunk table; 2 a win, 3 a
    skunk), from the scores before it (mine, theirs; d = 1: I dealt; reach.after_deal)."""
    length = pr[GAME_LENGTH]
    win = after_deal(board[0], d, mine, theirs, row, times, length, length)
    if board.shape[0] == 1:
        return win
    return 2.0 * win + after_deal(board[1], d, mine, theirs, row, times, length, length - SKUNK)


@njit(cache=True)
def board_throw(dealt, seat, mine, theirs, table, pr, expert, board):
    """The expert's throw from the board (two players, seat 1 the dealer; mine and theirs the
    scores): of its BOARD_THROWS best throws by points (values.throw_values), the one most
    worth by board_value over BOARD_DEALS deals of the unseen cards, the same deals for each
    throw: the opponent's six, its throw by the throw model (model_throw; where the model
    does not apply, by expected value as the odds table's players throw), the cut card; the
    play greedy, as the odds table's players play. The deals come from the cards themselves,
    not the game's random stream."""
    h = dealt.shape[0]
    keep_idx, disc_idx = deal_options(h, pr)
    k, t = keep_idx.shape[1], disc_idx.shape[1]
    seen = np.zeros(53, dtype=np.int64)
    key = np.uint64(seat)
    for c in dealt:
        seen[c] += 1
        key = key * np.uint64(53) + np.uint64(c)
    values = throw_values(dealt, seat, table, pr, keep_idx, disc_idx, -1, seen, seat, expert[0][1])
    order = np.argsort(-values)[:BOARD_THROWS]
    n = BOARD_DEALS
    parts = np.zeros((order.shape[0] * n, NP), dtype=np.int64)
    traces = np.zeros((order.shape[0] * n, MAX_EVENTS + 1), dtype=np.int64)
    greedy = np.ones(2, dtype=np.int64)
    rest = unseen_cards(seen, pr)
    hands = np.empty((2, k), dtype=np.int64)
    cribs = np.empty((2, pr[CRIB_SIZE] + 1), dtype=np.int64)  # the dealer's (seat 1) counts
    cuts = np.empty((2, 1), dtype=np.int64)
    scores = np.zeros(2, dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)  # what the greedy play never reads
    state = _mixed(key)
    for s in range(n):
        state = _shuffle(rest, state)  # the opponent's six, then the cut card
        theirs_dealt = rest[:h]
        o = model_throw(theirs_dealt, 1 - seat, expert[1], disc_idx)
        if o < 0:
            other = np.zeros(53, dtype=np.int64)
            for c in theirs_dealt:
                other[c] += 1
            o = choose_throw(
                theirs_dealt,
                1 - seat,
                EV,
                table,
                pr,
                keep_idx,
                disc_idx,
                -1,
                other,
                1 - seat,
                expert[0][1][:0],
            )
        _throw(theirs_dealt, o, keep_idx, disc_idx, hands[1 - seat], cribs[1, t * (1 - seat) :])
        cuts[:, 0] = rest[h]
        for j in range(order.shape[0]):
            _throw(dealt, order[j], keep_idx, disc_idx, hands[seat], cribs[1, t * seat :])
            scores[:] = 0
            count_deal(
                hands,
                cribs,
                cuts,
                1,
                0,
                greedy,
                known,
                scores,
                0,
                table,
                parts[j * n + s],
                pr,
                expert,
                traces[j * n + s],
            )
    rows, _, times = reach_times(parts, traces, 2)
    best, pick = -1.0, order[0]
    for j in range(order.shape[0]):
        v = 0.0
        for s in range(n):
            v += board_value(board, seat, mine, theirs, rows[j * n + s], times[j * n + s], pr)
        if v > best:
            best, pick = v, order[j]
    return pick
