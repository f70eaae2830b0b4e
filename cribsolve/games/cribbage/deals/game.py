"""Cribbage (docs/RULES.md §3, §5, §8): whole deals and games under a spec (spec.py, passed
to kernels as ``pr``; the show's table is built for its target sum).

Players are 0 to n - 1 (two, three or four); in a deal, seat 0 is the pone (the dealer's
left) and the seats go round to the dealer, the last seat (with two: seat 0 the pone, seat 1
the dealer); the deal passes to the left. With partners, players 0 and 2 are one team and 1
and 3 the other, and a team's points go on one score (its ``side``). A deal runs: the deal
(with three players, a crib card from the deck), a first cut card (two cut cards), redraws
(draw cribbage), the bid for the crib, the throws (with the card given under choose-a-cut),
redraws again, the last cut card, the play, then the show: the hands from the dealer's left
round to the dealer, then the crib(s). The game ends the moment a score reaches the game
length; that side wins, or under lowball loses. Under two cribs the deal is played to its end
and the most points win (the fewest under lowball; ties are possible). The five-card game
gives the pone of the first deal 3 points before it starts.

Policies: discards 'ev' (throws.py: the most expected value, exact over the cut card, the
opponent's cards uniform) or 'random'; pegging 'greedy', 'lookahead', 'expert1', 'expert' or
'random' (policies.py).
"""

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.games.cribbage.players.inference import four_index
from cribsolve.games.cribbage.players.policies import EXPERT, EXPERT1, LOOKAHEAD, play
from cribsolve.games.cribbage.rules.pegging import (
    MAX_EVENTS,
    add_points,
    log_points,
    side,
    unseen_cards,
)
from cribsolve.games.cribbage.rules.reach import SKUNK, after_deal, reach_times
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
from cribsolve.games.cribbage.throw.values import (
    CRIB_DRAWS,
    EV,
    RANDOM,
    auction,
    bid_limits,
    choose_throw,
    deal_options,
    redraw,
    show_points,
    throw_values,
)
from cribsolve.infra.jit import njit, threaded, variant

# a policy is (discard, pegging): discard 0 random, 1 ev; pegging as in policies.POLICIES
PARTS = ("heels", "dealer_pegging", "pone_pegging", "pone_hand", "dealer_hand", "crib", "pone_crib")
NP = len(PARTS)  # with n players a deal's parts are 3 + 2n (part_count): heels, each
# seat's pegging from the dealer back to seat 0, each seat's hand from
# seat 0 to the dealer, the crib, the pone's crib (two cribs)
TIE = 2  # the winner of a game of two cribs that ends level
NO_EXPERT = (np.zeros((2, 0, 1)), np.zeros((0, 1, 1)))  # no expert among the players: no tables
FREE = np.array([-1, -1, -1, -1])  # play_deal's ``forced``: all throw by their policies
NO_BOARD = np.zeros((0, 2, 1, 1))  # play_game's ``board``: nobody weighs the board
# The expert's throw by the board (board_throw): weighed when a score is within BOARD_REACH of
# the game length (a deal can end the game: a dealer's hand, crib and play seldom make more),
# among its BOARD_THROWS best throws by points, each played out on BOARD_DEALS deals.
BOARD_REACH, BOARD_THROWS, BOARD_DEALS = 30, 4, 64
NO_START = np.array([0, 0, -1])  # play_game's ``start``: 0-0, the first dealer cut for
FIVE_CARD_START = 3  # the five-card game's first pone's points ("three for last")
# What a compiled copy of the game carries: flags() sets each to False (jit.variant) where
# the spec has no redraw or bid, or nobody weighs the board, and then its code is never
# compiled.
DRAW_ON = BID_ON = BOARD_ON = True


@njit(cache=True)
def part_count(n):
    """The parts of a deal's points with n players (NP with two)."""
    return 3 + 2 * n


@njit(cache=True)
def trace_length(pr):
    """The length of a deal's trace (play.log_points): room for heels, every card and every
    go."""
    return max(MAX_EVENTS, 2 * pr[PLAYERS] * pr[HAND_SIZE] + 2) + 1


@njit(cache=True)
def _heels(s, parts, seat_scores, target, pr, trace):
    """A jack turned as a cut card (not a wild one): 2 to the dealer. True if that reached
    ``target``."""
    if RANK[s] == JACK and pr[WILD_RANK] != JACK:
        dealer = pr[PLAYERS] - 1
        pts = add_points(seat_scores, side(dealer, pr), 2, target, pr)
        parts[0] += pts
        log_points(trace, dealer, pts, pr[PLAYERS])
        return 0 < target <= seat_scores[side(dealer, pr)]
    return False


