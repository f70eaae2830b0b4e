"""The play (pegging; docs/RULES.md §3, its house rules §5, more players §8): what each card laid
scores, the engine's kernels of a whole play (settle, lay), and ``PlayState``, the same rules
for the readers of a written play (best-play, the replay, the referee). The house rules come
in ``pr``, a spec's integer form (spec.py), so one kernel plays every variant.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_card
from cribsolve.games.cribbage.rules.spec import (
    DECKS,
    FIVE_CARD,
    JOKERS,
    LOWBALL,
    PARTNERS,
    PEG_LIMIT,
    PLAYERS,
    STINKHOLE,
    TARGET,
    CribbageSpec,
)
from cribsolve.infra.jit import njit

STANDARD = CribbageSpec().as_array()

# The kernels of each card laid make no arrays and are compiled without numba's reference
# counts (_nrt=False): counting the hands' rows they are passed cost a fifth of a greedy play,
# which the expert's board plays 256 times a throw near the end.


@njit(cache=True, _nrt=False)  # at every node of the searches: no reference counts
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
        lo, hi = 99, -1
        seen = 0
        run = 0
        for i in range(n - 1, -1, -1):  # the last n - i ranks, back to the first repeat
            r = series[i]
            if seen >> r & 1:
                break
            seen |= 1 << r
            lo = min(lo, r)
            hi = max(hi, r)
            if n - i >= 3 and hi - lo == n - i - 1:
                run = n - i  # the longest run so far
        pts += run
    return pts


@njit(cache=True, _nrt=False)
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
# who laid last]; seats are 0 (pone, the dealer's left, who leads) to the dealer, the last.
N, COUNT, TURN, LAST = range(4)


@njit(cache=True)
def side(p, pr):
    """The score seat p's points go on: its own, or with partners its team's (seats 0 and 2,
    1 and 3)."""
    return p % (2 if pr[PARTNERS] else pr[PLAYERS])


@njit(cache=True, _nrt=False)
def add_points(scores, p, pts, target, pr):
    """Add pts to player p's score and return what was added: nothing, under the stink-hole
    rule, when it would leave the player one point short of ``target`` (the game's end)."""
    if pr[STINKHOLE] and 0 < target and scores[p] + pts == target - 1:
        return 0
    scores[p] += pts
    return pts


@njit(cache=True, _nrt=False)
def _award(p, pts, points, scores, target, pr):
    s = side(p, pr)
    points[p] += add_points(scores, s, pts, target, pr)
    return 0 < target <= scores[s]


@njit(cache=True, _nrt=False)
def settle(hands, used, st, points, scores, target, pr):
    """Deal with goes and last cards until someone can lay: the turn goes round to the next
    player who can. Returns (player to lay, or -1 when the play is over; the player who
    reached ``target`` meanwhile, or -1). The five-card game's play ends with its first
    series."""
    seats = hands.shape[0]
    while True:
        if pr[FIVE_CARD] and st[LAST] >= 0 and st[COUNT] == 0:
            used[:] = True  # one series only: the rest are not laid
            return -1, -1
        left = 0
        for p in range(seats):
            for i in range(hands.shape[1]):
                left += not used[p, i]
        turn = st[TURN]
        if left == 0:
            if st[COUNT] > 0:  # the last card of all, under 31
                st[COUNT] = 0
                if _award(st[LAST], 1, points, scores, target, pr):
                    return -1, st[LAST]
            return -1, -1
        for k in range(seats):  # go: the next who can keeps laying
            q = (turn + k) % seats
            if legal(hands[q], used[q], st[COUNT], pr[PEG_LIMIT]):
                st[TURN] = q
                return q, -1
        last = st[LAST]  # nobody can lay: 1 for the go
        st[N] = 0
        st[COUNT] = 0
        st[TURN] = (last + 1) % seats
        if _award(last, 1, points, scores, target, pr):
            return -1, last


@njit(cache=True, _nrt=False)
def lay(hands, used, series, st, i, points, scores, target, known, pr):
    """The player to lay lays hands[turn, i]; returns True if that reached ``target``."""
    turn = st[TURN]
    c = hands[turn, i]
    used[turn, i] = True
    for q in range(hands.shape[0]):
        if q != turn:
            known[q, c] += 1
    st[COUNT] += VALUE[RANK[c]]
    series[st[N]] = RANK[c]
    st[N] += 1
    pts = card_points(series, st[N], st[COUNT], pr)
    st[LAST] = turn
    st[TURN] = (turn + 1) % hands.shape[0]
    if st[COUNT] == pr[PEG_LIMIT]:  # the limit ends the series (its 2 include the go)
        st[N] = 0
        st[COUNT] = 0
    return pts > 0 and _award(turn, pts, points, scores, target, pr)


MAX_EVENTS = 40  # scoring events one deal may log: heels, every card, every go


@njit(cache=True, _nrt=False)
def log_points(trace, p, pts, seats):
    """Append ``pts`` scored by seat p of ``seats`` to ``trace`` ([events so far, then
    seats * pts + p per event]): the order in which points came, so who reached the game's
    end first is known."""
    if pts > 0:
        trace[0] += 1
        trace[trace[0]] = seats * pts + p


@njit(cache=True)
def seed_kernels(value):
    """Seed the generator the kernels draw from (numba's, not numpy's)."""
    np.random.seed(value)


GO = None  # a "go" in a played sequence


class PlayState:
    """The play between cards, for the readers of a played sequence (best-play's position,
    the replay, the referee): the count, the ranks of the series, whose turn, who laid last,
    who said go, the cards each seat laid. Seats: 0 the pone (the dealer's left), who leads,
    round to the dealer, the last (with two: 1). ``hands[p]``: the cards seat p has still to
    lay where known, else None. A known hand's go is the state's to see (settle); an unknown
    hand's must be said (go), unless it is out of cards or said go already in this series (a
    go holds while the count only rises). The rules are the engine's (settle and lay above)."""

    def __init__(self, spec, hands=None):
        self.seats = spec.players
        self.kept, self.limit, self.pr = spec.kept, spec.peg_limit, spec.as_array()
        self.one_series = spec.five_card
        hands = [None] * self.seats if hands is None else hands
        self.hands = [None if h is None else [int(c) for c in h] for h in hands]
        self.laid = [[] for _ in range(self.seats)]
        self.last, self.over = -1, False
        self._reset(0)

    def _reset(self, leader: int) -> None:
        self.count, self.series, self.turn = 0, [], leader
        self.said = [False] * self.seats

    def after(self, p: int) -> int:
        """The seat after seat p."""
        return (p + 1) % self.seats

    def fits(self, card) -> bool:
        return self.count + int(VALUE[RANK[card]]) <= self.limit

    def out(self, p: int) -> bool:
        """Seat p has no card left to lay."""
        return len(self.laid[p]) == self.kept or self.hands[p] == []

    def can_lay(self, p: int):
        """Whether seat p can lay now: True, False, or None where its hand is unknown."""
        if self.out(p) or self.said[p]:
            return False
        if self.hands[p] is None:
            return None
        return any(self.fits(c) for c in self.hands[p])

    def _says_go(self, p: int) -> bool:
        """Whether seat p, passed over, says go: unless it said go already in this series, or
        (three or four players) it is out of cards and simply passed; with two, a seat out of
        cards says go too, as the two-player records have always written it."""
        return not self.said[p] and (self.seats == 2 or not self.out(p))

    def settle(self) -> tuple[list, list]:
        """Goes and ends of series until a seat that may lay is to lay, or the play is over:
        (the seats that said go, in order, _says_go; [(seat, points)] for goes and the last
        card)."""
        goes, points = [], []
        while not self.over:
            if self.one_series and self.last >= 0 and self.count == 0:
                self.over = True  # five-card: the rest are not laid
                break
            if all(self.out(p) for p in range(self.seats)):
                if self.count > 0:
                    points.append((self.last, 1))  # the last card of all
                self._reset(self.after(self.last))
                self.over = True
                break
            t = self.turn
            if self.can_lay(t) is not False:
                break
            order = [(t + k) % self.seats for k in range(self.seats)]
            nxt = next(
                (k for k in range(1, self.seats) if self.can_lay(order[k]) is not False), None
            )
            if nxt is not None:  # go: the turn passes round to it
                for p in order[:nxt]:
                    if self.count > 0 and self._says_go(p):
                        goes.append(p)
                        self.said[p] = True
                self.turn = order[nxt]
                break
            goes += [p for p in order if self._says_go(p)]  # nobody can lay
            points.append((self.last, 1))
            self._reset(self.after(self.last))
        return goes, points

    def go_error(self) -> str | None:
        """Why the seat to lay cannot say go now, or None."""
        if self.over:
            return "a go after the last card cannot happen: the last card scores 1 by itself"
        if self.count == 0 or self.said[self.turn] or self.can_lay(self.turn):
            return f"a go at count {self.count} cannot happen there"
        return None

    def go(self) -> tuple[list, list]:
        """The seat to lay says go (go_error first); then settle, whose goes and points it
        returns: where nobody else can lay either, the series ends."""
        self.said[self.turn] = True
        return self.settle()

    def card_error(self, card) -> str | None:
        """Why the seat to lay cannot lay ``card`` now, or None."""
        if self.over:
            return "the play is over" + (
                ": every card is laid"
                if all(self.out(p) for p in range(self.seats))
                else " (one series in five-card)"
            )
        if not self.fits(card):
            return f"{format_card(card)} does not fit: the count is {self.count}"
        if self.out(self.turn):
            return f"a hand holds only {self.kept} cards"
        return None

    def lay(self, card) -> int:
        """The seat to lay lays ``card`` (card_error first); returns its points (15s, pairs,
        runs and the limit's 2; a go's or last card's 1 comes from settle or go)."""
        p, card = self.turn, int(card)
        if self.hands[p] is not None:
            self.hands[p].remove(card)
        self.laid[p].append(card)
        self.count += int(VALUE[RANK[card]])
        self.series.append(int(RANK[card]))
        pts = int(
            card_points(
                np.array(self.series, dtype=np.int64), len(self.series), self.count, self.pr
            )
        )
        self.last, self.turn = p, self.after(p)
        if self.count == self.limit:  # the limit ends the series
            self._reset(self.after(p))
        return pts
