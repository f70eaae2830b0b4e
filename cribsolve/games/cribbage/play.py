"""The play (pegging), docs/RULES.md §3: what each card laid scores, and a whole play of the
cards both players kept (4 + 4 in the standard game).

Cards are laid alternately, the pone first, never past the peg limit (31). A player who
cannot lay says go; the other keeps laying while cards fit. The last card of a series scores
1 (reaching the limit exactly scores 2 and includes it); the count resets and the player who
did not lay the last card leads. A card scores 2 for making the target sum (15); 2, 6 or 12
for completing a pair, three or four of a kind with the cards just before it; n for completing
a run of the last n >= 3 cards of the series, in any order. The starter takes no part.

The house rules come in ``pr``, a spec's integer form (spec.py): the target sum, the
peg limit and lowball, under which every policy tries to score as little as it can.
"""
import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.games.cribbage.spec import (DECKS, JOKERS, LOWBALL, PEG_LIMIT,
                                           STINKHOLE, TARGET, CribbageSpec)
from cribsolve.infra.jit import njit

STANDARD = CribbageSpec().as_array()


@njit(cache=True)
def card_points(series, n, count, pr):
    """Points for the last of the n ranks in ``series`` (the current series), the count
    including it. The limit's own 2 is here; the 1 for a go or last card is the caller's."""
    pts = 0
    if count == pr[TARGET]:
        pts += 2
    if count == pr[PEG_LIMIT]:
        pts += 2
    k = 1
    while k < n and series[n - 1 - k] == series[n - 1]:
        k += 1
    pts += k * (k - 1)
    if k == 1:  # a run needs distinct ranks, so a pair rules it out
        for length in range(n, 2, -1):
            lo, hi = 99, -1
            seen = 0
            ok = True
            for i in range(n - length, n):
                r = series[i]
                if seen >> r & 1:
                    ok = False
                    break
                seen |= 1 << r
                lo = min(lo, r)
                hi = max(hi, r)
            if ok and hi - lo == length - 1:
                pts += length
                break
    return pts


@njit(cache=True)
def legal(hand, used, count, limit):
    """Whether any unused card of ``hand`` fits under the limit."""
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= limit:
            return True
    return False


@njit(cache=True)
def unseen_cards(seen, pr):
    """The cards of the spec's deck that are not in ``seen`` (copies of each id seen), in id
    order, copies repeated."""
    out = np.empty(52 * pr[DECKS] + pr[JOKERS], dtype=np.int64)
    k = 0
    for c in range(53):
        for _ in range((pr[JOKERS] if c == 52 else pr[DECKS]) - seen[c]):
            out[k] = c
            k += 1
    return out[:k]


@njit(cache=True)
def aim(pr):
    """+1 when points are wanted, -1 under lowball."""
    return -1.0 if pr[LOWBALL] else 1.0


# The state of a play between cards: st = [cards in the series, count, player to lay, player
# who laid last]; players are 0 (pone, who leads) and 1 (dealer).
N, COUNT, TURN, LAST = range(4)


@njit(cache=True)
def add_points(scores, p, pts, target, pr):
    """Add pts to player p's score and return what was added: nothing, under the stink-hole
    rule, when it would leave the player one point short of ``target`` (the game's end)."""
    if pr[STINKHOLE] and 0 < target and scores[p] + pts == target - 1:
        return 0
    scores[p] += pts
    return pts


@njit(cache=True)
def _award(p, pts, points, scores, target, pr):
    points[p] += add_points(scores, p, pts, target, pr)
    return 0 < target <= scores[p]


@njit(cache=True)
def settle(hands, used, st, points, scores, target, pr):
    """Deal with goes and last cards until someone can lay. Returns (player to lay, or -1 when
    the play is over; the player who reached ``target`` meanwhile, or -1)."""
    while True:
        left = 0
        for p in range(2):
            for i in range(hands.shape[1]):
                left += not used[p, i]
        turn = st[TURN]
        if left == 0:
            if st[COUNT] > 0:                     # the last card of all, under 31
                st[COUNT] = 0
                if _award(st[LAST], 1, points, scores, target, pr):
                    return -1, st[LAST]
            return -1, -1
        if legal(hands[turn], used[turn], st[COUNT], pr[PEG_LIMIT]):
            return turn, -1
        if legal(hands[1 - turn], used[1 - turn], st[COUNT], pr[PEG_LIMIT]):
            st[TURN] = 1 - turn                   # go: the other keeps laying
            return 1 - turn, -1
        last = st[LAST]                           # nobody can lay: 1 for the go
        st[N] = 0
        st[COUNT] = 0
        st[TURN] = 1 - last
        if _award(last, 1, points, scores, target, pr):
            return -1, last


@njit(cache=True)
def lay(hands, used, series, st, i, points, scores, target, known, pr):
    """The player to lay lays hands[turn, i]; returns True if that reached ``target``."""
    turn = st[TURN]
    c = hands[turn, i]
    used[turn, i] = True
    known[1 - turn, c] += 1
    st[COUNT] += VALUE[RANK[c]]
    series[st[N]] = RANK[c]
    st[N] += 1
    pts = card_points(series, st[N], st[COUNT], pr)
    st[LAST] = turn
    st[TURN] = 1 - turn
    if st[COUNT] == pr[PEG_LIMIT]:                # the limit ends the series (its 2 include the go)
        st[N] = 0
        st[COUNT] = 0
    return pts > 0 and _award(turn, pts, points, scores, target, pr)


MAX_EVENTS = 40         # scoring events one deal may log: heels, every card, every go


@njit(cache=True)
def log_points(trace, p, pts):
    """Append ``pts`` scored by player p to ``trace`` ([events so far, then 2 * pts + p per
    event]): the order in which points came, so who reached the game's end first is known."""
    if pts > 0:
        trace[0] += 1
        trace[trace[0]] = 2 * pts + p


@njit(cache=True)
def seed_kernels(value):
    """Seed the generator the kernels draw from (numba's, not numpy's)."""
    np.random.seed(value)