@njit(cache=True)
def _replace(cards, mask, deck, top, known_row):
    """Throw away the cards of ``mask`` and draw their replacements from deck[top:]; returns
    the new top. The player has seen both."""
    for i in range(cards.shape[0]):
        if mask >> i & 1:
            cards[i] = deck[top]
            known_row[deck[top]] += 1
            top += 1
    return top


@njit(cache=True)
def _redraws(cards, before, owns, policies, deck, top, known, table, pr, first, reserve):
    """Draw cribbage's redraws for both players, the pone first; returns the new top."""
    n = cards.shape[1]
    for seat in range(2):
        limit = deck.shape[0] - top - reserve
        if policies[seat, 0] == 0:  # a random player redraws at random
            mask = np.random.randint((1 << n) - 1)
            bits = 0
            for i in range(n):
                bits += mask >> i & 1
            if bits > limit:
                mask = 0
        else:
            mask = redraw(cards[seat], before, owns[seat], table, pr, first, known[seat], limit)
        top = _replace(cards[seat], mask, deck, top, known[seat])
    return top


@njit(cache=True)
def _bid(dealt, policies, known, table, pr, keep_idx, disc_idx, first):
    """The auction for the crib (throws.auction): (its owner's seat, the bid). A random player
    never bids."""
    hs = np.zeros((2, 2))
    ss = np.zeros((2, 2, CRIB_DRAWS))
    for seat in range(2):
        if policies[seat, 0] != 0:
            hs[seat], ss[seat] = bid_limits(
                dealt[seat], table, pr, keep_idx, disc_idx, first, known[seat]
            )
    return auction(hs, ss)


