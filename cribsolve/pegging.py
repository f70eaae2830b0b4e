"""The play (pegging), RULES.md §3: what each card laid scores, and a whole play of 4 + 4 cards.

Cards are laid alternately, the pone first, never past 31. A player who cannot lay says go;
the other keeps laying while cards fit. The last card of a series scores 1 (31 scores 2 and
includes it); the count resets and the player who did not lay the last card leads. A card
scores 2 for making 15; 2, 6 or 12 for completing a pair, three or four of a kind with the
cards just before it; n for completing a run of the last n >= 3 cards of the series, in any
order. The starter takes no part.
"""
import numpy as np
from .jit import njit

from .cards import RANK, VALUE

LIMIT = 31


@njit(cache=True)
def card_points(series, n, count):
    """Points for the last of the n ranks in ``series`` (the current series), the count
    including it. 31's own 2 is here; the 1 for a go or last card is the caller's."""
    pts = 0
    if count == 15:
        pts += 2
    if count == LIMIT:
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
def legal(hand, used, count):
    """Whether any unused card of ``hand`` fits under the limit."""
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= LIMIT:
            return True
    return False


RANDOM, GREEDY, LOOKAHEAD = 0, 1, 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "lookahead": LOOKAHEAD}
DANGER = (5, 21)        # counts from which a ten-card makes 15 or 31 for the opponent
PLAYOUTS = 48           # opponent holdings sampled per card by the look-ahead policy


@njit(cache=True)
def _safety(count, card):
    """Tie-break for equal points: avoid leaving 5 or 21, and avoid leading a 5."""
    v = VALUE[RANK[card]]
    s = 0.0
    if count + v == 5 or count + v == 21:
        s -= 1.0
    if count == 0 and v == 5:
        s -= 0.5
    return s


@njit(cache=True)
def greedy_choice(hand, used, series, n, count):
    """The legal card that scores most now, ties broken toward safer counts."""
    best = -1e9
    pick = -1
    for i in range(hand.shape[0]):
        if used[i] or count + VALUE[RANK[hand[i]]] > LIMIT:
            continue
        series[n] = RANK[hand[i]]
        v = card_points(series, n + 1, count + VALUE[RANK[hand[i]]]) + 0.1 * _safety(count, hand[i])
        if v > best:
            best = v
            pick = i
    return pick


@njit(cache=True)
def _random_choice(hand, used, count):
    k = 0
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= LIMIT:
            k += 1
    j = np.random.randint(k)
    for i in range(hand.shape[0]):
        if not used[i] and count + VALUE[RANK[hand[i]]] <= LIMIT:
            if j == 0:
                return i
            j -= 1
    return -1


# The state of a play between cards: st = [cards in the series, count, player to lay, player
# who laid last]; players are 0 (pone, who leads) and 1 (dealer).
N, COUNT, TURN, LAST = range(4)


@njit(cache=True)
def _award(p, pts, points, scores, target):
    points[p] += pts
    scores[p] += pts
    return 0 < target <= scores[p]


@njit(cache=True)
def settle(hands, used, st, points, scores, target):
    """Deal with goes and last cards until someone can lay. Returns (player to lay, or -1 when
    the play is over; the player who reached ``target`` meanwhile, or -1)."""
    while True:
        left = 0
        for p in range(2):
            for i in range(4):
                left += not used[p, i]
        turn = st[TURN]
        if left == 0:
            if st[COUNT] > 0:                     # the last card of all, under 31
                st[COUNT] = 0
                if _award(st[LAST], 1, points, scores, target):
                    return -1, st[LAST]
            return -1, -1
        if legal(hands[turn], used[turn], st[COUNT]):
            return turn, -1
        if legal(hands[1 - turn], used[1 - turn], st[COUNT]):
            st[TURN] = 1 - turn                   # go: the other keeps laying
            return 1 - turn, -1
        last = st[LAST]                           # nobody can lay: 1 for the go
        st[N] = 0
        st[COUNT] = 0
        st[TURN] = 1 - last
        if _award(last, 1, points, scores, target):
            return -1, last


@njit(cache=True)
def lay(hands, used, series, st, i, points, scores, target, known):
    """The player to lay lays hands[turn, i]; returns True if that reached ``target``."""
    turn = st[TURN]
    c = hands[turn, i]
    used[turn, i] = True
    known[1 - turn, c] = True
    st[COUNT] += VALUE[RANK[c]]
    series[st[N]] = RANK[c]
    st[N] += 1
    pts = card_points(series, st[N], st[COUNT])
    st[LAST] = turn
    st[TURN] = 1 - turn
    if st[COUNT] == LIMIT:                        # 31 ends the series (its 2 include the go)
        st[N] = 0
        st[COUNT] = 0
    return pts > 0 and _award(turn, pts, points, scores, target)


