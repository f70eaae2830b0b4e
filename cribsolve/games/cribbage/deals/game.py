"""Whole games of cribbage (docs/RULES.md §3, §8): deal after deal by deal.py's engine until a
side reaches the game length, many at once over threads, and the deals the odds table is made
from. Players are 0 to n - 1; seat 0 of a deal is the pone, the last the dealer; partners 0 and
2 share a score (pegging.side). ``flags`` lets a compiled copy leave out absent players and rules.
"""

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.deals.board_throw import BOARD_REACH, board_throw
from cribsolve.games.cribbage.deals.deal import (
    FREE,
    NO_EXPERT,
    part_count,
    play_deal,
    trace_length,
)
from cribsolve.games.cribbage.players.policies import (
    EXPERT1,
    LOOKAHEAD,
    is_expert,
)
from cribsolve.games.cribbage.rules.pegging import (
    unseen_cards,
)
from cribsolve.games.cribbage.rules.spec import (
    BID,
    CHOOSE_CUT,
    CRIB_SIZE,
    DRAW,
    FIVE_CARD,
    GAME_LENGTH,
    HAND_SIZE,
    LOWBALL,
    PARTNERS,
    PLAYERS,
    STARTERS,
    TWO_CRIBS,
    WILD_RANK,
)
from cribsolve.games.cribbage.throw.values import EV, RANDOM
from cribsolve.infra.jit import njit, threaded, variant

TIE = 2  # the winner of a game of two cribs that ends level
NO_BOARD = np.zeros((0, 2, 1, 1))  # play_game's ``board``: nobody weighs the board
NO_START = np.array([0, 0, -1])  # play_game's ``start``: 0-0, the first dealer cut for
FIVE_CARD_START = 3  # the five-card game's first pone's points ("three for last")
# What a compiled copy of the game carries: flags() sets it to False (jit.variant) where
# nobody weighs the board, and then its code is never compiled.
BOARD_ON = True
# play_games(kept=True) binds it True: a copy that also keeps each game's points by player and
# its deals (simulate --games, --deals); every other caller compiles none of that.
KEPT_ON = False


