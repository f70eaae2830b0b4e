"""Two-player cribbage (docs/RULES.md §3, §5): whole deals and games under a spec
(variants/spec.py, passed to kernels as ``pr``; the show's table is built for its target sum).

Players are 0 and 1; in a deal, seat 0 is the pone and seat 1 the dealer. Order of counting:
heels (dealer) when the starter is turned, the play, then the show: pone's hand, dealer's
hand, dealer's crib. The game ends the moment a score reaches the game length; that player
wins, or under lowball loses.

Policies: discards 'ev' (the most expected hand +/- crib over every starter and every two
opponent cards, exact, the opponent's cards uniform: the closed form of analysis/fastev.py)
or 'random'; pegging 'greedy', 'lookahead' or 'random' (pegging.py).
"""
import numpy as np
from ..jit import njit, prange

from ..cards import JACK, RANK
from ..pegging import play, unseen_cards
from ..scoring.table import score5
from .patience import OPT_DISC, OPT_KEEP, ev_discard
from .spec import GAME_LENGTH, LOWBALL

# a policy is (discard, pegging): discard 0 random, 1 ev; pegging as in pegging.POLICIES
PARTS = ("heels", "dealer_pegging", "pone_pegging", "pone_hand", "dealer_hand", "crib")


@njit(cache=True)
def choose_discard(hand, dealer, discard_policy, table, pr):
    """Option index (patience.OPT_*) of the two cards to throw to the crib."""
    if discard_policy == 0:
        return np.random.randint(15)
    seen = np.zeros(53, dtype=np.int64)
    for c in hand:
        seen[c] += 1
    return ev_discard(hand, unseen_cards(seen, pr), table, 1.0 if dealer else -1.0, True,
                      -1.0 if pr[LOWBALL] else 1.0)


@njit(cache=True)
def play_deal(deck, policies, seat_scores, target, table, parts, pr):
    """One deal from a shuffled deck: seat 0 (pone) gets deck[0:6], seat 1 (dealer)
    deck[6:12], the starter is deck[12]. policies[seat] = (discard, pegging). Points go into
    seat_scores and into parts (see PARTS). Returns the seat that reached ``target`` (0: play
    the whole deal), or -1."""
    hands = np.empty((2, 4), dtype=np.int64)
    crib = np.empty(4, dtype=np.int64)
    known = np.zeros((2, 53), dtype=np.int64)
    for seat in range(2):
        six = deck[6 * seat:6 * seat + 6]
        o = choose_discard(six, seat == 1, policies[seat, 0], table, pr)
        for j in range(4):
            hands[seat, j] = six[OPT_KEEP[o, j]]
        crib[2 * seat] = six[OPT_DISC[o, 0]]
        crib[2 * seat + 1] = six[OPT_DISC[o, 1]]
        for c in six:
            known[seat, c] += 1
    s = deck[12]
    known[0, s] += 1
    known[1, s] += 1
    if RANK[s] == JACK:
        parts[0] += 2
        seat_scores[1] += 2
        if 0 < target <= seat_scores[1]:
            return 1
    used = np.zeros((2, 4), dtype=np.bool_)
    series = np.zeros(8, dtype=np.int64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    pegged = np.zeros(2, dtype=np.int64)
    winner = play(hands, used, series, st, policies[:, 1].copy(), known, pegged, seat_scores,
                  target, pr)
    parts[1] += pegged[1]
    parts[2] += pegged[0]
    if winner >= 0:
        return winner
    shows = (score5(table, hands[0, 0], hands[0, 1], hands[0, 2], hands[0, 3], s, False),
             score5(table, hands[1, 0], hands[1, 1], hands[1, 2], hands[1, 3], s, False),
             score5(table, crib[0], crib[1], crib[2], crib[3], s, True))
    for k in range(3):
        seat = 0 if k == 0 else 1
        parts[3 + k] += shows[k]
        seat_scores[seat] += shows[k]
        if 0 < target <= seat_scores[seat]:
            return seat
    return -1


@njit(cache=True)
def play_game(seed, policies, table, pr, out):
    """A whole game between players 0 and 1 (policies[player] = (discard, pegging)).

    out: [winner, first dealer, deals begun, winner's score, loser's score, completed deals,
    then the PARTS summed over completed deals, the largest hand or crib counted]."""
    game_length = pr[GAME_LENGTH]
    np.random.seed(seed)
    while True:                # cut for deal among the ordinary cards: the lower card deals
        cut = np.random.permutation(52)[:2]
        if RANK[cut[0]] != RANK[cut[1]]:
            break
    dealer = 0 if RANK[cut[0]] < RANK[cut[1]] else 1
    out[1] = dealer
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)     # the spec's whole deck
    scores = np.zeros(2, dtype=np.int64)
    seat_pol = np.empty((2, 2), dtype=np.int64)
    seat_scores = np.zeros(2, dtype=np.int64)
    parts = np.zeros(6, dtype=np.int64)
    deals = 0
    complete = 0
    while True:
        pone = 1 - dealer
        seat_pol[0] = policies[pone]
        seat_pol[1] = policies[dealer]
        seat_scores[0] = scores[pone]
        seat_scores[1] = scores[dealer]
        parts[:] = 0
        deals += 1
        w = play_deal(np.random.permutation(full), seat_pol, seat_scores, game_length, table,
                      parts, pr)
        scores[pone] = seat_scores[0]
        scores[dealer] = seat_scores[1]
        out[12] = max(out[12], parts[3], parts[4], parts[5])
        if w >= 0:
            reached = pone if w == 0 else dealer
            winner = 1 - reached if pr[LOWBALL] else reached
            break
        complete += 1
        out[6:12] += parts
        dealer = pone
    out[0] = winner
    out[2] = deals
    out[3] = scores[winner]
    out[4] = scores[1 - winner]
    out[5] = complete


@njit(cache=True, parallel=True)
def play_games(seeds, policies, table, pr):
    """Many games, one per seed, over threads; rows as play_game's ``out``."""
    out = np.zeros((seeds.shape[0], 13), dtype=np.int64)
    for i in prange(seeds.shape[0]):
        play_game(seeds[i], policies, table, pr, out[i])
    return out


@njit(cache=True, parallel=True)
def deal_outcomes(seeds, policies, table, pr):
    """Whole deals (no game end), one per seed: rows of PARTS, for the odds table."""
    out = np.zeros((seeds.shape[0], 6), dtype=np.int64)
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)
    for i in prange(seeds.shape[0]):
        np.random.seed(seeds[i])
        sc = np.zeros(2, dtype=np.int64)
        play_deal(np.random.permutation(full), policies, sc, 0, table, out[i], pr)
    return out
