"""The expert's throw near the end of a game: the one most likely to win, not the one with
the most points.

Near the end, what counts is who reaches the game length first: the play scores before the
show and the pone's hand before the dealer's, so a throw that keeps a sure small hand can beat
one with more points on average (board.py shows such positions). Once a player is within
ENDGAME points of the game length, the expert plays each of its throws out on BOARD_SAMPLES
shuffles of the cards it has not seen, the same shuffles for every throw: the opponent's six
cards and their throw by expected value, the cut card, greedy play card by card, then the
pone's hand, the dealer's hand and the crib, stopping the moment a player gets there; a deal
that ends below the game length is worth the odds table's chance from its scores (odds.py,
greedy play). It keeps the throw that wins most often, and its usual throw unless another
wins strictly more. Only in a deal of six cards, one cut card and one crib.
"""
import numpy as np

from ..cards import JACK, RANK
from ..jit import njit
from ..pegging import GREEDY, MAX_EVENTS, add_points, play, unseen_cards
from .spec import BID, CHOOSE_CUT, CRIB_SIZE, DRAW, HAND_SIZE, LOWBALL, STARTERS, STINKHOLE, \
    TWO_CRIBS, WILD_RANK
from .throws import EV, choose_throw, show_points

ENDGAME = 30            # a player this close to the game length makes the expert count the board
BOARD_SAMPLES = 200     # shuffles per throw
NO_ODDS = np.zeros((0, 1, 1))


@njit(cache=True)
def board_deal(pr):
    """Whether the rules deal as board_throw plays out: six cards, one cut card, one crib
    of four, nothing drawn, bid or given, no wild cards and no stink hole."""
    return (pr[HAND_SIZE] == 6 and pr[CRIB_SIZE] == 4 and pr[STARTERS] == 1 and not pr[DRAW]
            and not pr[BID] and not pr[CHOOSE_CUT] and not pr[TWO_CRIBS] and not pr[STINKHOLE]
            and pr[WILD_RANK] == 0)


@njit(cache=True)
def applies(pr, win, scores, length):
    """Whether the expert weighs its throw by the board: such a deal, an odds table (win)
    for this game length, and a player within ENDGAME points of it."""
    return (win.shape[0] == 2 and win.shape[1] == length and length > 0 and board_deal(pr)
            and max(scores[0], scores[1]) >= length - ENDGAME)


@njit(cache=True)
def _won(reached_by_me, pr):
    return 1.0 if reached_by_me != bool(pr[LOWBALL]) else 0.0


@njit(cache=True)
def _deal_value(hands, crib, cut, seat, scores, length, win, table, pr):
    """My chance of winning (seat: mine) from ``scores`` (by seat: pone, dealer) over this
    deal, hands and crib known, greedy play, then the odds table."""
    sc = scores.copy()
    if RANK[cut] == JACK:                                    # heels: 2 to the dealer
        add_points(sc, 1, 2, length, pr)
        if sc[1] >= length:
            return _won(seat == 1, pr)
    trace = np.zeros(MAX_EVENTS + 1, dtype=np.int64)
    h = hands.copy()
    used = np.zeros((2, 4), dtype=np.bool_)
    series = np.zeros(8, dtype=np.int64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    pegged = np.zeros(2, dtype=np.int64)
    w = play(h, used, series, st, np.array([GREEDY, GREEDY]), known, pegged, sc, length, pr,
             trace, np.zeros((0, 1, 1)))
    if w >= 0:
        return _won(w == seat, pr)
    show = np.empty(5, dtype=np.int64)
    show[4] = cut
    for s in range(2):                                       # pone's hand, dealer's hand
        show[:4] = hands[s]
        add_points(sc, s, show_points(show, 4, table, False, pr), length, pr)
        if sc[s] >= length:
            return _won(s == seat, pr)
    show[:4] = crib
    add_points(sc, 1, show_points(show, 4, table, True, pr), length, pr)
    if sc[1] >= length:
        return _won(seat == 1, pr)
    return win[1 - seat, sc[seat], sc[1 - seat]]             # I deal next if I am pone now


@njit(cache=True)
def board_throw(dealt, seat, scores, length, seen, usual, win, table, pr, keep_idx, disc_idx):
    """The option (of deal_options) of my six ``dealt`` cards most likely to win from
    ``scores`` (by seat) in ``seat``, ``usual`` (my policy's option) unless another wins
    strictly more often; ``seen``: my counts of the cards I have seen."""
    unseen = unseen_cards(seen, pr)
    n_opt = keep_idx.shape[0]
    wins = np.zeros(n_opt)
    hands = np.empty((2, 4), dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    for _ in range(BOARD_SAMPLES):
        deck = np.random.permutation(unseen)
        theirs = deck[:6]
        their_seen = np.zeros(53, dtype=np.int64)
        for c in theirs:
            their_seen[c] += 1
        t = choose_throw(theirs, seat == 0, EV, table, pr, keep_idx, disc_idx, -1, their_seen,
                         1 - seat, np.zeros((0, 1)))
        for j in range(4):
            hands[1 - seat, j] = theirs[keep_idx[t, j]]
        for o in range(n_opt):
            for j in range(4):
                hands[seat, j] = dealt[keep_idx[o, j]]
            for j in range(2):
                crib[j] = dealt[disc_idx[o, j]]
                crib[2 + j] = theirs[disc_idx[t, j]]
            wins[o] += _deal_value(hands, crib, deck[6], seat, scores, length, win, table, pr)
    pick = usual
    for o in range(n_opt):
        if wins[o] > wins[pick]:
            pick = o
    return pick