# Inlined into _play_games, its one caller: compiled apart, the whole deal engine beneath it
# was optimized and compiled to machine code once more (2-3 s of a cold cribbage simulate).
@njit(cache=True, inline="always")
def play_game(seed, policies, table, pr, out, expert, start, board, kept, held, k):
    """A whole game between players 0 to n - 1 (policies[player] = (discard, pegging)), from
    ``start`` = (player 0's score, player 1's (each side's: with three players, player 2's
    too), the first dealer or -1 to cut for it) or the start of a game. ``board``: what the
    expert weighs its throws by near the end of a two-player game (board_throw), or NO_BOARD.

    out: [winner, first dealer, deals begun, winner's score, the last loser's score,
    completed deals, then the parts of a deal (NP with two players, part_count) summed over
    completed deals, the largest hand or crib counted]; the winner is a player, with partners
    a team (0: players 0 and 2), or TIE when a game of two cribs ends level. Under KEPT_ON
    also ``kept`` (each side's final score, then the points by player and part) and the rows of
    its deals from held[k] on (_keep_deal); returns (held, k) past them."""
    game_length = pr[GAME_LENGTH]
    n = pr[PLAYERS]
    sides = 2 if pr[PARTNERS] else n
    npart = part_count(n)
    np.random.seed(seed)
    while True:  # cut for deal among the ordinary cards: the lowest card deals
        cut = np.random.permutation(52)[:n]
        low = np.argmin(RANK[cut])
        ties = 0
        for c in cut:
            ties += RANK[c] == RANK[cut[low]]
        if ties == 1:
            break
    dealer = low
    given = start.shape[0] - 1  # the scores given; the first dealer last
    if start[given] >= 0:
        dealer = start[given]
    out[1] = dealer
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)  # the spec's whole deck
    scores = np.zeros(sides, dtype=np.int64)
    scores[:given] = start[:given]
    if pr[FIVE_CARD] and start[given] < 0:
        scores[1 - dealer] += FIVE_CARD_START
    trace = np.zeros(trace_length(pr), dtype=np.int64)
    seat_pol = np.empty((n, 2), dtype=np.int64)
    seat_scores = np.zeros(sides, dtype=np.int64)
    parts = np.zeros(npart, dtype=np.int64)
    forced = FREE.copy()
    cut = np.full(pr[STARTERS], -1, dtype=np.int64)
    deals = 0
    complete = 0
    while True:
        for seat in range(n):  # seat 0 at the dealer's left, the dealer last
            seat_pol[seat] = policies[(dealer + 1 + seat) % n]
        for s in range(sides):
            seat_scores[s] = scores[(dealer + 1 + s) % sides]
        parts[:] = 0
        trace[0] = 0
        if pr[FIVE_CARD] and deals == 0 and seat_scores[0] >= game_length:
            w = 0  # the first pone's three won a game of 3 or less
        else:
            deals += 1
            deck = np.random.permutation(full)
            forced[:] = -1
            if BOARD_ON and board.shape[0] and game_length - seat_scores.max() <= BOARD_REACH:
                h = pr[HAND_SIZE]
                for seat in range(2):
                    if is_expert(seat_pol[seat, 1]):
                        forced[seat] = board_throw(
                            deck[seat * h : seat * h + h],
                            seat,
                            seat_scores[seat],
                            seat_scores[1 - seat],
                            table,
                            pr,
                            expert,
                            board,
                        )
            cut[:] = -1
            w = play_deal(
                deck,
                seat_pol,
                seat_scores,
                game_length,
                table,
                parts,
                pr,
                expert,
                forced,
                trace,
                cut,
            )
            if KEPT_ON:
                held, k = _keep_deal(held, k, deals - 1, dealer, scores, cut, w < 0, parts, kept, n)
        for s in range(sides):
            scores[(dealer + 1 + s) % sides] = seat_scores[s]
        out[6 + npart] = max(out[6 + npart], parts[1 + n :].max())
        if w >= 0:
            reached = (dealer + 1 + w) % sides
            winner = 1 - reached if pr[LOWBALL] else reached
            break
        complete += 1
        out[6 : 6 + npart] += parts
        if pr[TWO_CRIBS] and scores.max() >= game_length:
            winner = TIE if scores[0] == scores[1] else int(np.argmax(scores))
            if pr[LOWBALL] and winner != TIE:
                winner = 1 - winner
            break
        dealer = (dealer + 1) % n
    out[0] = winner
    out[2] = deals
    out[3] = scores.max() if winner == TIE else scores[winner]
    last = scores.min()
    if winner != TIE:
        last = -1
        for s in range(sides):
            if s != winner and (last < 0 or scores[s] < last):
                last = scores[s]
    out[4] = last
    out[5] = complete
    if KEPT_ON:
        kept[:sides] = scores
    return held, k


@njit(cache=True)
def _keep_deal(held, k, number, dealer, scores, cut, complete, parts, kept, n):
    """Deal ``number`` of a game as held[k] (``held`` grown as needed, and returned with k + 1):
    [number, dealer, played to its end, each side's score before it, the pone's cut cards,
    then each of the n players' pegging, hand, crib and heels], those four also added to
    ``kept``'s (after its scores), the game's own."""
    if k == held.shape[0]:
        grown = np.zeros((2 * k + 1, held.shape[1]), dtype=held.dtype)
        grown[:k] = held
        held = grown
    row = held[k]
    row[0], row[1], row[2] = number, dealer, complete
    c = 3 + scores.shape[0]
    row[3:c] = scores
    row[c : c + cut.shape[0]] = cut
    by = row[c + cut.shape[0] :]
    for seat in range(n):  # seat 0 at the dealer's left
        p = 4 * ((dealer + 1 + seat) % n)
        by[p] = parts[n - seat]
        by[p + 1] = parts[1 + n + seat]
    by[4 * dealer + 2] = parts[1 + 2 * n]
    by[4 * dealer + 3] = parts[0]
    by[4 * ((dealer + 1) % n) + 2] = parts[2 + 2 * n]  # the pone's crib: two cribs, a bid
    kept[scores.shape[0] :] += by
    return held, k + 1