@njit(cache=True)
def play_deal(deck, policies, seat_scores, target, table, parts, pr, expert, forced, trace):
    """One deal from a shuffled deck: with h = the hand size, seat s gets deck[sh:sh + h]
    (seat 0 the pone, the last seat the dealer); further cards leave the deck from there in
    the order they are needed: the crib's card from the deck (three players), a first cut
    card (turned before the throw; all players see it), redraws (the pone first, before the
    throw and after it), the last cut card. policies[seat] = (discard, pegging); expert: the
    experts' tables (players.expert_tables; a player's pegging policy picks its pegging
    table); forced[seat]: the option of deal_options that seat throws, or -1 for its
    policy's. Points go into seat_scores (one per side, play.side)
    and into parts (see NP), and heels and the play's points, in the order they come, into
    ``trace`` (play.log_points). Returns the side that reached ``target`` (0: play the whole
    deal; two cribs always plays it), or -1."""
    h = pr[HAND_SIZE]
    seats = pr[PLAYERS]
    dealer = seats - 1
    t = pr[CRIB_SIZE] // seats
    ns = pr[STARTERS]
    gift = pr[CHOOSE_CUT]
    two = pr[TWO_CRIBS]
    if two:
        target = 0
    keep_idx, disc_idx = deal_options(h, pr)
    k = keep_idx.shape[1]
    dealt = np.empty((seats, h), dtype=np.int64)
    known = np.zeros((seats, 53), dtype=np.int64)
    for seat in range(seats):
        dealt[seat] = deck[h * seat : h * seat + h]
        for c in dealt[seat]:
            known[seat, c] += 1
    top = seats * h
    cribs = np.empty((seats, pr[CRIB_SIZE] + ns), dtype=np.int64)  # cribs[seat]: seat's crib
    for j in range(seats * t, pr[CRIB_SIZE]):  # three players: a card from the deck
        cribs[dealer, j] = deck[top]
        top += 1
    first = -1
    if ns == 2:
        first = deck[top]
        top += 1
        known[:, first] += 1
        if _heels(first, parts, seat_scores, target, pr, trace):
            return side(dealer, pr)
    owner, price = dealer, 0
    owns = np.empty(seats, dtype=np.int64)  # whether the crib is seat's side's
    for seat in range(seats):
        owns[seat] = side(seat, pr) == side(dealer, pr)
    owns[0] |= two
    reserve = 0 if gift else 1
    if DRAW_ON and pr[DRAW]:
        top = _redraws(dealt, True, owns, policies, deck, top, known, table, pr, first, reserve)
    if BID_ON and pr[BID]:
        owner, price = _bid(dealt, policies, known, table, pr, keep_idx, disc_idx, first)
        owns[:] = 0
        owns[owner] = 1
    hands = np.empty((seats, k), dtype=np.int64)
    cuts = np.empty((seats, ns), dtype=np.int64)  # each seat's cut cards
    for seat in range(seats):
        o = (
            forced[seat]
            if forced[seat] >= 0
            else choose_throw(
                dealt[seat],
                owns[seat],
                policies[seat, 0],
                table,
                pr,
                keep_idx,
                disc_idx,
                first,
                known[seat],
                seat,
                expert[0][int(policies[seat, 1] == EXPERT)],
            )
        )
        for j in range(k):
            hands[seat, j] = dealt[seat, keep_idx[o, j]]
        for j in range(t):
            if two:
                cribs[seat, j] = dealt[seat, disc_idx[o, j]]
                cribs[1 - seat, t + j] = dealt[seat, disc_idx[o, t + j]]
            else:
                cribs[owner, t * seat + j] = dealt[seat, disc_idx[o, j]]
        if gift:
            cuts[1 - seat, 0] = dealt[seat, disc_idx[o, -1]]
    if DRAW_ON and pr[DRAW]:
        top = _redraws(hands, False, owns, policies, deck, top, known, table, pr, first, reserve)
    if gift:  # the given cards are turned over
        for seat in range(2):
            known[seat, cuts[seat, 0]] += 1
    else:
        cuts[:, ns - 1] = deck[top]
        if ns == 2:
            cuts[:, 0] = first
        known[:, deck[top]] += 1
        if _heels(deck[top], parts, seat_scores, target, pr, trace):
            return side(dealer, pr)
    used = np.zeros((seats, k), dtype=np.bool_)
    series = np.zeros(seats * k, dtype=np.int64)
    st = np.array([0, 0, 0, -1], dtype=np.int64)
    pegged = np.zeros(seats, dtype=np.int64)
    winner = play(
        hands,
        used,
        series,
        st,
        policies[:, 1].copy(),
        known,
        pegged,
        seat_scores,
        target,
        pr,
        trace,
        expert[1],
    )
    for seat in range(seats):
        parts[seats - seat] += pegged[seat]
    if winner >= 0:
        return side(winner, pr)
    show = np.empty(k + ns, dtype=np.int64)
    for seat in range(seats):  # the hands from the pone round to the dealer
        show[:k] = hands[seat]
        show[k:] = cuts[seat]
        s = side(seat, pr)
        parts[1 + seats + seat] += add_points(
            seat_scores, s, show_points(show, k, table, False, pr), target, pr
        )
        if 0 < target <= seat_scores[s]:
            return s
    for c in range(1 + two):  # the cribs, each with its owner's cut cards: the
        seat = owner if c == 0 else 0  # owner's, then under two cribs the pone's
        cribs[seat, pr[CRIB_SIZE] :] = cuts[seat]
        s = side(seat, pr)
        pts = show_points(cribs[seat], pr[CRIB_SIZE], table, True, pr)
        if pts < price:  # a bid the crib did not make: set back
            pts = -min(price, seat_scores[s])
            seat_scores[s] += pts
        else:
            pts = add_points(seat_scores, s, pts, target, pr)
        parts[1 + 2 * seats + (seat != dealer)] += pts
        if 0 < target <= seat_scores[s]:
            return s
    return -1


