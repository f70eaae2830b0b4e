"""The play (pegging), docs/RULES.md §3: what each card laid scores, and a whole play of the
cards both players kept (4 + 4 in the standard game).

Cards are laid alternately, the pone first, never past the peg limit (31). A player who
cannot lay says go; the other keeps laying while cards fit. The last card of a series scores
1 (reaching the limit exactly scores 2 and includes it); the count resets and the player who
did not lay the last card leads. A card scores 2 for making the target sum (15); 2, 6 or 12
for completing a pair, three or four of a kind with the cards just before it; n for completing
a run of the last n >= 3 cards of the series, in any order. The starter takes no part.

The house rules come in ``pr``, a spec's integer form (variants/spec.py): the target sum, the
peg limit and lowball, under which every policy tries to score as little as it can.
"""
import numpy as np

from .cards import RANK, VALUE
from .jit import njit
from .variants.spec import DECKS, JOKERS, LOWBALL, PEG_LIMIT, STINKHOLE, TARGET, CribbageSpec

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


RANDOM, GREEDY, LOOKAHEAD, EXPERT = 0, 1, 2, 3
POLICIES = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD, "expert": EXPERT}
PLAYOUTS = 48           # opponent holdings sampled per card by the look-ahead policy


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
def _safety(count, card, pr):
    """Tie-break for equal points: avoid leaving a count from which a ten-card makes the
    target or the limit (5 or 21), and avoid leading a card worth target - 10 (a 5)."""
    v = VALUE[RANK[card]]
    s = 0.0
    if count + v == pr[TARGET] - 10 or count + v == pr[PEG_LIMIT] - 10:
        s -= 1.0
    if count == 0 and v == pr[TARGET] - 10:
        s -= 0.5
    return s


@njit(cache=True)
def _aim(pr):
    """+1 when points are wanted, -1 under lowball."""
    return -1.0 if pr[LOWBALL] else 1.0


@njit(cache=True)
def greedy_choice(hand, used, series, n, count, pr):
    """The legal card that scores most now (least, under lowball), ties broken toward safer
    counts (riskier ones under lowball)."""
    best = -1e9
    pick = -1
    for i in range(hand.shape[0]):
        v = VALUE[RANK[hand[i]]]
        if used[i] or count + v > pr[PEG_LIMIT]:
            continue
        series[n] = RANK[hand[i]]
        val = _aim(pr) * (card_points(series, n + 1, count + v, pr)
                          + 0.1 * _safety(count, hand[i], pr))
        if val > best:
            best = val
            pick = i
    return pick


@njit(cache=True)
def _random_choice(hand, used, count, limit):
    k = 0
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= limit:
            k += 1
    j = np.random.randint(k)
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= limit:
            if j == 0:
                return i
            j -= 1
    return -1


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
def _log_new(trace, points, before):
    for q in range(2):
        log_points(trace, q, points[q] - before[q])
        before[q] = points[q]


@njit(cache=True)
def play(hands, used, series, st, policies, known, points, scores, target, pr, trace, shares):
    """Play out the rest of a play; points[p] and scores[p] grow as cards score, stopping the
    moment a score reaches ``target`` (0: never), and each score is logged in ``trace``
    (log_points). Returns that player, or -1. ``known[p, card]``: the copies of each card
    player p has seen (the look-ahead samples the rest); ``shares``: the expert's throw model
    (inference.keep_shares)."""
    before = points.copy()
    while True:
        p, winner = settle(hands, used, st, points, scores, target, pr)
        _log_new(trace, points, before)
        if p < 0:
            return winner
        if policies[p] == GREEDY:
            i = greedy_choice(hands[p], used[p], series, st[N], st[COUNT], pr)
        elif policies[p] == LOOKAHEAD:
            i = lookahead_choice(hands, used, series, st, known, pr)
        elif policies[p] == EXPERT:
            i = pegsearch.expert_choice(hands, used, series, st, known, pr, shares)
        else:
            i = _random_choice(hands[p], used[p], st[COUNT], pr[PEG_LIMIT])
        won = lay(hands, used, series, st, i, points, scores, target, known, pr)
        _log_new(trace, points, before)
        if won:
            return p


@njit(cache=True)
def expected_pegging(hands, used, series, st, known, i, playouts, pr):
    """Mean pegging points (mine, theirs) over the rest of the play if the player to lay lays
    hands[turn, i]: the opponent's unplayed cards are drawn ``playouts`` times from the cards
    this player has not seen, then both sides play greedily."""
    me = st[TURN]
    opp = 1 - me
    unseen = unseen_cards(known[me], pr)
    total = np.zeros(2)
    for _ in range(playouts):
        h, u, s, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        draw = np.random.permutation(unseen)
        j = 0
        for q in range(hands.shape[1]):
            if not u[opp, q]:
                h[opp, q] = draw[j]
                j += 1
        pts = np.zeros(2, dtype=np.int64)
        sc = np.zeros(2, dtype=np.int64)
        lay(h, u, s, t, i, pts, sc, 0, kn, pr)
        while True:
            p, _ = settle(h, u, t, pts, sc, 0, pr)
            if p < 0:
                break
            lay(h, u, s, t, greedy_choice(h[p], u[p], s, t[N], t[COUNT], pr), pts, sc, 0, kn,
                pr)
        total[0] += pts[me]
        total[1] += pts[opp]
    return total[0] / playouts, total[1] / playouts


@njit(cache=True)
def lookahead_choice(hands, used, series, st, known, pr):
    """The legal card with the best expected pegging margin (mine - theirs; the reverse under
    lowball) over the rest of the play (expected_pegging, PLAYOUTS draws); ties go to the
    safer count."""
    me = st[TURN]
    best = -1e9
    pick = -1
    for i in range(hands.shape[1]):
        if used[me, i] or st[COUNT] + VALUE[RANK[hands[me, i]]] > pr[PEG_LIMIT]:
            continue
        mine, theirs = expected_pegging(hands, used, series, st, known, i, PLAYOUTS, pr)
        v = _aim(pr) * (mine - theirs + 0.01 * _safety(st[COUNT], hands[me, i], pr))
        if v > best:
            best = v
            pick = i
    return pick


@njit(cache=True)
def _seed(seed):
    np.random.seed(seed)


# the expert's search builds on this module; imported last, as a module, so either may load first
from . import pegsearch  # noqa: E402