def flags(policies, pr, board=NO_BOARD) -> dict:
    """What the kernels of a game between these players (policies, play_game's) under this
    spec (pr) and board may reach, as the flags of jit.variant: a copy compiled with them
    leaves out the searches of absent players, the house rules not in play, the wild-card
    scorer and, where the closed form answers every throw, the general throw. A copy only
    leaves out branches its games never take: its numbers are the kernel's."""
    pegging = {int(p) for p in policies[:, 1]}
    expert = any(is_expert(p) for p in pegging)
    closed = (
        pr[HAND_SIZE] == 6
        and pr[CRIB_SIZE] // pr[PLAYERS] == 2
        and pr[STARTERS] == 1
        and not (pr[WILD_RANK] or pr[TWO_CRIBS] or pr[CHOOSE_CUT])
    )
    return {
        "LOOKAHEAD_ON": LOOKAHEAD in pegging,
        "EXPERT1_ON": EXPERT1 in pegging,
        "EXPERT_ON": expert and pr[PLAYERS] == 2,
        "EXPERTN_ON": expert and pr[PLAYERS] > 2,
        "WILD_ON": bool(pr[WILD_RANK]),
        "GENERAL_ON": not closed or bool({int(p) for p in policies[:, 0]} - {RANDOM, EV}),
        "DRAW_ON": bool(pr[DRAW]),
        "BID_ON": bool(pr[BID]),
        "BOARD_ON": board.shape[0] > 0,
    }


def play_games(
    seeds, policies, table, pr, expert=NO_EXPERT, start=NO_START, board=NO_BOARD, kept=False
):
    """Many games, one per seed, over threads; rows as play_game's ``out``, with ``kept`` also
    (its ``kept`` rows, the rows of every game's deals in order: _keep_deal)."""
    return threaded(
        variant(_play_games, **flags(policies, pr, board), KEPT_ON=kept),
        seeds,
        policies,
        table,
        pr,
        expert,
        np.asarray(start, dtype=np.int64),
        board,
    )


@njit(cache=True, nogil=True)
def _play_games(seeds, policies, table, pr, expert, start, board):
    games, n = seeds.shape[0], pr[PLAYERS]
    out = np.zeros((games, 7 + part_count(n)), dtype=np.int64)
    sides = 2 if pr[PARTNERS] else n
    kept = np.zeros((games, sides + 4 * n if KEPT_ON else 0), dtype=np.int64)
    # room for 10 deals a game (a game of 121 takes 8 or 9), grown as needed
    held = np.zeros((10 * games if KEPT_ON else 0, 3 + sides + pr[STARTERS] + 4 * n), np.int64)
    k = 0
    for i in range(games):
        held, k = play_game(
            seeds[i], policies, table, pr, out[i], expert, start, board, kept[i], held, k
        )
    if KEPT_ON:
        return out, kept, held[:k]
    return out


def deal_outcomes(seeds, policies, table, pr, expert=NO_EXPERT):
    """Whole deals (no game end), one per seed: (rows of a deal's parts, part_count; each
    deal's trace of heels and the play, pegging.log_points), for the odds table."""
    return threaded(
        variant(_deal_outcomes, **flags(policies, pr)), seeds, policies, table, pr, expert
    )


@njit(cache=True, nogil=True)
def _deal_outcomes(seeds, policies, table, pr, expert):
    out = np.zeros((seeds.shape[0], part_count(pr[PLAYERS])), dtype=np.int64)
    traces = np.zeros((seeds.shape[0], trace_length(pr)), dtype=np.int64)
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)
    for i in range(seeds.shape[0]):
        np.random.seed(seeds[i])
        sc = np.zeros(2 if pr[PARTNERS] else pr[PLAYERS], dtype=np.int64)
        play_deal(
            np.random.permutation(full), policies, sc, 0, table, out[i], pr, expert, FREE, traces[i]
        )
    return out, traces