@njit(cache=True)
def seat_deck(hand, rest, seat, deck):
    """Fill ``deck`` for a two-player play_deal: ``hand`` dealt to ``seat`` (seat 0 gets
    deck[0:h], seat 1 the next h), the other's hand from ``rest``, then the rest of it."""
    h = hand.shape[0]
    deck[seat * h : seat * h + h] = hand
    deck[(1 - seat) * h : (2 - seat) * h] = rest[:h]
    deck[2 * h :] = rest[h:]


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
    """The option (throws.deal_options' order, two of six cards thrown) the throw model takes
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
    scores): of its BOARD_THROWS best throws by points (throws.throw_values), the one most
    worth by board_value over BOARD_DEALS deals of the unseen cards, the same deals for each
    throw: the opponent's six, its throw by the throw model (model_throw; where the model
    does not apply, by expected value as the odds table's players throw), the cut card; the
    play greedy, as the odds table's players play. The deals come from the cards themselves,
    not the game's random stream."""
    h = dealt.shape[0]
    keep_idx, disc_idx = deal_options(h, pr)
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
    greedy = np.ones((2, 2), dtype=np.int64)
    rest = unseen_cards(seen, pr)
    deck = np.empty(h + rest.shape[0], dtype=np.int64)
    forced = np.empty(2, dtype=np.int64)
    state = _mixed(key)
    for s in range(n):
        state = _shuffle(rest, state)
        seat_deck(dealt, rest, seat, deck)
        theirs_dealt = rest[:h]
        forced[1 - seat] = model_throw(theirs_dealt, 1 - seat, expert[1], disc_idx)
        if forced[1 - seat] < 0:
            other = np.zeros(53, dtype=np.int64)
            for c in theirs_dealt:
                other[c] += 1
            forced[1 - seat] = choose_throw(
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
        for j in range(order.shape[0]):
            forced[seat] = order[j]
            play_deal(
                deck,
                greedy,
                np.zeros(2, dtype=np.int64),
                0,
                table,
                parts[j * n + s],
                pr,
                expert,
                forced,
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


# Inlined into _play_games, its one caller: compiled apart, the whole deal engine beneath it
# was optimized and compiled to machine code once more (2-3 s of a cold cribbage simulate).
@njit(cache=True, inline="always")
def play_game(seed, policies, table, pr, out, expert, start, board):
    """A whole game between players 0 to n - 1 (policies[player] = (discard, pegging)), from
    ``start`` = (player 0's score, player 1's, the first dealer or -1 to cut for it; two
    players) or the start of a game. ``board``: what the expert weighs its throws by near the
    end of a two-player game (board_throw), or NO_BOARD.

    out: [winner, first dealer, deals begun, winner's score, the last loser's score,
    completed deals, then the parts of a deal (NP with two players, part_count) summed over
    completed deals, the largest hand or crib counted]; the winner is a player, with partners
    a team (0: players 0 and 2), or TIE when a game of two cribs ends level."""
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
    if start[2] >= 0:
        dealer = start[2]
    out[1] = dealer
    full = unseen_cards(np.zeros(53, dtype=np.int64), pr)  # the spec's whole deck
    scores = np.zeros(sides, dtype=np.int64)
    scores[:2] = start[:2]
    if pr[FIVE_CARD] and start[2] < 0:
        scores[1 - dealer] += FIVE_CARD_START
    trace = np.zeros(trace_length(pr), dtype=np.int64)
    seat_pol = np.empty((n, 2), dtype=np.int64)
    seat_scores = np.zeros(sides, dtype=np.int64)
    parts = np.zeros(npart, dtype=np.int64)
    forced = FREE.copy()
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
                    if seat_pol[seat, 1] == EXPERT:
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
            w = play_deal(
                deck, seat_pol, seat_scores, game_length, table, parts, pr, expert, forced, trace
            )
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


def flags(policies, pr, board=NO_BOARD) -> dict:
    """What the kernels of a game between these players (policies, play_game's) under this
    spec (pr) and board may reach, as the flags of jit.variant: a copy compiled with them
    leaves out the searches of absent players, the house rules not in play, the wild-card
    scorer and, where the closed form answers every throw, the general throw. A copy only
    leaves out branches its games never take: its numbers are the kernel's."""
    pegging = {int(p) for p in policies[:, 1]}
    closed = (
        pr[HAND_SIZE] == 6
        and pr[CRIB_SIZE] // pr[PLAYERS] == 2
        and pr[STARTERS] == 1
        and not (pr[WILD_RANK] or pr[TWO_CRIBS] or pr[CHOOSE_CUT])
    )
    return {
        "LOOKAHEAD_ON": LOOKAHEAD in pegging,
        "EXPERT1_ON": EXPERT1 in pegging,
        "EXPERT_ON": EXPERT in pegging,
        "WILD_ON": bool(pr[WILD_RANK]),
        "GENERAL_ON": not closed or bool({int(p) for p in policies[:, 0]} - {RANDOM, EV}),
        "DRAW_ON": bool(pr[DRAW]),
        "BID_ON": bool(pr[BID]),
        "BOARD_ON": board.shape[0] > 0,
    }


def play_games(seeds, policies, table, pr, expert=NO_EXPERT, start=NO_START, board=NO_BOARD):
    """Many games, one per seed, over threads; rows as play_game's ``out``."""
    return threaded(
        variant(_play_games, **flags(policies, pr, board)),
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
    out = np.zeros((seeds.shape[0], 7 + part_count(pr[PLAYERS])), dtype=np.int64)
    for i in range(seeds.shape[0]):
        play_game(seeds[i], policies, table, pr, out[i], expert, start, board)
    return out


def deal_outcomes(seeds, policies, table, pr, expert=NO_EXPERT):
    """Whole deals (no game end), one per seed: (rows of a deal's parts, part_count; each
    deal's trace of heels and the play, play.log_points), for the odds table."""
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
