"""One deal of cribbage under a spec, from the shuffle to the show (docs/RULES.md §3, §5, §8):
the engine every simulation, table and game is built on."""

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.games.cribbage.players.policies import is_expert, play
from cribsolve.games.cribbage.rules.pegging import (
    MAX_EVENTS,
    add_points,
    log_points,
    side,
)
from cribsolve.games.cribbage.rules.spec import (
    BID,
    CHOOSE_CUT,
    CRIB_SIZE,
    DRAW,
    HAND_SIZE,
    PLAYERS,
    STARTERS,
    TWO_CRIBS,
    WILD_RANK,
)
from cribsolve.games.cribbage.throw.draw_and_bid import auction, bid_limits, redraw
from cribsolve.games.cribbage.throw.values import (
    CRIB_DRAWS,
    choose_throw,
    deal_options,
    show_points,
)
from cribsolve.infra.jit import njit

# a policy is (discard, pegging): discard as values.py's RANDOM, EV, EXPERT; pegging as
# policies.POLICIES
PARTS = ("heels", "dealer_pegging", "pone_pegging", "pone_hand", "dealer_hand", "crib", "pone_crib")


NP = len(PARTS)  # with n players a deal's parts are 3 + 2n (part_count): heels, each
# seat's pegging from the dealer back to seat 0, each seat's hand from
# seat 0 to the dealer, the crib, the pone's crib (two cribs)


# no expert among the players: no tables (roster.expert_tables' pegging tables, throw model and
# memo of first cards)
NO_EXPERT = (np.zeros((2, 0, 1)), np.zeros((0, 1, 1)), np.zeros(0, np.int8))


FREE = np.array([-1, -1, -1, -1])  # play_deal's ``forced``: all throw by their policies
NO_CUT = np.zeros(0, dtype=np.int64)  # play_deal's ``cut``: the cut cards are not wanted


# ... and of a deal: False where the spec has no redraw or bid.
DRAW_ON = BID_ON = True


@njit(cache=True)
def part_count(n):
    """The parts of a deal's points with n players (NP with two)."""
    return 3 + 2 * n


@njit(cache=True)
def trace_length(pr):
    """The length of a deal's trace (pegging.log_points): room for heels, every card and every
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
    """The auction for the crib (draw_and_bid.auction): (its owner's seat, the bid). A random player
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
def play_deal(
    deck, policies, seat_scores, target, table, parts, pr, expert, forced, trace, cut=NO_CUT
):
    """One deal from a shuffled deck: with h = the hand size, seat s gets deck[sh:sh + h]
    (seat 0 the pone, the last seat the dealer); the rest leave the deck as needed: the crib's
    card (three players), a first cut card (seen before the throw), redraws (before and after
    the throw, the pone first), the last cut card. policies[seat] = (discard, pegging);
    expert: roster.expert_tables (the pegging policy picks its table); forced[seat]: the
    option of deal_options that seat throws, or -1 for its policy's. Points go into
    seat_scores (one per side, pegging.side), parts (NP) and, heels and the play in order,
    ``trace`` (pegging.log_points); the pone's cut cards (the starter) into ``cut`` where
    given, for a game's record of its deals. Returns the side that reached ``target`` (0: play
    the whole deal; two cribs always plays it), or -1."""
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
                expert[0][int(is_expert(policies[seat, 1]))],
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
    if cut.shape[0]:
        cut[:] = cuts[0]
    return count_deal(
        hands,
        cribs,
        cuts,
        owner,
        price,
        policies[:, 1].copy(),
        known,
        seat_scores,
        target,
        table,
        parts,
        pr,
        expert,
        trace,
    )


@njit(cache=True)
def count_deal(
    hands,
    cribs,
    cuts,
    owner,
    price,
    pegging,
    known,
    seat_scores,
    target,
    table,
    parts,
    pr,
    expert,
    trace,
):
    """The rest of a deal once the throws are made (play_deal; the expert's board plays out
    its throws from here): a jack turned (not a given cut card), the play by the ``pegging``
    policies, the hands and the cribs (cribs[seat]: CRIB_SIZE cards, then room for the cut
    cards; cuts[seat]: those seat counts with). Returns as play_deal, whose ``target`` is 0
    under two cribs."""
    seats = pr[PLAYERS]
    dealer = seats - 1
    k = hands.shape[1]
    ns = pr[STARTERS]
    two = pr[TWO_CRIBS]
    if not pr[CHOOSE_CUT] and _heels(cuts[0, ns - 1], parts, seat_scores, target, pr, trace):
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
        pegging,
        known,
        pegged,
        seat_scores,
        target,
        pr,
        trace,
        expert[1],
        expert[2],
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