@njit(cache=True)
def play(hands, used, series, st, policies, known, points, scores, target):
    """Play out the rest of a play; points[p] and scores[p] grow as cards score, stopping the
    moment a score reaches ``target`` (0: never). Returns that player, or -1.
    ``known[p, card]``: the cards player p has seen (the look-ahead samples the rest)."""
    while True:
        p, winner = settle(hands, used, st, points, scores, target)
        if p < 0:
            return winner
        if policies[p] == GREEDY:
            i = greedy_choice(hands[p], used[p], series, st[N], st[COUNT])
        elif policies[p] == LOOKAHEAD:
            i = lookahead_choice(hands, used, series, st, known)
        else:
            i = _random_choice(hands[p], used[p], st[COUNT])
        if lay(hands, used, series, st, i, points, scores, target, known):
            return p


@njit(cache=True)
def expected_pegging(hands, used, series, st, known, i, playouts):
    """Mean pegging points (mine, theirs) over the rest of the play if the player to lay lays
    hands[turn, i]: the opponent's unplayed cards are drawn ``playouts`` times from the cards
    this player has not seen, then both sides play greedily."""
    me = st[TURN]
    opp = 1 - me
    unseen = np.flatnonzero(~known[me, :52])
    total = np.zeros(2)
    for _ in range(playouts):
        h, u, s, t, kn = hands.copy(), used.copy(), series.copy(), st.copy(), known.copy()
        draw = np.random.permutation(unseen)
        j = 0
        for q in range(4):
            if not u[opp, q]:
                h[opp, q] = draw[j]
                j += 1
        pts = np.zeros(2, dtype=np.int64)
        sc = np.zeros(2, dtype=np.int64)
        lay(h, u, s, t, i, pts, sc, 0, kn)
        while True:
            p, _ = settle(h, u, t, pts, sc, 0)
            if p < 0:
                break
            lay(h, u, s, t, greedy_choice(h[p], u[p], s, t[N], t[COUNT]), pts, sc, 0, kn)
        total[0] += pts[me]
        total[1] += pts[opp]
    return total[0] / playouts, total[1] / playouts


@njit(cache=True)
def lookahead_choice(hands, used, series, st, known):
    """The legal card with the best expected pegging margin (mine - theirs) over the rest of
    the play (expected_pegging, PLAYOUTS draws); ties go to the safer count."""
    me = st[TURN]
    best = -1e9
    pick = -1
    for i in range(4):
        if used[me, i] or st[COUNT] + VALUE[RANK[hands[me, i]]] > LIMIT:
            continue
        mine, theirs = expected_pegging(hands, used, series, st, known, i, PLAYOUTS)
        v = mine - theirs + 0.01 * _safety(st[COUNT], hands[me, i])
        if v > best:
            best = v
            pick = i
    return pick


def best_play(hand, played, count: int, seen=(), playouts: int = 4000, seed: int = 0):
    """Every legal card for the player to lay, best expected pegging margin first:
    [(card, E[my points], E[their points])] over the rest of the play.

    hand: my unplayed cards; played: every card laid in this play so far, in order (the
    current series is the tail that sums to ``count``); seen: other cards I know (my discards,
    the starter). The opponent laid the last card, and holds 4 minus the cards it has laid.
    """
    from .cards import CardError, format_card

    hand, played, seen = [list(map(int, x)) for x in (hand, played, seen)]
    if not 1 <= len(hand) <= 4:
        raise CardError("give 1 to 4 cards in hand")
    everything = hand + played + seen
    if len(set(everything)) != len(everything) or any(c >= 52 for c in everything):
        raise CardError("a card is given twice (or is a joker)")
    mine_played = 4 - len(hand)
    theirs_left = 4 - (len(played) - mine_played)
    if not 0 <= theirs_left <= 4 or len(played) < mine_played:
        raise CardError("the cards played do not fit two hands of 4 with this hand")
    series, total = [], 0
    for c in reversed(played):
        if total >= count:
            break
        total += int(VALUE[RANK[c]])
        series.insert(0, int(RANK[c]))
    if total != count or not 0 <= count < LIMIT:
        raise CardError(f"the count {count} is not the sum of the last cards played")
    if not legal(np.array(hand), np.zeros(len(hand), dtype=np.bool_), count):
        raise CardError("no card in hand fits under 31: that is a go")
    hands = np.zeros((2, 4), dtype=np.int64)
    used = np.ones((2, 4), dtype=np.bool_)
    hands[0, :len(hand)] = hand
    used[0, :len(hand)] = False
    used[1, :theirs_left] = False
    known = np.zeros((2, 53), dtype=np.bool_)
    known[0, everything] = True
    ser = np.zeros(8, dtype=np.int64)
    ser[:len(series)] = series
    st = np.array([len(series), count, 0, 1 if played else -1], dtype=np.int64)
    _seed(seed)
    out = []
    for i, c in enumerate(hand):
        if count + VALUE[RANK[c]] <= LIMIT:
            mine, theirs = expected_pegging(hands, used, ser, st, known, i, playouts)
            out.append((format_card(c), mine, theirs))
    return sorted(out, key=lambda t: -(t[1] - t[2]))


@njit(cache=True)
def _seed(seed):
    np.random.seed(seed)
